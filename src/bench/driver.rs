//! One bench: its steps (every measurement and its share of the budget), its passes (in this
//! process or in children, [`super::children`]) and the profile they make.

use std::time::{Duration, Instant};

use super::children::{command, passes_in_children};
use super::error::{BenchError, interrupted};
use super::settings::Settings;
use super::{DeviceProfile, Measurement, budget, fixed, flops, memory, passes, texture, warm};
use crate::gl::timing::{TimingPlan, measure_gpu};
use crate::gl::{Gl, GlError, Timing};
use crate::mode::Mode;
use crate::report::load::{LoadSource, QuietPolicy, RunLoad, Snapshot, THRESHOLD};

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
pub(crate) type Step<'a> = (String, Box<dyn Fn() -> Result<Measurement, GlError> + 'a>);

/// Makes every measurement of [`Settings`]; `progress` shows a bar on stderr.
pub fn measure(gl: &Gl, s: &Settings, progress: bool) -> Result<DeviceProfile, BenchError> {
    measure_only(gl, s, progress, None)
}

/// Each row's time share in a pass ([`budget::shares`]), by key.
pub(super) type Shares = Vec<(String, Duration)>;

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
    let ran = match command().filter(|_| standard) {
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
pub(super) struct Ran {
    pub(super) by_step: Vec<Vec<Measurement>>,
    pub(super) noisy: Vec<String>,
    pub(super) warm_up: Vec<warm::WarmUp>,
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
pub(super) fn run_passes_of(
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
