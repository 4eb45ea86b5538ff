//! The `tuning` table's id and the words of its `chosen` column (see `runner::tuning`), read
//! by the run that writes them and by `compare`, which counts the choices that changed.

pub const TABLE: &str = "tuning";
pub const KERNEL: &str = "kernel";
pub const CHOSEN: &str = "chosen";
/// The `chosen` cell of a clear winner: no other candidate is unbeaten, on paired ratios of
/// at least [`crate::stats::MIN_SAMPLES_FOR_CI`] rounds (95 % intervals).
pub const BEST: &str = "best";
/// The `chosen` cell of the candidate chosen among tied ones (the least median time).
pub const BEST_TIE: &str = "best (tie)";
/// The `chosen` cell of a winner that beat every other candidate in each of fewer rounds than
/// a 95 % interval needs (the rounds' [min, max] excluded 1): chosen, but not shown to be
/// faster at 95 %, as `versus` says `too few runs`.
pub const BEST_FEW: &str = "best (too few rounds)";
/// The `chosen` cell of a candidate tied with the chosen one.
pub const TIE: &str = "tie";

/// Whether a `chosen` cell names the chosen candidate.
pub fn is_chosen(cell: &str) -> bool {
    cell == BEST || cell == BEST_TIE || cell == BEST_FEW
}
