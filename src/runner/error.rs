//! Errors of a reproduction run ([`RunError`]).

use crate::gl::GlError;
use crate::report::files::OutputError;
use crate::report::plot::PlotError;

/// Errors of a reproduction run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A malformed experiment file: names the file, the line and the problem.
    #[error("{file}: {message}")]
    Config { file: String, message: String },
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// A full run refused on a busy machine (nothing written).
    #[error(transparent)]
    Noisy(#[from] crate::report::load::NoisyError),
    #[error("unknown paper `{0}`; the papers are: {1}")]
    UnknownPaper(String, String),
    /// An algorithm's own error (zero pivot, breakdown, unsupported size…).
    #[error(transparent)]
    Algorithm(Box<dyn std::error::Error + Send + Sync + 'static>),
    #[error(
        "interrupted (Ctrl-C or SIGTERM): the rows finished so far are saved; rerun with --resume"
    )]
    Interrupted,
    /// Rows failed verification or a paper stopped on an error (the rest ran and was saved).
    #[error("the run had {} failure(s):\n  {}", .0.len(), .0.join("\n  "))]
    Failed(Vec<String>),
}

/// A stop request seen by a repetition loop ends the run as Ctrl-C does.
impl From<crate::gl::timing::Stopped> for RunError {
    fn from(_: crate::gl::timing::Stopped) -> Self {
        RunError::Interrupted
    }
}

impl RunError {
    /// Wraps an algorithm's typed error.
    pub fn algorithm(e: impl std::error::Error + Send + Sync + 'static) -> RunError {
        RunError::Algorithm(Box::new(e))
    }
}
