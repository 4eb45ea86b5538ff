//! Where a run's time goes (`reproduce --profile`, issue 41): the last warm-up run of each
//! timed variant is profiled — every GL pass it makes bracketed by `glFinish` on both sides
//! and timed by the CPU clock, as the papers timed whole runs ([`super::timing`]).
//!
//! A *pass* is one `glDispatchCompute` (named by its compute shader), one draw (named by its
//! fragment shader), one `glCopyTexSubImage2D`, or one upload or read-back of a texture or
//! buffer. GL timer queries are not used: on llvmpipe `GL_TIME_ELAPSED` returns far less than
//! a pass takes, and a profile must read the same on every driver.
//!
//! The profiled run is a warm-up ([`super::timing::repeat`], [`super::timing::rounds`]):
//! untimed, and its results count nowhere a warm-up's would not, so the `glFinish` between
//! passes — which removes the overlap of one pass's tail with the next pass's set-up, and on
//! a GPU the pipelining of small passes — never reaches a timed number, and profiling adds no
//! run. What it costs is said beside the profile: the run's wall time profiled against the
//! sum of its passes (the rest: the CPU's work between passes, the finishes themselves). A row
//! timed with no warm-up has no profile; with one warm-up, its profile includes what a first
//! run pays (the driver's first use of a shader). Runs with no GL pass (CPU baselines) leave
//! none. Off (the default), each pass pays one thread-local read.

use std::cell::RefCell;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::context::Gl;

/// One kind of pass of a profiled run: how often it ran and the time it took in all.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassTime {
    /// The shader file (`matmul/blocked.comp`), or `copy`, `upload`, `read-back`.
    pub pass: String,
    pub calls: u64,
    pub ms: f64,
}

/// One profiled run of one variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunProfile {
    /// The variant's index among those timed together ([`super::timing::rounds`]); `None` for
    /// a row timed alone ([`super::timing::repeat`]).
    pub variant: Option<usize>,
    /// The profiled run's wall time (passes, the CPU's work between them, the finishes).
    pub wall_ms: f64,
    /// Its passes, the longest first.
    pub passes: Vec<PassTime>,
}

impl RunProfile {
    /// The time of all passes together.
    pub fn passes_ms(&self) -> f64 {
        self.passes.iter().map(|p| p.ms).sum()
    }
}

#[derive(Default)]
struct State {
    on: bool,
    /// The passes of the run being profiled; `None` outside a profiled run.
    current: Option<Vec<PassTime>>,
    /// Inside a pass (a pass within a pass is the outer one's).
    in_pass: bool,
    done: Vec<RunProfile>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Turns the extra profiled runs on or off for this thread's repetition loops.
pub fn enable(on: bool) {
    STATE.with(|s| s.borrow_mut().on = on);
}

/// Whether the repetition loops make a profiled run after their timed runs.
pub fn enabled() -> bool {
    STATE.with(|s| s.borrow().on)
}

/// Runs `f` as one pass named by `name`: timed between two `glFinish`es inside a profiled
/// run, else just run.
pub(crate) fn pass<T>(gl: &Gl, name: impl FnOnce() -> String, f: impl FnOnce() -> T) -> T {
    let outer = STATE.with(|s| {
        let mut s = s.borrow_mut();
        let outer = s.current.is_some() && !s.in_pass;
        s.in_pass |= outer;
        outer
    });
    if !outer {
        return f();
    }
    gl.finish();
    let t0 = Instant::now();
    let out = f();
    gl.finish();
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.in_pass = false;
        let name = name();
        let passes = s.current.as_mut().expect("inside a profiled run");
        match passes.iter_mut().find(|p| p.pass == name) {
            Some(p) => {
                p.calls += 1;
                p.ms += ms;
            }
            None => passes.push(PassTime {
                pass: name,
                calls: 1,
                ms,
            }),
        }
    });
    out
}

/// Makes one profiled run `f` of `variant` and keeps its profile (for [`take_runs`]) if it
/// succeeded and made a GL pass.
pub fn profiled_run<T, E>(
    variant: Option<usize>,
    f: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    STATE.with(|s| s.borrow_mut().current = Some(Vec::new()));
    let t0 = Instant::now();
    let out = f();
    let wall_ms = t0.elapsed().as_secs_f64() * 1e3;
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let mut passes = s.current.take().unwrap_or_default();
        passes.sort_by(|a, b| b.ms.total_cmp(&a.ms));
        if out.is_ok() && !passes.is_empty() {
            s.done.push(RunProfile {
                variant,
                wall_ms,
                passes,
            });
        }
    });
    out
}

/// The profiles of the runs made since the last call (a table's row claims those made while
/// it was measured).
pub fn take_runs() -> Vec<RunProfile> {
    STATE.with(|s| std::mem::take(&mut s.borrow_mut().done))
}

/// Hands `runs` back, to be claimed by the next row written: a table that times several
/// rows in one set of rounds gives each row its own variant's run this way.
pub fn give(runs: Vec<RunProfile>) {
    STATE.with(|s| s.borrow_mut().done.extend(runs));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profiled_run_sums_its_passes_by_name_and_a_run_outside_records_nothing() {
        let gl =
            crate::gl::egl::headless(&crate::gl::egl::DeviceSelector::Auto).expect("a GL context");
        // Outside a profiled run: the pass just runs.
        assert_eq!(pass(&gl, || "x".into(), || 7), 7);
        assert!(take_runs().is_empty());
        let r = profiled_run(Some(1), || {
            for _ in 0..3 {
                pass(
                    &gl,
                    || "a.comp".into(),
                    || {
                        // a pass within a pass is the outer one's
                        pass(&gl, || "inner".into(), || ());
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    },
                );
            }
            pass(&gl, || "upload".into(), || ());
            Ok::<_, ()>(5)
        });
        assert_eq!(r, Ok(5));
        let runs = take_runs();
        assert_eq!(runs.len(), 1);
        let p = &runs[0];
        assert_eq!(p.variant, Some(1));
        let names: Vec<&str> = p.passes.iter().map(|p| p.pass.as_str()).collect();
        assert_eq!(names, ["a.comp", "upload"]);
        assert_eq!(p.passes[0].calls, 3);
        assert!(p.passes[0].ms >= 6.0, "{p:?}");
        assert!(p.wall_ms >= p.passes_ms());
        // A failed run leaves no profile.
        let _ = profiled_run(None, || Err::<(), _>(()));
        assert!(take_runs().is_empty());
    }
}
