//! The per-paper record (`DIR/<paper>/paper.json`: its tables, plots, notes, audits,
//! findings and provenance) and the command's times (`run.json`): the data that the index
//! ([`super::index`]) and the article ([`super::article`]) are both written from, in a file of
//! their own so that neither of the two imports the other for it.

use crate::mode::Mode;
use serde::{Deserialize, Serialize};

use super::audit::Audit;
use super::finding::Finding;
use super::load::LoadSample;
use super::provenance::Provenance;

/// A table as the index lists it (`Default`: no rows, nothing skipped, failed or reused).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TableRef {
    pub id: String,
    pub title: String,
    pub rows: usize,
    pub failed: usize,
    /// Rows not run because the device lacks what they need (see [`crate::gl::Caps::lacks`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped_rows: usize,
    /// The whole table was not run, and why ("needs compute shaders (GL 4.3), device offers
    /// GL 3.3"); it has no files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Rows taken over from an earlier run by `--resume` (not measured again).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reused: usize,
    /// Rows with nothing to verify against a CPU reference (counts, derived values).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unchecked: usize,
    /// The machine's load from the table's start to its end ([`super::load`]); `None` in
    /// older records and where it was not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<LoadSample>,
    /// Where the table's time went in the run that measured it ([`TableTime`]); `None` in
    /// older records, for a skipped table and where every row was taken over by `--resume`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TableTime>,
}

/// A table's wall time from its start to its files, and the parts of it spent inside timed
/// runs ([`crate::gl::ledger::Ledger`]); the rest is set-up, references, verification and
/// plotting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TableTime {
    pub seconds: f64,
    /// In timed GPU runs, with their warm-ups and re-warms.
    pub gpu_s: f64,
    /// In timed CPU runs (the papers' CPU baselines), with their warm-ups.
    pub cpu_s: f64,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A plot as the index shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlotRef {
    pub file: String,
    pub caption: String,
}

/// Everything a paper's run produced, besides the table files themselves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaperRecord {
    pub key: String,
    pub title: String,
    pub provenance: Provenance,
    pub tables: Vec<TableRef>,
    pub plots: Vec<PlotRef>,
    /// Reproduction notes: decisions, ambiguities, findings.
    pub notes: Vec<String>,
    /// The audit of the paper's own numbers.
    pub audits: Vec<Audit>,
    /// The paper's claims, judged on this run.
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// Where each row's time went ([`super::profile`]); empty in older records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<super::profile::RowProfile>,
}

impl PaperRecord {
    pub fn failed_rows(&self) -> usize {
        self.tables.iter().map(|t| t.failed).sum()
    }
    /// "2 tables, 4 rows": what this device could not run (empty when everything ran).
    pub fn skipped(&self) -> String {
        let tables = self.tables.iter().filter(|t| t.skipped.is_some()).count();
        let rows: usize = self.tables.iter().map(|t| t.skipped_rows).sum();
        match (tables, rows) {
            (0, 0) => String::new(),
            (t, 0) => format!("{t} table{}", plural(t)),
            (0, r) => format!("{r} row{}", plural(r)),
            (t, r) => format!("{t} table{}, {r} row{}", plural(t), plural(r)),
        }
    }
}

/// What one `reproduce` command took: the whole command and each paper, written to
/// `DIR/run.json` after every paper (`complete: false`) and at its end, so that the report
/// states the whole command's time, not one paper's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunTimes {
    pub command: String,
    pub commit: String,
    /// When the command started.
    pub date: String,
    pub mode: Mode,
    /// Wall-clock seconds of the whole command so far (all of it once `complete`).
    pub seconds: f64,
    /// Seconds of the device bench (`--bench`) before the papers, if it ran.
    #[serde(default)]
    pub bench_s: Option<f64>,
    /// Each paper this command ran, with its seconds.
    pub papers: Vec<(String, f64)>,
    /// The command ended (else it is still running, or was interrupted).
    pub complete: bool,
    /// A few roofs re-measured at the start and after the papers (the run's own drift,
    /// `runner::drift::after_paper`);
    /// empty without a bench and in older files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drift: Vec<DriftProbe>,
    /// This run against the complete run of its mode it replaced in its folder
    /// (`runner::previous`, `previous.md`): the stability summary's reading; absent where
    /// there was none to compare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    /// What the start probe found of the device's state (`runner::drift`, "One state of the
    /// device"): a reused bench measured afresh, earlier probes left out of the span.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<String>,
}

/// One re-measurement of the drift probes' roofs ([`RunTimes::drift`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DriftProbe {
    /// `start`, or the paper after which it was made.
    pub after: String,
    /// Seconds into the command.
    pub seconds: f64,
    /// Each probed roof's key, unit and value.
    pub values: Vec<(String, String, f64)>,
}

/// The file [`RunTimes`] is written to, in the device folder.
pub const RUN_JSON: &str = "run.json";

impl RunTimes {
    /// "The latest command, `…` at commit `…` (…), took N s in all: …".
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .bench_s
            .map(|b| format!("device bench {b:.0} s"))
            .into_iter()
            .collect();
        parts.extend(self.papers.iter().map(|(k, t)| format!("{k} {t:.0} s")));
        format!(
            "The latest command, `{}` at commit `{}` ({}, {} mode), {} {:.0} s in all ({}).",
            self.command,
            self.commit,
            self.date,
            self.mode,
            if self.complete {
                "took"
            } else {
                "had run for (it did not finish)"
            },
            self.seconds,
            parts.join(", ")
        )
    }

    /// How far each probed roof moved over the run: its value at the first probe, its range
    /// over all, and its largest move from the first, `exp(max |ln(v / v₀)|)` (up or down
    /// alike, as the between-run terms are); `None` with fewer than two probes.
    pub fn drift_text(&self) -> Option<String> {
        let (first, rest) = self.drift.split_first()?;
        if rest.is_empty() {
            return None;
        }
        let span = self.drift.last().map_or(0.0, |p| p.seconds) - first.seconds;
        let parts: Vec<String> = first
            .values
            .iter()
            .map(|(key, unit, v0)| {
                let all: Vec<f64> = self
                    .drift
                    .iter()
                    .filter_map(|p| p.values.iter().find(|v| &v.0 == key).map(|v| v.2))
                    .collect();
                let (lo, hi) = all
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                        (a.min(v), b.max(v))
                    });
                let moved = all.iter().map(|v| (v / v0).ln().abs()).fold(0.0, f64::max);
                format!(
                    "`{key}` {v0:.4} {unit} at the start, {lo:.4}–{hi:.4} over {} probes \
                     (largest move from the start: a factor {:.3})",
                    all.len(),
                    moved.exp()
                )
            })
            .collect();
        let after: Vec<&str> = rest.iter().map(|p| p.after.as_str()).collect();
        Some(format!(
            "roofs re-measured at the start and after {}, over {span:.0} s: {}",
            after.join(", "),
            parts.join("; ")
        ))
    }
}

/// A paper's row count, with how many of them `--resume` reused (`42 (40 reused)`).
pub(super) fn rows_cell(r: &PaperRecord) -> String {
    let rows: usize = r.tables.iter().map(|t| t.rows).sum();
    match r.tables.iter().map(|t| t.reused).sum::<usize>() {
        0 => rows.to_string(),
        reused => format!("{rows} ({reused} reused)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(after: &str, seconds: f64, v: f64) -> DriftProbe {
        DriftProbe {
            after: after.into(),
            seconds,
            values: vec![("ssbo.read.f32".into(), "GB/s".into(), v)],
        }
    }

    #[test]
    fn the_drift_is_the_largest_move_from_the_first_probe_over_the_run() {
        let mut run = RunTimes {
            drift: vec![probe("start", 10.0, 10.0)],
            ..RunTimes::default()
        };
        // One probe: nothing to compare.
        assert_eq!(run.drift_text(), None);
        run.drift.push(probe("a", 70.0, 12.0));
        run.drift.push(probe("b", 130.0, 8.0));
        let text = run.drift_text().unwrap();
        // 10 → 8 is the larger move (|ln 0.8| > ln 1.2): a factor 1.25, down.
        assert!(text.contains("after a, b, over 120 s"), "{text}");
        assert!(
            text.contains("`ssbo.read.f32` 10.0000 GB/s at the start, 8.0000–12.0000 over 3 probes (largest move from the start: a factor 1.250)"),
            "{text}"
        );
    }
}
