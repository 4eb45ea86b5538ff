//! Stability as a measured property: the summary `gpgpu-repro compare A B` opens with. Two
//! runs of one commit on one machine should tell the same story; this counts where they do
//! not. Everything is read from the two runs' files.
//!
//! # What is counted
//! - **Measured values**: every numeric cell of a measured column (ours, and `+` beyond the
//!   paper) of every row both runs have. Where both cells carry a 95 % interval (a
//!   `median [lo, hi]` cell with more than one sample or a non-empty interval), the value is
//!   **stable** when the two intervals overlap (touching ends overlap; [`crate::stats::separated`]),
//!   **apart** otherwise (each apart value is listed). Also counted: both medians inside the
//!   other run's interval (a stricter reading), and, for every measured value with or without
//!   an interval, those **more than 10 % apart**: `max(|a|, |b|) / min(|a|, |b|) > 1.1` (one of
//!   them zero and the other not counts as apart) — the measure of the older compares, for
//!   continuity. Cells without an interval (older runs, counts, errors) count only there.
//!   Where the runs' intervals include a between-run term ([`crate::stats::between`]), the
//!   overlap of the repetitions' intervals alone is counted too, and the quantiles of
//!   `|ln(B / A)|` over the values say how far the runs moved (against `2h`: two intervals of
//!   half-width `h` overlap when their medians are less than `2h` apart).
//! - **Verdict flips** of the findings both runs judge (matched by claim): *held ↔ not held*
//!   (a decisive flip), flips **to or from inconclusive**, and other changes (e.g. *not
//!   tested*).
//! - **Winner flips**: in the `tuning` table, per tuned kernel, the chosen row (`chosen` =
//!   `best`, `best (tie)` or `best (too few rounds)`); in the `versus` table, per algorithm
//!   and input, the faster pipeline (the `faster` column, else the ratio legacy / compute
//!   against 1). A flip where either run calls the two rows a tie (`tie` / `best (tie)`), or
//!   names its winner on too few runs (`best (too few rounds)` / `too few runs`), is a **tie
//!   flip**, counted apart from a real flip. The `versus` table's fastest variant of each pipeline (its
//!   `legacy kernel` / `compute kernel`, which names every variant it ties with, `A ≈ B`) is
//!   compared too, on its own: a change is counted where the two runs name no variant in
//!   common, and apart, as a change within a tie, where they share one.
//! - **Limiter flips**: a `limiter` cell names one limiter or several (`bandwidth ≈ fp32`);
//!   a flip is when the two runs' sets of names are disjoint; a change that keeps a name in
//!   common is counted apart.
//! - **Roof changes**: every measurement of both runs' `device.json` (`bench`), as B / A;
//!   counted when more than 10 % apart (the rule of the values above).
//!
//! # The reading
//! The summary opens with one line: **stable** when at least [`MIN_OVERLAP`] (90 %) of the
//! values with intervals in both runs overlap, no finding flipped *held ↔ not held* and every
//! winner that changed changed within a tie (issue 23's bar); else **not stable**, naming each
//! criterion missed; a sentence when the two runs' benches are of two states of the device
//! (their roofs a median factor beyond [`crate::stats::STATE_FACTOR`] apart,
//! [`Summary::two_states`]: a VM moved to another host, a GPU at other clocks), whose times
//! no interval of either run is meant to cover, with the findings' flips beside it; and a
//! warning when either run's provenance says it was measured on a noisy machine
//! ([`super::load`]).

mod markdown;
pub mod summary;
pub use summary::{APART, MIN_OVERLAP, Summary, is_limiter, measured, roofs_of, ten_percent_apart};

#[cfg(test)]
mod tests;
