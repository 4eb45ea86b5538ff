//! What can go wrong in a trace ([`TraceError`]).

use std::path::PathBuf;

use crate::gl::GlError;
use crate::report::files::OutputError;

/// What can go wrong in a trace.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("unknown technique `{0}`; known: {1}")]
    Unknown(String, String),
    #[error("{technique} cannot take this input: {why}")]
    BadInput { technique: String, why: String },
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("{0}")]
    Solver(String),
    #[error("drawing the trace: {0}")]
    Render(String),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("creating {path}: {source}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
}
