//! Tuning, not hand-picking: the parameters of the variants beyond a paper (work-group
//! shapes, register blocks, k-chunks) are swept on the device that runs them, before they are
//! measured, and the fastest verified candidate is the one the paper's tables use. The faithful
//! kernels keep the paper's parameters and are never tuned.
//!
//! Every candidate is one row of the paper's `tuning` table: its parameters, the input it was
//! timed on (a mid-size input of the experiment, so a sweep costs little), median time,
//! GFLOPS, time against the best, its error against the CPU reference and its bound — a
//! candidate that fails to build or to verify is a failed row and cannot be chosen. The chosen
//! row says `best`. With `--resume` a sweep whose rows all match is reused with its choice.

use serde::Serialize;

use super::{RunError, Session, TableWriter};
use crate::bench::Work;
use crate::gl::Timing;
use crate::report::{Column, bound_columns};

pub const TABLE: &str = "tuning";
const KERNEL: &str = "kernel";
const PARAMETERS: &str = "parameters";
const INPUT: &str = "tuned on";
const TIME: &str = "time";
const GFLOPS: &str = "GFLOPS";
const VS_BEST: &str = "time / best";
const ERROR: &str = "error";
const CHOSEN: &str = "chosen";
const BEST: &str = "best";

/// One candidate's measurement: its median time (ms) over `runs` timed runs, its error
/// against the CPU reference and the work of the timed region (for the bound).
pub struct Trial {
    pub ms: f64,
    pub runs: usize,
    pub error: f64,
    pub work: Work,
}

impl Trial {
    /// From a [`Timing`] (its median).
    pub fn timed(t: Timing, error: f64, work: Work) -> Trial {
        Trial {
            ms: t.median_ms,
            runs: t.runs,
            error,
            work,
        }
    }
}

/// The paper's `tuning` table while its sweeps run.
pub struct Tuner {
    t: TableWriter,
    captions: Vec<String>,
}

impl Session {
    /// Starts the paper's `tuning` table; `config` is what every sweep depends on (candidates,
    /// inputs, repetitions).
    pub fn tuner(&self, config: &impl Serialize) -> Result<Tuner, RunError> {
        let mut columns = vec![
            Column::key(KERNEL).text(),
            Column::key(PARAMETERS).text(),
            Column::ours(INPUT).text(),
            Column::ours(TIME).unit("ms"),
            Column::ours(GFLOPS).fixed(2),
            Column::ours(VS_BEST).fixed(2),
            Column::ours(ERROR).sci(1),
            Column::ours(CHOSEN).text(),
        ];
        columns.extend(bound_columns());
        let t = self.table(
            TABLE,
            "Tuning: every candidate of the variants beyond the paper, on this device",
            columns,
            config,
        )?;
        Ok(Tuner {
            t,
            captions: Vec::new(),
        })
    }
}

impl Tuner {
    /// Times every candidate of `kernel` (`(label, parameters)`) on `input` with `trial`, adds
    /// one row each, and returns the parameters of the fastest (median) candidate whose error
    /// is within `tol`. Say what was swept and how with [`Self::caption`].
    pub fn pick<P: Clone>(
        &mut self,
        s: &Session,
        kernel: &str,
        input: &str,
        candidates: &[(String, P)],
        tol: f64,
        mut trial: impl FnMut(&P) -> Result<Trial, RunError>,
    ) -> Result<P, RunError> {
        let keys: Vec<String> = candidates
            .iter()
            .map(|(label, _)| format!("{kernel} {label}"))
            .collect();
        if let Some(rows) = self.t.reuse_all(&keys)? {
            if let Some(i) = rows
                .iter()
                .position(|r| self.t.text(r, CHOSEN) == Some(BEST))
            {
                return Ok(candidates[i].1.clone());
            }
        }
        let mut trials = Vec::with_capacity(candidates.len());
        for ((_, p), key) in candidates.iter().zip(&keys) {
            s.check_interrupt()?;
            self.t.start(key);
            trials.push(match trial(p) {
                Ok(tr) => Ok(tr),
                Err(RunError::Interrupted) => return Err(RunError::Interrupted),
                Err(e) => Err(e.to_string()),
            });
        }
        let verified = |tr: &Trial| tr.error.is_finite() && tr.error <= tol;
        let best = trials
            .iter()
            .enumerate()
            .filter_map(|(i, tr)| tr.as_ref().ok().filter(|tr| verified(tr)).map(|tr| (i, tr)))
            .min_by(|a, b| a.1.ms.total_cmp(&b.1.ms))
            .map(|(i, tr)| (i, tr.ms));
        for (i, (((label, _), key), tr)) in candidates.iter().zip(&keys).zip(&trials).enumerate() {
            let row = self
                .t
                .row(key.clone())
                .text(KERNEL, kernel)
                .text(PARAMETERS, label.clone())
                .text(INPUT, input);
            let row = match tr {
                Err(why) => row.fail(why.clone()),
                Ok(tr) => {
                    let ms = tr.ms;
                    let flops = tr.work.flops32 + tr.work.flops64;
                    row.num(TIME, ms)
                        .opt(GFLOPS, (flops > 0.0).then(|| flops / (ms * 1e-3) / 1e9))
                        .opt(VS_BEST, best.map(|(_, b)| ms / b))
                        .num(ERROR, tr.error)
                        .text(
                            CHOSEN,
                            if best.map(|b| b.0) == Some(i) {
                                BEST
                            } else {
                                ""
                            },
                        )
                        .runs(tr.runs)
                        .work(kernel, tr.work, ms)
                        .verify(tr.error, tol)
                }
            };
            self.t.push(row)?;
        }
        match best {
            Some((i, _)) => Ok(candidates[i].1.clone()),
            None => Err(RunError::algorithm(NoCandidate(kernel.to_string()))),
        }
    }

    /// A caption line: what a sweep varied and how each candidate was timed.
    pub fn caption(&mut self, text: impl Into<String>) {
        self.captions.push(text.into());
    }

    /// Writes the table.
    pub fn finish(mut self) -> Result<(), RunError> {
        for c in std::mem::take(&mut self.captions) {
            self.t.caption(c);
        }
        self.t.caption(
            "One row per candidate, timed on the input named; `chosen` marks the fastest \
             (median) verified candidate, which every later table of this paper uses. The \
             paper's own kernels keep the paper's parameters and are not tuned.",
        );
        self.t.finish()?;
        Ok(())
    }
}

/// Every candidate of a sweep failed or missed its tolerance.
#[derive(Debug, thiserror::Error)]
#[error("tuning {0}: no candidate ran and verified on this device")]
struct NoCandidate(String);
