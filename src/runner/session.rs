//! What a paper's experiments see of the runner: the context, the mode, the parsed
//! experiment file, table writers that save every row as it finishes, notes, audits, plots.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use serde::Serialize;

use super::entry::{LoadedFile, PaperEntry};
use super::{Mode, RunError};
use crate::bench::{DeviceProfile, OVER_BOUND};
use crate::gl::Gl;
use crate::report::files::write_atomic;
use crate::report::index::{PaperRecord, PlotRef, TableRef};
use crate::report::{
    Attained, Audit, BOUND, BarChart, Column, Finding, LIMITER, LineChart, OF_BOUND, Provenance,
    Row, RowBuilder, Status, Table, Value,
};

struct State {
    tables: Vec<TableRef>,
    plots: Vec<PlotRef>,
    notes: Vec<String>,
    audits: Vec<Audit>,
    findings: Vec<Finding>,
    /// Every timed GPU row's work and time, by table and row key (the roofline's points),
    /// and the row's verification error (`None`: not verified).
    attained: Vec<(String, String, Attained, Option<f64>)>,
}

struct Shared {
    dir: PathBuf,
    paper: &'static str,
    resume: bool,
    device: String,
    progress: MultiProgress,
    verbose_lines: bool,
    interrupted: Arc<AtomicBool>,
    /// The device's measured limits (`device.json`), when known: the bound columns.
    profile: RefCell<Option<Rc<DeviceProfile>>>,
    /// Sample the machine's load over each table with this threshold ([`crate::report::load`]);
    /// `None`: not sampled.
    load_threshold: std::cell::Cell<Option<f64>>,
    state: RefCell<State>,
}

/// One paper's run.
pub struct Session {
    /// The GL context every experiment runs on.
    pub gl: Gl,
    pub mode: Mode,
    pub paper: &'static PaperEntry,
    files: Vec<LoadedFile>,
    shared: Rc<Shared>,
}

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        gl: &Gl,
        paper: &'static PaperEntry,
        mode: Mode,
        dir: PathBuf,
        files: Vec<LoadedFile>,
        resume: bool,
        progress: MultiProgress,
        interrupted: Arc<AtomicBool>,
    ) -> Result<Session, RunError> {
        std::fs::create_dir_all(&dir).map_err(|e| crate::report::files::OutputError {
            path: dir.clone(),
            source: e,
        })?;
        Ok(Session {
            gl: gl.clone(),
            mode,
            paper,
            files,
            shared: Rc::new(Shared {
                dir,
                paper: paper.key,
                resume,
                device: gl.info().short(),
                verbose_lines: !std::io::stderr().is_terminal(),
                progress,
                interrupted,
                profile: RefCell::new(None),
                load_threshold: std::cell::Cell::new(None),
                state: RefCell::new(State {
                    tables: vec![],
                    plots: vec![],
                    notes: vec![],
                    audits: vec![],
                    findings: vec![],
                    attained: vec![],
                }),
            }),
        })
    }

    /// A session for tests and tools: writes to `dir`, full or quick mode, no progress bars;
    /// `resume` as with `--resume`; the paper's built-in experiment files, checked.
    pub fn for_tests(
        gl: &Gl,
        paper: &'static PaperEntry,
        mode: Mode,
        dir: &Path,
        resume: bool,
    ) -> Result<Session, RunError> {
        let check = super::Check {
            mode,
            device: gl.info(),
        };
        let files = super::entry::load(paper, None, &check)?;
        Session::new(
            gl,
            paper,
            mode,
            dir.to_path_buf(),
            files,
            resume,
            MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::hidden()),
            Arc::new(AtomicBool::new(false)),
        )
    }

    /// Sets the device's limits the bound columns are computed from.
    pub fn set_profile(&self, profile: Rc<DeviceProfile>) {
        *self.shared.profile.borrow_mut() = Some(profile);
    }

    /// Samples the machine's load over every table from now on (noisy above `threshold` of
    /// the cores; [`crate::report::load`]): each table's record says what ran beside it.
    pub fn sample_load(&self, threshold: f64) {
        self.shared.load_threshold.set(Some(threshold));
    }

    /// The tables measured so far while the machine was noisy.
    pub(crate) fn noisy_tables(&self) -> Vec<String> {
        let st = self.shared.state.borrow();
        st.tables
            .iter()
            .filter(|t| t.load.as_ref().is_some_and(|l| l.noisy))
            .map(|t| t.id.clone())
            .collect()
    }

    /// The device's limits, when known.
    pub fn profile(&self) -> Option<Rc<DeviceProfile>> {
        self.shared.profile.borrow().clone()
    }

    /// The timed rows so far whose attained rate is above [`OVER_BOUND`] of their bound: table
    /// id, row key, fraction of bound.
    pub fn over_bound(&self) -> Vec<(String, String, f64)> {
        self.shared
            .state
            .borrow()
            .attained
            .iter()
            .filter_map(|(t, k, a, _)| {
                a.fraction()
                    .filter(|&f| f > OVER_BOUND)
                    .map(|f| (t.clone(), k.clone(), f))
            })
            .collect()
    }

    /// Every timed GPU row so far: table id, row key, its work, time and bound.
    pub(crate) fn attained(&self) -> Vec<(String, String, Attained, Option<f64>)> {
        self.shared.state.borrow().attained.clone()
    }

    /// Whether this is a quick run.
    pub fn quick(&self) -> bool {
        self.mode == Mode::Quick
    }

    /// The paper's own experiment file as read (for errors that name it).
    pub fn file(&self) -> &str {
        &self.files[0].source
    }

    /// The paper's own experiment file (`<key>.toml`) as parsed and validated at load, typed
    /// (what [`super::run_paper`] hands the paper's run).
    pub fn config<T: 'static>(&self) -> Result<&T, RunError> {
        self.typed(&self.files[0])
    }

    /// Another experiment file of the paper's entry (e.g. `"sims"` for `sims.toml`), read
    /// from the same place as the paper's own (`--experiments DIR` or built in), as parsed
    /// and validated at load.
    pub fn config_ref<T: 'static>(&self, name: &str) -> Result<&T, RunError> {
        self.typed(self.file_named(name)?)
    }

    fn file_named(&self, name: &str) -> Result<&LoadedFile, RunError> {
        self.files
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| RunError::Config {
                file: format!("{name}.toml"),
                message: format!(
                    "not an experiment file of the paper `{}` (its registry entry lists: {})",
                    self.paper.key,
                    self.files
                        .iter()
                        .map(|f| f.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
    }

    /// The value `file` was parsed into at load, as a `T`: an error (never a panic) when the
    /// registry's entry parses the file into another type than the caller asks for.
    fn typed<'a, T: 'static>(&self, file: &'a LoadedFile) -> Result<&'a T, RunError> {
        file.config
            .as_deref()
            .and_then(|c| c.downcast_ref::<T>())
            .ok_or_else(|| RunError::Config {
                file: file.source.clone(),
                message: format!(
                    "the registry entry of `{}` parses this file into another type than {}",
                    self.paper.key,
                    std::any::type_name::<T>()
                ),
            })
    }

    /// The folder this paper's files go to (`DIR/<paper>/`).
    pub fn dir(&self) -> &Path {
        &self.shared.dir
    }

    /// Whether table `id` runs on this device: `false` when the device lacks what the
    /// paper's [`TableSpec`](super::TableSpec) for it needs, and the table is then listed in
    /// the report as skipped, with the reason. Call it before measuring anything for the table.
    pub fn runs(&self, id: &str) -> bool {
        let spec = self.paper.table_spec(id);
        debug_assert!(
            spec.is_some(),
            "{}: table {id} is not in the paper's TABLES",
            self.paper.key
        );
        let Some(why) = spec.and_then(|t| self.gl.caps().lacks(t.needs)) else {
            return true;
        };
        if self.shared.verbose_lines {
            eprintln!("{}/{id}: skipped ({why})", self.shared.paper);
        }
        let mut st = self.shared.state.borrow_mut();
        st.tables.retain(|t| t.id != id);
        st.tables.push(TableRef {
            id: id.to_string(),
            title: id.to_string(),
            rows: 0,
            failed: 0,
            skipped_rows: 0,
            skipped: Some(why),
            reused: 0,
            unchecked: 0,
            load: None,
        });
        false
    }

    /// Why a row that needs `needs` cannot run on this device (`None`: it can); see
    /// [`RowBuilder::skip`](crate::report::RowBuilder::skip).
    pub fn lacks(&self, needs: &[crate::gl::Need]) -> Option<String> {
        self.gl.caps().lacks(needs)
    }

    /// Starts a table; `config` is what the rows depend on (sizes, variants, repetitions…),
    /// hashed into each row's fingerprint for `--resume`.
    pub fn table(
        &self,
        id: &str,
        title: &str,
        columns: Vec<Column>,
        config: &impl Serialize,
    ) -> Result<TableWriter, RunError> {
        let config_json = serde_json::to_string(config).unwrap_or_default();
        let previous = if self.shared.resume {
            std::fs::read_to_string(self.shared.dir.join(format!("{id}.json")))
                .ok()
                .and_then(|t| serde_json::from_str::<Table>(&t).ok())
                .filter(|t| t.columns == columns)
                .map(|t| t.rows.into_iter().map(|r| (r.key.clone(), r)).collect())
                .unwrap_or_default()
        } else {
            HashMap::new()
        };
        let bar = self.shared.progress.add(ProgressBar::new(0));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>24} [{bar:30}] {pos}/{len} rows, {elapsed} elapsed, ~{eta} left: {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(format!("{}/{}", self.shared.paper, id));
        Ok(TableWriter {
            load_start: self
                .shared
                .load_threshold
                .get()
                .and_then(|_| crate::report::load::Snapshot::now()),
            shared: self.shared.clone(),
            table: Table::new(id, title, columns),
            config_json,
            previous,
            reused: HashSet::new(),
            bar,
        })
    }

    /// Adds a reproduction note (a decision, an ambiguity, a finding) to the report.
    pub fn note(&self, text: impl Into<String>) {
        self.shared.state.borrow_mut().notes.push(text.into());
    }

    /// Records one of the paper's claims, judged on this run (the report's findings).
    pub fn finding(&self, f: Finding) {
        self.shared.state.borrow_mut().findings.push(f);
    }

    /// Records an audit of one of the paper's derived numbers; returns whether it agrees.
    pub fn audit(&self, a: Audit) -> bool {
        let ok = a.agrees();
        self.shared.state.borrow_mut().audits.push(a);
        ok
    }

    /// Saves a line chart as `DIR/<paper>/<file>` and lists it in the report.
    pub fn line_chart(&self, file: &str, chart: &LineChart, caption: &str) -> Result<(), RunError> {
        chart.save(&self.shared.dir.join(file))?;
        self.add_plot(file, caption);
        Ok(())
    }

    /// Saves a bar chart as `DIR/<paper>/<file>` and lists it in the report.
    pub fn bar_chart(&self, file: &str, chart: &BarChart, caption: &str) -> Result<(), RunError> {
        chart.save(&self.shared.dir.join(file))?;
        self.add_plot(file, caption);
        Ok(())
    }

    /// Lists a figure written by other means (e.g. a PNG frame sequence) in the report.
    pub fn add_plot(&self, file: &str, caption: &str) {
        let mut st = self.shared.state.borrow_mut();
        st.plots.retain(|p| p.file != file);
        st.plots.push(PlotRef {
            file: file.into(),
            caption: caption.into(),
        });
    }

    /// `Err(Interrupted)` once Ctrl-C was pressed: call between rows.
    pub fn check_interrupt(&self) -> Result<(), RunError> {
        if self.shared.interrupted.load(Ordering::SeqCst) {
            Err(RunError::Interrupted)
        } else {
            Ok(())
        }
    }

    /// Writes the paper's record; returns it. A run that produced no table and no figure
    /// (it stopped on its first error) does not replace a record already on disk.
    pub(crate) fn finish(&self, provenance: Provenance) -> Result<PaperRecord, RunError> {
        let st = self.shared.state.borrow();
        let record = PaperRecord {
            key: self.paper.key.into(),
            title: self.paper.title.into(),
            provenance,
            tables: st.tables.clone(),
            plots: st.plots.clone(),
            notes: st.notes.clone(),
            audits: st.audits.clone(),
            findings: st.findings.clone(),
        };
        let path = self.shared.dir.join("paper.json");
        if record.tables.is_empty() && record.plots.is_empty() && path.exists() {
            return Ok(record);
        }
        let json = serde_json::to_string_pretty(&record).expect("records serialize");
        write_atomic(&path, json.as_bytes())?;
        Ok(record)
    }
}

/// Builds one table row by row; every pushed row is written to disk at once.
pub struct TableWriter {
    shared: Rc<Shared>,
    table: Table,
    config_json: String,
    previous: HashMap<String, Row>,
    /// Keys of the rows taken over from the earlier run.
    reused: HashSet<String>,
    bar: ProgressBar,
    /// The machine's counters when the table started (when the load is sampled).
    load_start: Option<crate::report::load::Snapshot>,
}

impl TableWriter {
    /// Declares how many rows the table will have (for the progress bar's estimate).
    pub fn expect_rows(&self, n: usize) {
        self.bar.set_length(n as u64);
    }

    /// Adds a line of caption under the table.
    pub fn caption(&mut self, text: impl Into<String>) {
        self.table.caption.push(text.into());
    }

    /// Shows which row is being measured.
    pub fn start(&self, key: &str) {
        self.bar.set_message(key.to_string());
    }

    /// The one per-row protocol every measuring table follows: stop if Ctrl-C was pressed;
    /// with `--resume`, take over the row `key` measured before with the same configuration
    /// (and return it, `reused = true`); else show the row as started, build it with
    /// `measure` (handed `row`, the row with its key cells — and the paper's numbers — set),
    /// and add it. An error of the measurement other than an interrupt or a malformed
    /// experiment file becomes a FAILED row (`row` as handed in) that says why, and the
    /// table goes on.
    pub fn measure_row(
        &mut self,
        s: &Session,
        row: RowBuilder,
        measure: impl FnOnce(RowBuilder) -> Result<RowBuilder, RunError>,
    ) -> Result<(Row, bool), RunError> {
        s.check_interrupt()?;
        let key = row.row().key.clone();
        if let Some(row) = self.reuse(&key)? {
            return Ok((row, true));
        }
        self.start(&key);
        let row = match measure(row.clone()) {
            Ok(r) => r.build(),
            Err(RunError::Interrupted) => return Err(RunError::Interrupted),
            Err(e @ RunError::Config { .. }) => return Err(e),
            Err(e) => row.fail(e.to_string()).build(),
        };
        self.push(row.clone())?;
        let pushed = self
            .table
            .rows
            .iter()
            .find(|r| r.key == key)
            .cloned()
            .unwrap_or(row);
        Ok((pushed, false))
    }

    fn fingerprint(&self, key: &str) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325; // FNV-1a, stable across builds
        for b in self
            .table
            .id
            .bytes()
            .chain([0])
            .chain(key.bytes())
            .chain([0])
        {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        for b in self.config_json.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// With `--resume`: the row `key` saved before with the same configuration on the same
    /// device, if it did not fail (and was not skipped: a skipped row costs nothing to write
    /// again) — the row [`reuse`](Self::reuse) would add, not added yet.
    pub fn reusable(&self, key: &str) -> Option<&Row> {
        let fp = self.fingerprint(key);
        self.previous.get(key).filter(|r| {
            r.fingerprint == fp
                && r.device == self.shared.device
                && !r.status.failed()
                && !matches!(r.status, Status::Skipped { .. })
        })
    }

    /// With `--resume`: if a row `key` was saved before with the same configuration on the same
    /// device (and it did not fail), adds it again and returns it; else `None` (measure it).
    pub fn reuse(&mut self, key: &str) -> Result<Option<Row>, RunError> {
        let hit = self.reusable(key).is_some();
        match self.previous.remove(key).filter(|_| hit) {
            Some(row) => {
                self.push_row(row.clone(), true)?;
                Ok(Some(row))
            }
            None => Ok(None),
        }
    }

    /// [`reuse`](Self::reuse) for rows that one measurement fills together: all of `keys`
    /// are added again (and returned, in order) when every one of them can be reused; else
    /// none is, and `None` says to measure them all.
    pub fn reuse_all(&mut self, keys: &[String]) -> Result<Option<Vec<Row>>, RunError> {
        if keys.is_empty() || !keys.iter().all(|k| self.reusable(k).is_some()) {
            return Ok(None);
        }
        let mut rows = Vec::with_capacity(keys.len());
        for row in keys
            .iter()
            .filter_map(|k| self.previous.remove(k))
            .collect::<Vec<_>>()
        {
            self.push_row(row.clone(), true)?;
            rows.push(row);
        }
        Ok(Some(rows))
    }

    /// The index of the column called `column`: its printed header (e.g. `"paper: Share"`)
    /// or else its name, looked up as [`RowBuilder`] does; panics on a typo (a programming
    /// error).
    fn column(&self, column: &str) -> usize {
        let cols = &self.table.columns;
        cols.iter()
            .position(|c| c.header() == column)
            .or_else(|| cols.iter().position(|c| c.name == column))
            .unwrap_or_else(|| panic!("table {}: no column `{column}`", self.table.id))
    }

    /// The number in `row`'s cell of `column` (a reused row's measurement, for what later
    /// code computes from it); `None` for a text or missing cell.
    pub fn value(&self, row: &Row, column: &str) -> Option<f64> {
        row.values.get(self.column(column)).and_then(Value::as_f64)
    }

    /// The text in `row`'s cell of `column`; `None` for a number or a missing cell.
    pub fn text<'r>(&self, row: &'r Row, column: &str) -> Option<&'r str> {
        match row.values.get(self.column(column)) {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// A new row of this table, filled by column name ([`RowBuilder`]).
    pub fn row(&self, key: impl Into<String>) -> RowBuilder {
        self.table.row(key)
    }

    /// Adds a measured row (a [`Row`] or a [`RowBuilder`]) and rewrites the table's files
    /// (atomically).
    pub fn push(&mut self, row: impl Into<Row>) -> Result<(), RunError> {
        self.push_row(row.into(), false)
    }

    fn push_row(&mut self, mut row: Row, reused: bool) -> Result<(), RunError> {
        assert_eq!(
            row.values.len(),
            self.table.columns.len(),
            "table {}: row `{}` has {} cells for {} columns",
            self.table.id,
            row.key,
            row.values.len(),
            self.table.columns.len()
        );
        row.fingerprint = self.fingerprint(&row.key);
        row.device = self.shared.device.clone();
        self.fill_bound(&mut row);
        if self.shared.verbose_lines {
            let status = match row.status {
                Status::Failed { .. } => "FAILED",
                Status::Skipped { .. } => "skipped",
                _ => "done",
            };
            let how = if reused { " (reused)" } else { "" };
            eprintln!(
                "{}/{} {}: {status}{how}",
                self.shared.paper, self.table.id, row.key
            );
        }
        if reused {
            self.reused.insert(row.key.clone());
        } else {
            self.reused.remove(&row.key);
        }
        self.table.rows.retain(|r| r.key != row.key);
        self.table.rows.push(row);
        self.bar.inc(1);
        self.write()
    }

    /// Computes a timed row's bound from the device's limits (a reused row's too, so every
    /// row of a run is read against the same profile), fills the bound columns the table has,
    /// and keeps the row's work for the roofline.
    fn fill_bound(&self, row: &mut Row) {
        let Some(a) = row.attained.as_mut() else {
            return;
        };
        let profile = self.shared.profile.borrow().clone();
        a.bound = profile.and_then(|p| p.bound(&a.work).ok());
        let a = a.clone();
        let cols = &self.table.columns;
        let cell = |name: &str| cols.iter().position(|c| c.name == name);
        let fraction = a.fraction();
        for (name, v) in [
            (
                BOUND,
                a.bound
                    .filter(|_| fraction.is_some())
                    .map(|b| Value::Num(b.ms)),
            ),
            (LIMITER, a.bound.map(|b| Value::Text(b.label()))),
            (OF_BOUND, a.fraction_est().map(Value::Est)),
        ] {
            if let (Some(i), Some(v)) = (cell(name), v) {
                row.values[i] = v;
            }
        }
        let mut st = self.shared.state.borrow_mut();
        let id = &self.table.id;
        // The invariant: no row above its roof. A fraction beyond OVER_BOUND means the bench
        // or the row's work model is wrong: said on stderr and in the paper's notes.
        let tag = format!("Bound exceeded: table {id}, row `{}`", row.key);
        st.notes.retain(|n| !n.starts_with(&tag));
        if let (Some(f), Some(b)) = (fraction, a.bound)
            && f > OVER_BOUND
        {
            let text = format!(
                "{tag}: {f:.2} of bound ({} limit; the row's `bound` and time columns) — \
                 above {OVER_BOUND}, so a roof of the bench or the row's work model is wrong",
                b.label()
            );
            eprintln!("warning: {}/{text}", self.shared.paper);
            st.notes.push(text);
        }
        st.attained
            .retain(|(t, k, _, _)| !(t == id && k == &row.key));
        let error = match row.status {
            Status::Verified { error, .. } => Some(error),
            _ => None,
        };
        st.attained.push((id.clone(), row.key.clone(), a, error));
    }

    /// The rows so far.
    pub fn rows(&self) -> &[Row] {
        &self.table.rows
    }

    /// The table so far.
    pub fn table(&self) -> &Table {
        &self.table
    }

    fn write(&self) -> Result<(), RunError> {
        let dir = &self.shared.dir;
        let id = &self.table.id;
        let csv = self.table.to_csv().map_err(|e| RunError::Config {
            file: format!("{id}.csv"),
            message: e.to_string(),
        })?;
        write_atomic(&dir.join(format!("{id}.csv")), csv.as_bytes())?;
        let json = serde_json::to_string_pretty(&self.table).expect("tables serialize");
        write_atomic(&dir.join(format!("{id}.json")), json.as_bytes())?;
        write_atomic(
            &dir.join(format!("{id}.md")),
            self.table.to_markdown().as_bytes(),
        )?;
        Ok(())
    }

    /// Writes the final files and lists the table in the report; returns the table.
    pub fn finish(self) -> Result<Table, RunError> {
        self.write()?;
        self.bar.finish_and_clear();
        self.shared.progress.remove(&self.bar);
        let failed = self.table.failed_rows().count();
        let load = match (self.load_start, self.shared.load_threshold.get()) {
            (Some(a), Some(th)) => {
                crate::report::load::Snapshot::now().and_then(|b| b.since(&a, th))
            }
            _ => None,
        };
        if let Some(l) = load.as_ref().filter(|l| l.noisy) {
            self.shared.progress.suspend(|| {
                eprintln!(
                    "warning: {}/{} was measured while the machine was noisy ({})",
                    self.shared.paper,
                    self.table.id,
                    l.describe()
                )
            });
        }
        let mut st = self.shared.state.borrow_mut();
        st.tables.retain(|t| t.id != self.table.id);
        st.tables.push(TableRef {
            id: self.table.id.clone(),
            title: self.table.title.clone(),
            rows: self.table.rows.len(),
            failed,
            skipped_rows: self
                .table
                .rows
                .iter()
                .filter(|r| matches!(r.status, Status::Skipped { .. }))
                .count(),
            skipped: None,
            reused: self.reused.len(),
            unchecked: self
                .table
                .rows
                .iter()
                .filter(|r| matches!(r.status, Status::Unchecked { .. }))
                .count(),
            load,
        });
        Ok(self.table)
    }
}
