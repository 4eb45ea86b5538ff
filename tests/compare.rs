//! `gpgpu-repro compare`: two result folders side by side, and the stability summary.

use std::path::Path;

use gpgpu_repro::report::compare::compare;
use gpgpu_repro::report::index::{PaperRecord, TableRef};
use gpgpu_repro::report::{Column, Finding, Provenance, Row, Table, Verdict};

/// A result folder with one paper and one table whose `time` column is `times` and whose
/// second row verifies with `error2`.
fn run(dir: &Path, renderer: &str, times: [f64; 2], error2: f64) {
    let mut t = Table::new(
        "table1",
        "Table 1",
        vec![
            Column::key("N").int(),
            Column::ours("time").unit("ms"),
            Column::paper("paper time").unit("ms"),
        ],
    );
    t.rows.push(
        Row::new("128")
            .num(128.0)
            .num(times[0])
            .num(0.31)
            .verify(1e-7, 1e-5),
    );
    t.rows.push(
        Row::new("256")
            .num(256.0)
            .num(times[1])
            .num(0.72)
            .verify(error2, 1e-5),
    );
    let prov = Provenance {
        gl_renderer: renderer.into(),
        mode: gpgpu_repro::Mode::Full,
        ..Default::default()
    };
    let record = PaperRecord {
        key: "matmul".into(),
        title: "Park 2019".into(),
        provenance: prov,
        tables: vec![TableRef {
            id: "table1".into(),
            title: "Table 1".into(),
            rows: 2,
            ..Default::default()
        }],
        plots: vec![],
        notes: vec![],
        audits: vec![],
        profiles: vec![],
        findings: vec![
            Finding::new("table1", "the GPU is faster than the CPU (Table 1)")
                .verdict(Verdict::of(renderer == "llvmpipe")),
        ],
    };
    let p = dir.join("matmul");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(
        p.join("paper.json"),
        serde_json::to_string(&record).unwrap(),
    )
    .unwrap();
    std::fs::write(p.join("table1.json"), serde_json::to_string(&t).unwrap()).unwrap();
}

#[test]
fn compare_shows_both_values_their_ratio_and_changed_verdicts() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(a.path(), "llvmpipe", [2.0, 8.0], 1e-7);
    run(b.path(), "softpipe", [4.0, 2.0], 1.0);
    let md = compare(a.path(), b.path()).unwrap();
    assert!(md.contains("llvmpipe") && md.contains("softpipe"), "{md}");
    // B / A per measured cell; the paper's column is not compared.
    assert!(md.contains("| 128 | time (ms) | 2 | 4 | 2.000 |"), "{md}");
    assert!(md.contains("| 256 | time (ms) | 8 | 2 | 0.250 |"), "{md}");
    assert!(!md.contains("paper time"), "{md}");
    assert!(md.contains("row `256`: verified → FAILED"), "{md}");
    assert!(
        md.contains("finding \"the GPU is faster than the CPU (Table 1)\": held → not held"),
        "{md}"
    );
    assert!(!md.contains("row `128`: verified"), "{md}");
}

#[test]
fn compare_refuses_a_folder_without_results() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(a.path(), "llvmpipe", [2.0, 8.0], 1e-7);
    let err = compare(a.path(), b.path()).unwrap_err();
    assert!(err.to_string().contains("not a results folder"), "{err}");
}

#[test]
fn device_index_lists_every_device_folder_with_its_renderer() {
    let root = tempfile::tempdir().unwrap();
    for (name, renderer) in [("llvmpipe", "llvmpipe (LLVM 15)"), ("softpipe", "softpipe")] {
        let dir = root.path().join(name);
        run(&dir, renderer, [1.0, 2.0], 1e-7);
        std::fs::write(dir.join("REPORT.md"), "report").unwrap();
    }
    std::fs::create_dir_all(root.path().join("empty")).unwrap(); // no REPORT.md: not listed
    // A quick run's folder (figures/quick/, not committed) is not a device's results.
    let quick = root.path().join("quick");
    run(&quick, "llvmpipe (LLVM 15)", [1.0, 2.0], 1e-7);
    std::fs::write(quick.join("REPORT.md"), "report").unwrap();
    let rec = quick.join("matmul/paper.json");
    let text = std::fs::read_to_string(&rec).unwrap();
    std::fs::write(
        &rec,
        text.replace("\"mode\":\"full\"", "\"mode\":\"quick\""),
    )
    .unwrap();
    // One device with a forest plot of the claims: it alone is shown, under its own name.
    std::fs::write(root.path().join("llvmpipe/claims.png"), b"png").unwrap();
    gpgpu_repro::report::index::write_device_index(root.path(), &[]).unwrap();
    let md = std::fs::read_to_string(root.path().join("REPORT.md")).unwrap();
    assert!(
        md.contains("![claims on llvmpipe](llvmpipe/claims.png)"),
        "{md}"
    );
    assert!(!md.contains("softpipe/claims.png"), "{md}");
    assert!(
        md.contains("[llvmpipe](llvmpipe/REPORT.md) | llvmpipe (LLVM 15)"),
        "{md}"
    );
    assert!(
        md.contains("[softpipe](softpipe/REPORT.md) | softpipe"),
        "{md}"
    );
    assert!(!md.contains("[quick]"), "{md}");
}

/// A result folder with one paper: a timed table (`time` with intervals, a `limiter`), a
/// `tuning` table whose `chosen` cells are `chosen`, three findings with `verdicts`, and a
/// `device.json` with the roof `ssbo.read.f32` = `roof` GB/s.
fn stability_run(
    dir: &Path,
    times: [(f64, f64, f64); 2],
    limiters: [&str; 2],
    chosen: [&str; 3],
    verdicts: [Verdict; 3],
    roof: f64,
) {
    use gpgpu_repro::stats::Estimate;
    let est = |(median, lo, hi): (f64, f64, f64)| Estimate {
        median,
        lo,
        hi,
        n: 9,
        ..Estimate::default()
    };
    let mut t = Table::new(
        "table1",
        "Table 1",
        vec![
            Column::key("N").int(),
            Column::ours("time").unit("ms"),
            Column::ours("limiter").text(),
        ],
    );
    for (i, n) in [128.0, 256.0].into_iter().enumerate() {
        t.rows.push(
            Row::new(format!("{n}"))
                .num(n)
                .est(est(times[i]))
                .text(limiters[i])
                .verify(1e-7, 1e-5),
        );
    }
    let mut tuning = Table::new(
        "tuning",
        "Tuning",
        vec![
            Column::key("kernel").text(),
            Column::ours("time").unit("ms"),
            Column::ours("chosen").text(),
        ],
    );
    for (i, c) in chosen.iter().enumerate() {
        tuning.rows.push(
            Row::new(format!("cr wg={}", 64 << i))
                .text("cr")
                .est(est((1.0, 0.9, 1.1)))
                .text(*c)
                .verify(0.0, 1e-5),
        );
    }
    let table_ref = |id: &str, rows: usize| TableRef {
        id: id.into(),
        title: id.into(),
        rows,
        ..Default::default()
    };
    let claims = ["CR is faster", "fp64 is slower", "copy beats switch"];
    let record = PaperRecord {
        key: "tridiagonal".into(),
        title: "Zhang 2010".into(),
        provenance: Provenance {
            gl_renderer: "llvmpipe".into(),
            mode: gpgpu_repro::Mode::Quick,
            ..Default::default()
        },
        tables: vec![table_ref("table1", 2), table_ref("tuning", 3)],
        plots: vec![],
        notes: vec![],
        audits: vec![],
        profiles: vec![],
        findings: claims
            .iter()
            .zip(verdicts)
            .map(|(c, v)| Finding::new("table1", *c).verdict(v))
            .collect(),
    };
    let p = dir.join("tridiagonal");
    std::fs::create_dir_all(&p).unwrap();
    let write = |name: &str, json: String| std::fs::write(p.join(name), json).unwrap();
    write("paper.json", serde_json::to_string(&record).unwrap());
    write("table1.json", serde_json::to_string(&t).unwrap());
    write("tuning.json", serde_json::to_string(&tuning).unwrap());
    std::fs::write(
        dir.join("device.json"),
        format!(
            r#"{{"measurements": [{{"key": "ssbo.read.f32", "unit": "GB/s", "value": {roof}}},
               {{"key": "fixed.draw", "unit": "µs", "value": 30.0}}]}}"#
        ),
    )
    .unwrap();
}

#[test]
fn compare_opens_with_a_stability_summary_with_known_counts() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    use Verdict::*;
    // Row 128 overlaps, row 256 is apart (and 2× slower); limiters: one flip, one partial
    // change; tuning: A ties wg=64 and wg=128 and B picks wg=128 (a tie flip); findings: one
    // held → not held, one not held → inconclusive, one unchanged; the roof halves.
    stability_run(
        a.path(),
        [(1.0, 0.9, 1.1), (2.0, 1.9, 2.1)],
        ["bandwidth", "fp32"],
        ["best (tie)", "tie", ""],
        [Held, NotHeld, Held],
        6.0,
    );
    stability_run(
        b.path(),
        [(1.05, 1.0, 1.2), (4.0, 3.8, 4.2)],
        ["fixed cost", "bandwidth ≈ fp32"],
        ["", "best", ""],
        [NotHeld, Inconclusive, Held],
        3.0,
    );
    let md = compare(a.path(), b.path()).unwrap();
    let summary = md.split("# Side by side").next().unwrap();
    // Measured values with intervals: 2 in table1, 3 in tuning; only 256's time is apart.
    for line in [
        "**Not stable** by the bar",
        "80.0 % of the values' intervals overlap (the bar: 90 %); 1 finding(s) flipped held ↔ not held.",
        "| measured values whose 95 % intervals overlap (of those with an interval in both runs) | 4 | 5 | 80.0 % |",
        "| measured values whose intervals are apart (listed below) | 1 | 5 | 20.0 % |",
        "| measured values more than 10 % apart (all measured values, with or without an interval) | 1 | 5 | 20.0 % |",
        "| findings flipped held ↔ not held | 1 | 3 | 33.3 % |",
        "| findings flipped to or from inconclusive | 1 | 3 | 33.3 % |",
        "| winners flipped (tuning choice, faster pipeline) | 0 | 1 | 0.0 % |",
        "| winners flipped between rows either run calls a tie (or too few runs) | 1 | 1 | 100.0 % |",
        "| limiters flipped (no limiter in common) | 1 | 2 | 50.0 % |",
        "| limiters changed, one in common (e.g. bandwidth → bandwidth ≈ fp32) | 1 | 2 | 50.0 % |",
        "| roofs (`device.json`) moved more than 10 % | 1 | 2 | 50.0 % |",
        "- `tridiagonal/table1` row `256`, time (ms): A 2 [1.9, 2.1], B 4 [3.8, 4.2] (B / A 2.000)",
        "- `tridiagonal` \"CR is faster\": held → not held",
        "- `tridiagonal/tuning` cr: `cr wg=64` → `cr wg=128`",
        "- `tridiagonal/table1` row `128`: bandwidth → fixed cost",
        "| **ssbo.read.f32** | GB/s | 6 | 3 | 0.500 |",
    ] {
        assert!(summary.contains(line), "missing `{line}` in:\n{summary}");
    }
    // The side-by-side tables follow the summary.
    assert!(
        md.contains("| 256 | time (ms) | 2 [1.9, 2.1] | 4 [3.8, 4.2] | 2.000 |"),
        "{md}"
    );
}

#[test]
fn compare_of_older_runs_without_intervals_counts_only_the_ten_percent() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(a.path(), "llvmpipe", [2.0, 8.0], 1e-7);
    run(b.path(), "llvmpipe", [2.1, 2.0], 1e-7);
    let md = compare(a.path(), b.path()).unwrap();
    assert!(
        md.contains("No value carries an interval in both runs"),
        "{md}"
    );
    assert!(
        md.contains("| measured values more than 10 % apart (all measured values, with or without an interval) | 1 | 2 | 50.0 % |"),
        "{md}"
    );
}
