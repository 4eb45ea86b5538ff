//! Why `bench` failed, and the stop flag a Ctrl-C or SIGTERM sets.

use std::path::PathBuf;

use crate::gl::GlError;

/// Why `bench` (or a bound) failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", .path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error(transparent)]
    Plot(#[from] crate::report::plot::PlotError),
    #[error("invalid work for a bound: {0}")]
    Work(String),
    /// A full bench refused on a busy machine (nothing written).
    #[error(transparent)]
    Noisy(#[from] crate::report::load::NoisyError),
    /// Stopped by Ctrl-C or SIGTERM ([`interrupt`]): no profile is written.
    #[error("the bench was interrupted (Ctrl-C or SIGTERM); no profile was written")]
    Interrupted,
}

/// Set by [`interrupt`]: the bench stops before its next measurement.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Stops a bench in progress (the program's Ctrl-C / SIGTERM handler calls it): it makes no
/// further measurement, stops its child pass, writes no profile and returns
/// [`BenchError::Interrupted`]. A measurement under way finishes first (a few seconds).
pub fn interrupt() {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
}

pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}
