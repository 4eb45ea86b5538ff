//! `gpgpu-repro compare`: two result folders side by side.

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
        mode: "full".into(),
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
            failed: 0,
            skipped_rows: 0,
            skipped: None,
            reused: 0,
            unchecked: 0,
            load: None,
        }],
        plots: vec![],
        notes: vec![],
        audits: vec![],
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
    gpgpu_repro::report::index::write_device_index(root.path()).unwrap();
    let md = std::fs::read_to_string(root.path().join("REPORT.md")).unwrap();
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
