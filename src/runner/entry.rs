//! What the runner knows of a paper below its run: its [`PaperInfo`] (key, title, experiment
//! files, tables), each table's [`TableSpec`], and how an experiment file is loaded and checked
//! before any work starts. The entry with its run function (`PaperEntry`, the `Paper` trait)
//! is in `paper.rs`, above the session that the run takes.
//!
//! Each file is parsed **once** per run: [`load`] turns its text into the typed configuration
//! (and validates it); the session keeps that value and `run_paper` hands it to the paper's
//! `Paper::run`. [`parse_count`] counts these parses (a test asserts one per file per run).
//!
//! Loading a file ([`load`]) is three steps, each naming the file actually read:
//! 1. TOML syntax (`toml::Table`);
//! 2. every float anywhere in the file is finite ([`reject_non_finite`]: `nan`, `inf` are
//!    valid TOML but never a valid size, budget, tolerance or published number);
//! 3. the paper's typed configuration ([`Experiments`]) deserializes (types, unknown keys,
//!    [`super::Repeat`]'s own ranges) and passes the paper's [`Experiments::validate`].

use std::any::Any;
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde::de::DeserializeOwned;

use super::error::RunError;
use crate::gl::{Caps, DeviceInfo, Need};
use crate::mode::Mode;

/// One experiment file a paper reads.
pub struct ExperimentFile {
    /// The file's stem: `--experiments DIR` reads `DIR/<name>.toml`.
    pub name: &'static str,
    /// The built-in copy of `experiments/<name>.toml` (`include_str!`).
    pub builtin: &'static str,
    /// Parses the text into the typed configuration and validates it ([`parse::<T>`](parse),
    /// set by [`ExperimentFile::of`]).
    pub parse: fn(&str, &Check) -> Result<Parsed, String>,
}

/// A file's typed configuration as parsed at load (downcast by the session's `config`).
pub type Parsed = Rc<dyn Any>;

impl ExperimentFile {
    /// The file `<name>.toml` whose text parses into `T` (and passes `T`'s validation).
    pub const fn of<T: Experiments>(name: &'static str, builtin: &'static str) -> ExperimentFile {
        ExperimentFile {
            name,
            builtin,
            parse: parse::<T>,
        }
    }
}

/// What a session knows of its paper: its registry entry's key, title, experiment files and
/// tables (all of the entry but its run and the report's text).
#[derive(Clone, Copy)]
pub struct PaperInfo {
    /// The key used on the command line and for folders (`glsl/`, `figures/`, …).
    pub key: &'static str,
    /// Authors, year and title, as the report's section heading.
    pub title: &'static str,
    /// The files it reads, its own `<key>.toml` first.
    pub files: &'static [ExperimentFile],
    /// Its tables and what each needs from the device, in the order they run.
    pub tables: &'static [&'static [TableSpec]],
}

impl PaperInfo {
    /// Every table of the paper, in order.
    pub fn table_specs(&self) -> impl Iterator<Item = &'static TableSpec> + use<> {
        self.tables.iter().flat_map(|g| g.iter())
    }

    /// The table called `id`.
    pub fn table_spec(&self, id: &str) -> Option<&'static TableSpec> {
        self.table_specs().find(|t| t.id == id)
    }
}

/// One table of a paper and what it needs from the device.
///
/// `needs` gates the whole table: without them it is listed in the report as *skipped: needs
/// X, device offers Y* and not run. `rows_need` is what some of its rows need (the compute
/// variants beside the fragment ones): those rows are skipped one by one, the rest run.
#[derive(Clone, Copy, Debug)]
pub struct TableSpec {
    /// The table's id: its files are `<id>.md`, `<id>.csv`, `<id>.json`.
    pub id: &'static str,
    pub needs: &'static [Need],
    pub rows_need: &'static [Need],
}

impl TableSpec {
    /// A table that runs on every device the program supports (GL 3.3 core).
    pub const fn any(id: &'static str) -> TableSpec {
        TableSpec::needs(id, &[])
    }
    /// A table that needs `needs`.
    pub const fn needs(id: &'static str, needs: &'static [Need]) -> TableSpec {
        TableSpec {
            id,
            needs,
            rows_need: &[],
        }
    }
    /// The same table, with some rows that need `rows_need`.
    pub const fn rows_need(self, rows_need: &'static [Need]) -> TableSpec {
        TableSpec { rows_need, ..self }
    }
    /// What this device will do with the table: "runs", "runs; some rows skipped (needs
    /// compute shaders (GL 4.3), device offers GL 3.3)" or "skipped: needs …, device offers …".
    pub fn plan(&self, caps: &Caps) -> String {
        if let Some(why) = caps.lacks(self.needs) {
            return format!("skipped: {why}");
        }
        match caps.lacks(self.rows_need) {
            Some(why) => format!("runs; some rows skipped ({why})"),
            None => "runs".to_string(),
        }
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
pub trait Experiments: DeserializeOwned + 'static {
    /// Paper-specific checks, run on every selected paper before any work starts.
    fn validate(&self, check: &Check) -> Result<(), String> {
        let _ = check;
        Ok(())
    }
}

/// A file with no typed shape of its own (any TOML table; test papers).
impl Experiments for toml::Table {}

thread_local! {
    static PARSES: Cell<usize> = const { Cell::new(0) };
}

/// How many times an experiment file's text was parsed into a typed configuration
/// ([`parse`]) on this thread so far: one per file per run.
pub fn parse_count() -> usize {
    PARSES.with(Cell::get)
}

/// Deserializes `text` into `T` and validates it: the usual [`ExperimentFile::parse`].
pub fn parse<T: Experiments>(text: &str, check: &Check) -> Result<Parsed, String> {
    PARSES.with(|c| c.set(c.get() + 1));
    let config: T = toml::from_str(text).map_err(|e| e.to_string())?;
    config.validate(check)?;
    Ok(Rc::new(config))
}

/// An experiment file as read and parsed: the name it is known by, where it was read, its
/// text, and its typed configuration (parsed once, at load).
#[derive(Clone, Debug)]
pub struct LoadedFile {
    /// The stem (`matmul`, `sims`).
    pub name: &'static str,
    /// The path read, or `experiments/<name>.toml (built in)`.
    pub source: String,
    pub text: String,
    /// The typed configuration ([`ExperimentFile::parse`]'s); `None` until [`load`] parsed it.
    pub config: Option<Parsed>,
}

/// Reads `DIR/<name>.toml`, or the built-in copy without `dir`.
pub fn read(file: &ExperimentFile, dir: Option<&Path>) -> Result<LoadedFile, RunError> {
    match dir {
        None => Ok(LoadedFile {
            name: file.name,
            source: format!("experiments/{}.toml (built in)", file.name),
            text: file.builtin.to_string(),
            config: None,
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
                config: None,
            })
        }
    }
}

/// Reads, parses and checks every file of a paper, `files` (syntax, finite numbers, typed
/// configuration, the paper's validation): each file's text is parsed into its type once,
/// here, and the value travels with the file to the session.
pub fn load(
    files: &[ExperimentFile],
    dir: Option<&Path>,
    check: &Check,
) -> Result<Vec<LoadedFile>, RunError> {
    files
        .iter()
        .map(|f| {
            let mut loaded = read(f, dir)?;
            let source = loaded.source.clone();
            let config_err = |message: String| RunError::Config {
                file: source.clone(),
                message,
            };
            let table = loaded
                .text
                .parse::<toml::Table>()
                .map_err(|e| config_err(e.to_string()))?;
            reject_non_finite(&table).map_err(config_err)?;
            loaded.config = Some((f.parse)(&loaded.text, check).map_err(config_err)?);
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
