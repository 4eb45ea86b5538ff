//! The project's performance targets (`experiments/targets.toml`, issue 41) judged on a device
//! folder's rows: the report's section "Near the device's limits". A target names a table, a
//! row (or the best verified row of a family) and a measured column; it is *reached* when the
//! cell's whole 95 % interval lies on the target's side, *missed* when it lies wholly on the
//! other, and *undecided* when the interval straddles it or is not a 95 % interval (fewer than
//! six runs). Beside each verdict stand the row's fraction of its bound and where its time
//! went (its profiled run, [`crate::report::profile`]): the breakdown a missed target is
//! explained by.

use std::path::Path;

use serde::Deserialize;

use crate::report::profile::RowProfile;
use crate::report::record::PaperRecord;
use crate::report::table::bound::{LIMITER, OF_BOUND, OF_BOUND_FMT};
use crate::report::table::row::{Row, Status};
use crate::report::table::sheet::Table;
use crate::report::table::value::{Fmt, Value};
use crate::stats::decision::{Decision, decide};

/// The built-in targets.
pub const TARGETS_TOML: &str = include_str!("../../../experiments/targets.toml");

/// The device classes a target is set for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// A CPU rasterizer (llvmpipe, softpipe): the "GPU" is the host's cores.
    Software,
    /// Any other device.
    Gpu,
}

/// One target, as `experiments/targets.toml` writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    pub what: String,
    pub device: Class,
    /// `<paper>/<table id>`.
    pub table: String,
    /// A row key, or a key prefix ending in `*` (the best verified row of that family).
    pub row: String,
    pub column: String,
    #[serde(default)]
    pub at_least: Option<f64>,
    #[serde(default)]
    pub at_most: Option<f64>,
    pub why: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    target: Vec<Target>,
}

impl Target {
    /// The threshold and its side (`true`: at least).
    fn rule(&self) -> (f64, bool) {
        match (self.at_least, self.at_most) {
            (Some(v), _) => (v, true),
            (None, Some(v)) => (v, false),
            (None, None) => unreachable!("checked at parse"),
        }
    }

    fn paper_table(&self) -> (&str, &str) {
        self.table.split_once('/').expect("checked at parse")
    }
}

/// Parses and checks a targets file: each target one threshold (finite, positive), a table
/// named `<paper>/<id>`, a non-empty row and column.
pub fn parse(text: &str) -> Result<Vec<Target>, String> {
    let f: File = toml::from_str(text).map_err(|e| format!("targets: {e}"))?;
    for t in &f.target {
        let say = |m: &str| Err(format!("targets: \"{}\": {m}", t.what));
        match (t.at_least, t.at_most) {
            (Some(_), Some(_)) | (None, None) => return say("give one of at_least, at_most"),
            (Some(v), None) | (None, Some(v)) if !(v.is_finite() && v > 0.0) => {
                return say("the threshold must be a positive number");
            }
            _ => {}
        }
        match t.table.split_once('/') {
            Some((p, id)) if !p.is_empty() && !id.is_empty() && !id.contains('/') => {}
            _ => return say("table must read <paper>/<table id>"),
        }
        if t.row.is_empty() || t.column.is_empty() {
            return say("row and column must not be empty");
        }
    }
    Ok(f.target)
}

/// The built-in targets (a test checks that they parse).
pub fn builtin() -> Vec<Target> {
    parse(TARGETS_TOML).expect("experiments/targets.toml parses (tested)")
}

/// What one target found in a folder's rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The row read, when one was found.
    pub row: Option<String>,
    /// The cell as printed (`median [lo, hi]`), or why there is none.
    pub ours: String,
    pub verdict: Verdict,
    /// The row's `of bound (limiter)`, where its table has them.
    pub bound: Option<String>,
}

impl Judged {
    /// No row to read, and why.
    fn not_measured(why: String) -> Judged {
        Judged {
            row: None,
            ours: "—".into(),
            verdict: Verdict::NotMeasured(why),
            bound: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Reached,
    Missed,
    /// The interval straddles the target, or is no 95 % interval; the text says which.
    Undecided(String),
    /// No row to read: the table or row did not run, failed, or is not in this folder.
    NotMeasured(String),
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Reached => write!(f, "**reached**"),
            Verdict::Missed => write!(f, "**missed**"),
            Verdict::Undecided(why) => write!(f, "undecided ({why})"),
            Verdict::NotMeasured(why) => write!(f, "not measured ({why})"),
        }
    }
}

/// Judges `t` on `table`: the row (the family's best verified row for a `*` key) and its
/// cell against the threshold.
pub fn judge(t: &Target, table: &Table) -> Judged {
    let (threshold, at_least) = t.rule();
    let none = Judged::not_measured;
    let Some(col) = table.find_col(&t.column) else {
        return none(format!("table `{}` has no column `{}`", table.id, t.column));
    };
    let value = |r: &Row| r.values.get(col).and_then(Value::as_f64);
    let verified = |r: &&Row| matches!(r.status, Status::Verified { .. });
    let row: Option<&Row> = match t.row.strip_suffix('*') {
        Some(prefix) => table
            .rows
            .iter()
            .filter(|r| r.key.starts_with(prefix))
            .filter(verified)
            .filter(|r| value(r).is_some())
            .max_by(|a, b| {
                let o = value(a).unwrap().total_cmp(&value(b).unwrap());
                if at_least { o } else { o.reverse() }
            }),
        None => table.rows.iter().find(|r| r.key == t.row),
    };
    let Some(row) = row else {
        return none(match t.row.strip_suffix('*') {
            Some(p) => format!("no verified row `{p}…` in `{}`", table.id),
            None => format!("no row `{}` in `{}`", t.row, table.id),
        });
    };
    match &row.status {
        Status::Verified { .. } => {}
        Status::Failed { .. } => return none(format!("row `{}` failed", row.key)),
        Status::Skipped { reason } => return none(format!("row `{}`: {reason}", row.key)),
        Status::Unchecked { why } => return none(format!("row `{}`: {why}", row.key)),
    }
    let cell = &row.values[col];
    let fmt = table.columns[col].fmt;
    let ours = cell.render(fmt);
    let bound = table
        .columns
        .iter()
        .position(|c| c.name == OF_BOUND)
        .and_then(|c| row.values.get(c))
        .and_then(Value::as_f64)
        .map(|f| {
            let limiter = table
                .columns
                .iter()
                .position(|c| c.name == LIMITER)
                .and_then(|c| row.values.get(c))
                .map(|v| v.render(Fmt::Text))
                .unwrap_or_default();
            format!("{} ({limiter})", Value::Num(f).render(OF_BOUND_FMT))
        });
    let verdict = match cell.estimate() {
        None => Verdict::Undecided("the cell is not a measured interval".into()),
        Some(e) if !e.has_ci() => {
            Verdict::Undecided(format!("{} runs: [min, max], a 95 % interval needs 6", e.n))
        }
        Some(e) => match decide((e.lo, e.hi), threshold, at_least) {
            Decision::Holds => Verdict::Reached,
            Decision::Fails => Verdict::Missed,
            Decision::Undecided => Verdict::Undecided("the interval straddles the target".into()),
        },
    };
    Judged {
        row: Some(row.key.clone()),
        ours,
        verdict,
        bound,
    }
}

/// The section: every target of this folder's device class judged on its rows, with the
/// breakdown of each measured row's time.
pub fn section(
    dir: &Path,
    records: &[(&str, Option<&PaperRecord>)],
    class: Class,
    targets: &[Target],
) -> String {
    let mine: Vec<&Target> = targets.iter().filter(|t| t.device == class).collect();
    let mut s = String::from("## Near the device's limits: the project's targets\n\n");
    if mine.is_empty() {
        s.push_str("No target is set for this device class.\n\n");
        return s;
    }
    s.push_str(&format!(
        "How near this device's limits the kernels beyond the papers run, against the targets \
         this project set itself for {} (`experiments/targets.toml`; no paper printed them). \
         A target is reached when the whole 95 % interval lies on its side, missed when it \
         lies wholly on the other, else undecided. `of bound` is the row's fraction of the \
         least time this device's measured roofs allow its work (its limiter in brackets); \
         where the time went is the row's profiled run, pass by pass (the row's paper page, \
         *Where the time goes*).\n\n\
         | target | ours | row | verdict | of bound |\n|---|---:|---|---|---:|\n",
        match class {
            Class::Software => "a CPU rasterizer",
            Class::Gpu => "a GPU",
        }
    ));
    let mut breakdowns = String::new();
    for t in mine {
        let (paper, id) = t.paper_table();
        let (threshold, at_least) = t.rule();
        let judged = match Table::read(&dir.join(paper), id) {
            Some(table) => judge(t, &table),
            None => Judged::not_measured(format!("no table `{}` in this folder", t.table)),
        };
        let row_cell = match &judged.row {
            Some(r) => format!("[`{r}`]({paper}/{id}.md)"),
            None => "—".into(),
        };
        s.push_str(&format!(
            "| {}: {} {} {} | {} | {row_cell} | {} | {} |\n",
            t.what,
            t.column,
            if at_least { "≥" } else { "≤" },
            Value::Num(threshold).render(Fmt::Sig(3)),
            judged.ours,
            judged.verdict,
            judged.bound.as_deref().unwrap_or("—"),
        ));
        let profile = judged.row.as_deref().and_then(|row| {
            records
                .iter()
                .find(|(k, _)| *k == paper)
                .and_then(|(_, r)| *r)
                .and_then(|r| r.profiles.iter().find(|p| p.table == id && p.row == row))
        });
        if let Some(p) = profile {
            breakdowns.push_str(&breakdown(t, p));
        }
    }
    s.push('\n');
    if !breakdowns.is_empty() {
        s.push_str("Where each target row's time went (its profiled warm-up run):\n\n");
        s.push_str(&breakdowns);
        s.push('\n');
    }
    s
}

/// A target row's profile, one line per profiled run.
fn breakdown(t: &Target, p: &RowProfile) -> String {
    let mut s = format!("- {} (`{}`, row `{}`):\n", t.what, t.table, p.row);
    for r in &p.runs {
        s.push_str(&format!("  - {}\n", crate::report::profile::run_line(r)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::table::value::Column;
    use crate::stats::Estimate;

    fn table(rows: &[(&str, f64, f64, f64, usize, bool)]) -> Table {
        let mut t = Table::new(
            "fig14_heat",
            "heat",
            vec![Column::key("solver").text(), Column::ours("FPS").fixed(1)],
        );
        for &(key, median, lo, hi, n, ok) in rows {
            let e = Estimate {
                n,
                ..Estimate::with_interval(median, lo, hi, if n >= 6 { 0.96 } else { 0.5 })
            };
            let b = t.row(key).text("solver", key).est("FPS", e);
            let b = if ok {
                b.verify(1e-6, 1e-4)
            } else {
                b.fail("over tolerance")
            };
            t.rows.push(b.build());
        }
        t
    }

    fn target(row: &str, at_least: f64) -> Target {
        Target {
            what: "heat".into(),
            device: Class::Software,
            table: "tridiagonal/fig14_heat".into(),
            row: row.into(),
            column: "FPS".into(),
            at_least: Some(at_least),
            at_most: None,
            why: "test".into(),
        }
    }

    #[test]
    fn the_built_in_targets_parse_and_each_class_has_its_own() {
        let t = builtin();
        assert!(t.iter().any(|t| t.device == Class::Software));
        assert!(t.iter().any(|t| t.device == Class::Gpu));
    }

    #[test]
    fn a_target_file_with_no_or_two_thresholds_or_a_bad_table_is_refused() {
        let base = "[[target]]\nwhat = \"w\"\ndevice = \"gpu\"\nrow = \"r\"\ncolumn = \"c\"\nwhy = \"y\"\n";
        let ok = format!("{base}table = \"p/t\"\nat_least = 1.0\n");
        assert_eq!(parse(&ok).unwrap().len(), 1);
        for bad in [
            format!("{base}table = \"p/t\"\n"),
            format!("{base}table = \"p/t\"\nat_least = 1.0\nat_most = 2.0\n"),
            format!("{base}table = \"p/t\"\nat_least = -1.0\n"),
            format!("{base}table = \"pt\"\nat_least = 1.0\n"),
            format!("{base}table = \"p/t\"\nat_least = 1.0\ncolour = 1\n"),
            ok.replace("gpu", "tpu"),
        ] {
            assert!(parse(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_target_is_reached_missed_or_undecided_by_the_whole_interval() {
        let t = table(&[
            ("1023/cr", 14.0, 12.0, 16.0, 40, true),
            ("1023/fused", 45.0, 39.0, 52.0, 40, true),
            ("1023/broken", 900.0, 800.0, 1000.0, 40, false),
            ("1023/few", 60.0, 55.0, 65.0, 3, true),
        ]);
        assert_eq!(
            judge(&target("1023/cr", 10.0), &t).verdict,
            Verdict::Reached
        );
        assert_eq!(judge(&target("1023/cr", 40.0), &t).verdict, Verdict::Missed);
        assert!(matches!(
            judge(&target("1023/cr", 15.0), &t).verdict,
            Verdict::Undecided(_)
        ));
        // The family's best verified row: the failed row is never the best, and a row of
        // fewer than six runs decides nothing.
        let best = judge(&target("1023/*", 100.0), &t);
        assert_eq!(best.row.as_deref(), Some("1023/few"));
        assert!(matches!(best.verdict, Verdict::Undecided(ref w) if w.contains("3 runs")));
        let t2 = table(&[
            ("1023/cr", 14.0, 12.0, 16.0, 40, true),
            ("1023/fused", 45.0, 39.0, 52.0, 40, true),
        ]);
        let best = judge(&target("1023/*", 100.0), &t2);
        assert_eq!(
            (best.row.as_deref(), best.verdict),
            (Some("1023/fused"), Verdict::Missed)
        );
        assert!(matches!(
            judge(&target("1023/broken", 1.0), &t).verdict,
            Verdict::NotMeasured(_)
        ));
        assert!(matches!(
            judge(&target("511/cr", 1.0), &t).verdict,
            Verdict::NotMeasured(_)
        ));
    }

    #[test]
    fn the_section_reads_the_folders_tables_and_names_what_it_lacks() {
        let dir = std::env::temp_dir().join(format!("gpgpu-targets-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("tridiagonal")).unwrap();
        let t = table(&[("1023/cr", 14.0, 12.0, 16.0, 40, true)]);
        std::fs::write(
            dir.join("tridiagonal/fig14_heat.json"),
            serde_json::to_string(&t).unwrap(),
        )
        .unwrap();
        let targets = vec![
            target("1023/cr", 40.0),
            Target {
                table: "matmul/table1_kernels".into(),
                ..target("2048 blocked compute", 40.0)
            },
        ];
        let s = section(&dir, &[], Class::Software, &targets);
        assert!(
            s.contains(
                "| 14.0 [12.0, 16.0] | [`1023/cr`](tridiagonal/fig14_heat.md) | **missed** |"
            ),
            "{s}"
        );
        assert!(
            s.contains("not measured (no table `matmul/table1_kernels` in this folder)"),
            "{s}"
        );
        let gpu = section(&dir, &[], Class::Gpu, &targets);
        assert!(
            gpu.contains("No target is set for this device class."),
            "{gpu}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
