//! `gpgpu-repro compare DIR_A DIR_B`: two runs (two devices, or one device twice) side by
//! side. It opens with the stability summary ([`super::stability`]: how many measured values'
//! intervals overlap, verdict, winner and limiter flips, roof changes, each item listed);
//! then, for every paper and table both runs have, every row and every measured column
//! (ours and beyond the paper): both values and their ratio B / A; then the verdicts that
//! change between the runs (a row verified in one and FAILED in the other, a text cell such
//! as a finding's verdict that differs), and what only one run has.
//!
//! Read from the runs' files (`<paper>/paper.json`, `<paper>/<table>.json`); nothing is
//! measured, every number is copied from them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::index::PaperRecord;
use super::stability::{self, Summary};
use super::table::{Row, Source, Status, Table, Value};

/// A run folder that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("{}: not a results folder (no <paper>/paper.json in it)", .0.display())]
    Empty(PathBuf),
    #[error("cannot read {}: {message}", path.display())]
    Read { path: PathBuf, message: String },
}

/// One run's papers and tables.
struct Run {
    dir: PathBuf,
    papers: BTreeMap<String, (PaperRecord, Vec<Table>)>,
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, CompareError> {
    let err = |message: String| CompareError::Read {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| err(e.to_string()))
}

/// The run in `dir`: every paper in it, or only those `only` names.
fn load(dir: &Path, only: Option<&[String]>) -> Result<Run, CompareError> {
    let entries = std::fs::read_dir(dir).map_err(|e| CompareError::Read {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let mut papers = BTreeMap::new();
    for e in entries.flatten() {
        let record_path = e.path().join("paper.json");
        if !record_path.is_file() {
            continue;
        }
        let record: PaperRecord = read_json(&record_path)?;
        if only.is_some_and(|keys| !keys.contains(&record.key)) {
            continue;
        }
        let tables = record
            .tables
            .iter()
            // A table the device could not run has no files (see `TableRef::skipped`).
            .filter(|t| t.skipped.is_none())
            .map(|t| read_json::<Table>(&e.path().join(format!("{}.json", t.id))))
            .collect::<Result<Vec<_>, _>>()?;
        papers.insert(record.key.clone(), (record, tables));
    }
    if papers.is_empty() {
        return Err(CompareError::Empty(dir.to_path_buf()));
    }
    Ok(Run {
        dir: dir.to_path_buf(),
        papers,
    })
}

fn cell(v: &Value) -> String {
    let short = |x: f64| {
        format!("{x:.4e}")
            .parse::<f64>()
            .map(|r| format!("{r}"))
            .unwrap_or_default()
    };
    match v {
        Value::Num(x) => short(*x),
        Value::Est(e) => format!("{} [{}, {}]", short(e.median), short(e.lo), short(e.hi)),
        Value::Text(s) => s.clone(),
        Value::Missing => "—".into(),
    }
}

fn status(s: &Status) -> &'static str {
    match s {
        Status::Verified { .. } => "verified",
        Status::Failed { .. } => "FAILED",
        Status::Unchecked { .. } => "unchecked",
        Status::Skipped { .. } => "skipped",
    }
}

/// A provenance field of a paper's record.
type Field = fn(&PaperRecord) -> String;

/// The side-by-side report of the runs in `a` and `b` (Markdown).
pub fn compare(a: &Path, b: &Path) -> Result<String, CompareError> {
    let folders = [a, b].map(|d| format!("`{}`", d.display()));
    compare_read(a, b, &folders, None).map(|(report, _)| report)
}

/// [`compare`] over the papers `only` names (every paper where `None`): its report, its
/// opening table naming the runs `folders` (Markdown) rather than by their paths, and its
/// stability summary's one-line reading ([`Summary::reading`]).
pub fn compare_read(
    a: &Path,
    b: &Path,
    folders: &[String; 2],
    only: Option<&[String]>,
) -> Result<(String, String), CompareError> {
    let (ra, rb) = (load(a, only)?, load(b, only)?);
    let top = provenance_table(&ra, &rb, folders);
    let mut c = Comparison::new();
    for (key, (rec_a, tables_a)) in &ra.papers {
        let Some((rec_b, tables_b)) = rb.papers.get(key) else {
            c.only.push(format!("paper `{key}`: only in A"));
            continue;
        };
        c.findings(key, rec_a, rec_b);
        c.tables(key, (rec_a, tables_a), (rec_b, tables_b));
    }
    for key in rb.papers.keys() {
        if !ra.papers.contains_key(key) {
            c.only.push(format!("paper `{key}`: only in B"));
        }
    }
    let roofs_note = c.roofs_and_noise(&ra, &rb);
    let s = c.side_by_side();
    let report = format!(
        "{top}\n{}{roofs_note}\n# Side by side\n{s}",
        c.summary.to_markdown()
    );
    Ok((report, c.summary.reading()))
}

/// The report's opening table: each run's folder, provenance and machine.
fn provenance_table(ra: &Run, rb: &Run, [fa, fb]: &[String; 2]) -> String {
    let mut s = String::from("# gpgpu-repro — two runs side by side\n\n");
    s.push_str("| | run A | run B |\n|---|---|---|\n");
    s.push_str(&format!("| folder | {fa} | {fb} |\n"));
    let prov = |r: &Run, f: &Field| {
        let mut v: Vec<String> = r.papers.values().map(|(p, _)| f(p)).collect();
        v.dedup();
        v.join("; ")
    };
    let fields: [(&str, Field); 6] = [
        ("GL renderer", |p| p.provenance.gl_renderer.clone()),
        ("GL version", |p| p.provenance.gl_version.clone()),
        ("CPU", |p| p.provenance.cpu.clone()),
        ("mode", |p| p.provenance.mode.to_string()),
        ("commit", |p| p.provenance.commit.clone()),
        ("between-run term", |p| {
            match (&p.provenance.between_terms, &p.provenance.between_run) {
                (Some(t), _) => t.describe(),
                (None, Some(b)) => b.describe(),
                (None, None) => "none".into(),
            }
        }),
    ];
    for (name, f) in fields {
        s.push_str(&format!(
            "| {name} | {} | {} |\n",
            prov(ra, &f),
            prov(rb, &f)
        ));
    }
    s.push_str(&format!(
        "| machine | {} | {} |\n",
        machine(ra),
        machine(rb)
    ));
    s.push_str(&host_warning(
        &prov(ra, &fields[0].1),
        [prov(ra, &fields[2].1), prov(rb, &fields[2].1)],
    ));
    s
}

/// Where the renderer is a CPU rasterizer (llvmpipe, softpipe) the host CPU is the device: two
/// runs on different CPUs differ by the hosts as much as by the code, which the reader must
/// know before any ratio below. Empty otherwise.
fn host_warning(renderer: &str, [a, b]: [String; 2]) -> String {
    if !crate::gl::is_cpu_rasterizer(renderer) || a == b {
        return String::new();
    }
    format!(
        "\n**Not the same device.** The renderer is a CPU rasterizer, and the runs' CPUs differ \
         (A: {a}; B: {b}): every difference below is the hosts' as much as the code's.\n"
    )
}

/// "only in A", or "skipped in A (needs …)" where that device could not run it.
fn missing(rec: &PaperRecord, id: &str, side: &str) -> String {
    match rec
        .tables
        .iter()
        .find(|t| t.id == id)
        .and_then(|t| t.skipped.as_deref())
    {
        Some(why) => format!("skipped in {side} ({why})"),
        None => format!("only in {}", if side == "A" { "B" } else { "A" }),
    }
}

/// What walking two runs side by side gathers: the stability summary, the per-table
/// sections, the verdicts that change and what only one run has.
struct Comparison {
    summary: Summary,
    /// The "Side by side" part: its opening paragraph, then one section per table.
    tables: String,
    changes: Vec<String>,
    only: Vec<String>,
}

impl Comparison {
    fn new() -> Self {
        Comparison {
            summary: Summary::default(),
            tables: String::from(
                "\nEvery measured column (ours, and `+` beyond the paper) of every row both runs \
                 have: both values and B / A. Numbers copied from the runs' table files.\n",
            ),
            changes: Vec::new(),
            only: Vec::new(),
        }
    }

    /// One paper's findings: verdict flips for the summary, changes, and findings in one run only.
    fn findings(&mut self, key: &str, rec_a: &PaperRecord, rec_b: &PaperRecord) {
        for fa in &rec_a.findings {
            if let Some(fb) = rec_b.findings.iter().find(|f| f.same_claim(fa)) {
                self.summary.finding(
                    &format!("`{key}` \"{}\"", fa.claim),
                    fa.verdict.name(),
                    fb.verdict.name(),
                );
            }
            match rec_b.findings.iter().find(|f| f.same_claim(fa)) {
                Some(fb) if fb.verdict != fa.verdict => self.changes.push(format!(
                    "`{key}` finding \"{}\": {} → {} (A: {}; B: {})",
                    fa.claim, fa.verdict, fb.verdict, fa.ours, fb.ours
                )),
                Some(_) => {}
                None => self
                    .only
                    .push(format!("`{key}` finding \"{}\": only in A", fa.claim)),
            }
        }
        for fb in &rec_b.findings {
            if !rec_a.findings.iter().any(|f| f.same_claim(fb)) {
                self.only
                    .push(format!("`{key}` finding \"{}\": only in B", fb.claim));
            }
        }
    }

    /// One paper's tables: each table both runs have, and those only one has.
    fn tables(
        &mut self,
        key: &str,
        (rec_a, tables_a): (&PaperRecord, &[Table]),
        (rec_b, tables_b): (&PaperRecord, &[Table]),
    ) {
        for ta in tables_a {
            let Some(tb) = tables_b.iter().find(|t| t.id == ta.id) else {
                self.only.push(format!(
                    "`{key}/{}`: {}",
                    ta.id,
                    missing(rec_b, &ta.id, "B")
                ));
                continue;
            };
            self.table(key, ta, tb);
        }
        for tb in tables_b {
            if !tables_a.iter().any(|t| t.id == tb.id) {
                self.only.push(format!(
                    "`{key}/{}`: {}",
                    tb.id,
                    missing(rec_a, &tb.id, "A")
                ));
            }
        }
    }

    /// One table both runs have: its section, with every row both have.
    fn table(&mut self, key: &str, ta: &Table, tb: &Table) {
        self.summary.winners(key, ta, tb);
        self.tables
            .push_str(&format!("\n## `{key}` — {}\n\n", ta.title));
        self.tables
            .push_str("| row | column | A | B | B / A |\n|---|---|---:|---:|---:|\n");
        for row_a in &ta.rows {
            let Some(row_b) = tb.rows.iter().find(|r| r.key == row_a.key) else {
                self.only
                    .push(format!("`{key}/{}` row `{}`: only in A", ta.id, row_a.key));
                continue;
            };
            self.row(key, (ta, row_a), (tb, row_b));
        }
        for row_b in &tb.rows {
            if !ta.rows.iter().any(|r| r.key == row_b.key) {
                self.only
                    .push(format!("`{key}/{}` row `{}`: only in B", ta.id, row_b.key));
            }
        }
    }

    /// One row both runs have: its status change, text changes, limiter flips, and a line
    /// per measured column.
    fn row(&mut self, key: &str, (ta, row_a): (&Table, &Row), (tb, row_b): (&Table, &Row)) {
        let (sa, sb) = (status(&row_a.status), status(&row_b.status));
        if sa != sb {
            self.changes.push(format!(
                "`{key}/{}` row `{}`: {sa} → {sb}",
                ta.id, row_a.key
            ));
        }
        for (i, col) in ta.columns.iter().enumerate() {
            let Some(j) = tb.find_col(&col.name) else {
                continue;
            };
            let (va, vb) = (&row_a.values[i], &row_b.values[j]);
            if let (Value::Text(x), Value::Text(y)) = (va, vb)
                && stability::is_limiter(&col.name)
            {
                self.summary
                    .limiter(&format!("`{key}/{}` row `{}`", ta.id, row_a.key), x, y);
            }
            if let (Value::Text(x), Value::Text(y)) = (va, vb)
                && x != y
                && col.source != Source::Key
            {
                self.changes.push(format!(
                    "`{key}/{}` row `{}`, {}: {x} → {y}",
                    ta.id, row_a.key, col.name
                ));
            }
            if !stability::measured(col.source) {
                continue;
            }
            self.summary.value(
                &format!("`{key}/{}` row `{}`, {}", ta.id, row_a.key, col.header()),
                va,
                vb,
            );
            let ratio = match (va.as_f64(), vb.as_f64()) {
                (Some(x), Some(y)) if x != 0.0 => format!("{:.3}", y / x),
                _ => "—".into(),
            };
            if va.as_f64().is_none() && vb.as_f64().is_none() {
                continue;
            }
            self.tables.push_str(&format!(
                "| {} | {} | {} | {} | {ratio} |\n",
                row_a.key,
                col.header(),
                cell(va),
                cell(vb)
            ));
        }
    }

    /// The roofs of both runs' `device.json` and whether either run was noisy, into the
    /// summary; the note when only one run has a profile.
    fn roofs_and_noise(&mut self, ra: &Run, rb: &Run) -> String {
        let (da, db) = (
            std::fs::read_to_string(ra.dir.join(DEVICE_JSON)),
            std::fs::read_to_string(rb.dir.join(DEVICE_JSON)),
        );
        if let (Ok(da), Ok(db)) = (&da, &db) {
            self.summary.roofs(da, db);
        }
        self.summary.noisy = [ra, rb].iter().any(|r| {
            r.papers
                .values()
                .any(|(rec, _)| rec.provenance.machine.as_ref().is_some_and(|m| m.noisy()))
        });
        if da.is_ok() != db.is_ok() {
            format!(
                "\nRoofs: only run {} has a `{DEVICE_JSON}`; no roof compared.\n",
                if da.is_ok() { "A" } else { "B" }
            )
        } else {
            String::new()
        }
    }

    /// The "Side by side" part: the tables' sections, the verdicts that change, what only
    /// one run has.
    fn side_by_side(&self) -> String {
        let mut s = self.tables.clone();
        s.push_str("\n## Verdicts that change between the runs\n\n");
        if self.changes.is_empty() {
            s.push_str("None: every row has the same verification status and text cells.\n");
        }
        for c in &self.changes {
            s.push_str(&format!("- {c}\n"));
        }
        if !self.only.is_empty() {
            s.push_str("\n## In one run only\n\n");
            for o in &self.only {
                s.push_str(&format!("- {o}\n"));
            }
        }
        s
    }
}

/// The bench's profile beside a run's `REPORT.md`.
const DEVICE_JSON: &str = "device.json";

/// Whether a run was measured on a quiet machine, from its papers' provenance.
fn machine(r: &Run) -> String {
    let (mut quiet, mut noisy, mut unknown) = (0, Vec::new(), 0);
    for (key, (rec, _)) in &r.papers {
        match &rec.provenance.machine {
            Some(m) if m.noisy() => noisy.push(format!("`{key}`")),
            Some(_) => quiet += 1,
            None => unknown += 1,
        }
    }
    let mut parts = Vec::new();
    if !noisy.is_empty() {
        parts.push(format!("**noisy**: {}", noisy.join(", ")));
    }
    if quiet > 0 {
        parts.push(format!("quiet: {quiet} paper(s)"));
    }
    if unknown > 0 {
        parts.push(format!("not recorded: {unknown} paper(s)"));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::host_warning;

    #[test]
    fn a_cpu_rasterizer_on_two_cpus_is_two_devices() {
        let cpus = |a: &str, b: &str| [a.to_string(), b.to_string()];
        let w = host_warning(
            "llvmpipe (LLVM 15.0.6, 256 bits)",
            cpus("Intel Xeon", "AMD EPYC"),
        );
        assert!(w.contains("Not the same device") && w.contains("A: Intel Xeon; B: AMD EPYC"));
        assert_eq!(host_warning("llvmpipe", cpus("AMD EPYC", "AMD EPYC")), "");
        assert_eq!(
            host_warning("NVIDIA H200/PCIe/SSE2", cpus("Intel Xeon", "AMD EPYC")),
            "",
            "a GPU is the device whatever the host"
        );
    }
}
