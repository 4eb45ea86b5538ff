//! The statistics behind every timed number: the median with a distribution-free confidence
//! interval, the spread, paired ratios from interleaved rounds, and the rules that turn
//! intervals into decisions (a verdict, a winner, a tie); and the project's one error measure
//! of a result against its CPU reference ([`max_rel_error`], in [`error`]). Below everything
//! else (it imports nothing of the crate): the GL timing loop, the bench, the runner, the
//! report and the papers share it.
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
//! limiter, measured by the bench's passes (minutes apart) or, where larger, by the drift
//! probes of the run before and this run's start (hours apart), added in quadrature on the
//! log scale; paired
//! ratios carry none, their pairing cancels the spell ([`between`], where the model is stated:
//! ISO 5725's reproducibility beside the repetitions' repeatability).
//! The run's own spells, seconds apart in the papers' kernels, are read from each time's
//! runs, first half against second ([`Estimate::half_shift`]), and reported beside the bench's
//! terms (the report's *Threats*); they widen no interval.
//!
//! # Decisions
//! - A claim "statistic ≥ threshold" is *held* when the whole interval is at or above it,
//!   *not held* when the whole interval is below it, otherwise *undecided* ([`decide`]).
//! - Two estimates differ only when their intervals do not overlap ([`separated`]); a winner
//!   is declared only when it separates from the runner-up ([`winner`]), otherwise the
//!   candidates that overlap the fastest are a tie, broken by the simplest candidate (the
//!   first in the caller's order) — the rule is the caller's to state. Variants timed in the
//!   same rounds are told apart by their paired ratios instead ([`paired_winner`]).

pub mod between;
pub mod decision;
pub mod error;
pub mod estimate;
pub mod median;

pub use between::{
    BetweenRun, BetweenTerms, LimiterTerm, STATE_FACTOR, SpanTerm, between_run, between_term,
    set_between_terms,
};
pub use decision::{
    Decision, Pick, band_narrower_than_spread, decide, paired_ratio, paired_winner, per_round,
    round_order, separated, winner, within,
};
pub use error::{max_rel_error, max_rel_error_with};
pub use estimate::{Estimate, HALVES_MIN_SAMPLES, is_zero};
pub use median::{LEVEL, MIN_SAMPLES_FOR_CI, median_ci_indices, median_index};

#[cfg(test)]
mod tests;
