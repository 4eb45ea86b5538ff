//! A table's columns and cells: where a column's numbers come from ([`Source`]), how they
//! are printed ([`Fmt`]), one cell ([`Value`]).

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
