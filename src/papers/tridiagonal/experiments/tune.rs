//! Tuning of the compute CR and PCR (beyond the paper): before Fig. 11, each sweeps its
//! invocations per work group over `[tune] local` on one heat batch of `[tune] grid` (the
//! grid where Fig. 11 compares the compute CR with the paper's fragment CR), timed as Fig. 11
//! times them ([`time_solver`]: median of `glFinish`-bracketed solves on a systems texture
//! already on the GPU) and verified against Thomas in f64. The fastest verified size of each
//! runs in Fig. 11 and the sweep (clamped per system size as the solvers clamp it: CR to
//! half the padded length, PCR to the padded length); every candidate is a row of the
//! `tuning` table ([`crate::runner::tuning`]). The paper's fragment CR has no such parameter.

use serde::{Deserialize, Serialize};

use super::{DIRECT_TOL, GridData, alg, positive_f32, repeat, time_solver};
use crate::papers::tridiagonal::compute::{ComputeCr, ComputePcr, clamped_local};
use crate::papers::tridiagonal::{BatchSolver, TridiagonalError};
use crate::runner::tuning::Trial;
use crate::runner::{PerMode, Repeat, RunError, Session};

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TuneConfig {
    /// The N×N grid (N systems of N − 1 unknowns) every candidate is timed on.
    pub grid: PerMode<u32>,
    /// Candidate invocations per work group.
    pub local: Vec<usize>,
    #[serde(deserialize_with = "positive_f32")]
    heat_r: f32,
    #[serde(deserialize_with = "repeat")]
    repeat: Repeat,
}

/// The work-group sizes Fig. 11 and the sweep build the compute solvers with: `[CR, PCR]`.
pub(super) type Tuned = [usize; 2];

/// A compute solver (`pcr`: PCR, else CR) with `local` invocations per group, finite check
/// off (as every timed solver).
pub(super) fn compute_solver(
    gl: &crate::gl::Gl,
    n: usize,
    batch: usize,
    pcr: bool,
    local: usize,
) -> Result<Box<dyn BatchSolver>, TridiagonalError> {
    Ok(if pcr {
        let mut s = ComputePcr::with_options(gl, n, batch, None, local)?;
        s.set_check_finite(false);
        Box::new(s)
    } else {
        let mut s = ComputeCr::with_options(gl, n, batch, None, local)?;
        s.set_check_finite(false);
        Box::new(s)
    })
}

pub(super) fn run(s: &Session, c: &TuneConfig) -> Result<Tuned, RunError> {
    if c.local.is_empty() || c.local.contains(&0) {
        return Err(RunError::Config {
            file: s.file().to_string(),
            message: format!("tune.local = {:?}: give sizes ≥ 1", c.local),
        });
    }
    let g = *c.grid.pick(s.mode) as usize;
    let (n, batch) = (g - 1, g);
    let mut data = None;
    let mut tuner = s.tuner(c)?;
    let mut tuned = [0; 2];
    for (pcr, kernel) in [(false, "CR compute"), (true, "PCR compute")] {
        // Sizes the solver would clamp to the same launch are timed once, under the size
        // that runs.
        let mut candidates: Vec<(String, usize)> = Vec::new();
        for &l in &c.local {
            let e = clamped_local(n, pcr, l);
            if !candidates.iter().any(|&(_, x)| x == e) {
                candidates.push((format!("local={e}"), e));
            }
        }
        let sizes: Vec<usize> = candidates.iter().map(|&(_, e)| e).collect();
        tuner.caption(format!(
            "{kernel}: invocations per work group ∈ {sizes:?} (`[tune] local` = {:?} as the \
             solver clamps it at {n} unknowns), timed on the {g}×{g} heat batch as Fig. 11 \
             times it.",
            c.local
        ));
        tuned[pcr as usize] = tuner.pick(
            s,
            kernel,
            &format!("{g}×{g}"),
            &candidates,
            DIRECT_TOL,
            |&l| {
                let d = GridData::get(&mut data, &s.gl, (n, batch), c.heat_r, 9000 + g as u64)?;
                let mut solver = compute_solver(&s.gl, n, batch, pcr, l).map_err(alg)?;
                let m = time_solver(&s.gl, solver.as_mut(), &d.tex, &d.want, &c.repeat)?;
                let error = m.err.map_err(|e| RunError::algorithm(Failed(e)))?;
                Ok(Trial {
                    ms: m.ms,
                    runs: m.runs,
                    error,
                    work: m.work.map(|w| w.1).unwrap_or_default(),
                })
            },
        )?;
    }
    tuner.finish()?;
    s.note(format!(
        "Tuned on this device at {g}×{g} (the `tuning` table): CR compute with {} and PCR \
         compute with {} invocations per work group; Fig. 11 and the sweep use these.",
        tuned[0], tuned[1]
    ));
    Ok(tuned)
}

/// A candidate's solve failed.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Failed(String);
