//! [`TableWriter`]: one table of a [`Session`], built row by row, each row
//! written to disk as it is pushed (and taken over from the earlier run on `--resume`).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use indicatif::ProgressBar;

use super::handle::{Session, Shared};
use super::probes::{REPROBE_AT, TableProbes};
use crate::bench::{Limits, OVER_BOUND};
use crate::report::files::write_atomic;
use crate::report::index::TableRef;
use crate::report::record::TableTime;
use crate::report::table::Attained;
use crate::report::{BOUND, LIMITER, OF_BOUND, Row, RowBuilder, Status, Table, Value};
use crate::runner::error::RunError;
use crate::work::{Bound, Limiter};

/// Builds one table row by row; every pushed row is written to disk at once.
pub struct TableWriter {
    pub(super) shared: Rc<Shared>,
    pub(super) table: Table,
    pub(super) config_json: String,
    pub(super) previous: HashMap<String, Row>,
    /// Keys of the rows taken over from the earlier run.
    pub(super) reused: HashSet<String>,
    pub(super) bar: ProgressBar,
    /// The machine's counters when the table started (when the load is sampled).
    pub(super) load_start: Option<crate::report::load::Snapshot>,
    /// The context the rows are timed on (for the fixed-cost probe).
    pub(super) gl: crate::gl::Gl,
    /// The fixed costs probed in this process ([`crate::bench::fixed::probe`]): at the
    /// table's first bounded row, and again after a row near a fixed-cost bound (the least of
    /// each cost over the probes); its rows' fixed-cost terms use them.
    pub(super) probe: TableProbes,
    /// The time of the rows written so far: each row's is the time since the session's
    /// previous row, of any table ([`Shared::mark`]), so that tables filled together (one
    /// measurement, a row in each) do not count the same seconds twice.
    pub(super) time: TableTime,
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
        stall_for_test(key);
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
        let measured = measure(row.clone());
        // An interrupt during the measurement cuts its repetitions short
        // ([`crate::gl::timing::request_stop`]): such a row is not written as measured, and
        // `--resume` measures it again.
        s.check_interrupt()?;
        let row = match measured {
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
        self.saved(key, false)
    }

    /// The row `key` saved before with the same configuration on the same device, if it did
    /// not fail; a skipped one only with `skips`.
    fn saved(&self, key: &str, skips: bool) -> Option<&Row> {
        let fp = self.fingerprint(key);
        self.previous.get(key).filter(|r| {
            r.fingerprint == fp
                && r.device == self.shared.device
                && !r.status.failed()
                && (skips || !matches!(r.status, Status::Skipped { .. }))
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
        self.reuse_rows(keys, false)
    }

    /// [`reuse_all`](Self::reuse_all) for a measurement that skips some of its rows for their
    /// cost (one run predicted over the mode's `max_run_s`, while the others run): a row
    /// saved as skipped is added again as it was, with the measurement that skipped it.
    pub fn reuse_all_with_skips(&mut self, keys: &[String]) -> Result<Option<Vec<Row>>, RunError> {
        self.reuse_rows(keys, true)
    }

    fn reuse_rows(&mut self, keys: &[String], skips: bool) -> Result<Option<Vec<Row>>, RunError> {
        if keys.is_empty() || !keys.iter().all(|k| self.saved(k, skips).is_some()) {
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

    /// Pushes `row`, the row of one variant (`variant`, its index in the rounds just timed;
    /// `None` for one timed alone): it claims only that variant's profiled run, and the
    /// other variants' runs wait for their own rows (a table that times several rows in one
    /// set of rounds and writes them one by one).
    pub fn push_variant(
        &mut self,
        row: impl Into<Row>,
        variant: Option<usize>,
    ) -> Result<(), RunError> {
        let (mine, rest): (Vec<_>, Vec<_>) = crate::gl::profile::take_runs()
            .into_iter()
            .partition(|r| r.variant == variant);
        crate::gl::profile::give(mine);
        let out = self.push(row);
        crate::gl::profile::give(rest);
        out
    }

    fn push_row(&mut self, mut row: Row, reused: bool) -> Result<(), RunError> {
        // After Ctrl-C / SIGTERM the repetition loops end early
        // ([`crate::gl::timing::request_stop`]): a row built since may be cut short, whichever
        // table writes it, so no new row is written as measured; `--resume` measures it again.
        if !reused && crate::gl::timing::stop_requested() {
            return Err(RunError::Interrupted);
        }
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
        // The row's profiles, before the fixed-cost probe `fill_bound` may make adds its own.
        let runs = crate::gl::profile::take_runs();
        self.fill_bound(&mut row, true);
        crate::gl::profile::take_runs();
        if !reused {
            self.keep_profile(&row, runs);
        }
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
        self.book_row();
        self.write()
    }

    /// `runs`, the profiles of the runs made since the last row was written, are this row's
    /// ([`crate::gl::profile::take_runs`]; a table that times several rows in one set of
    /// rounds writes each with [`TableWriter::push_variant`], else the first takes them all).
    fn keep_profile(&self, row: &Row, runs: Vec<crate::gl::profile::RunProfile>) {
        if runs.is_empty() {
            return;
        }
        let cell = |name: &str| {
            let i = self.table.find_col(name)?;
            Some(&row.values[i])
        };
        let mut st = self.shared.state.borrow_mut();
        st.profiles
            .retain(|p| !(p.table == self.table.id && p.row == row.key));
        st.profiles.push(crate::report::profile::RowProfile {
            table: self.table.id.clone(),
            row: row.key.clone(),
            of_bound: cell(OF_BOUND).and_then(Value::as_f64),
            limiter: cell(LIMITER).and_then(|v| match v {
                Value::Text(t) => Some(t.clone()),
                _ => None,
            }),
            runs,
        });
    }

    /// The limits this table's rows are bounded by: the device's profile with the fixed costs
    /// of the table's probes ([`TableProbes::limits`]).
    fn limits(&mut self) -> Option<Limits> {
        let profile = self.shared.profile.borrow().clone()?;
        Some(
            self.probe
                .limits(&self.gl, &profile.limits, &mut self.table.caption),
        )
    }

    /// The bound of a timed row's work from the table's limits; a row at over [`REPROBE_AT`] of
    /// a fixed-cost bound probes the fixed costs again first (when `may_probe`).
    fn bound_of(&mut self, a: &Attained, may_probe: bool) -> Option<Bound> {
        let bound = self.limits().and_then(|l| l.bound(&a.work).ok())?;
        let fixed = bound.limiter == Limiter::FixedCost || bound.close == Some(Limiter::FixedCost);
        let near = bound.fraction(a.ms).is_some_and(|f| f > REPROBE_AT);
        let bound = if may_probe && fixed && near {
            if let Some(profile) = self.shared.profile.borrow().clone() {
                self.probe
                    .again(&self.gl, &profile.limits, &mut self.table.caption);
            }
            self.limits().and_then(|l| l.bound(&a.work).ok())?
        } else {
            bound
        };
        Some(Bound {
            ms_met: self.bound_met(a).filter(|&m| m > bound.ms),
            ..bound
        })
    }

    /// The between-run term (log units) a row bounded by `bound` carries: the largest of its
    /// limiter's groups' ([`crate::bench::groups::between_groups`]; the model is
    /// [`crate::stats::between`]'s).
    fn limiter_term(&self, work: &crate::work::Work, bound: &Bound) -> f64 {
        let access = self
            .shared
            .profile
            .borrow()
            .as_ref()
            .and_then(|p| p.limits.dominant_access(work));
        crate::bench::groups::between_groups(bound, access)
            .iter()
            .map(|g| crate::stats::between_term(g))
            .fold(0.0, f64::max)
    }

    /// The bound of a row's work with the fixed costs of the table's first probe (the costs
    /// its process met when the table started) instead of the least seen: the top of the
    /// range the fixed costs are known in ([`Bound::ms_met`]).
    fn bound_met(&self, a: &Attained) -> Option<f64> {
        let profile = self.shared.profile.borrow().clone()?;
        let first = self.probe.first()?;
        first
            .applied_to(&profile.limits)
            .bound(&a.work)
            .ok()
            .map(|b| b.ms)
    }

    /// Computes a timed row's bound from the device's limits (a reused row's too, so every
    /// row of a run is read against the same profile; the fixed costs are the table's probes,
    /// [`TableWriter::limits`]), fills the bound columns the table has, and keeps the row's
    /// work for the roofline.
    fn fill_bound(&mut self, row: &mut Row, may_probe: bool) {
        let Some(attained) = row.attained.clone() else {
            return;
        };
        let bound = self.bound_of(&attained, may_probe);
        if let Some(b) = &bound {
            row.carry_term(self.limiter_term(&attained.work, b));
        }
        let Some(a) = row.attained.as_mut() else {
            return;
        };
        a.bound = bound;
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
            if may_probe {
                // (the re-read at the table's end lowers bounds only: said once, when pushed)
                eprintln!("warning: {}/{text}", self.shared.paper);
            }
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
        self.register(None);
        Ok(())
    }

    /// Lists the table in the paper's record as it stands (replacing its earlier entry):
    /// after every row, so that a run stopped mid-table records the rows it wrote, and by
    /// [`TableWriter::finish`] with the machine's load over the table.
    fn register(&self, load: Option<crate::report::load::LoadSample>) {
        let rows = &self.table.rows;
        let count = |f: fn(&Status) -> bool| rows.iter().filter(|r| f(&r.status)).count();
        let mut st = self.shared.state.borrow_mut();
        st.tables.retain(|t| t.id != self.table.id);
        st.tables.push(TableRef {
            id: self.table.id.clone(),
            title: self.table.title.clone(),
            rows: rows.len(),
            failed: self.table.failed_rows().count(),
            skipped_rows: count(|s| matches!(s, Status::Skipped { .. })),
            skipped: None,
            reused: self.reused.len(),
            unchecked: count(|s| matches!(s, Status::Unchecked { .. })),
            load,
            time: (self.reused.len() < rows.len()).then_some(self.time),
        });
    }

    /// Adds the time since the session's previous row to this table's and moves the mark.
    fn book_row(&mut self) {
        let now = (std::time::Instant::now(), crate::gl::ledger::ledger());
        let (t0, ledger0) = self.shared.mark.replace(now);
        let spent = now.1.since(&ledger0);
        self.time.seconds += now.0.duration_since(t0).as_secs_f64();
        self.time.gpu_s += spent.gpu.as_secs_f64();
        self.time.cpu_s += spent.cpu.as_secs_f64();
    }

    /// Writes the final files and lists the table in the report; returns the table.
    pub fn finish(mut self) -> Result<Table, RunError> {
        // A probe after a near-bound row may have lowered a fixed cost: every row of the
        // table is read against the same, least costs (without probing again).
        if self.probe.probed_again() {
            let mut rows = std::mem::take(&mut self.table.rows);
            for row in &mut rows {
                self.fill_bound(row, false);
            }
            self.table.rows = rows;
        }
        self.write()?;
        self.bar.finish_and_clear();
        self.shared.progress.remove(&self.bar);
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
        self.register(load);
        Ok(self.table)
    }
}

/// The environment variable of the stop backstop's test (`tests/stop.rs`): a row whose key
/// starts with its value stalls for a minute as it starts, deaf to a stop request, so that
/// only [`crate::runner::STOP_GRACE`]'s backstop can end the process. Unset in every real run.
pub const TEST_STALL_ROW: &str = "GPGPU_REPRO_TEST_STALL_ROW";

fn stall_for_test(key: &str) {
    if let Ok(prefix) = std::env::var(TEST_STALL_ROW)
        && !prefix.is_empty()
        && key.starts_with(&prefix)
    {
        eprintln!("test hook: row `{key}` stalls ({TEST_STALL_ROW})");
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}
