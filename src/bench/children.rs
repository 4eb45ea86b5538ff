//! The bench's passes in child processes (`gpgpu-repro bench --pass K`), each a process of its
//! own, and the fixed costs and host transfers in the parent between them.

use super::driver::{Ran, Shares, Step, run_passes_of};
use super::error::{BenchError, interrupted};
use super::settings::Settings;
use super::{DeviceProfile, fixed, memory};
use crate::gl::Gl;
use crate::mode::Mode;

/// The command line that runs one pass of a bench in a process of its own (`gpgpu-repro
/// --device D`, to which `bench --pass K …` is added), set once by the program
/// ([`passes_in_processes`]). Unset (a library user, the tests), every pass runs in the
/// calling process.
static PASS_COMMAND: std::sync::OnceLock<Vec<std::ffi::OsString>> = std::sync::OnceLock::new();

/// The pass command set by [`passes_in_processes`], if any.
pub(super) fn command() -> Option<&'static Vec<std::ffi::OsString>> {
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

/// [`super::driver`]'s passes with each pass in a child process (`command bench --pass K`), and after
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
pub(super) fn passes_in_children(
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
