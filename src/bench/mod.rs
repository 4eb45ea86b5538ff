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
//! - [`flops`]: fp32 and fp64 FMA throughput in compute and fragment shaders: 2, 4 and 8
//!   independent unrolled chains `x ← a·x + b` per invocation (the fastest kept, so that the
//!   rate is throughput, not latency), `a`, `b` uniforms (nothing folds), the sums stored
//!   (nothing is dead code).
//! - [`fixed`]: fixed costs — an empty draw with a framebuffer switch, an empty dispatch with
//!   its barrier, a `glFinish` round trip.
//!
//! Every bandwidth kernel is **swept** over its working set ([`sweep`]): from cache-resident
//! sizes to far beyond the last cache; its row's value is the plateau at the large sizes
//! (the memory roof), its `peak` the fastest size, its `cache` the levels above the plateau.
//!
//! # Time
//! The bench settles within a budget ([`Settings::budget`], [`budget`] states the model):
//! each row has a share of it, the same in every pass; its timing plans are cut to what is
//! left of the share, and its sweep grows to a larger size only if that size is predicted to
//! fit. The sizes a sweep could not reach are in its row ([`Measurement::unreached`]), and a
//! plateau read before the ladder's planned end is a cache's ([`Measurement::left_caches`],
//! [`AccessRoof::cache_only`]). Each pass starts on a warm device ([`warm`]: a timed kernel
//! until two runs agree within 2 %), recorded in the profile.
//!
//! Every result is read back and compared with a CPU reference in f64
//! ([`crate::util::max_rel_error`]); a measurement whose check fails keeps its error but no
//! value. Times are `glFinish`-bracketed runs of [`crate::gl::timing::measure_gpu`] (adaptive
//! until the median's 95 % interval is narrow or the budget is spent); a timed run repeats
//! the kernel `reps` times, `reps` chosen from one calibration run so that a run lasts at
//! least [`Settings::min_run_ms`]. A value is the **best** run (the least time,
//! BabelStream's rule: a roof is what the device can reach, and other processes can only
//! lengthen a run); the JSON keeps every run and the median's interval. A fixed cost makes
//! many short runs instead, a fixed count ([`Settings::fixed_timing`], [`fixed`] says why).
//! The whole bench runs in [`Settings::passes`] passes, each row the best of its passes
//! ([`passes`]: a slow spell of the host lasts longer than one measurement, not than a pass);
//! run by the program, each pass is a process of its own ([`passes_in_processes`]: some
//! states of the host last as long as the process that met them).
//!
//! # Units
//! Bandwidth `B / t` in GB/s (10⁹ bytes per second), `B` the bytes read plus written by one
//! kernel; throughput `F / t` in GFLOPS, an FMA counting 2 flops; fixed costs in µs per
//! operation.
//!
//! # The bound of a kernel ([`bound`])
//! For a kernel that moves `B_a` bytes of each access kind `a`, does `F₃₂` and `F₆₄` flops in
//! `P` passes and `D` dispatches:
//! `t ≥ max(max_a B_a / BW_a, F₃₂ / peak₃₂_kind, F₆₄ / peak₆₄_kind, P·t_draw + D·t_dispatch)`,
//! with `BW_a` the peak of access kind `a` over the sweep ([`bound`] says why the peak and
//! why the maximum over kinds).
//! The roofline ([`mod@roofline`]) draws the pipelines' memory roofs against operational
//! intensity `F / B`.

pub mod affinity;
pub mod bound;
pub mod budget;
pub mod fixed;
pub mod flops;
pub mod ladder;
pub mod memory;
pub mod passes;
pub mod profile;
pub mod roofline;
pub mod sweep;
pub mod texture;
pub mod warm;

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The work model and the bound are plain data below the bench and the report
/// ([`crate::work`]); re-exported here beside the limits that bound them.
pub use crate::work::{Access, Bound, Bytes, Kind, Limiter, OVER_BOUND, Work};
pub use memory::{Bandwidth, ssbo_stream_bandwidth};
pub use profile::{AccessRoof, DeviceProfile, Limits, Measurement};
pub use roofline::{Pipeline, RooflinePoint, roofline};
pub use texture::{FetchPass, texture_read_bandwidth};

use crate::gl::timing::{TimingPlan, measure_gpu};
use crate::gl::{Gl, GlError, Timing};
use crate::mode::Mode;
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
    /// Stopped by Ctrl-C or SIGTERM ([`interrupt`]): no profile is written.
    #[error("the bench was interrupted (Ctrl-C or SIGTERM); no profile was written")]
    Interrupted,
}

/// Set by [`interrupt`]: the bench stops before its next measurement.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Stops a bench in progress (the program's Ctrl-C / SIGTERM handler calls it): it makes no
/// further measurement, stops its child pass, writes no profile and returns
/// [`BenchError::Interrupted`]. A measurement under way finishes first (a few seconds).
pub fn interrupt() {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
}

fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Sizes and repetitions of one `bench` run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub mode: Mode,
    /// The smallest array of a bandwidth sweep ([`sweep`]), bytes.
    pub sweep_from: usize,
    /// Where a sweep's ladder ends on a GPU, bytes (a software renderer uses 16× the largest
    /// CPU cache instead, [`Settings::ladder_end`]).
    pub buffer_bytes: usize,
    /// The largest array a sweep may use, bytes (the device's limits cap it further).
    pub sweep_cap: usize,
    /// Invocations (compute) of the FMA kernels; the fragment pass uses a square of as many.
    pub fma_threads: u32,
    /// Operations per timed run of a fixed-cost measurement.
    pub fixed_ops: u32,
    /// The runs of a fixed-cost measurement: many short ones, a fixed count (its value is
    /// the best run, so the stop rule on the median's interval does not apply;
    /// [`fixed`]'s module docs say why many).
    pub fixed_timing: TimingPlan,
    /// A timed run repeats its kernel until it lasts at least this long (from a calibration run).
    pub min_run_ms: f64,
    pub timing: TimingPlan,
    /// Passes over all measurements; a row keeps the best of its passes ([`passes`]).
    pub passes: u32,
    /// What the bench's rows may spend, all passes together ([`budget`]: shared out to the
    /// rows; the warm-ups, process starts, extra transfer moments and the fixed costs' pass
    /// on one CPU come on top, each bounded on its own).
    pub budget: Duration,
    /// [`Settings::budget`] on a software renderer ([`Settings::budget_for`]).
    pub software_budget: Duration,
    /// Where a software renderer's ladder ends at the latest (its sweep's end is 16× the
    /// CPU's largest cache within this, [`Settings::ladder_end`]).
    pub software_cap: usize,
    /// The longest warm-up before a pass ([`warm`]).
    pub warm_cap: Duration,
}

impl Settings {
    /// `--quick`: two passes within a 50 s budget ([`budget`]); on a GPU the sweep's ladder
    /// ends at 256 MiB (past an H200's 60 MB L2, which the 64 MiB end of the rule before
    /// this one did not leave: issue 36), on a software renderer at 64 MiB at the latest.
    pub fn quick() -> Settings {
        Settings {
            mode: Mode::Quick,
            sweep_from: 1 << 20,
            buffer_bytes: 256 << 20,
            sweep_cap: 256 << 20,
            fma_threads: 1 << 16,
            fixed_ops: 100,
            fixed_timing: TimingPlan::fixed(3, 60, Duration::from_millis(600)),
            min_run_ms: 10.0,
            timing: TimingPlan::new(1, 5, Duration::from_millis(150)).adaptive(0.03, 15),
            passes: 2,
            budget: Duration::from_secs(50),
            software_budget: Duration::from_secs(50),
            software_cap: 64 << 20,
            warm_cap: Duration::from_secs(2),
        }
    }
    /// The full run: three passes within a 75 s budget on a GPU (issue 36 asks ≤ 90 s on an
    /// H100/H200, all included: within a 60 s budget the H200's sweeps ended inside its L2,
    /// the roofs a cache's, with time to spare), 240 s on a software renderer (whose sweeps reach 512 MiB
    /// at memory rates of a few GB/s; the rule before this one took 375 s on this
    /// project's 2-core llvmpipe machine, `figures/llvmpipe/device.json`).
    pub fn full() -> Settings {
        Settings {
            mode: Mode::Full,
            sweep_from: 512 << 10,
            buffer_bytes: 256 << 20,
            sweep_cap: 2 << 30,
            fma_threads: 1 << 18,
            fixed_ops: 100,
            fixed_timing: TimingPlan::fixed(3, 200, Duration::from_millis(2000)),
            min_run_ms: 20.0,
            timing: TimingPlan::new(1, 5, Duration::from_millis(400)).adaptive(0.02, 25),
            passes: 3,
            budget: Duration::from_secs(75),
            software_budget: Duration::from_secs(240),
            software_cap: 2 << 30,
            warm_cap: Duration::from_secs(3),
        }
    }
    /// The budget of a bench on the device behind `gl`: [`Settings::software_budget`] on a
    /// software renderer, else [`Settings::budget`].
    pub fn budget_for(&self, gl: &Gl) -> Duration {
        if gl.info().software {
            self.software_budget
        } else {
            self.budget
        }
    }
    pub fn new(mode: Mode) -> Settings {
        match mode {
            Mode::Quick => Self::quick(),
            Mode::Full => Self::full(),
        }
    }
    /// Where every sweep's ladder ends: its first size at or past this, within `cap`
    /// ([`sweep`]). On a software renderer 16× the largest CPU cache (the caches of that
    /// device; 4× was not past them on this project's machine, where with a 32 MiB cache
    /// 128 MiB still wrote `target.rgba32f` at twice the rate of 512 MiB) within
    /// [`Settings::software_cap`], else [`Settings::buffer_bytes`] (256 MiB: 5× the H100's
    /// 50 MB L2, 4× the H200's 60 MB). How far a sweep gets within its time is
    /// [`budget`]'s.
    pub fn ladder_end(&self, gl: &Gl, cap: usize) -> usize {
        let cpu = 16 * sweep::largest_cpu_cache();
        let end = if gl.info().software && cpu > 0 {
            cpu.min(self.software_cap)
        } else {
            self.buffer_bytes
        };
        end.min(cap)
    }
    /// The largest SSBO a sweep may use: [`Settings::sweep_cap`] within
    /// `GL_MAX_SHADER_STORAGE_BLOCK_SIZE`.
    pub fn ssbo_cap(&self, gl: &Gl) -> usize {
        let max = usize::try_from(gl.info().max_ssbo_bytes.max(0)).unwrap_or(usize::MAX);
        self.sweep_cap.min(if max == 0 { usize::MAX } else { max })
    }
    /// The largest square texture of `texel` bytes a sweep may use: within
    /// `GL_MAX_TEXTURE_SIZE` and `GL_MAX_RECTANGLE_TEXTURE_SIZE`.
    pub fn texture_cap(&self, gl: &Gl, texel: usize) -> usize {
        let i = gl.info();
        let side = i.max_texture_size.min(i.max_rectangle_texture_size).max(8) as usize;
        self.sweep_cap.min(side * side * texel)
    }
}

/// Where `bench` writes `device.json` unless told: beside the report `reproduce` writes.
pub fn default_path(mode: Mode) -> PathBuf {
    PathBuf::from(match mode {
        Mode::Quick => "figures/quick",
        Mode::Full => "figures",
    })
    .join("device.json")
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
    mode: Mode,
    out: &std::path::Path,
    quiet: &QuietPolicy,
    only: Option<&str>,
) -> Result<DeviceProfile, BenchError> {
    let gate = quiet.check(&mut |line| eprintln!("{line}"))?;
    let settings = Settings::new(mode);
    let mut profile = measure_only(gl, &settings, true, only)?;
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

/// The command line that runs one pass of a bench in a process of its own (`gpgpu-repro
/// --device D`, to which `bench --pass K …` is added), set once by the program
/// ([`passes_in_processes`]). Unset (a library user, the tests), every pass runs in the
/// calling process.
static PASS_COMMAND: std::sync::OnceLock<Vec<std::ffi::OsString>> = std::sync::OnceLock::new();

/// From now on a bench of [`Settings::quick`] or [`Settings::full`] runs each of its passes
/// in a child process started with `command` followed by `bench --pass K --out FILE …`
/// ([`passes`]: some states last as long as the process that met them — of nine quiet
/// full benches in one process each, three read `ssbo.write.f64` at 10.1–10.5 GB/s in all
/// three passes and six at 12.2–12.8, issue 23 — so a pass in a process of its own samples
/// them as a slow spell is sampled by a pass).
pub fn passes_in_processes(command: Vec<std::ffi::OsString>) {
    let _ = PASS_COMMAND.set(command);
}

/// Makes every measurement of [`Settings`]; `progress` shows a bar on stderr.
pub fn measure(gl: &Gl, s: &Settings, progress: bool) -> Result<DeviceProfile, BenchError> {
    measure_only(gl, s, progress, None)
}

/// Each row's time share in a pass ([`budget::shares`]), by key.
type Shares = Vec<(String, Duration)>;

/// The bench's measurements, restricted to the rows whose key contains `only`, and every
/// row's share of the budget (computed from all rows, so that `only` changes no share).
fn steps<'a>(
    gl: &'a Gl,
    s: &'a Settings,
    only: Option<&str>,
) -> Result<(Vec<Step<'a>>, Shares), BenchError> {
    let mut steps: Vec<Step> = Vec::new();
    memory::steps(gl, s, &mut steps);
    texture::steps(gl, s, &mut steps);
    flops::steps(gl, s, &mut steps);
    fixed::steps(gl, s, &mut steps);
    let keys: Vec<&str> = steps.iter().map(|(k, _)| k.as_str()).collect();
    let shares: Shares = budget::shares(s.budget_for(gl), s.passes, &keys)
        .into_iter()
        .zip(&keys)
        .map(|(d, k)| (k.to_string(), d))
        .collect();
    if let Some(only) = only {
        steps.retain(|(key, _)| key.contains(only));
        if steps.is_empty() {
            return Err(BenchError::Work(format!(
                "--only {only}: no bench row's key contains it"
            )));
        }
    }
    Ok((steps, shares))
}

/// [`measure`], restricted to the rows whose key contains `only` (a diagnostic: `bench
/// --only KEY --out FILE` re-measures one roof; such a profile is incomplete, and
/// `reproduce` never reads it because `--only` needs an explicit `--out`).
pub fn measure_only(
    gl: &Gl,
    s: &Settings,
    progress: bool,
    only: Option<&str>,
) -> Result<DeviceProfile, BenchError> {
    let t0 = Instant::now();
    let (steps, shares) = steps(gl, s, only)?;
    let passes = s.passes.max(1);
    // The machine's load over the whole bench and over each measurement.
    let first = Snapshot::now();
    let standard = *s == Settings::new(s.mode);
    let ran = match PASS_COMMAND.get().filter(|_| standard) {
        Some(command) => passes_in_children(gl, command, s, &steps, &shares, only)?,
        None => run_passes(gl, s, &steps, &shares, 0..passes, progress, "parent"),
    };
    let Ran {
        by_step,
        noisy,
        warm_up,
    } = ran;
    if interrupted() {
        return Err(BenchError::Interrupted);
    }
    let rows: Vec<Measurement> = by_step.into_iter().map(passes::row_of).collect();
    let mut profile =
        DeviceProfile::new(gl.info().clone(), s.mode, t0.elapsed().as_secs_f64(), rows);
    profile.budget_s = Some(s.budget_for(gl).as_secs_f64());
    profile.warm_up = warm_up;
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

/// Pass `pass` alone (`bench --pass K`, run by [`measure_only`] in a child process): a
/// profile whose rows are that pass's measurements but the fixed costs; written to `out`.
/// With `one_cpu` (`bench --pass K --one-cpu`, the process kept on one CPU by the caller
/// before its context was made), the fixed costs alone, each row's value also in its
/// [`Measurement::one_cpu`].
pub fn measure_pass(
    gl: &Gl,
    mode: Mode,
    pass: u32,
    only: Option<&str>,
    one_cpu: bool,
    out: &std::path::Path,
) -> Result<DeviceProfile, BenchError> {
    let t0 = Instant::now();
    let s = Settings::new(mode);
    let (mut steps, shares) = steps(gl, &s, only)?;
    // On all CPUs the fixed costs are measured by the process that started this one
    // ([`measure_only`]); on one CPU, here.
    steps.retain(|(key, _)| fixed::is_fixed_cost(key) == one_cpu);
    if steps.is_empty() {
        return Err(BenchError::Work(if one_cpu {
            "bench --pass --one-cpu measures only the fixed costs".into()
        } else {
            "bench --pass measures no fixed cost (its parent process does)".into()
        }));
    }
    let Ran {
        by_step,
        noisy,
        warm_up,
    } = run_passes(
        gl,
        &s,
        &steps,
        &shares,
        pass..pass + 1,
        true,
        if one_cpu { "child, one CPU" } else { "child" },
    );
    let mut rows: Vec<Measurement> = by_step.into_iter().map(passes::best_of).collect();
    if one_cpu {
        for m in &mut rows {
            // (a failed check leaves it `None`: the row then joins the others' passes, and
            // fails with them, `passes::best_of`)
            m.one_cpu = m.value;
        }
    }
    let mut profile =
        DeviceProfile::new(gl.info().clone(), s.mode, t0.elapsed().as_secs_f64(), rows);
    profile.budget_s = Some(s.budget_for(gl).as_secs_f64());
    profile.warm_up = warm_up;
    profile.machine = Some(RunLoad {
        noisy_parts: noisy,
        ..RunLoad::default()
    });
    profile.save(out)?;
    Ok(profile)
}

/// What passes measured: each step's measurements, the keys of those measured while the
/// machine was noisy, and the warm-up before each pass.
#[derive(Default)]
struct Ran {
    by_step: Vec<Vec<Measurement>>,
    noisy: Vec<String>,
    warm_up: Vec<warm::WarmUp>,
}

/// Each step's measurements in `passes` (each pass in [`passes::order`], after a warm-up:
/// [`warm`]), in `process` (`parent` or `child`, for the warm-up's record).
fn run_passes(
    gl: &Gl,
    s: &Settings,
    steps: &[Step],
    shares: &Shares,
    passes: std::ops::Range<u32>,
    progress: bool,
    process: &str,
) -> Ran {
    run_passes_of(gl, s, steps, shares, passes, progress, process, &|_| true)
}

/// [`run_passes`] of the steps whose key `pick` accepts (the others get no measurement).
/// Each step runs on its row clock ([`budget::start_row`] with its share).
#[allow(clippy::too_many_arguments)]
fn run_passes_of(
    gl: &Gl,
    s: &Settings,
    steps: &[Step],
    shares: &Shares,
    passes: std::ops::Range<u32>,
    progress: bool,
    process: &str,
    pick: &dyn Fn(&str) -> bool,
) -> Ran {
    let total = s.passes.max(1);
    let bar = if progress {
        indicatif::ProgressBar::new(steps.len() as u64 * passes.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("bench {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut ran = Ran {
        by_step: vec![Vec::new(); steps.len()],
        ..Ran::default()
    };
    let fixed_costs = steps
        .iter()
        .rev()
        .take_while(|(key, _)| fixed::is_fixed_cost(key))
        .count();
    let share = |key: &str| {
        shares
            .iter()
            .find(|(k, _)| k == key)
            .map_or(Duration::ZERO, |(_, d)| *d)
    };
    for pass in passes {
        if steps.iter().any(|(key, _)| pick(key)) && !interrupted() {
            bar.set_message(format!("warm-up (pass {} of {total})", pass + 1));
            ran.warm_up.push(warm::warm_up(gl, s, pass, process));
        }
        for i in passes::order(pass, steps.len(), fixed_costs) {
            let (key, step) = &steps[i];
            if !pick(key) {
                continue;
            }
            if interrupted() {
                // (the caller sees the flag and returns BenchError::Interrupted)
                return ran;
            }
            bar.set_message(format!("{key} (pass {} of {total})", pass + 1));
            let before = Snapshot::now();
            // A measurement that cannot be made on this device is a row with the reason.
            budget::start_row(share(key));
            let m = step().unwrap_or_else(|e| Measurement::failed(key, &e.to_string()));
            budget::end_row();
            if let (Some(a), Some(b)) = (before, Snapshot::now())
                && b.since(&a, THRESHOLD).is_some_and(|l| l.noisy)
                && !ran.noisy.contains(key)
            {
                ran.noisy.push(key.clone());
            }
            ran.by_step[i].push(m);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    ran
}

/// [`run_passes`] with each pass in a child process (`command bench --pass K`), and after
/// each the fixed costs of that pass in this process: the measurements of every pass by
/// step, and the keys any pass measured while noisy.
///
/// The fixed costs stay in the process that runs the papers' tables (the same one under
/// `reproduce`), which is what they bound: in three quiet full benches whose child
/// processes measured them too, an empty draw read 7.7 µs in two of the nine passes
/// (36.1–57.4 µs in the other seven, and 50.7–73.1 in the 27 passes of nine earlier benches
/// run in one process), a state of those processes that the tables' rows never saw.
///
/// The host transfers (`upload.*`, `readback.*`: a memcpy on llvmpipe) are measured in the
/// child passes and, in this process, before the first pass and after each, so that their
/// best is taken over `2·passes + 1` moments of the bench: the host's memory bandwidth on a
/// shared machine has slow spells of seconds to tens of seconds (five `bench --only
/// readback` runs back to back, seconds apart: best `readback.texture` 15.2, 11.5, 11.1,
/// 12.7, 12.7 GB/s; its passes 11.0–11.5 through two whole runs), and with three
/// moments `readback.texture` moved by 12.9 % between quiet full benches (issue 23).
///
/// Last, the fixed costs once more in a child process kept on one CPU (`bench --pass K
/// --one-cpu`): their floor, the driver's work without a hand-off between CPUs
/// ([`fixed`]'s "The floor"). A child that cannot keep to one CPU is a warning, not an
/// error: the fixed costs are then those of all CPUs.
fn passes_in_children(
    gl: &Gl,
    command: &[std::ffi::OsString],
    s: &Settings,
    steps: &[Step],
    shares: &Shares,
    only: Option<&str>,
) -> Result<Ran, BenchError> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| BenchError::Work("empty pass command".into()))?;
    let children = steps.iter().any(|(key, _)| !fixed::is_fixed_cost(key));
    let mut ran = Ran {
        by_step: vec![Vec::new(); steps.len()],
        ..Ran::default()
    };
    let mut add = |r: Ran| {
        for m in r.by_step.into_iter().flatten() {
            if let Some(i) = steps.iter().position(|(key, _)| *key == m.key) {
                ran.by_step[i].push(m);
            }
        }
        for key in r.noisy {
            if !ran.noisy.contains(&key) {
                ran.noisy.push(key);
            }
        }
        ran.warm_up.extend(r.warm_up);
    };
    let from_child = |p: DeviceProfile| Ran {
        by_step: vec![p.measurements],
        noisy: p.machine.map(|m| m.noisy_parts).unwrap_or_default(),
        warm_up: p.warm_up,
    };
    let passes = s.passes.max(1);
    if children {
        // The host transfers once more here, before the first pass (see above).
        add(run_passes_of(
            gl,
            s,
            steps,
            shares,
            passes..passes + 1,
            false,
            "parent, before the passes",
            &memory::is_transfer,
        ));
    }
    for pass in 0..passes {
        if interrupted() {
            return Err(BenchError::Interrupted);
        }
        if children {
            add(from_child(child_pass(program, args, s, pass, only, false)?));
        }
        let in_parent = |key: &str| fixed::is_fixed_cost(key) || memory::is_transfer(key);
        add(run_passes_of(
            gl,
            s,
            steps,
            shares,
            pass..pass + 1,
            false,
            "parent",
            &in_parent,
        ));
    }
    // The fixed costs once more, in a child process kept on one CPU (see above).
    if steps.iter().any(|(key, _)| fixed::is_fixed_cost(key)) {
        match child_pass(program, args, s, passes, only, true) {
            Ok(p) => add(from_child(p)),
            Err(BenchError::Interrupted) => return Err(BenchError::Interrupted),
            Err(e) => eprintln!(
                "warning: the fixed costs were not measured on one CPU ({e}); \
                 they are those of all CPUs"
            ),
        }
    }
    if let Some(i) = ran.by_step.iter().position(Vec::is_empty) {
        return Err(BenchError::Work(format!(
            "the bench's passes measured no `{}`",
            steps[i].0
        )));
    }
    Ok(ran)
}

/// Pass `pass` in a child process (`program args bench --pass K --out FILE`, with
/// `--one-cpu` where `one_cpu`): its profile.
fn child_pass(
    program: &std::ffi::OsString,
    args: &[std::ffi::OsString],
    s: &Settings,
    pass: u32,
    only: Option<&str>,
    one_cpu: bool,
) -> Result<DeviceProfile, BenchError> {
    let file = std::env::temp_dir().join(format!(
        "gpgpu-repro-bench-{}-pass{pass}.json",
        std::process::id()
    ));
    let mut child = std::process::Command::new(program);
    child
        .args(args)
        .arg("bench")
        .arg("--pass")
        .arg(pass.to_string());
    child.arg("--out").arg(&file);
    if s.mode == Mode::Quick {
        child.arg("--quick");
    }
    if let Some(only) = only {
        child.arg("--only").arg(only);
    }
    if one_cpu {
        child.arg("--one-cpu");
    }
    let io = |e| BenchError::Io {
        path: program.into(),
        source: e,
    };
    // Waits for the pass, and stops it on an interrupt of this process (a terminal's Ctrl-C
    // reaches the child too; a signal sent to this process alone does not).
    let mut running = child.spawn().map_err(io)?;
    let status = loop {
        if let Some(status) = running.try_wait().map_err(io)? {
            break status;
        }
        if interrupted() {
            let _ = running.kill();
            let _ = running.wait();
            let _ = std::fs::remove_file(&file);
            return Err(BenchError::Interrupted);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    if interrupted() {
        let _ = std::fs::remove_file(&file);
        return Err(BenchError::Interrupted);
    }
    if !status.success() {
        return Err(BenchError::Work(format!(
            "pass {} of the bench, in a child process, failed ({status})",
            pass + 1
        )));
    }
    let p = DeviceProfile::load(&file);
    let _ = std::fs::remove_file(&file);
    p
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
    // Within what is left of the row's time share ([`budget`]; one run at least).
    let t = measure_gpu(gl, budget::clip(s.timing), || {
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
