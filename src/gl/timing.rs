//! Timing as the papers did it: warm-up runs, then repetitions, each run timed by a monotonic
//! CPU clock (between two `glFinish()` calls on the GPU: [`super::measure`]). GL timer
//! queries are not used: on llvmpipe `GL_TIME_ELAPSED` returns far less than a pass really
//! takes.
//!
//! How many repetitions: at least the paper's count, then more until the 95 % confidence
//! interval of the median is narrow enough ([`TimingPlan::ci_target`], relative half-width)
//! or the row's time budget is spent (at least one run; see [`repeat`]; a
//! [floored](TimingPlan::floored) plan makes its first `repetitions` whatever the budget).
//! Each [`Timing`] keeps every sample and its interval ([`crate::stats::Estimate`]).
//! Variants compared with each other are timed interleaved, a shuffled order per round
//! ([`rounds`]), so that their ratios come from paired samples (which carry no between-run
//! term); a costly variant whose time settles early may leave the rounds before the others
//! ([`rounds_retiring`]), its ratios then paired over the rounds both ran. Every [`Timing`]'s
//! interval includes the run's default between-run term ([`crate::stats::between`], set by
//! the runner from the run's bench); a table row with a bound trades it for its limiter's.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::stats::{Estimate, MIN_SAMPLES_FOR_CI};

pub use crate::stats::median_index;

/// The default relative half-width of the median's 95 % interval that ends the repetitions.
pub const DEFAULT_CI_TARGET: f64 = 0.03;
/// The default cap on timed runs when the interval stays wide.
pub const DEFAULT_MAX_RUNS: usize = 40;

/// How many runs to make.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimingPlan {
    /// Untimed runs first (shader compilation, driver caches, page faults).
    pub warmup: usize,
    /// The fewest timed runs (the paper's count), budget allowing.
    pub repetitions: usize,
    /// Stop repeating once this much time went into timed runs (at least one run is made).
    pub budget: Duration,
    /// Beyond `repetitions`, keep timing while the median's 95 % interval is wider than this
    /// (relative half-width) and fewer than `max_runs` were made; 0 turns this off.
    pub ci_target: f64,
    /// The most timed runs.
    pub max_runs: usize,
    /// The budget ends only the runs beyond `repetitions`: the first `repetitions` are made
    /// whatever they take ([`TimingPlan::floored`]; tuning, whose choice needs them).
    #[serde(default)]
    pub floor: bool,
}

impl TimingPlan {
    /// `repetitions` runs at least, more until the interval is within [`DEFAULT_CI_TARGET`]
    /// (at most [`DEFAULT_MAX_RUNS`]), all within `budget`.
    pub fn new(warmup: usize, repetitions: usize, budget: Duration) -> Self {
        TimingPlan {
            warmup,
            repetitions: repetitions.max(1),
            budget,
            ci_target: DEFAULT_CI_TARGET,
            max_runs: DEFAULT_MAX_RUNS.max(repetitions),
            floor: false,
        }
    }
    /// Exactly `repetitions` runs (budget allowing), no adaptive extension.
    pub fn fixed(warmup: usize, repetitions: usize, budget: Duration) -> Self {
        TimingPlan {
            ci_target: 0.0,
            max_runs: repetitions.max(1),
            ..Self::new(warmup, repetitions, budget)
        }
    }
    /// A single timed run, no warm-up.
    pub fn once() -> Self {
        Self::fixed(0, 1, Duration::ZERO)
    }
    /// With another interval target and cap.
    pub fn adaptive(mut self, ci_target: f64, max_runs: usize) -> Self {
        self.ci_target = ci_target.max(0.0);
        self.max_runs = max_runs.max(self.repetitions);
        self
    }

    /// The first `repetitions` runs made whatever the budget; the budget bounds only the runs
    /// after them. A decision between variants (tuning) needs them: with one round every
    /// candidate ties.
    pub fn floored(mut self) -> Self {
        self.floor = true;
        self
    }

    /// Whether the budget may end the runs: always, or (floored) once `n` runs are made.
    fn budget_may_end(&self, n: usize) -> bool {
        !self.floor || n >= self.repetitions
    }

    /// Whether `samples` are enough, budget aside: `repetitions` made and the median's
    /// interval within `ci_target` (or `max_runs` made).
    fn enough(&self, samples: &[f64]) -> bool {
        let n = samples.len();
        if n == 0 {
            return false;
        }
        if n >= self.max_runs.max(1) {
            return true;
        }
        if n < self.repetitions {
            return false;
        }
        self.ci_target <= 0.0
            || (n >= MIN_SAMPLES_FOR_CI
                && Estimate::of(samples).is_some_and(|e| e.rel_half_width() <= self.ci_target))
    }

    /// Whether `samples` (ms, `spent_ms` in all) call for another run.
    fn more(&self, samples: &[f64], spent_ms: f64) -> bool {
        let left = spent_ms < self.budget.as_secs_f64() * 1e3;
        samples.is_empty()
            || (!self.enough(samples) && (left || !self.budget_may_end(samples.len())))
    }
}

/// The statistics of a set of timed runs, in milliseconds: the median with its 95 %
/// confidence interval ([`crate::stats`]), the spread, and every sample.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub runs: usize,
    pub median_ms: f64,
    pub mean_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    /// The ends of the median's interval.
    #[serde(default)]
    pub lo_ms: f64,
    #[serde(default)]
    pub hi_ms: f64,
    /// The interval's coverage (≥ 0.95 from 6 samples on; below, the interval is [min, max]).
    #[serde(default)]
    pub coverage: f64,
    /// Coefficient of variation.
    #[serde(default)]
    pub cv: f64,
    /// Every timed run, in the order measured.
    #[serde(default)]
    pub samples_ms: Vec<f64>,
    /// The between-run half-width (log units) that `lo_ms`/`hi_ms` include
    /// ([`crate::stats::between`]); 0 in older records and where none was set.
    #[serde(default)]
    pub between: f64,
}

impl Timing {
    /// Statistics of `samples` (milliseconds); empty gives all zeros. The median is the
    /// lower median, `sorted[(n − 1) / 2]`: always one of the measured times (see [`median_index`]).
    /// The interval includes the default between-run term set for this thread (a table row
    /// with a bound trades it for its limiter's: [`crate::report::Row::carry_term`])
    /// ([`crate::stats::set_between_terms`]).
    pub fn from_samples(samples: &[f64]) -> Timing {
        let h = crate::stats::between_run();
        match Estimate::of(samples).map(|e| e.widen(h)) {
            None => Timing::default(),
            Some(e) => Timing {
                runs: e.n,
                median_ms: e.median,
                mean_ms: e.mean,
                min_ms: e.min,
                max_ms: e.max,
                lo_ms: e.lo,
                hi_ms: e.hi,
                coverage: e.coverage,
                cv: e.cv,
                samples_ms: e.samples,
                between: e.between,
            },
        }
    }

    /// The time as an [`Estimate`] (median, interval, samples).
    pub fn est(&self) -> Estimate {
        Estimate {
            median: self.median_ms,
            lo: self.lo_ms,
            hi: self.hi_ms,
            coverage: self.coverage,
            cv: self.cv,
            min: self.min_ms,
            max: self.max_ms,
            mean: self.mean_ms,
            samples: self.samples_ms.clone(),
            n: self.runs,
            between: self.between,
        }
    }

    /// A rate `amount / time` (e.g. GFLOPS from flops·1e-9 / s): `amount` per second, with the
    /// interval of the time.
    pub fn rate(&self, amount: f64) -> Estimate {
        self.est().map(|ms| amount / (ms * 1e-3))
    }
}

/// The samples of a repeated measurement: each run's result and its time in ms.
#[derive(Clone, Debug)]
pub struct Samples<S> {
    pub runs: Vec<(S, f64)>,
}

impl<S> Samples<S> {
    /// Median, mean, min and max of the times.
    pub fn timing(&self) -> Timing {
        Timing::from_samples(&self.runs.iter().map(|r| r.1).collect::<Vec<_>>())
    }
    /// The run whose time is the median ([`median_index`]).
    pub fn median(&self) -> &S {
        let mut idx: Vec<usize> = (0..self.runs.len()).collect();
        idx.sort_by(|&a, &b| self.runs[a].1.total_cmp(&self.runs[b].1));
        &self.runs[idx[median_index(idx.len())]].0
    }
    /// The last run's result.
    pub fn last(&self) -> &S {
        &self.runs.last().expect("at least one run").0
    }
}

static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Asks every repetition loop ([`repeat`], [`rounds`]) of the process to end after the run
/// under way: the Ctrl-C / SIGTERM handler calls it, so that a long row (many repetitions of
/// a long GPU pass or CPU baseline) stops within one run, not after its whole budget (on an
/// H200 a run went on for 35 s after SIGTERM, issue 40). A row so cut short has fewer runs
/// than its plan: the runner does not write a row measured while the interrupt came.
pub fn request_stop() {
    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Whether [`request_stop`] was called in this process.
pub fn stop_requested() -> bool {
    STOP.load(std::sync::atomic::Ordering::SeqCst)
}

/// The one repetition loop behind every timed number: `plan.warmup` untimed runs, then timed
/// runs until `plan.repetitions` are made and the median's interval is within
/// `plan.ci_target`, or `plan.max_runs` are made, or `plan.budget` is spent (at least one
/// run; a [floored](TimingPlan::floored) plan's first `repetitions`). `run` does one run and
/// returns its result and its time in ms — measured by the caller, so that a run can time
/// only its own region (e.g. an LU whose upload is excluded) and report parts.
pub fn repeat<S, E>(
    plan: TimingPlan,
    mut run: impl FnMut() -> Result<(S, f64), E>,
) -> Result<Samples<S>, E> {
    for w in 0..plan.warmup {
        if stop_requested() {
            break;
        }
        profiled_if_last(w, plan.warmup, None, &mut run)?;
    }
    let mut runs = Vec::with_capacity(plan.repetitions);
    let mut times: Vec<f64> = Vec::with_capacity(plan.repetitions);
    let mut spent_ms = 0.0;
    // One timed run at least (a `Samples` is never empty), then none after a stop request.
    while plan.more(&times, spent_ms) && (times.is_empty() || !stop_requested()) {
        let (out, ms) = run()?;
        spent_ms += ms;
        times.push(ms);
        runs.push((out, ms));
    }
    Ok(Samples { runs })
}

/// Warm-up run `w` of `warmup`: the last one is the profiled run when profiles are on
/// ([`super::profile`]) — untimed like every warm-up, so that its `glFinish` between passes
/// reaches no timed number and its results count nowhere a warm-up's would not.
fn profiled_if_last<T, E>(
    w: usize,
    warmup: usize,
    variant: Option<usize>,
    run: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    if w + 1 == warmup && super::profile::enabled() {
        super::profile::profiled_run(variant, run)
    } else {
        run()
    }
}

/// Interleaved timing of `k` variants compared with each other: `plan.warmup` untimed runs of
/// each, then rounds, each running every variant once in the order [`crate::stats::round_order`]
/// gives for that round, until every variant has `plan.repetitions` runs and an interval within
/// `plan.ci_target` (or `plan.max_runs` rounds), or the variants together spent `k` times
/// `plan.budget` (at least one round; a [floored](TimingPlan::floored) plan's first
/// `repetitions`). `run(i)` does one run of variant `i` and returns its
/// time in ms. The samples of round `r` are index `r` of every variant's samples, so that
/// [`Rounds::ratio`] pairs them.
///
/// A stop request ([`request_stop`]) ends the rounds before the next run: the unfinished
/// round is dropped, and when no round was finished — the request came during the warm-up or
/// the first round, which on a slow device can take seconds — there is nothing to pair and
/// the result is `Err(Stopped)`, so that no caller reads the outputs of runs never made.
pub fn rounds<E: From<Stopped>>(
    plan: TimingPlan,
    k: usize,
    run: impl FnMut(usize) -> Result<f64, E>,
) -> Result<Rounds, E> {
    rounds_until(plan, k, &[], stop_requested, run)
}

/// [`rounds`] in which the variants `retire` names leave the rounds once their own samples
/// are enough — `plan.repetitions` made and the median's interval within `plan.ci_target`
/// (or `plan.max_runs` made) — while the others go on until they are enough too. For a costly
/// variant whose time settles early beside ones that do not: Table 1's CPU loop (seconds a
/// run) beside GPU kernels of milliseconds, which would otherwise run in every one of the
/// rounds the GPU's interval calls for. A retired variant's samples are the first rounds,
/// round `r` still index `r`, so that a paired ratio with it ([`Rounds::ratio`]) pairs the
/// rounds both ran (`crate::stats::paired_ratio` zips the two).
pub fn rounds_retiring<E: From<Stopped>>(
    plan: TimingPlan,
    k: usize,
    retire: &[usize],
    run: impl FnMut(usize) -> Result<f64, E>,
) -> Result<Rounds, E> {
    rounds_until(plan, k, retire, stop_requested, run)
}

/// The untimed warm-up [`rounds`] begins with, on its own: `warmup` rounds of the `k`
/// variants in order (the last one profiled when profiles are on), and each variant's time
/// in the last of them (ms; empty when `warmup` is 0), for a caller that screens its
/// candidates on it before timing the rest in [`rounds`] with no warm-up of their own.
pub fn warm_up<E: From<Stopped>>(
    warmup: usize,
    k: usize,
    mut run: impl FnMut(usize) -> Result<f64, E>,
) -> Result<Vec<f64>, E> {
    warm_up_until(warmup, k, &stop_requested, &mut run)
}

fn warm_up_until<E: From<Stopped>>(
    warmup: usize,
    k: usize,
    stop: &impl Fn() -> bool,
    run: &mut impl FnMut(usize) -> Result<f64, E>,
) -> Result<Vec<f64>, E> {
    let mut last = Vec::new();
    for w in 0..warmup {
        last.clear();
        for i in 0..k {
            if stop() {
                return Err(Stopped.into());
            }
            last.push(profiled_if_last(w, warmup, Some(i), || run(i))?);
        }
    }
    Ok(last)
}

/// Returned by [`rounds`] when a stop request came before one round was finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped (Ctrl-C or SIGTERM) before one round of the variants was finished")]
pub struct Stopped;

/// [`rounds_retiring`] with the stop request as a parameter (tests ask for a stop without the
/// process-wide flag, which cannot be taken back).
fn rounds_until<E: From<Stopped>>(
    plan: TimingPlan,
    k: usize,
    retire: &[usize],
    stop: impl Fn() -> bool,
    mut run: impl FnMut(usize) -> Result<f64, E>,
) -> Result<Rounds, E> {
    warm_up_until(plan.warmup, k, &stop, &mut run)?;
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); k];
    let budget_ms = plan.budget.as_secs_f64() * 1e3 * k as f64;
    let mut spent_ms = 0.0;
    // Rounds finished: every variant still in the rounds ran once in each.
    let mut finished = 0;
    'rounds: for round in 0u64.. {
        let spent = spent_ms >= budget_ms && times.iter().all(|t| plan.budget_may_end(t.len()));
        let done = spent || times.iter().all(|t| plan.enough(t));
        if k == 0 || (round > 0 && done) {
            break;
        }
        // Decided at the round's start, so that a variant's samples stay whole rounds.
        let retired: Vec<bool> = (0..k)
            .map(|i| retire.contains(&i) && plan.enough(&times[i]))
            .collect();
        for i in crate::stats::round_order(k, round) {
            if retired[i] {
                continue;
            }
            // After a stop request no further run, even mid-round: the unfinished round is
            // dropped below, and without one whole round there is no result.
            if stop() {
                if round == 0 {
                    return Err(Stopped.into());
                }
                break 'rounds;
            }
            let ms = run(i)?;
            spent_ms += ms;
            times[i].push(ms);
        }
        finished += 1;
    }
    // Samples stay paired by round: only whole rounds are kept (a retired variant's are
    // fewer, and all of them whole).
    for t in &mut times {
        t.truncate(finished);
    }
    Ok(Rounds {
        timings: times.iter().map(|t| Timing::from_samples(t)).collect(),
    })
}

/// The timings of interleaved variants, paired by round.
#[derive(Clone, Debug)]
pub struct Rounds {
    /// One per variant, in the caller's order; `samples_ms[r]` is round `r`.
    pub timings: Vec<Timing>,
}

impl Rounds {
    /// The ratio `time(a) / time(b)` from paired rounds, median and interval.
    pub fn ratio(&self, a: usize, b: usize) -> Option<Estimate> {
        crate::stats::paired_ratio(&self.timings[a].samples_ms, &self.timings[b].samples_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(reps: usize, budget_ms: u64) -> TimingPlan {
        TimingPlan::new(0, reps, Duration::from_millis(budget_ms))
    }

    #[test]
    fn adaptive_repeat_stops_at_a_narrow_interval() {
        // Identical times: the interval is a point from the 6th run on (the fewest with a
        // 95 % order-statistic interval), so 3 required runs become 6.
        let s = repeat(plan(3, 1_000_000), || Ok::<_, ()>(((), 1.0))).unwrap();
        assert_eq!(s.runs.len(), MIN_SAMPLES_FOR_CI);
        // Without the interval target, exactly the paper's count.
        let fixed = TimingPlan::fixed(0, 3, Duration::from_secs(1000));
        let s = repeat(fixed, || Ok::<_, ()>(((), 1.0))).unwrap();
        assert_eq!(s.runs.len(), 3);
    }

    #[test]
    fn adaptive_repeat_keeps_going_while_wide_up_to_the_cap() {
        // Alternating 1 and 2 ms: the median's interval stays [1, 2], wider than 3 %.
        let mut k = 0;
        let p = plan(3, 1_000_000).adaptive(0.03, 25);
        let s = repeat(p, || {
            k += 1;
            Ok::<_, ()>(((), if k % 2 == 0 { 2.0 } else { 1.0 }))
        })
        .unwrap();
        assert_eq!(s.runs.len(), 25);
        let t = s.timing();
        assert_eq!((t.lo_ms, t.hi_ms), (1.0, 2.0));
        assert_eq!(t.samples_ms.len(), 25);
    }

    #[test]
    fn the_budget_ends_repetitions_but_one_run_is_always_made() {
        let s = repeat(plan(10, 5), || Ok::<_, ()>(((), 3.0))).unwrap();
        assert_eq!(s.runs.len(), 2); // 3 ms, 6 ms ≥ 5 ms: stop
        let s = repeat(TimingPlan::once(), || Ok::<_, ()>(((), 3.0))).unwrap();
        assert_eq!(s.runs.len(), 1);
        let s = repeat(plan(10, 0), || Ok::<_, ()>(((), 3.0))).unwrap();
        assert_eq!(s.runs.len(), 1);
    }

    #[test]
    fn a_floored_plan_makes_its_repetitions_whatever_the_budget_then_stops_at_it() {
        // 3 ms a run, 5 ms of budget: unfloored 2 runs (above); floored the 10 repetitions,
        // and no more, since the budget is spent.
        let s = repeat(plan(10, 5).floored(), || Ok::<_, ()>(((), 3.0))).unwrap();
        assert_eq!(s.runs.len(), 10);
        // Interleaved, the same: 4 rounds of both variants although the first spent the budget.
        let p = TimingPlan::new(0, 4, Duration::from_millis(1)).floored();
        let r = rounds(p, 2, |_| Ok::<_, Stopped>(3.0)).unwrap();
        assert!(r.timings.iter().all(|t| t.runs == 4));
        let r = rounds(TimingPlan { floor: false, ..p }, 2, |_| {
            Ok::<_, Stopped>(3.0)
        })
        .unwrap();
        assert!(r.timings.iter().all(|t| t.runs == 1));
    }

    #[test]
    fn rounds_interleave_and_pair_by_round() {
        // Variant 1 always takes twice variant 0's time of the same round; the rounds drift.
        let mut order = Vec::new();
        let mut round_of = [0usize; 2];
        let r = rounds(TimingPlan::fixed(1, 8, Duration::from_secs(100)), 2, |i| {
            order.push(i);
            round_of[i] += 1;
            let base = round_of[i] as f64; // drift: later rounds are slower
            Ok::<_, Stopped>(if i == 0 { base } else { 2.0 * base })
        })
        .unwrap();
        assert_eq!(r.timings.len(), 2);
        assert_eq!(r.timings[0].runs, 8);
        assert_eq!(r.timings[1].runs, 8);
        // warm-up (one each, in order), then 8 rounds of both.
        assert_eq!(order.len(), 2 + 16);
        for round in order[2..].chunks(2) {
            let mut c = round.to_vec();
            c.sort();
            assert_eq!(c, vec![0, 1]);
        }
        // not always the same order
        assert!(order[2..].chunks(2).any(|c| c[0] == 1));
        assert!(order[2..].chunks(2).any(|c| c[0] == 0));
        let ratio = r.ratio(1, 0).unwrap();
        assert_eq!((ratio.lo, ratio.median, ratio.hi), (2.0, 2.0, 2.0));
        // no variants: no rounds
        let none = rounds(plan(3, 10), 0, |_| Ok::<_, Stopped>(1.0)).unwrap();
        assert!(none.timings.is_empty());
    }

    #[test]
    fn a_retiring_variant_leaves_the_rounds_once_settled_and_pairs_over_the_rounds_both_ran() {
        // Variant 0 (retiring) takes 10 ms every run: settled at its 6th (the fewest runs with
        // an interval; 3 required). Variant 1 alternates 1 and 2 ms (interval [1, 2], never
        // within 3 %): it runs to the cap of 12 rounds. Variant 2 (also retiring) alternates
        // too, so it never settles and stays in every round.
        let mut order = Vec::new();
        let mut made = [0usize; 3];
        let p = plan(3, 1_000_000).adaptive(0.03, 12);
        let r = rounds_retiring(p, 3, &[0, 2], |i| {
            order.push(i);
            made[i] += 1;
            Ok::<_, Stopped>(match i {
                0 => 10.0,
                _ => 1.0 + (made[i] % 2) as f64,
            })
        })
        .unwrap();
        let runs: Vec<usize> = r.timings.iter().map(|t| t.runs).collect();
        assert_eq!(runs, vec![MIN_SAMPLES_FOR_CI, 12, 12]);
        // Its last run is in round 6: none of the 6 later rounds runs it.
        let last0 = order.iter().rposition(|&i| i == 0).unwrap();
        let rounds_before = order[..=last0].iter().filter(|&&i| i == 1).count();
        assert!(rounds_before <= MIN_SAMPLES_FOR_CI, "{order:?}");
        assert_eq!(order.len(), MIN_SAMPLES_FOR_CI + 2 * 12);
        // The ratio pairs the 6 rounds both ran: variant 1's first six are 2, 1, 2, 1, 2, 1
        // ms, so 10 ms over them is 5 or 10 (the lower middle of six is the median).
        let ratio = r.ratio(0, 1).unwrap();
        assert_eq!(ratio.n, MIN_SAMPLES_FOR_CI);
        assert_eq!((ratio.lo, ratio.median, ratio.hi), (5.0, 5.0, 10.0));
        // Without retirement, variant 0 runs in every round.
        let mut made = [0usize; 3];
        let r = rounds(p, 3, |i| {
            made[i] += 1;
            Ok::<_, Stopped>(if i == 0 {
                10.0
            } else {
                1.0 + (made[i] % 2) as f64
            })
        })
        .unwrap();
        assert!(r.timings.iter().all(|t| t.runs == 12));
    }

    #[test]
    fn a_stop_after_a_retirement_keeps_the_whole_rounds() {
        // Variant 0 retires after 6 rounds of 3 runs; rounds 7 and 8 have 2 runs each (the
        // others never settle: 1, 2, 3 ms in turn), and the stop comes in round 9, after its
        // first run: 8 whole rounds of variants 1 and 2, 6 of variant 0.
        let stop_at = 6 * 3 + 2 * 2 + 1;
        let runs = std::cell::Cell::new(0usize);
        let r = rounds_until(
            TimingPlan::new(0, 3, Duration::from_secs(100)).adaptive(0.03, 40),
            3,
            &[0],
            || runs.get() >= stop_at,
            |i| {
                runs.set(runs.get() + 1);
                Ok::<_, Stopped>(if i == 0 {
                    1.0
                } else {
                    (runs.get() % 3) as f64 + 1.0
                })
            },
        )
        .unwrap();
        assert_eq!(runs.get(), stop_at);
        let got: Vec<usize> = r.timings.iter().map(|t| t.runs).collect();
        assert_eq!(got, vec![MIN_SAMPLES_FOR_CI, 8, 8]);
    }

    #[test]
    fn a_stop_in_the_first_round_gives_no_rounds_and_a_later_one_keeps_the_whole_rounds() {
        // The stop comes after `at` runs (2 warm-up runs, then rounds of 3 variants).
        let stopped_after = |at: usize| {
            let runs = std::cell::Cell::new(0usize);
            let r = rounds_until(
                TimingPlan::fixed(1, 8, Duration::from_secs(100)),
                3,
                &[],
                || runs.get() >= at,
                |_| {
                    runs.set(runs.get() + 1);
                    Ok::<_, Stopped>(1.0)
                },
            );
            (r, runs.get())
        };
        // During the warm-up or the first round: no result, and no run after the request.
        for at in [0, 2, 4] {
            let (r, made) = stopped_after(at);
            assert_eq!(r.err(), Some(Stopped), "stop after {at} runs");
            assert_eq!(made, at);
        }
        // In the third round (3 warm-up + 2 whole rounds + 1 run): two whole rounds kept.
        let (r, made) = stopped_after(3 + 2 * 3 + 1);
        let r = r.unwrap();
        assert_eq!(made, 10);
        assert!(r.timings.iter().all(|t| t.runs == 2), "{:?}", r.timings);
    }
}
