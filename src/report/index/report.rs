//! A device folder's `REPORT.md` (the article) and its papers' pages, rewritten from the
//! records under the folder; the forest of claims and the legacy-versus-compute section.

use std::path::Path;

use super::page::paper_page;
use crate::report::article::{PaperMeta, article};
use crate::report::claim::FOREST_PNG;
use crate::report::files::{OutputError, write_atomic};
use crate::report::provenance::Provenance;
use crate::report::record::{PaperRecord, RUN_JSON, RunTimes};
use crate::report::table::sheet::Table;

/// Rewrites `dir/REPORT.md`, the article ([`crate::report::article`]), and every paper's page
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
        &format!(
            "{}{}{}",
            versus_section(dir, &keyed),
            super::targets::section(dir, &keyed, class(&records), &super::targets::builtin()),
            super::ledger::section(&keyed)
        ),
    );
    s.push_str("\n## Provenance of the latest run\n\n");
    s.push_str(&latest.to_markdown(false));
    if let Some(run) = &run {
        s.push_str(&format!("- run time: {}\n", run.describe()));
        if let Some(drift) = run.drift_text() {
            s.push_str(&format!("- drift: {drift}\n"));
        }
        for note in &run.state {
            s.push_str(&format!("- device state: {note}\n"));
        }
    }
    write_atomic(&dir.join("REPORT.md"), s.as_bytes())
}

/// The device class of the folder's runs (a CPU rasterizer or a GPU), from the first record.
fn class(records: &[Option<PaperRecord>]) -> super::targets::Class {
    match records.iter().flatten().next() {
        Some(r) if !crate::report::claim::software(&r.provenance) => super::targets::Class::Gpu,
        _ => super::targets::Class::Software,
    }
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
             fastest verified row of each side, its time, legacy / compute (> 1: compute \
             is faster) and the faster side as the paper's `versus` table decided it (a \
             pipeline only where the ratio's interval excludes 1 and, in runs that record \
             their halves, the ratio of each half of the runs excludes it on the same side; \
             else `tie`, and `too few runs` where a side was timed too few times for a 95 % \
             interval; where a record older than that rule wrote another word, it is kept and \
             this build's reading of the same cells is set beside it). Errors, each side's \
             fraction of its bound and the halves' ratios are in the papers' `versus` \
             tables.\n\n",
        );
        s.push_str("| paper | algorithm | input | legacy kernel | legacy (ms) | compute kernel | compute (ms) | legacy / compute | faster |\n|---|---|---|---|---:|---|---:|---:|---|\n");
        s.push_str(&md);
        s.push('\n');
        let chart = crate::report::table::versus::chart(
            "Legacy (fragment) vs compute at each algorithm's largest input",
            bars.into_iter().map(|b| b.2).collect(),
        );
        if chart.save(&dir.join("versus.png")).is_ok() {
            s.push_str(
                "![legacy vs compute](versus.png)\n\n*Each algorithm at its largest input \
                 solved by both pipelines: legacy time / compute time of the fastest verified \
                 row of each side (a dot; right of 1: compute faster), with the ratio's 95 % \
                 interval as a whisker (a hollow dot: too few runs for a 95 % interval, the \
                 whisker, if any, is the table's `*` interval), log scale, from the table above.*\n\n",
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
type Bar = (String, f64, crate::report::table::versus::Ratio);

/// A paper's `versus` table, read from its JSON file, when the paper has one that ran.
fn read_versus(dir: &Path, key: &str, r: &PaperRecord) -> Option<Table> {
    use crate::report::table::versus::TABLE;
    r.tables
        .iter()
        .any(|t| t.id == TABLE && t.skipped.is_none())
        .then(|| Table::read(&dir.join(key), TABLE))
        .flatten()
}

/// The rows of paper `key`'s `versus` table `t` that have both times and a ratio: a line
/// each of the section's table into `md`, and each algorithm's largest input into `bars`.
fn versus_rows(key: &str, t: &Table, md: &mut String, bars: &mut Vec<Bar>) {
    use crate::report::table::versus::{COMPUTE_MS, FASTER, LEGACY_MS, RATIO, TABLE};
    let num = |row: &crate::report::table::row::Row, c: &str| row.values[t.col(c)].as_f64();
    let text = |row: &crate::report::table::row::Row, c: &str| {
        row.values[t.col(c)].render(crate::report::table::value::Fmt::Text)
    };
    let ms = |row: &crate::report::table::row::Row, c: &str| {
        row.values[t.col(c)].render(crate::report::table::value::Fmt::Sig(4))
    };
    let faster_col = t.find_col(FASTER);
    for row in &t.rows {
        let (Some(l), Some(_), Some(_)) =
            (num(row, LEGACY_MS), num(row, COMPUTE_MS), num(row, RATIO))
        else {
            continue;
        };
        let recorded =
            faster_col.map(|i| row.values[i].render(crate::report::table::value::Fmt::Text));
        // The record keeps the word of the build that ran it; where this build's rule reads
        // another from the same cells (a record older than the rule), both are shown, so that
        // the word never contradicts the interval or the figure's hollow dot beside it.
        let faster = match (recorded, crate::report::table::versus::reread(t, row)) {
            (Some(w), Some(now)) if w != now => format!("{w} (this build: {now})"),
            (Some(w), _) => w,
            (None, Some(now)) => now.to_string(),
            (None, None) => "—".to_string(),
        };
        md.push_str(&format!(
            "| [{key}]({key}/{TABLE}.md) | {} | {} | {} | {} | {} | {} | {} | {faster} |\n",
            text(row, "algorithm"),
            text(row, "input"),
            text(row, "legacy kernel"),
            ms(row, LEGACY_MS),
            text(row, "compute kernel"),
            ms(row, COMPUTE_MS),
            row.values[t.col(RATIO)].render(crate::report::table::value::Fmt::Fixed(2)),
        ));
        let alg = format!("{key}: {}", text(row, "algorithm"));
        let label = format!("{alg} ({})", text(row, "input"));
        let Some(dot) = crate::report::table::versus::ratio_of(&row.values[t.col(RATIO)], label)
        else {
            continue;
        };
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
