//! The device a run measures: its results folder ([`device_folder`]) and its limits, read
//! from `device.json` or measured by `bench` (`device_profile`).

use std::path::Path;

use crate::bench::DeviceProfile;
use crate::gl::{DeviceInfo, Gl};
use crate::mode::Mode;
use crate::report::files::DEVICE_JSON;

use super::error::RunError;

/// The device's limits the bound columns are read against: `dir/device.json` when it was
/// measured on this device (a full profile serves a quick run too, not the other way round;
/// [`Profile::Reused`]), else measured now by `bench` in the run's mode and saved there
/// ([`measure_profile`]). `None` (with a warning) when `bench` itself fails: the run goes on
/// without bounds; an interrupted bench ends the run ([`RunError::Interrupted`]).
pub(super) fn device_profile(gl: &Gl, dir: &Path, mode: Mode) -> Result<Option<Profile>, RunError> {
    let path = dir.join(DEVICE_JSON);
    if let Ok(p) = DeviceProfile::load(&path)
        && p.device.identity() == gl.info().identity()
        && (p.mode == Mode::Full || mode == Mode::Quick)
    {
        eprintln!(
            "device limits: {} ({} bench of {})",
            path.display(),
            p.mode,
            p.date
        );
        return Ok(Some(Profile::Reused(p)));
    }
    eprintln!("device limits: measuring (bench, {} mode)", mode.name());
    Ok(measure_profile(gl, dir, mode)?.map(Profile::Measured))
}

/// A run's device profile, and whether it was read from an earlier bench or measured now.
pub(super) enum Profile {
    Reused(DeviceProfile),
    Measured(DeviceProfile),
}

/// Measures the device's limits by `bench` in `mode` and saves them as `dir/device.json`;
/// `None` (with a warning) when the bench fails, [`RunError::Interrupted`] when interrupted.
pub(super) fn measure_profile(
    gl: &Gl,
    dir: &Path,
    mode: Mode,
) -> Result<Option<DeviceProfile>, RunError> {
    let measured = crate::bench::measure(gl, &crate::bench::Settings::new(mode), true)
        .and_then(|p| p.save(&dir.join(DEVICE_JSON)).map(|()| p));
    match measured {
        Ok(p) => Ok(Some(p)),
        Err(crate::bench::BenchError::Interrupted) => Err(RunError::Interrupted),
        Err(e) => {
            eprintln!("warning: bench failed ({e}); the tables get no bound columns");
            Ok(None)
        }
    }
}

/// One line of the limits a run's bounds used, for the provenance.
pub(super) fn limits_summary(p: &DeviceProfile) -> String {
    let l = &p.limits;
    let f = |v: Option<f64>, unit: &str| v.map_or("—".to_string(), |v| format!("{v:.3} {unit}"));
    format!(
        "bandwidth fragment {} / compute {}; fp32 fragment {} / compute {}; fp64 fragment {} / \
         compute {}; empty draw {} / dispatch {} (`bench`, {} mode, {}; `{DEVICE_JSON}`)",
        f(l.fragment_gbs, "GB/s"),
        f(l.compute_gbs, "GB/s"),
        f(l.fragment_fp32_gflops, "GFLOPS"),
        f(l.compute_fp32_gflops, "GFLOPS"),
        f(l.fragment_fp64_gflops, "GFLOPS"),
        f(l.compute_fp64_gflops, "GFLOPS"),
        f(l.draw_ms.map(|t| t * 1e3), "µs"),
        f(l.dispatch_ms.map(|t| t * 1e3), "µs"),
        p.mode,
        p.date,
    )
}

/// Sets the between-run terms per limiter the timed intervals of this run include, from the
/// profile's passes and the drift probes' span (`probes`: [`super::drift::span_series`];
/// [`crate::stats::between`]), says which and returns them for the provenance; none without
/// a profile of several passes or probes.
pub(super) fn set_between_run(
    profile: Option<&DeviceProfile>,
    probes: &[(String, Vec<f64>)],
) -> Option<crate::stats::BetweenTerms> {
    let terms = profile
        .map(|p| p.between_terms_over(probes))
        .filter(crate::stats::BetweenTerms::any);
    crate::stats::set_between_terms(terms.clone().unwrap_or_default());
    match &terms {
        Some(t) => eprintln!(
            "intervals include the {} (paired ratios: none)",
            t.describe()
        ),
        None => eprintln!(
            "intervals: no between-run term (no bench profile with two passes or more); each \
             interval is one run's repetitions only"
        ),
    }
    terms
}

/// The folder of full runs' results, one subfolder per device, indexed by its `REPORT.md`.
pub const FIGURES: &str = "figures";

/// The folder name of a device's results: the renderer's name without its parenthesized
/// details, file-system friendly (`NVIDIA H200/PCIe/SSE2` → `nvidia-h200-pcie-sse2`); for a
/// CPU rasterizer the host CPU follows ([`DeviceInfo::identity`]: `llvmpipe (LLVM 15.0.6,
/// 256 bits)` on `AMD EPYC (2 logical CPUs)` → `llvmpipe-amd-epyc-2cpu`).
pub fn device_folder(device: &DeviceInfo) -> String {
    let name = device.renderer.split(" (").next().unwrap_or_default();
    let mut folder = slug(name);
    if device.cpu_rasterizer() {
        let (model, count) = device
            .cpu
            .split_once(" (")
            .unwrap_or((device.cpu.as_str(), ""));
        // Trademarks and generic words carry nothing: `Intel(R) Xeon(R) Processor` → `intel-xeon`.
        let model = ["(R)", "(TM)", "(tm)", " Processor", " CPU"].iter().fold(
            model.split(" @ ").next().unwrap_or(model).to_string(),
            |m, w| m.replace(w, ""),
        );
        let count: String = count.chars().take_while(char::is_ascii_digit).collect();
        let host = slug(&model);
        if !host.is_empty() {
            folder = format!("{folder}-{host}");
        }
        if !count.is_empty() {
            folder = format!("{folder}-{count}cpu");
        }
    }
    if folder.is_empty() {
        "unknown-device".into()
    } else {
        folder
    }
}

/// Lower-case ASCII letters and digits, each run of anything else one `-`.
fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    s.split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::device_folder;
    use crate::gl::DeviceInfo;

    fn device(renderer: &str, software: bool, cpu: &str) -> DeviceInfo {
        DeviceInfo {
            renderer: renderer.into(),
            software,
            cpu: cpu.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_gpu_is_named_by_its_renderer_a_cpu_rasterizer_by_its_host_too() {
        let h200 = device("NVIDIA H200/PCIe/SSE2", false, "AMD EPYC (16 logical CPUs)");
        assert_eq!(device_folder(&h200), "nvidia-h200-pcie-sse2");
        let llvmpipe = "llvmpipe (LLVM 15.0.6, 256 bits)";
        let intel = device(
            llvmpipe,
            true,
            "Intel(R) Xeon(R) Processor (2 logical CPUs)",
        );
        assert_eq!(device_folder(&intel), "llvmpipe-intel-xeon-2cpu");
        let amd = device(llvmpipe, true, "AMD EPYC (2 logical CPUs)");
        assert_eq!(device_folder(&amd), "llvmpipe-amd-epyc-2cpu");
        // A windowed context has no EGL device entry: the renderer's name decides.
        let laptop = device(
            "softpipe",
            false,
            "Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz (8 logical CPUs)",
        );
        assert_eq!(device_folder(&laptop), "softpipe-intel-core-i7-8550u-8cpu");
        assert_ne!(intel.identity(), amd.identity());
        assert_eq!(h200.identity(), h200.short());
    }
}
