//! A table's rows: [`Row`] with its cells and verification [`Status`], and [`RowBuilder`],
//! which fills a row by column name.

use serde::{Deserialize, Serialize};

use super::bound::Attained;
use super::value::{Column, Value};

/// Whether a row's GPU result was checked against its CPU reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Status {
    /// Error within tolerance.
    Verified { error: f64, tolerance: f64 },
    /// Error over tolerance, a non-finite result, or a failure of the run.
    Failed { reason: String },
    /// Nothing to verify in this row (analytic counts, the paper's numbers).
    Unchecked { why: String },
    /// Not run: the device lacks what the row needs ("needs compute shaders (GL 4.3),
    /// device offers GL 3.3"). Neither verified nor failed.
    Skipped { reason: String },
}

impl Status {
    pub fn failed(&self) -> bool {
        matches!(self, Status::Failed { .. })
    }
    /// The status cell of the Markdown table.
    pub(super) fn render(&self) -> String {
        match self {
            Status::Verified { tolerance, .. } => format!("ok (≤ {tolerance:.0e})"),
            Status::Failed { reason } => format!("**FAILED**: {reason}"),
            Status::Unchecked { why } => why.clone(),
            Status::Skipped { reason } => format!("skipped: {reason}"),
        }
    }
}

/// A row: its key (unique in the table), the cells in column order, the verification status.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub key: String,
    pub values: Vec<Value>,
    #[serde(flatten)]
    pub status: Status,
    /// Hash of the configuration that produced the row (for `--resume`).
    #[serde(default)]
    pub fingerprint: String,
    /// The device that produced it.
    #[serde(default)]
    pub device: String,
    /// Timed runs the row's measurements had (the repetition count the table reports).
    #[serde(default)]
    pub runs: Option<usize>,
    /// A timed GPU row's work and time, read against the device's limits (the bound columns
    /// and the paper's roofline; see `crate::bench::bound`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attained: Option<Attained>,
    /// Wall milliseconds of the measurement that made the row, kept by a table whose size cap
    /// predicts each size's time from the last one measured ([`crate::runner::cap`]) and
    /// whose rows have no timed cell to predict from, so that `--resume` can feed the
    /// predictor from a reused row. `None` where the measurement also built the programs (not
    /// a prediction of the next size's) and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_ms: Option<f64>,
}

impl Row {
    /// Gives a timed row the between-run term `h` of its limiter (log units,
    /// [`crate::stats::between`]): every cell made from the row's own timed runs — those
    /// carrying the term its attained time carries now, [`Attained::between`] — and that
    /// time's interval and its halves' trade their term for `h`, the repetitions' part kept. Cells with
    /// another term (a ratio of rows timed apart) or none (a paired ratio, a count) are left
    /// as they are, and so is a row without a timed interval or a term.
    pub fn carry_term(&mut self, h: f64) {
        let h = if h.is_finite() && h > 0.0 { h } else { 0.0 };
        let Some(a) = self.attained.as_mut() else {
            return;
        };
        let old = a.between;
        if old <= 0.0 || old == h || a.interval_ms.is_none() {
            return;
        }
        for v in &mut self.values {
            if let Value::Est(e) = v
                && e.between == old
            {
                *e = e.within().widen(h);
            }
        }
        let t = a.time_est().within().widen(h);
        a.interval_ms = Some((t.lo, t.hi));
        a.set_halves(
            a.halves_est()
                .map(|halves| halves.map(|e| e.within().widen(h))),
        );
        a.between = h;
    }

    /// A new row; cells are appended in column order with [`Row::num`], [`Row::text`]….
    pub fn new(key: impl Into<String>) -> Row {
        Row {
            key: key.into(),
            values: Vec::new(),
            status: Status::Unchecked { why: "—".into() },
            fingerprint: String::new(),
            device: String::new(),
            runs: None,
            attained: None,
            measured_ms: None,
        }
    }
    pub fn num(mut self, v: f64) -> Row {
        self.values.push(Value::Num(v));
        self
    }
    pub fn opt(mut self, v: Option<f64>) -> Row {
        self.values.push(v.map_or(Value::Missing, Value::Num));
        self
    }
    pub fn text(mut self, s: impl Into<String>) -> Row {
        self.values.push(Value::Text(s.into()));
        self
    }
    pub fn est(mut self, e: crate::stats::Estimate) -> Row {
        self.values.push(Value::Est(e));
        self
    }
    pub fn missing(mut self) -> Row {
        self.values.push(Value::Missing);
        self
    }
    /// Records the number of timed runs behind the row's times.
    pub fn runs(mut self, n: usize) -> Row {
        self.runs = Some(n);
        self
    }
    /// Marks the row verified if `error ≤ tolerance` (and finite), failed otherwise.
    pub fn verify(mut self, error: f64, tolerance: f64) -> Row {
        self.status = if error.is_finite() && error <= tolerance {
            Status::Verified { error, tolerance }
        } else {
            Status::Failed {
                reason: format!("error {error:.3e} > tolerance {tolerance:.0e}"),
            }
        };
        self
    }
    /// Marks the row failed (the measurement could not be made or verified).
    pub fn fail(mut self, reason: impl Into<String>) -> Row {
        self.status = Status::Failed {
            reason: reason.into(),
        };
        self
    }
    /// Marks the row as having nothing to verify, and why.
    pub fn unchecked(mut self, why: impl Into<String>) -> Row {
        self.status = Status::Unchecked { why: why.into() };
        self
    }
    /// Marks the row as not run on this device, and why (see [`crate::gl::Caps::lacks`]).
    pub fn skip(mut self, reason: impl Into<String>) -> Row {
        self.status = Status::Skipped {
            reason: reason.into(),
        };
        self
    }
}

/// A row filled by column name: `t.row("N=256").num("GPU", ms).text("impl", "I2")`. Cells
/// left unset are missing (`—`). A name is looked up first among the printed headers
/// (`"paper: FPS"`, which tells a paper column from ours of the same name), then among the
/// names; one that is neither panics (a programming error that every test run of the table
/// catches).
#[derive(Clone, Debug)]
pub struct RowBuilder {
    table: String,
    names: std::rc::Rc<[String]>,
    headers: std::rc::Rc<[String]>,
    row: Row,
}

impl RowBuilder {
    /// A row of `columns` with every cell missing.
    pub fn new(table: &str, columns: &[Column], key: impl Into<String>) -> RowBuilder {
        let mut row = Row::new(key);
        row.values = vec![Value::Missing; columns.len()];
        RowBuilder {
            table: table.into(),
            names: columns.iter().map(|c| c.name.clone()).collect(),
            headers: columns.iter().map(Column::header).collect(),
            row,
        }
    }
    fn index(&self, name: &str) -> usize {
        self.headers
            .iter()
            .position(|c| c == name)
            .or_else(|| self.names.iter().position(|c| c == name))
            .unwrap_or_else(|| panic!("table {}: no column `{name}`", self.table))
    }
    /// Sets a cell by column name (later calls overwrite).
    pub fn set(mut self, name: &str, v: Value) -> RowBuilder {
        let i = self.index(name);
        self.row.values[i] = v;
        self
    }
    pub fn num(self, name: &str, v: f64) -> RowBuilder {
        self.set(name, Value::Num(v))
    }
    pub fn opt(self, name: &str, v: Option<f64>) -> RowBuilder {
        self.set(name, v.map_or(Value::Missing, Value::Num))
    }
    pub fn text(self, name: &str, v: impl Into<String>) -> RowBuilder {
        self.set(name, Value::Text(v.into()))
    }
    /// A measured number with its interval ([`Value::Est`]).
    pub fn est(self, name: &str, e: crate::stats::Estimate) -> RowBuilder {
        self.set(name, Value::Est(e))
    }
    /// A measured number when there is one, else missing.
    pub fn opt_est(self, name: &str, e: Option<crate::stats::Estimate>) -> RowBuilder {
        self.set(name, e.map_or(Value::Missing, Value::Est))
    }
    /// See [`Row::runs`].
    pub fn runs(mut self, n: usize) -> RowBuilder {
        self.row = self.row.runs(n);
        self
    }
    /// The measurement's wall time for the size cap's predictor ([`Row::measured_ms`]).
    pub fn measured_ms(mut self, ms: f64) -> RowBuilder {
        self.row.measured_ms = Some(ms);
        self
    }
    /// See [`Row::verify`].
    pub fn verify(mut self, error: f64, tolerance: f64) -> RowBuilder {
        self.row = self.row.verify(error, tolerance);
        self
    }
    /// See [`Row::fail`].
    pub fn fail(mut self, reason: impl Into<String>) -> RowBuilder {
        self.row = self.row.fail(reason);
        self
    }
    /// See [`Row::unchecked`].
    pub fn unchecked(mut self, why: impl Into<String>) -> RowBuilder {
        self.row = self.row.unchecked(why);
        self
    }
    /// See [`Row::skip`].
    pub fn skip(mut self, reason: impl Into<String>) -> RowBuilder {
        self.row = self.row.skip(reason);
        self
    }
    /// Records the row's work (counted from the algorithm; see each table's docs) and the
    /// time it took: the runner fills the bound columns (when the table has them) from the
    /// device's limits, and the kernel becomes a point of the paper's roofline.
    pub fn work(
        mut self,
        kernel: impl Into<String>,
        work: crate::work::Work,
        ms: f64,
    ) -> RowBuilder {
        self.row.attained = Some(Attained {
            kernel: kernel.into(),
            work,
            ms,
            interval_ms: None,
            between: 0.0,
            runs: None,
            halves_ms: None,
            bound: None,
            versus: None,
            not_chosen: false,
        });
        self
    }
    /// [`work`](Self::work) with the row's timed runs: the median and its interval, so that
    /// the fraction of the bound carries the interval too, and the two halves of the runs
    /// ([`Attained::halves_ms`]).
    pub fn work_timed(
        self,
        kernel: impl Into<String>,
        work: crate::work::Work,
        t: &crate::gl::Timing,
    ) -> RowBuilder {
        let mut b = self.work(kernel, work, t.median_ms);
        if let Some(a) = b.row.attained.as_mut()
            && t.runs > 1
        {
            a.interval_ms = Some((t.lo_ms, t.hi_ms));
            a.between = t.between;
            a.runs = Some(t.runs);
            a.set_halves(t.est().halves());
        }
        b
    }
    /// After [`work`](Self::work): this row is a tuning candidate that was not chosen, so it
    /// does not stand for its kernel on the roofline.
    pub fn not_chosen(mut self) -> RowBuilder {
        if let Some(a) = self.row.attained.as_mut() {
            a.not_chosen = true;
        }
        self
    }
    /// A measured time cell from its timed runs ([`Value::Est`]).
    pub fn timed(self, name: &str, t: &crate::gl::Timing) -> RowBuilder {
        self.est(name, t.est())
    }
    /// After [`work`](Self::work): this row solves `algorithm` on `input` (e.g. "CR",
    /// "1024 systems × 1023"), so that it meets the other pipeline's rows of the same
    /// algorithm and input in the legacy-vs-compute table (the fastest verified row of each
    /// pipeline stands for it).
    pub fn versus(mut self, algorithm: impl Into<String>, input: impl Into<String>) -> RowBuilder {
        let a = self
            .row
            .attained
            .as_mut()
            .unwrap_or_else(|| panic!("table {}: versus() before work()", self.table));
        a.versus = Some((algorithm.into(), input.into()));
        self
    }
    /// Whether the table has a column called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }
    /// The row so far (its key, cells and status).
    pub fn row(&self) -> &Row {
        &self.row
    }
    pub fn build(self) -> Row {
        self.row
    }
}

impl From<RowBuilder> for Row {
    fn from(b: RowBuilder) -> Row {
        b.row
    }
}
