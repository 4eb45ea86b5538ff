//! A paper as the registry lists it: the [`Paper`] trait that ties a paper's typed
//! configuration to its run, and its [`PaperEntry`] (key, title, experiment files, tables,
//! run function, the report's text).
//!
//! The entry's run takes a [`Session`], so the session does not hold the entry: it holds the
//! entry's [`PaperInfo`] (key, title, files, tables), defined below both in `entry.rs`. The
//! entries themselves live in the registry (`crate::registry`), above the papers; the runner
//! only defines their shape, so that nothing below the registry imports it.

use super::entry::{ExperimentFile, Experiments, PaperInfo, TableSpec};
use super::error::RunError;
use super::session::handle::Session;

/// A paper: the type its own experiment file (`<key>.toml`) parses into, and its run on that
/// configuration (wgpu's example trait). The registry lists it through the object-safe
/// adapter [`run_paper::<P>`](run_paper) and its file as
/// [`ExperimentFile::of::<P::Config>`](ExperimentFile::of).
pub trait Paper {
    /// `experiments/<key>.toml`, typed; validated before any paper starts.
    type Config: Experiments;
    /// Runs the paper's experiments (tables, plots, notes) on its configuration.
    fn run(s: &Session, config: &Self::Config) -> Result<(), RunError>;
}

/// [`Paper::run`] as a plain function of the session: hands `P` the configuration parsed at
/// load ([`Session::config`]), without parsing it again.
pub fn run_paper<P: Paper>(s: &Session) -> Result<(), RunError> {
    P::run(s, s.config::<P::Config>()?)
}

/// One paper: its key, what it is, its experiment files, and the function that runs it.
pub struct PaperEntry {
    /// The key used on the command line and for folders (`glsl/`, `figures/`, …).
    pub key: &'static str,
    /// Authors, year and title, as the report's section heading.
    pub title: &'static str,
    /// The files it reads: its own `<key>.toml` first (handed to its run; [`Session::config`]),
    /// then any others ([`Session::config_ref`]), e.g. tridiagonal's `sims.toml`.
    pub files: &'static [ExperimentFile],
    /// Its tables and what each needs from the device, in the order they run (in groups: a
    /// paper's own tables, then e.g. its simulations'): `info` lists them, and
    /// [`Session::runs`] skips a table whose needs the device lacks.
    pub tables: &'static [&'static [TableSpec]],
    /// Runs the paper's experiments (tables, plots, notes) in a session: [`run_paper::<P>`]
    /// for the paper `P`.
    pub run: fn(&Session) -> Result<(), RunError>,
    /// Its citation, original setup and what of it is not reproduced (the report's
    /// method, omissions and references), declared in the paper's folder.
    pub original: &'static crate::report::article::Original,
}

impl PaperEntry {
    /// The paper as the report lists it.
    pub fn meta(&self) -> crate::report::article::PaperMeta {
        crate::report::article::PaperMeta {
            key: self.key,
            title: self.title,
            original: self.original,
        }
    }

    /// What a [`Session`] of the paper knows of it: everything but the run and the report's
    /// text.
    pub fn info(&self) -> PaperInfo {
        PaperInfo {
            key: self.key,
            title: self.title,
            files: self.files,
            tables: self.tables,
        }
    }
}

impl std::fmt::Debug for PaperEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PaperEntry({})", self.key)
    }
}
