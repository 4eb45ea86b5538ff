//! What can go wrong in a simulation ([`SimError`]).

use std::path::PathBuf;

use crate::gl::error::GlError;

/// What can go wrong in a simulation.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("unknown solver `{name}`; the solvers are: {known}")]
    UnknownSolver { name: String, known: String },
    #[error("solver {solver}: {message}")]
    Solver { solver: String, message: String },
    #[error("invalid parameters: {0}")]
    Params(String),
    #[error("writing frame {path}: {message}")]
    Frame { path: PathBuf, message: String },
    #[error("{0}")]
    Window(String),
}
