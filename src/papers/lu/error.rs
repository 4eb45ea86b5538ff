//! Why a factorization could not be made, and the check of a GPU's factors that says it.

use super::cpu;
use crate::gl::GlError;

/// Why a factorization could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LuError {
    /// The pivot of step `step` (0-based) is zero or not finite: LU without pivoting breaks
    /// down there (use the pivoting variant).
    #[error(
        "zero or non-finite pivot {value} at step {step} (0-based): LU without pivoting breaks down"
    )]
    Pivot { step: usize, value: f64 },
    /// The factors hold a non-finite value although every pivot is finite (overflow).
    #[error("non-finite factor entry at row {row}, column {col}")]
    NonFinite { row: usize, col: usize },
    #[error("unsupported size: {0}")]
    Size(String),
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A stop request (Ctrl-C or SIGTERM) came before one round of the timed variants ended.
    #[error(transparent)]
    Stopped(#[from] crate::gl::timing::Stopped),
}

/// The packed factors `lu` (row-major `n × n`) of a GPU decomposition, or the first zero or
/// non-finite pivot in them ([`LuError::Pivot`]), or else the first non-finite entry
/// ([`LuError::NonFinite`]).
pub(crate) fn checked_factors(lu: Vec<f32>, n: usize) -> Result<Vec<f32>, LuError> {
    if let Some((step, value)) = cpu::first_bad_pivot(&lu, n) {
        return Err(LuError::Pivot {
            step,
            value: value as f64,
        });
    }
    if let Some(pos) = lu.iter().position(|x| !x.is_finite()) {
        return Err(LuError::NonFinite {
            row: pos / n,
            col: pos % n,
        });
    }
    Ok(lu)
}
