//! A whole [`Table`]: its columns and rows, and its Markdown, CSV and JSON forms.

use serde::{Deserialize, Serialize};

use super::row::{Row, RowBuilder, Status};
use super::value::{Column, FEW_RUNS_MARK, Fmt, Source, Value};

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

    /// The table `id` of a paper's folder `dir`, read back from its JSON file (`None` when the
    /// file is missing or is not a table).
    pub fn read(dir: &std::path::Path, id: &str) -> Option<Table> {
        let text = std::fs::read_to_string(dir.join(format!("{id}.json"))).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// A new row of this table, filled by column name ([`RowBuilder`]).
    pub fn row(&self, key: impl Into<String>) -> RowBuilder {
        RowBuilder::new(&self.id, &self.columns, key)
    }

    /// Index of the column called `name` (panics on a typo: a programming error).
    pub fn col(&self, name: &str) -> usize {
        self.find_col(name)
            .unwrap_or_else(|| panic!("table {}: no column `{name}`", self.id))
    }

    /// Index of the column called `name`, `None` where the table has none (a column that
    /// older records lack).
    pub fn find_col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
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
