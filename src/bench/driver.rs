//! One bench: its steps (every measurement and its share of the budget), its passes (in this
//! process, or each in a child process of its own: [`passes_in_processes`]) and the profile
//! they make.

use std::time::{Duration, Instant};

use super::error::{BenchError, interrupted};
use super::kernel::Step;
use super::measurement::Measurement;
use super::profile::DeviceProfile;
use super::settings::Settings;
use super::{budget, fixed, flops, memory, passes, texture, warm};
use crate::gl::Gl;
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
    let ran = match command().filter(|_| standard) {
        Some(command) => passes_in_children(gl, command, s, &steps, &shares, only)?,
        None => run_passes(
            gl,
            s,
            &steps,
            &shares,
            0..passes,
            progress,
            "parent",
            &|_| true,
        ),
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
        &|_| true,
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

impl Ran {
    /// What a child process's pass measured (its profile, in one step list).
    fn from_child(p: DeviceProfile) -> Ran {
        Ran {
            by_step: vec![p.measurements],
            noisy: p.machine.map(|m| m.noisy_parts).unwrap_or_default(),
            warm_up: p.warm_up,
        }
    }

    /// Adds `r`'s measurements to the steps of `steps` they are of (by key), its noisy keys
    /// not yet listed, and its warm-ups.
    fn merge(&mut self, r: Ran, steps: &[Step]) {
        for m in r.by_step.into_iter().flatten() {
            if let Some(i) = steps.iter().position(|(key, _)| *key == m.key) {
                self.by_step[i].push(m);
            }
        }
        for key in r.noisy {
            if !self.noisy.contains(&key) {
                self.noisy.push(key);
            }
        }
        self.warm_up.extend(r.warm_up);
    }
}

/// Each step's measurements in `passes` (each pass in [`passes::order`], after a warm-up:
/// [`warm`]), in `process` (`parent` or `child`, for the warm-up's record), of the steps whose
/// key `pick` accepts (the others get no measurement; `&|_| true`: every step).
/// Each step runs on its row clock ([`budget::start_row`] with its share).
#[allow(clippy::too_many_arguments)]
fn run_passes(
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

/// The command line that runs one pass of a bench in a process of its own (`gpgpu-repro
/// --device D`, to which `bench --pass K …` is added), set once by the program
/// ([`passes_in_processes`]). Unset (a library user, the tests), every pass runs in the
/// calling process.
static PASS_COMMAND: std::sync::OnceLock<Vec<std::ffi::OsString>> = std::sync::OnceLock::new();

/// The pass command set by [`passes_in_processes`], if any.
fn command() -> Option<&'static Vec<std::ffi::OsString>> {
    PASS_COMMAND.get()
}

/// From now on a bench of [`Settings::quick`] or [`Settings::full`] runs each of its passes
/// in a child process started with `command` followed by `bench --pass K --out FILE …`
/// ([`super::passes`]: some states last as long as the process that met them — of nine quiet
/// full benches in one process each, three read `ssbo.write.f64` at 10.1–10.5 GB/s in all
/// three passes and six at 12.2–12.8, issue 23 — so a pass in a process of its own samples
/// them as a slow spell is sampled by a pass).
pub fn passes_in_processes(command: Vec<std::ffi::OsString>) {
    let _ = PASS_COMMAND.set(command);
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
    let mut add = |r: Ran| ran.merge(r, steps);
    let passes = s.passes.max(1);
    if children {
        // The host transfers once more here, before the first pass (see above).
        add(run_passes(
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
            add(Ran::from_child(child_pass(
                program, args, s, pass, only, false,
            )?));
        }
        let in_parent = |key: &str| fixed::is_fixed_cost(key) || memory::is_transfer(key);
        add(run_passes(
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
            Ok(p) => add(Ran::from_child(p)),
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
