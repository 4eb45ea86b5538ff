//! One timed solver ([`Measured`]): verified once against its f64 reference, then timed
//! (alone, or in rounds with CPU Thomas f32 for a paired ratio); CPU Thomas f32's own time;
//! the roofline name of a solver's kernel.

use crate::bench::Work;
use crate::gl::measure::{measure_cpu, measure_gpu, once_cpu, once_gpu};
use crate::gl::timing::rounds;
use crate::gl::{Gl, Texture};
use crate::papers::tridiagonal::batch::BatchSolver;
use crate::papers::tridiagonal::cpu::{Systems, thomas_batch_f32};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::runner::{Repeat, RunError};
use crate::stats::max_rel_error;

/// Tolerance of a direct solve (CR, PCR, Thomas f32) against Thomas f64: the heat systems
/// have condition number below 1 + 4r = 5, so an f32 solve is good to ~10 ulps; 1e-4 leaves
/// room for q = 11 levels and still catches any indexing mistake.
pub(super) const DIRECT_TOL: f64 = 1e-4;

/// A solver's error as the runner reports it.
pub(super) fn alg(e: TridiagonalError) -> RunError {
    RunError::algorithm(e)
}

/// One timed solver: median ms, runs, error against the reference.
pub(super) struct Measured {
    pub(super) ms: f64,
    pub(super) runs: usize,
    /// The timed runs (empty where the row was not timed).
    pub(super) timing: crate::gl::Timing,
    pub(super) err: Result<f64, String>,
    /// The kernel's roofline name and the work of one timed run (GPU solvers).
    pub(super) work: Option<(String, Work)>,
    /// time / CPU Thomas f32's time, from rounds that time both interleaved (paired).
    pub(super) ratio: Option<crate::stats::Estimate>,
}

/// Verifies one solve of `solver` against `want`, then times `solve` (finite check off).
pub(super) fn time_solver(
    gl: &Gl,
    solver: &mut dyn BatchSolver,
    tex: &Texture,
    want: &[f64],
    repeat: &Repeat,
    thomas: Option<&Systems>,
) -> Result<Measured, RunError> {
    let err = match solver.solve(tex) {
        Ok(x) => Ok(max_rel_error(&x.read()?, want)),
        Err(e) => Err(e.to_string()),
    };
    if err.is_err() {
        return Ok(Measured {
            ms: f64::NAN,
            runs: 0,
            timing: Default::default(),
            err,
            work: None,
            ratio: None,
        });
    }
    let (t, ratio) = match thomas {
        None => (
            measure_gpu(gl, repeat.plan(), || solver.solve(tex).map(|_| ())).map_err(alg)?,
            None,
        ),
        Some(sys) => {
            // The solver and CPU Thomas f32 in rounds: the ratio is paired.
            let mut x = vec![0f32; sys.n * sys.batch];
            let r = rounds(repeat.plan(), 2, |i| -> Result<f64, RunError> {
                let ((), ms) = if i == 0 {
                    once_gpu(gl, || solver.solve(tex).map(drop))
                } else {
                    once_cpu(|| thomas_batch_f32(sys, &mut x))
                }
                .map_err(alg)?;
                Ok(ms)
            })?;
            (r.timings[0].clone(), r.ratio(0, 1))
        }
    };
    Ok(Measured {
        ms: t.median_ms,
        runs: t.runs,
        timing: t,
        err,
        work: solver.work().map(|w| (kernel_name(solver.name()), w)),
        ratio,
    })
}

/// CPU Thomas f32 on `sys` (one thread, host data, no transfers), the denominator of every
/// ratio in Fig. 11, its sweep and Fig. 9: median time over `repeat`, timed runs, and the
/// error of its solution against `want`.
pub(super) fn time_thomas_cpu(
    sys: &Systems,
    want: &[f64],
    repeat: &Repeat,
) -> Result<Measured, RunError> {
    let mut x = vec![0f32; sys.n * sys.batch];
    thomas_batch_f32(sys, &mut x).map_err(alg)?;
    let err = max_rel_error(&x, want);
    let th = measure_cpu(repeat.plan(), || thomas_batch_f32(sys, &mut x)).map_err(alg)?;
    Ok(Measured {
        ms: th.median_ms,
        runs: th.runs,
        timing: th,
        err: Ok(err),
        work: None,
        ratio: None,
    })
}

/// The roofline's name of a solver's kernel, short enough for the figure: `fragment` and
/// the shared-memory path (the default) are dropped, CG's iteration count too (every n and
/// the converged run are one kernel; its point is the run with the most work), and Fig. 9's
/// untiled batch is the plain switch CR (its tiled batch, whatever the columns, one kernel).
pub(super) fn kernel_name(solver: &str) -> String {
    let s = solver.split(" n=").next().unwrap_or(solver);
    let s = s.strip_suffix(" converged").unwrap_or(s);
    let s = s.strip_suffix(", untiled").unwrap_or(s);
    let s = match s.split_once(", tiled") {
        Some((head, _)) => format!("{head} tiled"),
        None => s.to_string(),
    };
    s.replace("CR fragment ", "CR ")
        .replace("CG fragment ", "CG ")
        .replace(" (shared)", "")
}

#[cfg(test)]
mod tests {
    use super::kernel_name;

    #[test]
    fn kernel_names_group_the_runs_of_one_kernel() {
        for (solver, kernel) in [
            ("CR fragment (copy)", "CR (copy)"),
            ("CR fragment (switch), untiled", "CR (switch)"),
            (
                "CR fragment (switch), tiled (8 columns)",
                "CR (switch) tiled",
            ),
            ("CG fragment scalar n=4", "CG scalar"),
            ("CG fragment RGBA converged", "CG RGBA"),
            ("CR compute (shared)", "CR compute"),
            ("CR compute (passes)", "CR compute (passes)"),
            ("PCR compute (global)", "PCR compute (global)"),
        ] {
            assert_eq!(kernel_name(solver), kernel);
        }
    }
}
