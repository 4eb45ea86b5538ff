//! Why a factorization could not be made.

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

impl LuError {
    /// `Err(Size)` unless `a` holds an `n × n` matrix with `n` > 0 (row-major), before any GL
    /// object is made for it.
    pub fn check_square(a: &[f32], n: usize) -> Result<(), LuError> {
        if n == 0 || a.len() != n * n {
            return Err(LuError::Size(format!(
                "{} values for an {n} × {n} matrix",
                a.len()
            )));
        }
        Ok(())
    }
}
