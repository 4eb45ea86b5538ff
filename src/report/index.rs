//! The `DIR/REPORT.md` index and every paper's page, built from all the per-paper records
//! (`DIR/<paper>/paper.json`, [`super::record`]), so that running one paper keeps the
//! others' sections.

use std::path::Path;

use super::article::{PaperMeta, article};
use super::files::{OutputError, write_atomic};
use super::{Provenance, Table};
use crate::mode::Mode;

pub use super::record::{PaperRecord, PlotRef, RUN_JSON, RunTimes, TableRef};

mod page;
use page::paper_page;

/// Rewrites `dir/REPORT.md`, the article ([`super::article`]), and every paper's page
/// `dir/<paper>/README.md` from the records found under `dir` (papers in `papers`' order).
pub fn write_report(
    dir: &Path,
    papers: &[PaperMeta],
    latest: &Provenance,
) -> Result<(), OutputError> {
    let records: Vec<Option<PaperRecord>> = papers
        .iter()
        .map(|p| {
            std::fs::read_to_string(dir.join(p.key).join("paper.json"))
                .ok()
                .and_then(|t| serde_json::from_str::<PaperRecord>(&t).ok())
        })
        .collect();
    let run: Option<RunTimes> = std::fs::read_to_string(dir.join(RUN_JSON))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    for (p, rec) in papers.iter().zip(&records) {
        if let Some(r) = rec {
            let page = paper_page(&dir.join(p.key), p.key, p.title, p.original.claims, r);
            write_atomic(&dir.join(p.key).join("README.md"), page.as_bytes())?;
        }
    }
    let keyed: Vec<(&str, Option<&PaperRecord>)> = papers
        .iter()
        .zip(&records)
        .map(|(p, r)| (p.key, r.as_ref()))
        .collect();
    write_forest(dir, papers, &records);
    let mut s = article(
        dir,
        papers,
        &records,
        run.as_ref(),
        &versus_section(dir, &keyed),
    );
    s.push_str("\n## Provenance of the latest run\n\n");
    s.push_str(&latest.to_markdown(false));
    if let Some(run) = &run {
        s.push_str(&format!("- run time: {}\n", run.describe()));
        if let Some(drift) = run.drift_text() {
            s.push_str(&format!("- drift: {drift}\n"));
        }
    }
    write_atomic(&dir.join("REPORT.md"), s.as_bytes())
}

/// The claims' forest plot, `DIR/claims.png` (the article's first figure); no file when no
/// paper ran or it could not be drawn.
fn write_forest(dir: &Path, papers: &[PaperMeta], records: &[Option<PaperRecord>]) {
    let rows: Vec<crate::report::plot::ForestRow> = papers
        .iter()
        .zip(records)
        .filter_map(|(p, r)| r.as_ref().map(|r| (p, r)))
        .flat_map(|(p, r)| {
            crate::report::claim::forest_rows(
                p.key,
                p.original.claims,
                &r.findings,
                crate::report::claim::software(&r.provenance),
            )
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let chart = crate::report::plot::ForestChart {
        title: "The papers' claims on this device".into(),
        x_label: "ours ÷ the rule's threshold (log; right of 1 = the claim's side)".into(),
        rows,
    };
    // A chart that cannot be drawn leaves the report without it (as `versus.png`), said on
    // stderr; the summary links it only where the file exists.
    if let Err(e) = chart.save(&dir.join(FOREST_PNG)) {
        eprintln!("warning: {e}");
    }
}

pub use super::claim::FOREST_PNG;

/// The legacy-vs-compute section: every paper's `versus` table in one, and a figure (the
/// largest input of each algorithm, legacy / compute with its interval) saved as `versus.png`.
fn versus_section(dir: &Path, records: &[(&str, Option<&PaperRecord>)]) -> String {
    let mut s = String::from("## Legacy vs compute, across the papers\n\n");
    let mut md = String::new();
    let mut missing = Vec::new();
    let mut bars: Vec<Bar> = Vec::new();
    for (key, rec) in records {
        let Some(r) = rec else { continue };
        let Some(t) = read_versus(dir, key, r) else {
            missing.push(format!("`{key}`"));
            continue;
        };
        versus_rows(key, &t, &mut md, &mut bars);
    }
    if md.is_empty() {
        s.push_str("No algorithm was run and verified by both pipelines in this run.\n\n");
    } else {
        s.push_str(
            "For every algorithm a paper solves with both the legacy fragment pipeline \
             (render-to-texture passes) and GL 4.3 compute shaders on the same input: the \
             fastest verified row of each side, its time, and legacy / compute (> 1: compute \
             is faster). Errors and each side's fraction of its bound are in the papers' \
             `versus` tables.\n\n",
        );
        s.push_str("| paper | algorithm | input | legacy kernel | legacy (ms) | compute kernel | compute (ms) | legacy / compute |\n|---|---|---|---|---:|---|---:|---:|\n");
        s.push_str(&md);
        s.push('\n');
        let chart = super::table::versus::chart(
            "Legacy (fragment) vs compute at each algorithm's largest input",
            bars.into_iter().map(|b| b.2).collect(),
        );
        if chart.save(&dir.join("versus.png")).is_ok() {
            s.push_str(
                "![legacy vs compute](versus.png)\n\n*Each algorithm at its largest input \
                 solved by both pipelines: legacy time / compute time of the fastest verified \
                 row of each side (a dot; right of 1: compute faster), with the ratio's 95 % \
                 interval as a whisker, log scale, from the table above.*\n\n",
            );
        }
    }
    if !missing.is_empty() {
        s.push_str(&format!(
            "No pair in: {} (no algorithm there was run and verified by both pipelines in this \
             run).\n\n",
            missing.join(", ")
        ));
    }
    s
}

/// (category, legacy ms, and the ratio with its interval) of an algorithm's largest input:
/// one dot of the versus figure.
type Bar = (String, f64, super::table::versus::Ratio);

/// A paper's `versus` table, read from its JSON file, when the paper has one that ran.
fn read_versus(dir: &Path, key: &str, r: &PaperRecord) -> Option<Table> {
    use super::table::versus::TABLE;
    r.tables
        .iter()
        .any(|t| t.id == TABLE && t.skipped.is_none())
        .then(|| std::fs::read_to_string(dir.join(key).join(format!("{TABLE}.json"))).ok())
        .flatten()
        .and_then(|t| serde_json::from_str::<Table>(&t).ok())
}

/// The rows of paper `key`'s `versus` table `t` that have both times and a ratio: a line
/// each of the section's table into `md`, and each algorithm's largest input into `bars`.
fn versus_rows(key: &str, t: &Table, md: &mut String, bars: &mut Vec<Bar>) {
    use super::table::versus::{COMPUTE_MS, LEGACY_MS, RATIO, TABLE};
    let num = |row: &super::Row, c: &str| row.values[t.col(c)].as_f64();
    let text = |row: &super::Row, c: &str| row.values[t.col(c)].render(super::Fmt::Text);
    let ms = |row: &super::Row, c: &str| row.values[t.col(c)].render(super::Fmt::Sig(4));
    for row in &t.rows {
        let (Some(l), Some(_), Some(ratio)) =
            (num(row, LEGACY_MS), num(row, COMPUTE_MS), num(row, RATIO))
        else {
            continue;
        };
        md.push_str(&format!(
            "| [{key}]({key}/{TABLE}.md) | {} | {} | {} | {} | {} | {} | {:.2} |\n",
            text(row, "algorithm"),
            text(row, "input"),
            text(row, "legacy kernel"),
            ms(row, LEGACY_MS),
            text(row, "compute kernel"),
            ms(row, COMPUTE_MS),
            ratio
        ));
        let alg = format!("{key}: {}", text(row, "algorithm"));
        let (lo, hi) = row.values[t.col(RATIO)]
            .interval()
            .unwrap_or((ratio, ratio));
        let dot = (format!("{alg} ({})", text(row, "input")), ratio, lo, hi);
        match bars.iter_mut().find(|b| b.0 == alg) {
            Some(b) if b.1 >= l => {}
            Some(b) => *b = (alg, l, dot),
            None => bars.push((alg, l, dot)),
        }
    }
}

/// Rewrites a device folder's `REPORT.md` from its papers' records (`<paper>/paper.json`),
/// with the provenance of the latest of them; a folder without records is left alone.
pub fn rewrite_report(dir: &Path, papers: &[PaperMeta]) -> Result<(), OutputError> {
    let latest = papers
        .iter()
        .filter_map(|p| std::fs::read_to_string(dir.join(p.key).join("paper.json")).ok())
        .filter_map(|t| serde_json::from_str::<PaperRecord>(&t).ok())
        .max_by(|a, b| a.provenance.date.cmp(&b.provenance.date));
    match latest {
        Some(r) => write_report(dir, papers, &r.provenance),
        None => Ok(()),
    }
}

/// Rewrites `root/REPORT.md`, the index of the devices whose full-run results are in
/// `root/<device>/` (each with its own `REPORT.md`): device, GL renderer and version, CPU,
/// and the date, commit and mode of its latest paper run, read from the papers' records.
pub fn write_device_index(root: &Path, papers: &[PaperMeta]) -> Result<(), OutputError> {
    let mut devices: Vec<(String, Option<PaperRecord>, String)> = Vec::new();
    let entries = std::fs::read_dir(root).map_err(|e| super::files::err(root, e))?;
    for e in entries.flatten() {
        let dir = e.path();
        if !dir.join("REPORT.md").is_file() {
            continue;
        }
        let records: Vec<PaperRecord> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|p| std::fs::read_to_string(p.path().join("paper.json")).ok())
            .filter_map(|t| serde_json::from_str::<PaperRecord>(&t).ok())
            .collect();
        let latest = records
            .iter()
            .max_by(|a, b| a.provenance.date.cmp(&b.provenance.date))
            .cloned();
        // Quick runs (`figures/quick/`, not committed) are not a device's results.
        if latest
            .as_ref()
            .is_some_and(|r| r.provenance.mode == Mode::Quick)
        {
            continue;
        }
        let contents = contents(&dir, &records);
        devices.push((
            e.file_name().to_string_lossy().into_owned(),
            latest,
            contents,
        ));
    }
    devices.sort_by(|a, b| a.0.cmp(&b.0));
    let mut s = String::from("# gpgpu-repro — results by device\n\n");
    s.push_str(
        "Each device's full run lives in its own folder with its own report; \
         `gpgpu-repro compare figures/A figures/B` puts two of them side by side. `contents` \
         says what the run's format holds: findings (the papers' claims judged), bounds (the \
         device's roofs, `device.json`), intervals (95 % confidence intervals on every timed \
         number); a folder from an older format lacks what it does not list.\n\n",
    );
    s.push_str("| device | GL renderer | GL version | CPU | latest run | commit | mode | contents |\n|---|---|---|---|---|---|---|---|\n");
    for (name, rec, contents) in &devices {
        match rec {
            Some(r) => s.push_str(&format!(
                "| [{name}]({name}/REPORT.md) | {} | {} | {} | {} | `{}` | {} | {contents} |\n",
                r.provenance.gl_renderer,
                r.provenance.gl_version,
                r.provenance.cpu,
                r.provenance.date,
                r.provenance.commit,
                r.provenance.mode
            )),
            None => s.push_str(&format!(
                "| [{name}]({name}/REPORT.md) | | | | | | | {contents} |\n"
            )),
        }
    }
    s.push_str(&forests_by_device(root, &devices));
    s.push_str(&verdicts_by_device(&root_records(root, &devices, papers)));
    write_atomic(&root.join("REPORT.md"), s.as_bytes())
}

/// Each device's forest plot of the claims (its `REPORT.md`'s first figure), side by side
/// in one table row; nothing where no device has one.
fn forests_by_device(root: &Path, devices: &[(String, Option<PaperRecord>, String)]) -> String {
    let png = super::claim::FOREST_PNG;
    let with: Vec<&str> = devices
        .iter()
        .map(|(name, _, _)| name.as_str())
        .filter(|name| root.join(name).join(png).is_file())
        .collect();
    if with.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\n## The claims by device\n\nEach device's forest plot of the claims (one row per \
         claim, each case a dot with its 95 % interval against its rule's threshold; right of \
         1 is the claim's side), as on the first screen of its report.\n\n|",
    );
    for name in &with {
        s.push_str(&format!(" [{name}]({name}/REPORT.md) |"));
    }
    s.push_str(&format!("\n|{}\n|", "---|".repeat(with.len())));
    for name in &with {
        s.push_str(&format!(" ![claims on {name}]({name}/{png}) |"));
    }
    s.push('\n');
    s
}

/// Each device folder's paper records (in `papers`' order), by device name.
fn root_records(
    root: &Path,
    devices: &[(String, Option<PaperRecord>, String)],
    papers: &[PaperMeta],
) -> Vec<(String, Vec<PaperRecord>)> {
    devices
        .iter()
        .map(|(name, _, _)| {
            let recs = papers
                .iter()
                .filter_map(|p| {
                    std::fs::read_to_string(root.join(name).join(p.key).join("paper.json")).ok()
                })
                .filter_map(|t| serde_json::from_str::<PaperRecord>(&t).ok())
                .collect();
            (name.clone(), recs)
        })
        .collect()
}

/// Every claim judged on any device, with each device's verdict side by side
/// ([`super::finding::by_claim`], the matching `compare` uses).
fn verdicts_by_device(devices: &[(String, Vec<PaperRecord>)]) -> String {
    let judged: Vec<&(String, Vec<PaperRecord>)> = devices
        .iter()
        .filter(|(_, r)| r.iter().any(|r| !r.findings.is_empty()))
        .collect();
    if judged.is_empty() {
        return String::new();
    }
    let runs: Vec<Vec<&super::Finding>> = devices
        .iter()
        .map(|(_, recs)| recs.iter().flat_map(|r| &r.findings).collect())
        .collect();
    let paper_of = |f: &super::Finding| {
        devices
            .iter()
            .flat_map(|(_, recs)| recs)
            .find(|r| r.findings.iter().any(|g| g.same_claim(f)))
            .map(|r| r.key.clone())
            .unwrap_or_default()
    };
    let mut s = String::from(
        "\n## Verdicts by device\n\nEach claim judged on any device, with every device's \
         verdict (— where that device's run did not judge it, e.g. a run older than the \
         findings).\n\n| paper | claim |",
    );
    for (name, _) in devices {
        s.push_str(&format!(" [{name}]({name}/REPORT.md) |"));
    }
    s.push_str(&format!("\n|---|---|{}\n", "---|".repeat(devices.len())));
    for (f, each) in super::finding::by_claim(&runs) {
        s.push_str(&format!(
            "| {} | {} |",
            paper_of(f),
            f.claim.replace('|', "\\|")
        ));
        for g in each {
            s.push_str(&format!(
                " {} |",
                g.map_or("—".to_string(), |g| g.verdict.to_string())
            ));
        }
        s.push('\n');
    }
    s
}

/// What a device folder's run holds: findings, bounds, intervals — or that it predates them.
fn contents(dir: &Path, records: &[PaperRecord]) -> String {
    let findings = records.iter().any(|r| !r.findings.is_empty());
    // A row read against the roofs serializes its bound, an interval cell its coverage.
    let any_table = |needle: &str| {
        records.iter().any(|r| {
            r.tables.iter().filter(|t| t.skipped.is_none()).any(|t| {
                std::fs::read_to_string(dir.join(&r.key).join(format!("{}.json", t.id)))
                    .is_ok_and(|j| j.contains(needle))
            })
        })
    };
    let bounds = dir.join(super::files::DEVICE_JSON).is_file() && any_table("\"bound\"");
    let intervals = any_table("\"coverage\"");
    let has: Vec<&str> = [
        (findings, "findings"),
        (bounds, "bounds"),
        (intervals, "intervals"),
    ]
    .iter()
    .filter(|(h, _)| *h)
    .map(|(_, n)| *n)
    .collect();
    let lacks: Vec<&str> = [
        (findings, "findings"),
        (bounds, "bounds"),
        (intervals, "intervals"),
    ]
    .iter()
    .filter(|(h, _)| !*h)
    .map(|(_, n)| *n)
    .collect();
    match (has.is_empty(), lacks.is_empty()) {
        (_, true) => has.join(", "),
        (true, false) => format!("tables only (predates {})", lacks.join(", ")),
        (false, false) => format!("{} (predates {})", has.join(", "), lacks.join(", ")),
    }
}
