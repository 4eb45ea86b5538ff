//! Tuning of the compute CR, PCR and CR passes (beyond the paper): before Fig. 11, each
//! sweeps its invocations per work group over `[tune] local` on one heat batch of
//! `[tune] grid` (the grid where Fig. 11 compares the compute CR with the paper's fragment
//! CR), timed in rounds ([`crate::runner::tuning::Tuner::pick_interleaved`]: every
//! candidate once per round, `glFinish`-bracketed solves on a systems texture already on the
//! GPU) and verified against Thomas in f64. The fastest verified size of each, judged on the
//! rounds' paired ratios (else the smallest of the tied), runs in Fig. 11 and the sweep
//! (clamped per system size as the solvers
//! clamp it: CR to half the padded length, PCR to the padded length, the passes to the
//! batch); every candidate is a row of the `tuning` table ([`crate::runner::tuning`]). The
//! paper's fragment CR has no such parameter.

use serde::{Deserialize, Serialize};

use std::cell::RefCell;
use std::rc::Rc;

use super::grid::GridData;
use super::keys::positive_f32;
use super::measure::{DIRECT_TOL, alg};
use crate::papers::tridiagonal::batch::BatchSolver;
use crate::papers::tridiagonal::compute::{
    ComputeCr, ComputeCrPasses, ComputePcr, DEFAULT_LOCAL, clamped_local,
};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::runner::tuning::Candidate;
use crate::runner::{PerMode, Repeat, RunError, Session};
use crate::stats::max_rel_error;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TuneConfig {
    /// The N×N grid (N systems of N − 1 unknowns) every candidate is timed on.
    pub grid: PerMode<u32>,
    /// Candidate invocations per work group.
    pub local: Vec<usize>,
    #[serde(deserialize_with = "positive_f32")]
    heat_r: f32,
    repeat: Repeat,
}

/// The compute solvers tuned here, in [`Tuned`]'s order: CR and PCR (one work group per
/// system) and the CR passes (one dispatch per level, a work group of systems).
pub(super) const KERNELS: [&str; 3] = ["CR compute", "PCR compute", "CR compute (passes)"];

/// The work-group sizes Fig. 11 and the sweep build the compute solvers with, in
/// [`KERNELS`]' order.
pub(super) type Tuned = [usize; 3];

/// The work-group sizes without tuning (tables whose compute rows are skipped).
pub(super) const UNTUNED: Tuned = [DEFAULT_LOCAL[0], DEFAULT_LOCAL[1], 64];

/// Compute solver `KERNELS[kernel]` with `local` invocations per work group, finite check
/// off (as every timed solver).
pub(super) fn compute_solver(
    gl: &crate::gl::Gl,
    n: usize,
    batch: usize,
    kernel: usize,
    local: usize,
) -> Result<Box<dyn BatchSolver>, TridiagonalError> {
    let mut s: Box<dyn BatchSolver> = match kernel {
        0 => Box::new(ComputeCr::with_options(gl, n, batch, None, local)?),
        1 => Box::new(ComputePcr::with_options(gl, n, batch, None, local)?),
        _ => Box::new(ComputeCrPasses::new(gl, n, batch, local)?),
    };
    s.set_check_finite(false);
    Ok(s)
}

/// The work-group size solver `KERNELS[kernel]` runs with when asked for `local` at `n`
/// unknowns × `batch` systems: CR and PCR clamp it to the system ([`clamped_local`]); the
/// passes' groups span systems, so no more than `batch` invocations are useful.
fn effective_local(kernel: usize, n: usize, batch: usize, local: usize) -> usize {
    match kernel {
        0 | 1 => clamped_local(n, kernel == 1, local),
        _ => local.min(batch),
    }
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
    let d = GridData::get(&mut data, &s.gl, (n, batch), c.heat_r, 9000 + g as u64)?;
    let mut tuner = s.tuner(c)?;
    let mut tuned = [0; 3];
    for (kernel, name) in KERNELS.into_iter().enumerate() {
        // Sizes the solver would clamp to the same launch are timed once, under the size
        // that runs.
        let mut candidates: Vec<(String, usize)> = Vec::new();
        for &l in &c.local {
            let e = effective_local(kernel, n, batch, l);
            if !candidates.iter().any(|&(_, x)| x == e) {
                candidates.push((format!("local={e}"), e));
            }
        }
        let sizes: Vec<usize> = candidates.iter().map(|&(_, e)| e).collect();
        tuner.caption(format!(
            "{name}: invocations per work group ∈ {sizes:?} (`[tune] local` = {:?} as the \
             solver clamps it at {n} unknowns × {batch} systems), timed on the {g}×{g} heat \
             batch as Fig. 11 times it.",
            c.local
        ));
        tuned[kernel] = tuner.pick_interleaved(
            s,
            name,
            &format!("{g}×{g}"),
            &candidates,
            DIRECT_TOL,
            c.repeat.plan(),
            |&l| {
                let mut solver = compute_solver(&s.gl, n, batch, kernel, l).map_err(alg)?;
                solver.solve(&d.tex).map_err(alg)?;
                let work = solver.work().unwrap_or_default();
                let solver = Rc::new(RefCell::new(solver));
                let run = solver.clone();
                Ok(Candidate {
                    run: Box::new(move || run.borrow_mut().solve(&d.tex).map(drop).map_err(alg)),
                    check: Box::new(move || {
                        let x = solver.borrow().output().read()?;
                        Ok(max_rel_error(&x, &d.want))
                    }),
                    work,
                })
            },
        )?;
    }
    tuner.rounds_caption("Each solver's", "one solve", &c.repeat);
    tuner.finish()?;
    s.note(format!(
        "Tuned on this device at {g}×{g} (the `tuning` table): CR compute with {} and PCR \
         compute with {} invocations per work group, the CR passes with {} systems per work \
         group; Fig. 11 and the sweep use these.",
        tuned[0], tuned[1], tuned[2]
    ));
    Ok(tuned)
}
