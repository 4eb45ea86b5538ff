//! A result table: typed columns that say where each number comes from (our measurement, the
//! paper, the audit of the paper, or beyond the paper), rows with a verification status, and
//! its Markdown, CSV and JSON forms.

use serde::{Deserialize, Serialize};

mod bound;
mod row;
pub mod versus;

pub use bound::{Attained, BOUND, LIMITER, OF_BOUND, bound_columns};
pub use row::{Row, RowBuilder, Status};

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

    /// The 95 % intervals of column `name`, one per row (`None` where the cell is not an
    /// estimate).
    pub fn intervals(&self, name: &str) -> Vec<Option<(f64, f64)>> {
        let c = self.col(name);
        self.rows
            .iter()
            .map(|r| r.values.get(c).and_then(Value::interval))
            .collect()
    }

    /// `(x, y, y's interval)` of two numeric columns, rows where both are numbers: a
    /// measured curve with its whiskers ([`crate::report::Series::measured`]).
    pub fn measured_series(
        &self,
        x: &str,
        y: &str,
    ) -> Vec<crate::report::plot::line::MeasuredPoint> {
        self.numbers(x)
            .into_iter()
            .zip(self.numbers(y))
            .zip(self.intervals(y))
            .filter_map(|((a, b), iv)| Some((a?, b?, iv)))
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
