//! What can go wrong in a tridiagonal solve.

use crate::gl::GlError;

/// What can go wrong in a tridiagonal solve.
#[derive(Debug, thiserror::Error)]
pub enum TridiagonalError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("zero pivot in system {system}, row {row}: the system is singular or needs pivoting")]
    ZeroPivot { system: usize, row: usize },
    #[error(
        "non-finite solution in system {system} at unknown {index}: a zero pivot (singular system or one that needs pivoting)"
    )]
    NonFinite { system: usize, index: usize },
    #[error("bad systems texture: {0}")]
    Shape(String),
    #[error("not supported: {0}")]
    Unsupported(String),
    #[error("CG did not converge in {iterations} iterations (relative residual {residual:.3e})")]
    NotConverged { iterations: usize, residual: f64 },
}
