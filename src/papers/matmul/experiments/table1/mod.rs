//! Table 1: Algorithm 3 (CPU) against Algorithms 1 + 2 (GPU) for N×N matrices, with the
//! labelled variants in the same table: Algorithm 1 as printed (a full 64×64 grid on every
//! dispatch), and beyond the paper the blocked compute kernel, the multipass
//! fragment kernel and a tuned CPU SGEMM. GFLOPS by eq. (2): 2N³ / (10⁶ · ms).
//!
//! Timing (§4: "10회 측정하여 평균"): every variant of a row is timed interleaved
//! ([`rounds`](crate::gl::timing::rounds)): warm-up, then rounds (each variant once per round,
//! a shuffled order) until each has at least the paper's 10 runs and its median's 95 % interval
//! is within the file's `ci_target` (or the cap, or the budget); the table shows the median with
//! its interval and the mean (the paper's statistic); the ratios are medians of paired
//! per-round ratios. The warm-up is skipped where the previous size, scaled by N³, predicts one
//! run longer than the whole budget.
//!
//! The table's columns are `columns.rs`, its captions `captions.rs`, one row's measurement
//! `measure.rs`, the N³ prediction `predict.rs`, the notes `notes.rs`, the full-grid edge
//! `edge.rs`; `run.rs` runs the sizes.

mod captions;
mod columns;
mod edge;
mod measure;
mod notes;
mod predict;
mod run;

pub use notes::within_half;
pub use run::run;
