//! The experiment runner behind `gpgpu-repro reproduce`.
//!
//! For each paper of the registry ([`crate::papers::PAPERS`]) it parses the paper's
//! `experiments/<paper>.toml`, hands the paper a [`Session`] (the GL context, the mode, table
//! writers, notes, audits, plots), and after the paper's experiments rewrites the paper's
//! record and `REPORT.md`. Rows are saved as they finish (atomically), `--resume` reuses rows
//! measured with the same configuration on the same device, a row whose verification failed
//! is marked FAILED and makes the run end with an error after all the other rows ran.

pub mod config;
pub mod session;

pub use config::{PerMode, Repeat, Sizes};
pub use session::{Session, TableWriter};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::gl::{Gl, GlError};
use crate::papers::{PAPERS, PaperEntry};
use crate::report::Provenance;
use crate::report::files::{OutputError, ensure_writable};
use crate::report::index::write_report;
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
    #[error("unknown paper `{0}`; the papers are: {1}")]
    UnknownPaper(String, String),
    /// An algorithm's own error (zero pivot, breakdown, unsupported size…).
    #[error(transparent)]
    Algorithm(Box<dyn std::error::Error + Send + Sync + 'static>),
    #[error("interrupted (Ctrl-C): the rows finished so far are saved; rerun with --resume")]
    Interrupted,
    /// Rows failed verification or a paper stopped on an error (the rest ran and was saved).
    #[error("the run had {} failure(s):\n  {}", .0.len(), .0.join("\n  "))]
    Failed(Vec<String>),
}

impl RunError {
    /// Wraps an algorithm's typed error.
    pub fn algorithm(e: impl std::error::Error + Send + Sync + 'static) -> RunError {
        RunError::Algorithm(Box::new(e))
    }
}

/// Quick (capped sizes, `figures/quick/`) or full (`figures/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Mode {
    Quick,
    Full,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick",
            Mode::Full => "full",
        }
    }
}

/// What `reproduce` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Paper keys; empty or `all` means every paper.
    pub papers: Vec<String>,
    pub mode: Mode,
    /// Output folder; default `figures/` (full) or `figures/quick/` (quick).
    pub out: Option<PathBuf>,
    pub resume: bool,
    /// Read `experiments/<paper>.toml` from this folder instead of the copy built in.
    pub experiments: Option<PathBuf>,
}

impl Options {
    pub fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| match self.mode {
            Mode::Quick => PathBuf::from("figures/quick"),
            Mode::Full => PathBuf::from("figures"),
        })
    }
}

/// Resolves paper keys against the registry (`all` or nothing: every paper).
pub fn select(keys: &[String]) -> Result<Vec<&'static PaperEntry>, RunError> {
    if keys.is_empty() || keys.iter().any(|k| k == "all") {
        return Ok(PAPERS.to_vec());
    }
    keys.iter()
        .map(|k| {
            crate::papers::find(k).ok_or_else(|| {
                RunError::UnknownPaper(
                    k.clone(),
                    PAPERS.iter().map(|p| p.key).collect::<Vec<_>>().join(", "),
                )
            })
        })
        .collect()
}

/// The text of a paper's experiment file: from `dir` if given, else the built-in copy.
pub fn experiment_text(
    paper: &PaperEntry,
    dir: Option<&Path>,
) -> Result<(String, String), RunError> {
    let name = format!("experiments/{}.toml", paper.key);
    match dir {
        None => Ok((name, paper.experiments.to_string())),
        Some(d) => {
            let path = d.join(format!("{}.toml", paper.key));
            let text = std::fs::read_to_string(&path).map_err(|e| RunError::Config {
                file: path.display().to_string(),
                message: e.to_string(),
            })?;
            Ok((path.display().to_string(), text))
        }
    }
}

/// Runs the selected papers' experiments; returns the number of rows measured.
pub fn reproduce(gl: &Gl, opts: &Options) -> Result<(), RunError> {
    let papers = select(&opts.papers)?;
    let dir = opts.out_dir();
    ensure_writable(&dir)?;
    // Parse every experiment file before any work starts: a typo fails in a second.
    let mut parsed = Vec::new();
    for p in &papers {
        let (file, text) = experiment_text(p, opts.experiments.as_deref())?;
        let table = text.parse::<toml::Table>().map_err(|e| RunError::Config {
            file: file.clone(),
            message: e.to_string(),
        })?;
        parsed.push((p, file, text, table));
    }
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        // A second handler cannot be installed (e.g. in tests): then Ctrl-C just kills us, and
        // the atomic writes still leave complete files only.
        let _ = ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\ninterrupt: finishing the current row (Ctrl-C again to quit now)");
        });
    }
    let progress = indicatif::MultiProgress::new();
    let mut failures = Vec::new();
    let mut last_prov = Provenance::now(gl.info(), opts.mode.name());
    for (paper, file, text, _) in parsed {
        let started = Instant::now();
        let session = Session::new(
            gl,
            paper,
            opts.mode,
            dir.join(paper.key),
            file,
            text,
            opts.resume,
            progress.clone(),
            interrupted.clone(),
        )?;
        let result = (paper.run)(&session);
        let mut prov = Provenance::now(gl.info(), opts.mode.name());
        prov.seconds = started.elapsed().as_secs_f64();
        let record = session.finish(prov.clone())?;
        last_prov = prov;
        write_report(&dir, &order(), &last_prov)?;
        for t in &record.tables {
            if t.failed > 0 {
                failures.push(format!(
                    "{}/{}: {} of {} rows",
                    paper.key, t.id, t.failed, t.rows
                ));
            }
        }
        match result {
            Ok(()) => {}
            Err(RunError::Interrupted) => return Err(RunError::Interrupted),
            // A malformed experiment file is the user's input, not a measurement: stop.
            Err(e @ RunError::Config { .. }) => return Err(e),
            Err(e) => failures.push(format!("{}: stopped by an error: {e}", paper.key)),
        }
        if interrupted.load(Ordering::SeqCst) {
            return Err(RunError::Interrupted);
        }
    }
    write_report(&dir, &order(), &last_prov)?;
    if failures.is_empty() {
        Ok(())
    } else {
        Err(RunError::Failed(failures))
    }
}

fn order() -> Vec<(&'static str, &'static str)> {
    PAPERS.iter().map(|p| (p.key, p.title)).collect()
}
