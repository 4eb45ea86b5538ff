//! The device a run measures: its results folder ([`device_folder`]) and its limits, read
//! from `device.json` or measured by `bench` (`device_profile`).

use std::path::Path;

use crate::bench::DeviceProfile;
use crate::gl::{DeviceInfo, Gl};
use crate::mode::Mode;
use crate::report::files::DEVICE_JSON;

use super::error::RunError;

/// The device's limits the bound columns are read against: `dir/device.json` when it was
/// measured on this device (a full profile serves a quick run too, not the other way round),
/// else measured now by `bench` in the run's mode and saved there. `None` (with a warning)
/// when `bench` itself fails: the run goes on without bounds; an interrupted bench ends the
/// run ([`RunError::Interrupted`]).
pub(super) fn device_profile(
    gl: &Gl,
    dir: &Path,
    mode: Mode,
) -> Result<Option<DeviceProfile>, RunError> {
    let path = dir.join(DEVICE_JSON);
    if let Ok(p) = DeviceProfile::load(&path)
        && p.device.short() == gl.info().short()
        && (p.mode == Mode::Full || mode == Mode::Quick)
    {
        eprintln!(
            "device limits: {} ({} bench of {})",
            path.display(),
            p.mode,
            p.date
        );
        return Ok(Some(p));
    }
    eprintln!("device limits: measuring (bench, {} mode)", mode.name());
    let measured = crate::bench::measure(gl, &crate::bench::Settings::new(mode), true)
        .and_then(|p| p.save(&path).map(|()| p));
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
/// profile's passes ([`crate::stats::between`]), says which and returns them for the
/// provenance; none without a profile of several passes.
pub(super) fn set_between_run(
    profile: Option<&DeviceProfile>,
) -> Option<crate::stats::BetweenTerms> {
    let terms = profile
        .map(DeviceProfile::between_terms)
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
/// details, file-system friendly (`llvmpipe (LLVM 15.0.6, 256 bits)` → `llvmpipe`).
pub fn device_folder(device: &DeviceInfo) -> String {
    let name = device.renderer.split(" (").next().unwrap_or_default();
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        "unknown-device".into()
    } else {
        slug
    }
}
