//! `gpgpu-repro bench`: the device's own limits, measured clpeak-style, and the bound they put
//! on every timed kernel.
//!
//! # What is measured (one file per kind of measurement)
//! - [`memory`]: SSBO bandwidth in compute shaders — read (each invocation sums `READS`
//!   elements, neighbouring invocations reading neighbouring elements), write, copy — over
//!   `vec4` (16 B) and `dvec4` (32 B) elements; upload (`glBufferSubData`, `glTexSubImage2D`)
//!   and readback (`glGetBufferSubData`, `glGetTexImage`) bandwidth.
//! - [`texture`]: texture-fetch bandwidth of a fragment pass (RGBA32F and R32F, rectangle and
//!   2D, consecutive and strided fetches), render-target write bandwidth (RGBA32F, R32F) and
//!   `glCopyTexSubImage2D` bandwidth; and the same consecutive RGBA32F fetch from a compute
//!   dispatch (`texelFetch` in, `imageStore` out), the compute pipeline's other road to
//!   memory. Mesa 22.3's llvmpipe runs shader-storage loads lane by lane and texel fetches as
//!   vector gathers, so there the texture path is the faster way for compute to read. The
//!   compute roof is the best of all compute rows, so that an SSBO kernel is read against
//!   what compute can reach.
//! - [`flops`]: fp32 and fp64 FMA throughput in compute and fragment shaders: two independent
//!   unrolled chains `x ← a·x + b` per invocation, `a`, `b` uniforms (nothing folds), the sum
//!   written (nothing is dead code).
//! - [`fixed`]: fixed costs — an empty draw with a framebuffer switch, an empty dispatch with
//!   its barrier, a `glFinish` round trip.
//!
//! Every result is read back and compared with a CPU reference in f64
//! ([`crate::util::max_rel_error`]); a measurement whose check fails keeps its error but no
//! value. Times are `glFinish`-bracketed medians of [`crate::gl::timing::measure_gpu`]; a
//! timed run repeats the kernel `reps` times, `reps` chosen from one calibration run so that
//! a run lasts at least [`Settings::min_run_ms`] (the same code fills a 2-core llvmpipe and
//! a large GPU).
//!
//! # Units
//! Bandwidth `B / t` in GB/s (10⁹ bytes per second), `B` the bytes read plus written by one
//! kernel; throughput `F / t` in GFLOPS, an FMA counting 2 flops; fixed costs in µs per
//! operation.
//!
//! # The bound of a kernel ([`bound`])
//! For a kernel that moves `B` bytes, does `F₃₂` and `F₆₄` flops in `P` passes and `D`
//! dispatches: `t ≥ max(B / BW_kind, F₃₂ / peak₃₂_kind, F₆₄ / peak₆₄_kind, P·t_draw + D·t_dispatch)`,
//! with `BW_kind` the best bandwidth measured in the kernel's pipeline (fragment or compute;
//! compute: SSBO or texture path).
//! The roofline ([`mod@roofline`]) draws the same limits against operational intensity `F / B`.

pub mod bound;
pub mod fixed;
pub mod flops;
pub mod memory;
pub mod profile;
pub mod roofline;
pub mod texture;

use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use bound::{Bound, Kind, Limiter, Work};
pub use memory::{Bandwidth, ssbo_stream_bandwidth};
pub use profile::{DeviceProfile, Limits, Measurement};
pub use roofline::{Pipeline, RooflinePoint, roofline};
pub use texture::texture_read_bandwidth;

use crate::gl::timing::{TimingPlan, measure_gpu};
use crate::gl::{Gl, GlError, Timing};
use crate::report::load::{LoadSource, QuietPolicy, RunLoad, Snapshot, THRESHOLD};

/// Why `bench` (or a bound) failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", .path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error(transparent)]
    Plot(#[from] crate::report::plot::PlotError),
    #[error("invalid work for a bound: {0}")]
    Work(String),
    /// A full bench refused on a busy machine (nothing written).
    #[error(transparent)]
    Noisy(#[from] crate::report::load::NoisyError),
}

/// Sizes and repetitions of one `bench` run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// `quick` or `full`.
    pub mode: &'static str,
    /// Elements of 16 bytes in each SSBO (the `dvec4` runs use the same byte count).
    pub buffer_bytes: usize,
    /// Side of the square textures and render targets.
    pub texture_side: u32,
    /// Invocations (compute) of the FMA kernels; the fragment pass uses a square of as many.
    pub fma_threads: u32,
    /// Operations per timed run of a fixed-cost measurement.
    pub fixed_ops: u32,
    /// A timed run repeats its kernel until it lasts at least this long (from a calibration run).
    pub min_run_ms: f64,
    pub timing: TimingPlan,
}

impl Settings {
    /// `--quick`: under 30 s on a 2-core llvmpipe machine.
    pub fn quick() -> Settings {
        Settings {
            mode: "quick",
            buffer_bytes: 16 << 20,
            texture_side: 1024,
            fma_threads: 1 << 16,
            fixed_ops: 200,
            min_run_ms: 10.0,
            timing: TimingPlan::new(1, 5, Duration::from_millis(400)),
        }
    }
    /// The full run.
    pub fn full() -> Settings {
        Settings {
            mode: "full",
            buffer_bytes: 64 << 20,
            texture_side: 2048,
            fma_threads: 1 << 18,
            fixed_ops: 1000,
            min_run_ms: 50.0,
            timing: TimingPlan::new(2, 11, Duration::from_secs(3)),
        }
    }
    pub fn new(quick: bool) -> Settings {
        if quick { Self::quick() } else { Self::full() }
    }
}

/// Where `bench` writes `device.json` unless told: beside the report `reproduce` writes.
pub fn default_path(quick: bool) -> PathBuf {
    PathBuf::from(if quick { "figures/quick" } else { "figures" }).join("device.json")
}

/// Measures every limit of the device behind `gl` (progress bar on stderr), writes the
/// profile as JSON to `out` and returns it; `Display` of the profile is the table.
///
/// First the machine's load is sampled under `quiet` ([`crate::report::load`]): on a busy
/// machine a full bench waits for quiet and then refuses ([`BenchError::Noisy`], nothing
/// written) unless told to go on; the profile records the load before and during the bench
/// and the measurements taken while the machine was noisy.
pub fn run(
    gl: &Gl,
    quick: bool,
    out: &std::path::Path,
    quiet: &QuietPolicy,
) -> Result<DeviceProfile, BenchError> {
    let gate = quiet.check(&mut |line| eprintln!("{line}"))?;
    let settings = Settings::new(quick);
    let mut profile = measure(gl, &settings, true)?;
    if matches!(quiet.source, LoadSource::Off) {
        profile.machine = None;
    } else if let Some(m) = profile.machine.as_mut() {
        let gated = RunLoad::from_gate(&gate);
        (m.before, m.waited_s, m.ran_noisy) = (gated.before, gated.waited_s, gated.ran_noisy);
    }
    profile.save(out)?;
    Ok(profile)
}

/// A measurement to make: its key and the function that makes it.
type Step<'a> = (String, Box<dyn Fn() -> Result<Measurement, GlError> + 'a>);

/// Makes every measurement of [`Settings`]; `progress` shows a bar on stderr.
pub fn measure(gl: &Gl, s: &Settings, progress: bool) -> Result<DeviceProfile, BenchError> {
    let t0 = Instant::now();
    let mut steps: Vec<Step> = Vec::new();
    memory::steps(gl, s, &mut steps);
    texture::steps(gl, s, &mut steps);
    flops::steps(gl, s, &mut steps);
    fixed::steps(gl, s, &mut steps);
    let bar = if progress {
        indicatif::ProgressBar::new(steps.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("bench {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut rows = Vec::with_capacity(steps.len());
    // The machine's load over the whole bench and over each measurement.
    let first = Snapshot::now();
    let mut noisy = Vec::new();
    for (key, step) in &steps {
        bar.set_message(key.clone());
        let before = Snapshot::now();
        // A measurement that cannot be made on this device is a row with the reason.
        let m = step().unwrap_or_else(|e| Measurement::failed(key, &e.to_string()));
        if let (Some(a), Some(b)) = (before, Snapshot::now())
            && b.since(&a, THRESHOLD).is_some_and(|l| l.noisy)
        {
            noisy.push(key.clone());
        }
        rows.push(m);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut profile =
        DeviceProfile::new(gl.info().clone(), s.mode, t0.elapsed().as_secs_f64(), rows);
    profile.machine = first.map(|a| RunLoad {
        during: Snapshot::now().and_then(|b| b.since(&a, THRESHOLD)),
        noisy_parts: noisy,
        ..RunLoad::default()
    });
    if let Some(m) = profile.machine.as_ref().filter(|m| m.noisy()) {
        eprintln!(
            "warning: bench measured while the machine was noisy ({} of {} measurements: {}){}",
            m.noisy_parts.len(),
            profile.measurements.len(),
            m.noisy_parts_short(4),
            m.during
                .as_ref()
                .map(|d| format!("; over the bench: {}", d.describe()))
                .unwrap_or_default()
        );
    }
    Ok(profile)
}

/// Times `kernel` (one call = one kernel, `glFinish` around each timed run): a calibration
/// run picks how many calls a timed run makes so that it lasts at least `s.min_run_ms`.
/// Returns the timing of one run and the calls per run.
pub(crate) fn time_kernel(
    gl: &Gl,
    s: &Settings,
    mut kernel: impl FnMut() -> Result<(), GlError>,
) -> Result<(Timing, u32), GlError> {
    let once = measure_gpu(gl, TimingPlan::once(), &mut kernel)?;
    let reps = if once.median_ms > 0.0 {
        (s.min_run_ms / once.median_ms).ceil().clamp(1.0, 4096.0) as u32
    } else {
        4096
    };
    let t = measure_gpu(gl, s.timing, || {
        for _ in 0..reps {
            kernel()?;
        }
        Ok(())
    })?;
    Ok((t, reps))
}

/// `[x, y, 1]` work groups of 256 covering `n` invocations (x at most 65535).
pub(crate) fn groups_256(n: usize) -> [u32; 3] {
    let g = n.div_ceil(256).max(1) as u32;
    [g.min(65535), g.div_ceil(65535), 1]
}
