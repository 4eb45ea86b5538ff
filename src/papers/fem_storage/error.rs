//! Errors of the FEM pipeline.

use crate::gl::GlError;

/// Errors of the FEM pipeline.
#[derive(Debug, thiserror::Error)]
pub enum FemError {
    #[error("invalid grid: {0}")]
    InvalidGrid(String),
    #[error("invalid problem: {0}")]
    InvalidProblem(String),
    #[error("row {0} does not start with its diagonal (the layout of Fig. 4 needs it first)")]
    Layout(usize),
    #[error("zero diagonal in row {0}: Jacobi cannot divide by it")]
    ZeroDiagonal(usize),
    #[error("Jacobi diverged at iteration {iteration}: relative change {rel_change:e}")]
    Diverged { iteration: usize, rel_change: f64 },
    #[error("direct solve failed: {0}")]
    Direct(String),
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A stop request (Ctrl-C or SIGTERM) came before one round of the timed variants ended.
    #[error(transparent)]
    Stopped(#[from] crate::gl::timing::Stopped),
}
