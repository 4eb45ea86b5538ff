//! The statistics behind every timed number: the median with a distribution-free confidence
//! interval, the spread, paired ratios from interleaved rounds, and the rules that turn
//! intervals into decisions (a verdict, a winner, a tie). Below everything else (it imports
//! nothing of the crate): the GL timing loop, the bench, the runner and the report share it.
//!
//! # The estimator and its interval
//! Timings are skewed (a run can only be slowed down, by the OS, by a cache miss, by another
//! process) and rarely normal, so the estimator is the **median** and its interval is the
//! distribution-free order-statistic interval (Hoefler & Belli, *Scientific Benchmarking of
//! Parallel Computing Systems*, SC'15, §3.1.3; Le Boudec, *Performance Evaluation*, §2.2.1):
//! with `n` samples sorted `x₍₁₎ ≤ … ≤ x₍ₙ₎` and `X ~ Binomial(n, ½)` the number of samples
//! below the true median,
//!
//! ```text
//! P( x₍ⱼ₎ ≤ median ≤ x₍ₙ₋ⱼ₊₁₎ ) = 1 − 2·P(X ≤ j − 1),
//! ```
//!
//! and `j` is the largest index whose coverage is still at least the level (95 %). It needs
//! no assumption on the distribution, only independent samples. With fewer than 6 samples no
//! `j` reaches 95 % (n = 5: [min, max] covers 93.75 %): the interval is then `[min, max]` and
//! [`Estimate::coverage`] says how much it covers, so a table can mark it.
//!
//! The median printed is the project's one definition, the lower median `x₍⌊(n−1)/2⌋₊₁₎` (a
//! time that was measured, not the mean of two).
//!
//! # Paired ratios
//! Variants compared with each other are timed in rounds (each round runs every variant once,
//! in a shuffled order: [`round_order`]), so that drift and other processes hit all of them
//! alike; the ratio of two variants is the median of the per-round ratios `aᵢ / bᵢ`, with the
//! same order-statistic interval ([`paired_ratio`]).
//!
//! # Between runs
//! One run's repetitions are taken within seconds; a second run minutes later may see the
//! device in another spell. A timed interval therefore includes the between-run term of its
//! limiter, measured by the bench's passes and added in quadrature on the log scale; paired
//! ratios carry none, their pairing cancels the spell ([`between`], where the model is stated:
//! ISO 5725's reproducibility beside the repetitions' repeatability).
//!
//! # Decisions
//! - A claim "statistic ≥ threshold" is *held* when the whole interval is at or above it,
//!   *not held* when the whole interval is below it, otherwise *undecided* ([`decide`]).
//! - Two estimates differ only when their intervals do not overlap ([`separated`]); a winner
//!   is declared only when it separates from the runner-up ([`winner`]), otherwise the
//!   candidates that overlap the fastest are a tie, broken by the simplest candidate (the
//!   first in the caller's order) — the rule is the caller's to state. Variants timed in the
//!   same rounds are told apart by their paired ratios instead ([`paired_winner`]).

use serde::{Deserialize, Serialize};

/// The confidence level of every interval the project prints.
pub const LEVEL: f64 = 0.95;

/// The fewest samples whose order-statistic interval reaches [`LEVEL`] (n = 6: 96.9 %).
pub const MIN_SAMPLES_FOR_CI: usize = 6;

/// The index of the median in `n ≥ 1` sorted samples: `(n − 1) / 2`, the lower median.
pub fn median_index(n: usize) -> usize {
    n.saturating_sub(1) / 2
}

/// `P(X ≤ k)` for `X ~ Binomial(n, ½)`, summed in logs (no overflow for any `n`).
fn binom_half_cdf(n: usize, k: usize) -> f64 {
    if k >= n {
        return 1.0;
    }
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_c = 0.0; // ln C(n, 0)
    let mut sum = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        sum += (ln_c + ln_half_n).exp();
    }
    sum.min(1.0)
}

/// The 0-based indices `(lo, hi)` into `n` sorted samples of the order-statistic interval of
/// the median at `level`, and its exact coverage. Fewer than [`MIN_SAMPLES_FOR_CI`] samples
/// (at 95 %) give `(0, n − 1)` with the coverage of [min, max].
pub fn median_ci_indices(n: usize, level: f64) -> (usize, usize, f64) {
    if n == 0 {
        return (0, 0, 0.0);
    }
    let alpha = 1.0 - level;
    // j (1-based) = the largest j ≥ 1 with 2·P(X ≤ j−1) ≤ α; the interval [x₍ⱼ₎, x₍ₙ₋ⱼ₊₁₎].
    let mut j = 0;
    while j < n / 2 && 2.0 * binom_half_cdf(n, j) <= alpha {
        j += 1;
    }
    if j == 0 {
        let cover = 1.0 - 2.0 * 0.5f64.powi(n as i32);
        return (0, n - 1, cover.max(0.0));
    }
    let cover = 1.0 - 2.0 * binom_half_cdf(n, j - 1);
    (j - 1, n - j, cover)
}

/// A median with its confidence interval, the spread and the samples it comes from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The lower median ([`median_index`]).
    pub median: f64,
    /// The interval's ends ([`median_ci_indices`] at [`LEVEL`]).
    pub lo: f64,
    pub hi: f64,
    /// How much the interval covers (≥ [`LEVEL`] from [`MIN_SAMPLES_FOR_CI`] samples on).
    pub coverage: f64,
    /// Coefficient of variation, standard deviation / mean (0 for one sample).
    pub cv: f64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    /// Every sample, in the order measured (empty for an estimate derived by [`Estimate::map`]
    /// from another one, which keeps its own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<f64>,
    /// How many samples the estimate rests on.
    pub n: usize,
    /// The between-run half-width (log units) the interval includes ([`between`]); 0 when
    /// the interval is the repetitions' alone.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub between: f64,
}

/// Whether `v` is 0 (serde's `skip_serializing_if` for a term that is absent).
pub fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

impl Estimate {
    /// The estimate of `samples` (non-finite samples are ignored); `None` when none is left.
    pub fn of(samples: &[f64]) -> Option<Estimate> {
        let mut s: Vec<f64> = samples.iter().copied().filter(|v| v.is_finite()).collect();
        if s.is_empty() {
            return None;
        }
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let (l, h, coverage) = median_ci_indices(n, LEVEL);
        let mean = s.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            s.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Estimate {
            median: s[median_index(n)],
            lo: s[l],
            hi: s[h],
            coverage,
            cv: if mean != 0.0 {
                var.sqrt() / mean.abs()
            } else {
                0.0
            },
            min: s[0],
            max: s[n - 1],
            mean,
            samples: samples.to_vec(),
            n,
            between: 0.0,
        })
    }

    /// A single value with no spread (a count, a value measured once).
    pub fn exact(v: f64) -> Estimate {
        Estimate {
            median: v,
            lo: v,
            hi: v,
            coverage: 0.0,
            cv: 0.0,
            min: v,
            max: v,
            mean: v,
            samples: vec![],
            n: 1,
            between: 0.0,
        }
    }

    /// A derived value `v` with an interval `[lo, hi]` of the given coverage but no samples of
    /// its own (a fraction of a bound, a ratio of two independently timed rows): printed with
    /// its interval, counted as more than one run.
    pub fn with_interval(v: f64, lo: f64, hi: f64, coverage: f64) -> Estimate {
        Estimate {
            lo,
            hi,
            min: lo,
            max: hi,
            coverage,
            n: 2,
            ..Estimate::exact(v)
        }
    }

    /// `a / b` of two estimates measured independently (not in the same rounds): the
    /// conservative interval `[a.lo / b.hi, a.hi / b.lo]` of their repetitions' intervals, as
    /// sure as the less sure of the two, then widened by their between-run terms in quadrature
    /// (two runs' spells, independent); the bare ratio of the medians where `b`'s interval is
    /// not positive or the interval is a point.
    pub fn ratio_unpaired(a: &Estimate, b: &Estimate) -> Estimate {
        let v = a.median / b.median;
        let (aw, bw) = (a.within(), b.within());
        if bw.lo > 0.0 && bw.hi > 0.0 {
            let (lo, hi) = (aw.lo / bw.hi, aw.hi / bw.lo);
            if hi > lo {
                return Estimate::with_interval(v, lo, hi, a.coverage.min(b.coverage))
                    .widen(a.between.hypot(b.between));
            }
        }
        Estimate::exact(v)
    }

    /// The interval's half-width relative to the median: `max(hi − m, m − lo) / |m|`.
    pub fn rel_half_width(&self) -> f64 {
        if self.median == 0.0 {
            return if self.hi == self.lo {
                0.0
            } else {
                f64::INFINITY
            };
        }
        (self.hi - self.median).max(self.median - self.lo) / self.median.abs()
    }

    /// The interval with the between-run half-width `h` (log units) added in quadrature to
    /// both ends ([`between`]); unchanged where `h` is 0, where the estimate already includes
    /// a term, or where median or ends are not positive (a log scale needs them positive).
    pub fn widen(&self, h: f64) -> Estimate {
        if h.is_nan()
            || h <= 0.0
            || self.between > 0.0
            || !(self.median > 0.0 && self.lo > 0.0 && self.hi > 0.0)
        {
            return self.clone();
        }
        let down = (self.median / self.lo).ln().max(0.0);
        let up = (self.hi / self.median).ln().max(0.0);
        Estimate {
            lo: self.median * (-down.hypot(h)).exp(),
            hi: self.median * up.hypot(h).exp(),
            between: h,
            ..self.clone()
        }
    }

    /// The repetitions' interval alone: the between-run term taken out of both ends (the
    /// same estimate where there is none).
    pub fn within(&self) -> Estimate {
        if self.between == 0.0 || !(self.median > 0.0 && self.lo > 0.0 && self.hi > 0.0) {
            return self.clone();
        }
        let down = between::remove_term((self.median / self.lo).ln(), self.between);
        let up = between::remove_term((self.hi / self.median).ln(), self.between);
        Estimate {
            lo: self.median * (-down).exp(),
            hi: self.median * up.exp(),
            between: 0.0,
            ..self.clone()
        }
    }

    /// [`Estimate::rel_half_width`] of the repetitions' interval alone ([`Estimate::within`]).
    pub fn within_rel_half_width(&self) -> f64 {
        self.within().rel_half_width()
    }

    /// Whether the interval reaches [`LEVEL`] (enough samples).
    pub fn has_ci(&self) -> bool {
        self.coverage >= LEVEL
    }

    /// The estimate of `f(x)` for a monotone `f` (increasing or decreasing): median and ends
    /// mapped, the ends reordered; the spread and the samples are not carried (a derived
    /// number such as GFLOPS = flops / time keeps the interval of its time).
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Estimate {
        let (a, b) = (f(self.lo), f(self.hi));
        let (x, y) = (f(self.min), f(self.max));
        Estimate {
            median: f(self.median),
            lo: a.min(b),
            hi: a.max(b),
            coverage: self.coverage,
            cv: self.cv,
            min: x.min(y),
            max: x.max(y),
            mean: f(self.mean),
            samples: vec![],
            n: self.n,
            between: self.between,
        }
    }

    /// `[lo, hi]`.
    pub fn interval(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }
}

/// Whether two intervals are apart: `Some(Less)` when `a` lies wholly below `b`,
/// `Some(Greater)` when wholly above, `None` when they overlap (touching ends overlap).
pub fn separated(a: (f64, f64), b: (f64, f64)) -> Option<std::cmp::Ordering> {
    if a.1 < b.0 {
        Some(std::cmp::Ordering::Less)
    } else if a.0 > b.1 {
        Some(std::cmp::Ordering::Greater)
    } else {
        None
    }
}

/// A decision read off an interval against a threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The whole interval is on the claim's side of the threshold.
    Holds,
    /// The whole interval is on the other side.
    Fails,
    /// The interval contains the threshold.
    Undecided,
}

/// The claim "statistic ≥ threshold" (`at_least`) or "statistic ≤ threshold" (`!at_least`)
/// judged on the statistic's interval `ci`.
pub fn decide(ci: (f64, f64), threshold: f64, at_least: bool) -> Decision {
    let (lo, hi) = ci;
    let (holds, fails) = if at_least {
        (lo >= threshold, hi < threshold)
    } else {
        (hi <= threshold, lo > threshold)
    };
    if holds {
        Decision::Holds
    } else if fails {
        Decision::Fails
    } else {
        Decision::Undecided
    }
}

/// The outcome of picking the fastest of several candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The chosen candidate's index.
    pub chosen: usize,
    /// Every candidate whose interval overlaps the fastest one's (the fastest included):
    /// more than one means a tie, broken by taking the first of them in the caller's order.
    pub tied: Vec<usize>,
}

impl Pick {
    /// Whether the choice rests on separated intervals.
    pub fn clear(&self) -> bool {
        self.tied.len() <= 1
    }
}

/// The fastest candidate (lowest median) of `cands` (`(index, interval, median)`); when its
/// interval overlaps others', all of them tie and the first of them in the order given (the
/// simplest candidate, by the caller's ordering) is chosen. `None` for no candidate.
pub fn winner(cands: &[(usize, (f64, f64), f64)]) -> Option<Pick> {
    let best = cands.iter().min_by(|a, b| a.2.total_cmp(&b.2))?;
    let tied: Vec<usize> = cands
        .iter()
        .filter(|c| separated(c.1, best.1).is_none())
        .map(|c| c.0)
        .collect();
    Some(Pick {
        chosen: tied[0],
        tied,
    })
}

/// The median ratio `aᵢ / bᵢ` of paired samples (round `i` of both) with its interval; no
/// between-run term, the pairing already cancels what a spell does to both ([`between`]).
/// Pairs with a non-finite or zero denominator are dropped; `None` when none is left.
pub fn paired_ratio(a: &[f64], b: &[f64]) -> Option<Estimate> {
    let r: Vec<f64> = a
        .iter()
        .zip(b)
        .filter(|(_, y)| **y != 0.0)
        .map(|(x, y)| x / y)
        .filter(|v| v.is_finite())
        .collect();
    per_round(&r)
}

/// The estimate of a statistic taken once per round of interleaved variants (a paired ratio,
/// a mean of several ratios): the rounds' own interval, no between-run term ([`between`]).
pub fn per_round(values: &[f64]) -> Option<Estimate> {
    Estimate::of(values)
}

/// The fastest of variants timed in the same rounds (`cands`: `(index, samples)`, sample `r`
/// of each from round `r`), judged on their paired ratios alone ([`paired_ratio`], no
/// between-run term): a candidate is *beaten* when some other's paired ratio to it has an
/// interval wholly below 1 (from two rounds on; with fewer than [`MIN_SAMPLES_FOR_CI`] the
/// interval is the rounds' [min, max], as everywhere; one round is no interval). The candidates no other beats tie (`tied`, in the order given);
/// the first of them, the simplest by the caller's order, is chosen, so the chosen candidate
/// is never slower than another by an interval that excludes 1. Where every candidate is
/// beaten by another (a cycle of medians of ratios), the one with the least median time
/// stands alone. `None` for no candidate.
pub fn paired_winner(cands: &[(usize, &[f64])]) -> Option<Pick> {
    let beaten = |i: usize| {
        cands.iter().enumerate().any(|(j, other)| {
            j != i && paired_ratio(other.1, cands[i].1).is_some_and(|r| r.n > 1 && r.hi < 1.0)
        })
    };
    let tied: Vec<usize> = (0..cands.len())
        .filter(|&i| !beaten(i))
        .map(|i| cands[i].0)
        .collect();
    let tied = if tied.is_empty() {
        let median = |s: &[f64]| Estimate::of(s).map_or(f64::INFINITY, |e| e.median);
        let best = cands
            .iter()
            .min_by(|a, b| median(a.1).total_cmp(&median(b.1)))?;
        vec![best.0]
    } else {
        tied
    };
    Some(Pick {
        chosen: tied[0],
        tied,
    })
}

/// The order in which round `round` runs `k` variants: a permutation of `0..k`, shuffled by a
/// generator seeded with the round (Fisher–Yates on SplitMix64), so that a run is repeatable
/// and no variant always runs first or right after another.
pub fn round_order(k: usize, round: u64) -> Vec<usize> {
    let mut state = round.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..k).collect();
    for i in (1..k).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// Whether two values are within `tol` (relative, of the larger) of each other: the rule that
/// labels a bound with two limiters ("bandwidth ≈ fp32") when their terms are that close.
pub fn within(a: f64, b: f64, tol: f64) -> bool {
    let m = a.abs().max(b.abs());
    m == 0.0 || (a - b).abs() <= tol * m
}

pub mod between;
pub use between::{
    BetweenRun, BetweenTerms, LimiterTerm, between_run, between_term, set_between_terms,
};

#[cfg(test)]
mod tests;
