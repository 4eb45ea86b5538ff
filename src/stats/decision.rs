//! Decisions read off intervals: apart or not, a claim held or not, a winner or a tie.

use super::estimate::Estimate;

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

/// Whether the band `[lo, hi]` is narrower than the spread a between-run term `between` (log
/// units, carried on each side of an interval) gives a statistic: then no run can place the
/// statistic's interval inside the band.
pub fn band_narrower_than_spread((lo, hi): (f64, f64), between: f64) -> bool {
    (hi / lo).ln() < 2.0 * between
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
    /// The candidates tied with the chosen one (it included): more than one means a tie,
    /// broken as the function that made the pick says.
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
/// between-run term, the pairing already cancels what a spell does to both ([`between`](super::between)).
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
/// a mean of several ratios): the rounds' own interval, no between-run term ([`between`](super::between)).
pub fn per_round(values: &[f64]) -> Option<Estimate> {
    Estimate::of(values)
}

/// The fastest of variants timed in the same rounds (`cands`: `(index, samples)`, sample `r`
/// of each from round `r`), judged on their paired ratios alone ([`paired_ratio`], no
/// between-run term): a candidate is *beaten* when some other's paired ratio to it has an
/// interval wholly below 1 (from two rounds on; with fewer than
/// [`MIN_SAMPLES_FOR_CI`](super::median::MIN_SAMPLES_FOR_CI) the interval is the rounds'
/// [min, max], as everywhere; one round is no interval). The candidates no other beats tie
/// (`tied`, in the order given), and the one of them with the least median time is chosen
/// (the first of equal medians), so the chosen candidate is never slower than another by an
/// interval that excludes 1, and among those it is the fastest estimate. (Breaking the tie by
/// the caller's order instead — "the simplest" — chose a candidate 10× slower than another
/// when a slow device's budget allowed one round, where nothing can be beaten.) Where every
/// candidate is beaten by another (a cycle of medians of ratios), the one with the least
/// median time stands alone. `None` for no candidate.
pub fn paired_winner(cands: &[(usize, &[f64])]) -> Option<Pick> {
    let beaten = |i: usize| {
        cands.iter().enumerate().any(|(j, other)| {
            j != i && paired_ratio(other.1, cands[i].1).is_some_and(|r| r.n > 1 && r.hi < 1.0)
        })
    };
    let median = |s: &[f64]| Estimate::of(s).map_or(f64::INFINITY, |e| e.median);
    let unbeaten: Vec<usize> = (0..cands.len()).filter(|&i| !beaten(i)).collect();
    // No one unbeaten (a cycle): the least median of all stands alone.
    let cycle = unbeaten.is_empty();
    let pool: Vec<usize> = if cycle {
        (0..cands.len()).collect()
    } else {
        unbeaten
    };
    let fastest = pool
        .iter()
        .copied()
        .min_by(|&a, &b| median(cands[a].1).total_cmp(&median(cands[b].1)))?;
    let tied: Vec<usize> = if cycle {
        vec![cands[fastest].0]
    } else {
        pool.iter().map(|&i| cands[i].0).collect()
    };
    Some(Pick {
        chosen: cands[fastest].0,
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
