//! A result table: typed columns that say where each number comes from (our measurement, the
//! paper, the audit of the paper, or beyond the paper), rows with a verification status, and
//! its Markdown, CSV and JSON forms.

use serde::{Deserialize, Serialize};

/// Where a column's numbers come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Measured or computed by this run (the paper's technique).
    Ours,
    /// Copied from the paper (`experiments/<paper>.toml`).
    Paper,
    /// Recomputed from the paper's raw numbers.
    Audit,
    /// Measured by this run for a variant the paper did not have.
    Beyond,
    /// A parameter of the row (size, variant name).
    Key,
}

/// How a numeric column is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fmt {
    Int,
    /// Fixed decimals.
    Fixed(u8),
    /// Scientific with this many decimals.
    Sci(u8),
    /// This many significant digits, fixed or scientific as fits.
    Sig(u8),
    Text,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    pub unit: String,
    pub source: Source,
    pub fmt: Fmt,
}

impl Column {
    fn make(name: &str, source: Source, fmt: Fmt) -> Column {
        Column {
            name: name.to_string(),
            unit: String::new(),
            source,
            fmt,
        }
    }
    /// A row parameter (size, variant), printed as text or integer.
    pub fn key(name: &str) -> Column {
        Self::make(name, Source::Key, Fmt::Text)
    }
    /// Our measurement.
    pub fn ours(name: &str) -> Column {
        Self::make(name, Source::Ours, Fmt::Sig(4))
    }
    /// The paper's published number.
    pub fn paper(name: &str) -> Column {
        Self::make(name, Source::Paper, Fmt::Sig(4))
    }
    /// A number recomputed from the paper's raw columns.
    pub fn audit(name: &str) -> Column {
        Self::make(name, Source::Audit, Fmt::Sig(4))
    }
    /// A variant beyond the paper.
    pub fn beyond(name: &str) -> Column {
        Self::make(name, Source::Beyond, Fmt::Sig(4))
    }
    pub fn unit(mut self, unit: &str) -> Column {
        self.unit = unit.to_string();
        self
    }
    pub fn fmt(mut self, fmt: Fmt) -> Column {
        self.fmt = fmt;
        self
    }
    pub fn int(self) -> Column {
        self.fmt(Fmt::Int)
    }
    pub fn fixed(self, d: u8) -> Column {
        self.fmt(Fmt::Fixed(d))
    }
    pub fn sci(self, d: u8) -> Column {
        self.fmt(Fmt::Sci(d))
    }
    pub fn text(self) -> Column {
        self.fmt(Fmt::Text)
    }

    /// The header as printed: a marker for the paper's and beyond-the-paper columns, the unit.
    pub fn header(&self) -> String {
        let mark = match self.source {
            Source::Paper => "paper: ",
            Source::Audit => "audit: ",
            Source::Beyond => "+ ",
            _ => "",
        };
        if self.unit.is_empty() {
            format!("{mark}{}", self.name)
        } else {
            format!("{mark}{} ({})", self.name, self.unit)
        }
    }
}

/// One cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Num(f64),
    /// A measured number: the median of repeated runs with its 95 % interval and the samples
    /// ([`crate::stats::Estimate`]); printed `median [lo, hi]`.
    Est(crate::stats::Estimate),
    Text(String),
    Missing,
}

impl Value {
    /// The number (an estimate's median).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Num(v) => Some(*v),
            Value::Est(e) => Some(e.median),
            _ => None,
        }
    }

    /// An estimate's 95 % interval (`None` for a plain number, text or a missing cell).
    pub fn interval(&self) -> Option<(f64, f64)> {
        match self {
            Value::Est(e) => Some((e.lo, e.hi)),
            _ => None,
        }
    }

    /// The cell's estimate, when it is one.
    pub fn estimate(&self) -> Option<&crate::stats::Estimate> {
        match self {
            Value::Est(e) => Some(e),
            _ => None,
        }
    }

    /// The cell as printed with `fmt`.
    pub fn render(&self, fmt: Fmt) -> String {
        match self {
            Value::Missing => "—".to_string(),
            Value::Text(s) => s.clone(),
            Value::Est(e) if e.n <= 1 || e.lo == e.hi => Value::Num(e.median).render(fmt),
            Value::Est(e) => format!(
                "{} [{}, {}]{}",
                Value::Num(e.median).render(fmt),
                Value::Num(e.lo).render(fmt),
                Value::Num(e.hi).render(fmt),
                if e.has_ci() { "" } else { FEW_RUNS_MARK }
            ),
            Value::Num(v) if !v.is_finite() => format!("{v}"),
            Value::Num(v) => match fmt {
                Fmt::Int | Fmt::Text if v.fract() == 0.0 && v.abs() < 1e15 => group(*v as i64),
                Fmt::Int | Fmt::Text => format!("{v}"),
                Fmt::Fixed(d) => format!("{v:.*}", d as usize),
                Fmt::Sci(d) => format!("{v:.*e}", d as usize),
                Fmt::Sig(d) => sig(*v, d as usize),
            },
        }
    }
}

/// Marks an interval of fewer than 6 runs: `[min, max]`, which covers less than 95 %.
pub const FEW_RUNS_MARK: &str = "*";

/// Thousands separators, as the papers print counts (`1,048,576`).
fn group(v: i64) -> String {
    let s = v.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0 { format!("-{out}") } else { out }
}

fn sig(v: f64, d: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let e = v.abs().log10().floor() as i32;
    if !(-3..6).contains(&e) {
        return format!("{v:.*e}", d.saturating_sub(1));
    }
    let decimals = (d as i32 - 1 - e).max(0) as usize;
    format!("{v:.decimals$}")
}

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
    fn render(&self) -> String {
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
}

/// What a timed GPU row did and how long it took; the runner fills `bound` from the device's
/// profile (`device.json`) when the row is added, and the bound columns with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attained {
    /// The kernel, as its point on the roofline is labelled (one point per kernel: its row
    /// with the most work).
    pub kernel: String,
    pub work: crate::work::Work,
    /// The measured time the work took (ms): the median of the timed runs.
    pub ms: f64,
    /// The 95 % interval of that median (ms), when the row kept its runs ([`RowBuilder::work_timed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_ms: Option<(f64, f64)>,
    /// The bound on this device, when its limits are known.
    #[serde(default)]
    pub bound: Option<crate::work::Bound>,
    /// The algorithm and input this row solves, where the paper (or a variant) solves the
    /// same with the other pipeline: rows with equal `(algorithm, input)` and different
    /// pipelines meet in the legacy-vs-compute table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus: Option<(String, String)>,
    /// A tuning candidate that was not chosen: its kernel's point on the roofline is the
    /// chosen candidate's (or another row's), not this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_chosen: bool,
}

impl Attained {
    /// `bound / measured` (1 = at the device's limit).
    pub fn fraction(&self) -> Option<f64> {
        self.bound.and_then(|b| b.fraction(self.ms))
    }

    /// The fraction with its interval, `bound / [hi, lo]`, when the time has one.
    pub fn fraction_est(&self) -> Option<crate::stats::Estimate> {
        let f = self.fraction()?;
        let b = self.bound?;
        Some(match self.interval_ms {
            Some((lo, hi)) if lo > 0.0 && hi > 0.0 => {
                crate::stats::Estimate::with_interval(f, b.ms / hi, b.ms / lo, crate::stats::LEVEL)
            }
            _ => crate::stats::Estimate::exact(f),
        })
    }
}

/// The columns a timed GPU row's bound fills: the least time this device's measured limits
/// allow for the row's work (ms), which limit sets it, and the fraction of it attained.
pub const BOUND: &str = "bound";
pub const LIMITER: &str = "limiter";
pub const OF_BOUND: &str = "of bound";

/// The `versus` table's id and the columns the report reads from it (see
/// `runner::versus`).
pub mod versus {
    pub const TABLE: &str = "versus";
    pub const LEGACY_MS: &str = "legacy (ms)";
    pub const COMPUTE_MS: &str = "compute (ms)";
    pub const RATIO: &str = "legacy / compute";
    pub const FASTER: &str = "faster";

    /// A row of the ratio chart: (label, ratio, interval low, interval high).
    pub type Ratio = (String, f64, f64, f64);

    /// The figure of legacy / compute ratios: one dot per `(label, ratio, lo, hi)` with its
    /// 95 % interval as a whisker, on a log axis centred on 1.
    pub fn chart(title: &str, rows: Vec<Ratio>) -> crate::report::RatioChart {
        crate::report::RatioChart {
            title: title.into(),
            x_label: "legacy / compute time (whiskers: 95 % interval)".into(),
            below: "legacy faster".into(),
            above: "compute faster".into(),
            rows,
        }
    }

    /// The chart's row of each row of a `versus` table: `label(row)`, the ratio and its
    /// interval (the ratio itself where the cell has none).
    pub fn ratios(t: &super::Table, label: impl Fn(&super::Row) -> String) -> Vec<Ratio> {
        t.rows
            .iter()
            .filter_map(|r| {
                let v = &r.values[t.col(RATIO)];
                let m = v.as_f64()?;
                let (lo, hi) = v.interval().unwrap_or((m, m));
                Some((label(r), m, lo, hi))
            })
            .collect()
    }
}

/// The three bound columns, to append to a timed table's columns.
pub fn bound_columns() -> [Column; 3] {
    [
        Column::ours(BOUND).unit("ms").sci(2),
        Column::ours(LIMITER).text(),
        Column::ours(OF_BOUND).fixed(2),
    ]
}

impl Row {
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
            bound: None,
            versus: None,
            not_chosen: false,
        });
        self
    }
    /// [`work`](Self::work) with the row's timed runs: the median and its interval, so that
    /// the fraction of the bound carries the interval too.
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

/// A whole table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// File stem under `DIR/<paper>/`, e.g. `table1`.
    pub id: String,
    pub title: String,
    /// Text printed under the table: what the columns mean, how they were measured.
    pub caption: Vec<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

impl Table {
    pub fn new(id: &str, title: &str, columns: Vec<Column>) -> Table {
        Table {
            id: id.into(),
            title: title.into(),
            caption: vec![],
            columns,
            rows: vec![],
        }
    }

    /// A new row of this table, filled by column name ([`RowBuilder`]).
    pub fn row(&self, key: impl Into<String>) -> RowBuilder {
        RowBuilder::new(&self.id, &self.columns, key)
    }

    /// Index of the column called `name` (panics on a typo: a programming error).
    pub fn col(&self, name: &str) -> usize {
        self.columns
            .iter()
            .position(|c| c.name == name)
            .unwrap_or_else(|| panic!("table {}: no column `{name}`", self.id))
    }

    /// The numbers of column `name`, one per row.
    pub fn numbers(&self, name: &str) -> Vec<Option<f64>> {
        let c = self.col(name);
        self.rows
            .iter()
            .map(|r| r.values.get(c).and_then(Value::as_f64))
            .collect()
    }

    /// `(x, y)` pairs of two numeric columns, rows where both are numbers.
    pub fn series(&self, x: &str, y: &str) -> Vec<(f64, f64)> {
        self.numbers(x)
            .into_iter()
            .zip(self.numbers(y))
            .filter_map(|(a, b)| Some((a?, b?)))
            .collect()
    }

    pub fn failed_rows(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.status.failed())
    }

    /// GitHub-flavoured Markdown: title, the table with a verification column, the caption.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("### {}\n\n", self.title);
        let mut head: Vec<String> = self.columns.iter().map(Column::header).collect();
        head.push("runs".into());
        head.push("verified".into());
        s.push_str(&format!("| {} |\n", head.join(" | ")));
        let align: Vec<&str> = self
            .columns
            .iter()
            .map(|c| if c.fmt == Fmt::Text { "---" } else { "---:" })
            .chain(["---:", "---"])
            .collect();
        s.push_str(&format!("|{}|\n", align.join("|")));
        for r in &self.rows {
            let mut cells: Vec<String> = self
                .columns
                .iter()
                .enumerate()
                .map(|(i, c)| r.values.get(i).unwrap_or(&Value::Missing).render(c.fmt))
                .collect();
            cells.push(r.runs.map_or("—".into(), |n| n.to_string()));
            cells.push(r.status.render());
            s.push_str(&format!("| {} |\n", cells.join(" | ").replace('\n', " ")));
        }
        let legend = self.legend();
        if !legend.is_empty() || !self.caption.is_empty() {
            s.push('\n');
        }
        for line in self.caption.iter().chain(legend.iter()) {
            s.push_str(&format!("{line}\n"));
        }
        s
    }

    fn legend(&self) -> Vec<String> {
        let has = |src| self.columns.iter().any(|c| c.source == src);
        let mut l = vec![];
        if has(Source::Paper) {
            l.push("`paper:` columns are the paper's published numbers, copied from it.".into());
        }
        if has(Source::Audit) {
            l.push(
                "`audit:` columns recompute the paper's derived numbers from its raw columns."
                    .into(),
            );
        }
        if has(Source::Beyond) {
            l.push("`+` columns are variants beyond the paper, measured in the same run.".into());
        }
        let ests: Vec<&crate::stats::Estimate> = self
            .rows
            .iter()
            .flat_map(|r| r.values.iter().filter_map(Value::estimate))
            .collect();
        if ests.iter().any(|e| e.n > 1) {
            let mut line = "Measured numbers read `median [lo, hi]`: the median of the timed runs \
                 and its 95 % confidence interval (distribution-free, from order statistics; \
                 `runs` says how many)."
                .to_string();
            if ests.iter().any(|e| e.n > 1 && !e.has_ci()) {
                line.push_str(&format!(
                    " `{FEW_RUNS_MARK}`: fewer than {} runs, the interval is [min, max] and \
                     covers less than 95 %.",
                    crate::stats::MIN_SAMPLES_FOR_CI
                ));
            }
            l.push(line);
        }
        l
    }

    /// CSV: a header row of column headers, then the raw values (full precision).
    /// A column holding an estimate gets two more after it, `<header> lo` and `<header> hi`,
    /// the ends of its interval.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut w = csv::Writer::from_writer(vec![]);
        let est_col: Vec<bool> = (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .any(|r| matches!(r.values.get(i), Some(Value::Est(_))))
            })
            .collect();
        let mut head: Vec<String> = Vec::new();
        for (c, &e) in self.columns.iter().zip(&est_col) {
            head.push(c.header());
            if e {
                head.push(format!("{} lo", c.header()));
                head.push(format!("{} hi", c.header()));
            }
        }
        head.extend([
            "runs".into(),
            "status".into(),
            "error".into(),
            "tolerance".into(),
        ]);
        w.write_record(&head)?;
        for r in &self.rows {
            let mut rec: Vec<String> = Vec::new();
            for (i, &e) in est_col.iter().enumerate() {
                let v = r.values.get(i);
                rec.push(match v {
                    Some(Value::Num(v)) => format!("{v}"),
                    Some(Value::Est(e)) => format!("{}", e.median),
                    Some(Value::Text(t)) => t.clone(),
                    _ => String::new(),
                });
                if e {
                    let (lo, hi) = v
                        .and_then(Value::interval)
                        .map_or((String::new(), String::new()), |(a, b)| {
                            (format!("{a}"), format!("{b}"))
                        });
                    rec.extend([lo, hi]);
                }
            }
            rec.push(r.runs.map_or(String::new(), |n| n.to_string()));
            match &r.status {
                Status::Verified { error, tolerance } => rec.extend([
                    "verified".into(),
                    format!("{error}"),
                    format!("{tolerance}"),
                ]),
                Status::Failed { reason } => {
                    rec.extend([format!("FAILED: {reason}"), String::new(), String::new()])
                }
                Status::Unchecked { why } => {
                    rec.extend([why.clone(), String::new(), String::new()])
                }
                Status::Skipped { reason } => {
                    rec.extend([format!("skipped: {reason}"), String::new(), String::new()])
                }
            }
            w.write_record(&rec)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Estimate;

    #[test]
    fn estimates_print_their_interval_and_csv_gets_its_ends() {
        let mut t = Table::new("t", "T", vec![Column::key("k"), Column::ours("ms")]);
        let e = Estimate::of(&[1.0, 1.1, 1.2, 1.0, 1.05, 1.3]).unwrap();
        let few = Estimate::of(&[2.0, 2.5]).unwrap();
        t.rows.push(t.row("a").text("k", "a").est("ms", e).build());
        t.rows
            .push(t.row("b").text("k", "b").est("ms", few).build());
        t.rows
            .push(t.row("c").text("k", "c").num("ms", 3.0).build());
        let md = t.to_markdown();
        assert!(md.contains("| a | 1.050 [1.000, 1.300] |"), "{md}");
        assert!(
            md.contains(&format!("2.000 [2.000, 2.500]{FEW_RUNS_MARK}")),
            "{md}"
        );
        assert!(md.contains("95 % confidence interval"), "{md}");
        let csv = t.to_csv().unwrap();
        let mut lines = csv.lines();
        assert!(lines.next().unwrap().starts_with("k,ms,ms lo,ms hi,runs"));
        assert!(lines.next().unwrap().starts_with("a,1.05,1,1.3,"));
        assert!(csv.lines().nth(3).unwrap().starts_with("c,3,,,"));
        // JSON round trip keeps the estimate and its samples.
        let back: Table = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.rows[0].values[1].interval(), Some((1.0, 1.3)));
        assert_eq!(back.rows[0].values[1].as_f64(), Some(1.05));
    }
}
