//! What the runner knows of a paper: its [`PaperEntry`] (key, title, experiment files, run
//! function), and how an experiment file is loaded and checked before any work starts.
//!
//! The entries themselves live in the registry (`crate::registry`), above the papers; the
//! runner only defines their shape, so that nothing below the registry imports it.
//!
//! Loading a file ([`load`]) is three steps, each naming the file actually read:
//! 1. TOML syntax (`toml::Table`);
//! 2. every float anywhere in the file is finite ([`reject_non_finite`]: `nan`, `inf` are
//!    valid TOML but never a valid size, budget, tolerance or published number);
//! 3. the paper's typed configuration ([`Experiments`]) deserializes (types, unknown keys,
//!    [`super::Repeat`]'s own ranges) and passes the paper's [`Experiments::validate`].

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::{Mode, RunError, Session};
use crate::gl::DeviceInfo;

/// One experiment file a paper reads.
pub struct ExperimentFile {
    /// The file's stem: `--experiments DIR` reads `DIR/<name>.toml`.
    pub name: &'static str,
    /// The built-in copy of `experiments/<name>.toml` (`include_str!`).
    pub builtin: &'static str,
    /// Parses the text into the typed configuration and validates it
    /// (usually [`check::<Config>`](check)).
    pub check: fn(&str, &Check) -> Result<(), String>,
}

/// One paper: its key, what it is, its experiment files, and the function that runs it.
pub struct PaperEntry {
    /// The key used on the command line and for folders (`glsl/`, `figures/`, …).
    pub key: &'static str,
    /// Authors, year and title, as the report's section heading.
    pub title: &'static str,
    /// The files it reads: its own `<key>.toml` first ([`Session::config`]), then any
    /// others ([`Session::config_of`]), e.g. tridiagonal's `sims.toml`.
    pub files: &'static [ExperimentFile],
    /// Runs the paper's experiments (tables, plots, notes) in a session.
    pub run: fn(&Session) -> Result<(), RunError>,
}

impl std::fmt::Debug for PaperEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PaperEntry({})", self.key)
    }
}

/// What a configuration is validated against: the mode of the run and the device's limits
/// (texture size, SSBO size, …), so that a size that cannot run is refused before any
/// allocation.
#[derive(Clone, Copy, Debug)]
pub struct Check<'a> {
    pub mode: Mode,
    pub device: &'a DeviceInfo,
}

/// A paper's typed experiment configuration.
///
/// Implement it on the struct that `experiments/<paper>.toml` deserializes into; override
/// [`validate`](Experiments::validate) with the paper's own ranges (sizes against
/// `check.device`'s limits and the host memory they need, tile sizes ≥ 1, tolerances > 0…).
/// The error names the key (`"table1.sizes.quick: 100000 needs 40 GB …"`); the runner adds
/// the file.
pub trait Experiments: DeserializeOwned {
    /// Paper-specific checks, run on every selected paper before any work starts.
    fn validate(&self, check: &Check) -> Result<(), String> {
        let _ = check;
        Ok(())
    }
}

/// Deserializes `text` into `T` and validates it: the usual [`ExperimentFile::check`].
pub fn check<T: Experiments>(text: &str, check: &Check) -> Result<(), String> {
    let config: T = toml::from_str(text).map_err(|e| e.to_string())?;
    config.validate(check)
}

/// An experiment file as read: the name it is known by, where it was read, its text.
#[derive(Clone, Debug)]
pub struct LoadedFile {
    /// The stem (`matmul`, `sims`).
    pub name: &'static str,
    /// The path read, or `experiments/<name>.toml (built in)`.
    pub source: String,
    pub text: String,
}

/// Reads `DIR/<name>.toml`, or the built-in copy without `dir`.
pub fn read(file: &ExperimentFile, dir: Option<&Path>) -> Result<LoadedFile, RunError> {
    match dir {
        None => Ok(LoadedFile {
            name: file.name,
            source: format!("experiments/{}.toml (built in)", file.name),
            text: file.builtin.to_string(),
        }),
        Some(d) => {
            let path: PathBuf = d.join(format!("{}.toml", file.name));
            let source = path.display().to_string();
            let text = std::fs::read_to_string(&path).map_err(|e| RunError::Config {
                file: source.clone(),
                message: e.to_string(),
            })?;
            Ok(LoadedFile {
                name: file.name,
                source,
                text,
            })
        }
    }
}

/// Reads and checks every file of `paper` (syntax, finite numbers, typed configuration,
/// the paper's validation).
pub fn load(
    paper: &PaperEntry,
    dir: Option<&Path>,
    check: &Check,
) -> Result<Vec<LoadedFile>, RunError> {
    paper
        .files
        .iter()
        .map(|f| {
            let loaded = read(f, dir)?;
            let config_err = |message: String| RunError::Config {
                file: loaded.source.clone(),
                message,
            };
            let table = loaded
                .text
                .parse::<toml::Table>()
                .map_err(|e| config_err(e.to_string()))?;
            reject_non_finite(&table).map_err(config_err)?;
            (f.check)(&loaded.text, check).map_err(config_err)?;
            Ok(loaded)
        })
        .collect()
}

/// `Err("table1.repeat.budget_s = NaN: …")` for the first float that is NaN or infinite.
pub fn reject_non_finite(table: &toml::Table) -> Result<(), String> {
    fn walk(v: &toml::Value, path: &str) -> Result<(), String> {
        match v {
            toml::Value::Float(x) if !x.is_finite() => Err(format!(
                "{path} = {x}: every number must be finite (no nan or inf)"
            )),
            toml::Value::Array(a) => a
                .iter()
                .enumerate()
                .try_for_each(|(i, v)| walk(v, &format!("{path}[{i}]"))),
            toml::Value::Table(t) => t.iter().try_for_each(|(k, v)| {
                walk(
                    v,
                    &if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    },
                )
            }),
            _ => Ok(()),
        }
    }
    table.iter().try_for_each(|(k, v)| walk(v, k))
}
