//! Table 4: the GPU Jacobi (GL compute on the paper's flattened layout, §IV, Fig. 4–5)
//! against a direct sparse solve in the role of MATLAB's `A\b`, at the paper's matrix sizes.
//!
//! Each solve is capped by a wall-time budget; where it stops first, the iterations still
//! needed are **estimated** ([`JacobiInfo::extrapolate_with`](crate::papers::fem_storage::jacobi::JacobiInfo::extrapolate_with)): ln(tol/δ_k) / ln ρ from the
//! last relative change δ_k, assuming the change keeps shrinking by exactly the Jacobi
//! spectral radius ρ per iteration (the slowest mode dominating, as in exact arithmetic).
//!
//! The table is `run.rs`, one measured row `solve.rs`, what a row found (measured or read back
//! from a reused row) `finding.rs`, the notes and the feasibility finding `notes.rs`.

mod finding;
mod notes;
mod run;
mod solve;

pub use run::run;
