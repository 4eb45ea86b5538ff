//! `figures/REPORT.md`: the index of the devices whose full-run results are under `figures/`.

use std::path::Path;

use crate::mode::Mode;
use crate::report::article::PaperMeta;
use crate::report::files::{OutputError, write_atomic};
use crate::report::record::PaperRecord;

/// Rewrites `root/REPORT.md`, the index of the devices whose full-run results are in
/// `root/<device>/` (each with its own `REPORT.md`): device, GL renderer and version, CPU,
/// and the date, commit and mode of its latest paper run, read from the papers' records.
pub fn write_device_index(root: &Path, papers: &[PaperMeta]) -> Result<(), OutputError> {
    let mut devices: Vec<(String, Option<PaperRecord>, String)> = Vec::new();
    let entries = std::fs::read_dir(root).map_err(|e| crate::report::files::err(root, e))?;
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
    let png = crate::report::claim::FOREST_PNG;
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
    let runs: Vec<Vec<&crate::report::finding::Finding>> = devices
        .iter()
        .map(|(_, recs)| recs.iter().flat_map(|r| &r.findings).collect())
        .collect();
    let paper_of = |f: &crate::report::finding::Finding| {
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
    for (f, each) in crate::report::finding::by_claim(&runs) {
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
    let bounds = dir.join(crate::report::files::DEVICE_JSON).is_file() && any_table("\"bound\"");
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
