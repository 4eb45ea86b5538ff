//! The registry of papers: one entry per paper, shared by the CLI and the runner.
//!
//! Adding a paper = one module under `src/papers/<paper>/` that exports a `PAPER` entry,
//! one line in [`PAPERS`], and `experiments/<paper>.toml`.

pub mod fem_storage;
pub mod matmul;

use crate::runner::{RunError, Session};

/// One paper: its key, what it is, its experiment file, and the function that runs it.
pub struct PaperEntry {
    /// The key used on the command line and for folders (`glsl/`, `figures/`, …).
    pub key: &'static str,
    /// Authors, year and title, as the report's section heading.
    pub title: &'static str,
    /// The built-in copy of `experiments/<key>.toml`.
    pub experiments: &'static str,
    /// Runs the paper's experiments (tables, plots, notes) in a session.
    pub run: fn(&Session) -> Result<(), RunError>,
}

impl std::fmt::Debug for PaperEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PaperEntry({})", self.key)
    }
}

/// Every paper, in the order of the report.
pub static PAPERS: &[&PaperEntry] = &[&matmul::PAPER, &fem_storage::PAPER];

/// The paper with this key.
pub fn find(key: &str) -> Option<&'static PaperEntry> {
    PAPERS.iter().copied().find(|p| p.key == key)
}
