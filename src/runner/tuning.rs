//! Tuning, not hand-picking: the parameters of the variants beyond a paper (work-group
//! shapes, register blocks, k-chunks) are swept on the device that runs them, before they are
//! measured, and the fastest verified candidate is the one the paper's tables use. The faithful
//! kernels keep the paper's parameters and are never tuned.
//!
//! Every candidate is one row of the paper's `tuning` table: its parameters, the input it was
//! timed on (a mid-size input of the experiment, so a sweep costs little), median time with
//! its 95 % interval, GFLOPS, time against the best, its error against the CPU reference and
//! its bound — a candidate that fails to build or to verify is a failed row and cannot be
//! chosen. With `--resume` a sweep whose rows all match is reused with its choice.
//!
//! **The choice honours the intervals of the paired ratios** ([`crate::stats::paired_winner`]):
//! the candidates are timed in the same rounds, so each pair of them has a paired ratio whose
//! interval already holds what drift did to both (no between-run term: the model is
//! [`crate::stats::between`]'s). A candidate is beaten when another's paired ratio to it lies
//! wholly below 1; the candidate no other beats is a clear winner (`best`); where several
//! are not beaten they are a tie, broken by the least median time (`best (tie)`; the others
//! `tie`). So the chosen candidate is never slower than another by a paired-ratio interval
//! that excludes 1, and of those it is the fastest estimate. With fewer rounds than a 95 %
//! interval needs ([`crate::stats::MIN_SAMPLES_FOR_CI`]) a paired ratio's interval is its
//! rounds' [min, max], so "beaten" means slower in every round; the choice still has to be
//! made, and a winner of that kind says so: `best (too few rounds)` (`chosen_word`), not
//! `best`, as `versus` says `too few runs` rather than name a winner.
//!
//! **The first rounds whatever the budget** ([`crate::gl::TimingPlan::floored`]): the
//! candidates left after screening make the plan's `repetitions` rounds whatever they take,
//! and the budget bounds only the rounds after them. With one round nothing can be beaten and
//! the choice is the least of single runs. A budget sized for a fast device did that on
//! llvmpipe: in the last full run before this rule, LU's tuning (one factorization of order
//! 1024 takes longer than a candidate's budget) made one round, matmul's fragment kernel and
//! tridiagonal's PCR two.
//!
//! [`Tuner::pick_interleaved`] times the candidates in rounds (each round every candidate
//! once, a shuffled order per round; [`crate::gl::measure::rounds_gpu`]), so that drift and
//! other processes hit them alike.
//!
//! **Screening in the warm-up** (racing's first cut, as F-Race and successive halving drop
//! the clear losers early): the warm-up round, which every candidate runs once untimed by the
//! choice, is timed all the same, and a candidate whose warm-up took more than [`SCREEN`]
//! times the fastest candidate's is not timed in the rounds — it is verified like the others
//! and its row says `screened` with its multiple. A candidate that far behind after one run
//! could only be chosen if its later runs were [`SCREEN`] times faster than its first; on
//! llvmpipe most of matmul's shared-memory candidates are 4–13× behind the texture-read ones
//! (the committed runs' `matmul/tuning`), and timing them took most of the sweep (a quick
//! run's whole matmul tuning: 72 s), or left every candidate one round where the budget ran
//! out (full mode, N = 2048), so that nothing could be beaten.

use serde::Serialize;

use super::config::Repeat;
use super::error::RunError;
use super::session::handle::Session;
use super::session::writer::TableWriter;
use crate::bench::Work;
use crate::gl::Timing;
use crate::gl::measure::{once_gpu, rounds_gpu};
use crate::gl::timing::{TimingPlan, warm_up};
use crate::report::table::tuning::{
    BEST, BEST_FEW, BEST_TIE, CHOSEN, KERNEL, TABLE, TIE, is_chosen,
};
use crate::report::{Column, with_bound_columns};
use crate::stats::{MIN_SAMPLES_FOR_CI, Pick};

const PARAMETERS: &str = "parameters";
const INPUT: &str = "tuned on";
const TIME: &str = "time";
const GFLOPS: &str = "GFLOPS";
const VS_BEST: &str = "time / best";
const ERROR: &str = "error";
/// How the `chosen` cell of a candidate screened out in the warm-up begins.
pub const SCREENED: &str = "screened";

/// One candidate's measurement: its timed runs, its error against the CPU reference and the
/// work of the timed region (for the bound); or, screened out in the warm-up, how many times
/// the fastest candidate's warm-up run its own took (no timed runs).
struct Trial {
    pub timing: Timing,
    pub error: f64,
    pub work: Work,
    pub screened: Option<f64>,
}

/// A candidate whose warm-up run took more than this many times the fastest candidate's is
/// screened out: verified, but not timed in the rounds (module docs).
pub const SCREEN: f64 = 4.0;

/// For each candidate's warm-up time (ms), `Some(its multiple of the fastest)` where that is
/// over [`SCREEN`], else `None` (timed in the rounds); all `None` without warm-up times or
/// without a positive fastest one.
pub fn screen(warm_ms: &[f64]) -> Vec<Option<f64>> {
    let fastest = warm_ms
        .iter()
        .copied()
        .filter(|t| t.is_finite() && *t > 0.0)
        .min_by(f64::total_cmp);
    warm_ms
        .iter()
        .map(|&t| fastest.map(|f| t / f).filter(|x| *x > SCREEN))
        .collect()
}

/// A candidate ready to be timed in rounds ([`Tuner::pick_interleaved`]): `run` does one
/// timed run (the rounds bracket it with `glFinish`), `check` reads its result back after the
/// rounds and returns its error against the CPU reference.
pub struct Candidate<'a> {
    pub run: Box<dyn FnMut() -> Result<(), RunError> + 'a>,
    pub check: Box<dyn FnMut() -> Result<f64, RunError> + 'a>,
    pub work: Work,
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
        let columns = with_bound_columns(vec![
            Column::key(KERNEL).text(),
            Column::key(PARAMETERS).text(),
            Column::ours(INPUT).text(),
            Column::ours(TIME).unit("ms"),
            Column::ours(GFLOPS).fixed(2),
            Column::ours(VS_BEST).fixed(2),
            Column::ours(ERROR).sci(1),
            Column::ours(CHOSEN).text(),
        ]);
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

/// The `chosen` cell of candidate `i` under `pick`, made among the eligible candidates `ok`
/// (`(index, samples)`, one sample per round): `best` for a clear winner whose paired ratios
/// rest on 95 % intervals (every rival's ratio to it over at least [`MIN_SAMPLES_FOR_CI`]
/// rounds), `best (too few rounds)` for one that beat every rival only in each of fewer
/// rounds (the [min, max] interval of [`crate::stats::paired_winner`]), `best (tie)` and
/// `tie` for the unbeaten, empty for the rest. A lone eligible candidate is `best`.
fn chosen_word(pick: Option<&Pick>, i: usize, ok: &[(usize, &[f64])]) -> &'static str {
    let rounds = ok.iter().map(|c| c.1.len()).min().unwrap_or(0);
    match pick {
        Some(p) if p.chosen == i && p.clear() => {
            match ok.len() < 2 || rounds >= MIN_SAMPLES_FOR_CI {
                true => BEST,
                false => BEST_FEW,
            }
        }
        Some(p) if p.chosen == i => BEST_TIE,
        Some(p) if p.tied.contains(&i) => TIE,
        _ => "",
    }
}

impl Tuner {
    /// The rows' keys of `kernel`'s candidates and, with `--resume`, the parameters chosen
    /// before when every candidate's row can be reused (the rows are added again).
    fn reuse<P: Clone>(
        &mut self,
        kernel: &str,
        candidates: &[(String, P)],
    ) -> Result<(Vec<String>, Option<P>), RunError> {
        let keys: Vec<String> = candidates
            .iter()
            .map(|(label, _)| format!("{kernel} {label}"))
            .collect();
        let chosen = self.t.reuse_all(&keys)?.and_then(|rows| {
            rows.iter()
                .position(|r| self.t.text(r, CHOSEN).is_some_and(is_chosen))
        });
        Ok((keys, chosen.map(|i| candidates[i].1.clone())))
    }

    /// Times every candidate of `kernel` (`(label, parameters)`) on `input`, adds one row
    /// each, and returns the parameters of the chosen candidate (see the module docs) among
    /// those whose error is within `tol`. The candidates are timed interleaved: `prepare`
    /// builds each (compiling, uploading; a failure makes its row FAILED), then every prepared
    /// candidate is timed in rounds under `plan` ([`rounds_gpu`]), then each is checked. Say
    /// what was swept and how with [`Self::caption`].
    #[allow(clippy::too_many_arguments)]
    pub fn pick_interleaved<'a, P: Clone>(
        &mut self,
        s: &'a Session,
        kernel: &str,
        input: &str,
        candidates: &[(String, P)],
        tol: f64,
        plan: TimingPlan,
        mut prepare: impl FnMut(&P) -> Result<Candidate<'a>, RunError>,
    ) -> Result<P, RunError> {
        let (keys, reused) = self.reuse(kernel, candidates)?;
        if let Some(p) = reused {
            return Ok(p);
        }
        let mut prepared: Vec<Result<Candidate<'a>, String>> = Vec::new();
        for ((_, p), key) in candidates.iter().zip(&keys) {
            s.check_interrupt()?;
            self.t.start(key);
            prepared.push(match prepare(p) {
                Ok(c) => Ok(c),
                Err(RunError::Interrupted) => return Err(RunError::Interrupted),
                Err(e) => Err(e.to_string()),
            });
        }
        s.check_interrupt()?;
        self.t
            .start(&format!("{kernel}: {} candidates in rounds", keys.len()));
        let live: Vec<usize> = (0..prepared.len())
            .filter(|&i| prepared[i].is_ok())
            .collect();
        let mut run = |i: usize| match prepared[i].as_mut() {
            Ok(c) => (c.run)(),
            Err(_) => Ok(()),
        };
        // The warm-up round, timed only to screen (module docs), then the rounds of the rest.
        let warm = warm_up(plan.warmup, live.len(), |j| {
            once_gpu(&s.gl, || run(live[j])).map(|((), ms)| ms)
        })?;
        // No warm-up (a plan without one): nothing to screen on, every candidate is timed.
        let behind = match warm.len() == live.len() {
            true => screen(&warm),
            false => vec![None; live.len()],
        };
        let raced: Vec<usize> = (0..live.len()).filter(|&j| behind[j].is_none()).collect();
        // The first rounds whatever the budget: with one round every candidate ties.
        let plan = TimingPlan { warmup: 0, ..plan }.floored();
        let timed = rounds_gpu(&s.gl, plan, raced.len(), |r| run(live[raced[r]]))?;
        // Each candidate's row gets its own profiled warm-up run (variant j is `live[j]`).
        let mut profiles = vec![Vec::new(); candidates.len()];
        for mut run in crate::gl::profile::take_runs() {
            if let Some(&i) = run.variant.and_then(|j| live.get(j)) {
                run.variant = None;
                profiles[i].push(run);
            }
        }
        let mut trials = Vec::with_capacity(candidates.len());
        let mut next = timed.timings.into_iter();
        // The prepared candidates in order are `live`'s, whose warm-ups `behind` judged.
        let mut behind = behind.into_iter();
        for c in prepared.iter_mut() {
            trials.push(match c {
                Err(why) => Err(why.clone()),
                Ok(c) => {
                    let screened = behind.next().flatten();
                    let timing = match screened {
                        Some(_) => Timing::default(),
                        None => next.next().unwrap_or_default(),
                    };
                    match (c.check)() {
                        Ok(error) => Ok(Trial {
                            timing,
                            error,
                            work: c.work,
                            screened,
                        }),
                        Err(RunError::Interrupted) => return Err(RunError::Interrupted),
                        Err(e) => Err(e.to_string()),
                    }
                }
            });
        }
        drop(prepared);
        self.rows(kernel, input, candidates, &keys, trials, tol, profiles)
    }

    /// Adds one row per candidate, with its profiled runs, and returns the chosen one's
    /// parameters (see the module docs for the rule).
    #[allow(clippy::too_many_arguments)]
    fn rows<P: Clone>(
        &mut self,
        kernel: &str,
        input: &str,
        candidates: &[(String, P)],
        keys: &[String],
        trials: Vec<Result<Trial, String>>,
        tol: f64,
        mut profiles: Vec<Vec<crate::gl::profile::RunProfile>>,
    ) -> Result<P, RunError> {
        // A candidate can be chosen when it verified and was timed (not screened).
        let eligible =
            |tr: &Trial| tr.error.is_finite() && tr.error <= tol && tr.screened.is_none();
        let ok: Vec<(usize, &[f64])> = trials
            .iter()
            .enumerate()
            .filter_map(|(i, tr)| tr.as_ref().ok().filter(|tr| eligible(tr)).map(|tr| (i, tr)))
            .map(|(i, tr)| (i, tr.timing.samples_ms.as_slice()))
            .collect();
        let pick = crate::stats::paired_winner(&ok);
        let best_ms = ok
            .iter()
            .filter_map(|c| trials[c.0].as_ref().ok())
            .map(|tr| tr.timing.median_ms)
            .min_by(f64::total_cmp);
        for (i, (((label, _), key), tr)) in candidates.iter().zip(keys).zip(&trials).enumerate() {
            let row = self
                .t
                .row(key.clone())
                .text(KERNEL, kernel)
                .text(PARAMETERS, label.clone())
                .text(INPUT, input);
            let row = match tr {
                Err(why) => row.fail(why.clone()),
                Ok(Trial {
                    screened: Some(x),
                    error,
                    ..
                }) => row
                    .num(ERROR, *error)
                    .text(CHOSEN, format!("{SCREENED} ({x:.1}× the fastest warm-up)"))
                    .runs(0)
                    .verify(*error, tol)
                    .not_chosen(),
                Ok(tr) => {
                    let t = &tr.timing;
                    let flops = tr.work.flops32 + tr.work.flops64;
                    let chosen = chosen_word(pick.as_ref(), i, &ok);
                    let row = row
                        .timed(TIME, t)
                        .opt_est(GFLOPS, (flops > 0.0).then(|| t.rate(flops / 1e9)))
                        .opt(VS_BEST, best_ms.map(|b| t.median_ms / b))
                        .num(ERROR, tr.error)
                        .text(CHOSEN, chosen)
                        .runs(t.runs)
                        .work_timed(kernel, tr.work, t)
                        .verify(tr.error, tol);
                    if is_chosen(chosen) {
                        row
                    } else {
                        row.not_chosen()
                    }
                }
            };
            crate::gl::profile::give(std::mem::take(&mut profiles[i]));
            self.t.push(row)?;
        }
        match pick {
            Some(p) => Ok(candidates[p.chosen].1.clone()),
            None => Err(RunError::algorithm(NoCandidate(kernel.to_string()))),
        }
    }

    /// A caption line: what a sweep varied and how each candidate was timed.
    pub fn caption(&mut self, text: impl Into<String>) {
        self.captions.push(text.into());
    }

    /// The caption line of how `whose` candidates were timed by [`Self::pick_interleaved`]
    /// under `r`, a run being `run` ("one solve").
    pub fn rounds_caption(&mut self, whose: &str, run: &str, r: &Repeat) {
        self.caption(format!(
            "{whose} candidates are timed interleaved (every candidate once per round, a \
             shuffled order per round; a run = {run}, `glFinish` on both sides): {}.",
            r.rule_floored("round", "candidate")
        ));
    }

    /// Writes the table.
    pub fn finish(mut self) -> Result<(), RunError> {
        for c in std::mem::take(&mut self.captions) {
            self.t.caption(c);
        }
        self.t.caption(format!(
            "One row per candidate, timed on the input named, the candidates of a kernel in \
             the same rounds; `chosen` marks the candidate every later table of this paper \
             uses, judged on the paired ratios of the rounds (no between-run term: the rounds \
             share their spell): a candidate is beaten when another's paired time ratio to it \
             has a 95 % interval wholly below 1; `best` when one candidate alone is not \
             beaten (`best (too few rounds)` where the rounds were fewer than a 95 % interval \
             needs, {MIN_SAMPLES_FOR_CI}: it was faster than every other candidate in each \
             round, their paired ratios' [min, max] below 1); otherwise those not beaten are \
             a tie (`tie`), broken by the least median time (`best (tie)`). A candidate whose \
             warm-up run took more than {SCREEN}× the fastest candidate's is screened out \
             before the rounds (`screened`, with its multiple): verified, not timed. The time \
             column's interval carries the limiter's between-run term (for comparison with \
             other runs), not the choice. The paper's own kernels keep the paper's parameters \
             and are not tuned."
        ));
        self.t.finish()?;
        Ok(())
    }
}

/// Every candidate of a sweep failed or missed its tolerance.
#[derive(Debug, thiserror::Error)]
#[error("tuning {0}: no candidate ran and verified on this device")]
struct NoCandidate(String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_winner_of_too_few_rounds_says_so() {
        let (six_a, six_b) = ([1.0; 6], [2.0; 6]);
        let (four_a, four_b) = ([1.0; 4], [2.0; 4]);
        let clear = Pick {
            chosen: 0,
            tied: vec![0],
        };
        // Six rounds each: a 95 % interval of the paired ratio, a clear `best`.
        let ok: Vec<(usize, &[f64])> = vec![(0, &six_a), (1, &six_b)];
        assert_eq!(chosen_word(Some(&clear), 0, &ok), BEST);
        assert_eq!(chosen_word(Some(&clear), 1, &ok), "");
        // Four rounds (lu/tuning in the committed llvmpipe run): beaten in every round, but
        // that is not 95 %.
        let ok: Vec<(usize, &[f64])> = vec![(0, &four_a), (1, &four_b)];
        assert_eq!(chosen_word(Some(&clear), 0, &ok), BEST_FEW);
        assert!(is_chosen(BEST_FEW));
        // A lone eligible candidate has no rival to beat.
        let ok: Vec<(usize, &[f64])> = vec![(0, &four_a)];
        assert_eq!(chosen_word(Some(&clear), 0, &ok), BEST);
        // A tie stays a tie whatever the rounds.
        let tie = Pick {
            chosen: 1,
            tied: vec![0, 1],
        };
        let ok: Vec<(usize, &[f64])> = vec![(0, &four_a), (1, &four_b)];
        assert_eq!(chosen_word(Some(&tie), 1, &ok), BEST_TIE);
        assert_eq!(chosen_word(Some(&tie), 0, &ok), TIE);
        assert_eq!(chosen_word(None, 0, &ok), "");
    }

    #[test]
    fn a_candidate_more_than_four_times_behind_in_the_warm_up_is_screened() {
        let b = screen(&[40.0, 36.0, 158.0, 300.0, 144.0]);
        assert_eq!(b[0], None);
        assert_eq!(b[1], None);
        // 158 / 36 = 4.39: screened; 144 / 36 = 4.0 exactly: timed.
        assert!((b[2].unwrap() - 158.0 / 36.0).abs() < 1e-12);
        assert!(b[3].is_some());
        assert_eq!(b[4], None);
    }

    #[test]
    fn no_warm_up_or_no_positive_time_screens_nothing() {
        assert!(screen(&[]).is_empty());
        assert_eq!(screen(&[0.0, 0.0]), vec![None, None]);
        // A failed candidate's zero does not become the fastest.
        assert_eq!(screen(&[0.0, 10.0, 30.0]), vec![None, None, None]);
    }
}
