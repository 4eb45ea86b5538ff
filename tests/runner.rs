//! The experiment runner and the report: rows saved as they finish, --resume, FAILED rows,
//! malformed experiment files and unwritable output folders.

mod common;
use common::ctx;

use gpgpu_repro::registry::{self, PAPERS};
use gpgpu_repro::report::{Column, Row, Table};
use gpgpu_repro::runner::{self, Mode, Options, RunError, Session};

fn columns() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::ours("time").unit("ms"),
        Column::ours("error").sci(1),
    ]
}

#[test]
fn rows_are_written_at_once_and_failures_are_marked() {
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    let paper = registry::paper("matmul").unwrap();
    let s = Session::for_tests(&g, paper, Mode::Quick, dir.path(), false).unwrap();
    let mut t = s
        .table("demo", "Demo table", columns(), &("config", 1))
        .unwrap();
    t.push(Row::new("8").num(8.0).num(1.5).num(1e-7).verify(1e-7, 1e-5))
        .unwrap();
    // The row is on disk before the table is finished.
    let saved: Table =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("demo.json")).unwrap())
            .unwrap();
    assert_eq!(saved.rows.len(), 1);
    t.push(Row::new("16").num(16.0).num(2.5).num(0.3).verify(0.3, 1e-5))
        .unwrap();
    let table = t.finish().unwrap();
    assert_eq!(table.failed_rows().count(), 1);
    let md = std::fs::read_to_string(dir.path().join("demo.md")).unwrap();
    assert!(
        md.contains("**FAILED**") && md.contains("ok (≤ 1e-5)"),
        "{md}"
    );
    let csv = std::fs::read_to_string(dir.path().join("demo.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // No temp files are left behind.
    let stray: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(stray.is_empty());
}

#[test]
fn resume_reuses_rows_with_the_same_configuration_only() {
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    let paper = registry::paper("matmul").unwrap();
    {
        let s = Session::for_tests(&g, paper, Mode::Quick, dir.path(), false).unwrap();
        let mut t = s.table("demo", "Demo", columns(), &"config A").unwrap();
        t.push(Row::new("8").num(8.0).num(1.5).num(0.0).verify(0.0, 1e-5))
            .unwrap();
        t.push(Row::new("9").num(9.0).num(1.5).num(1.0).verify(1.0, 1e-5))
            .unwrap();
        t.finish().unwrap();
    }
    let s = Session::for_tests(&g, paper, Mode::Quick, dir.path(), true).unwrap();
    let mut same = s.table("demo", "Demo", columns(), &"config A").unwrap();
    assert!(
        same.reuse("8").unwrap().is_some(),
        "same configuration: reused"
    );
    assert!(
        same.reuse("9").unwrap().is_none(),
        "a failed row is measured again"
    );
    same.finish().unwrap();
    let mut changed = s.table("demo", "Demo", columns(), &"config B").unwrap();
    assert!(
        changed.reuse("8").unwrap().is_none(),
        "another configuration: measured again"
    );
}

#[test]
fn malformed_experiment_file_names_file_and_line_before_any_work() {
    let g = ctx();
    let exp = tempfile::tempdir().unwrap();
    std::fs::write(exp.path().join("matmul.toml"), "[table1]\nsizes = 3\n").unwrap();
    let out = tempfile::tempdir().unwrap();
    let opts = Options {
        papers: vec!["matmul".into()],
        mode: Mode::Quick,
        out: Some(out.path().to_path_buf()),
        resume: false,
        experiments: Some(exp.path().to_path_buf()),
        check_only: false,
    };
    let err = runner::reproduce(&g, PAPERS, &opts).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, RunError::Config { .. }), "{msg}");
    assert!(
        msg.contains("matmul.toml") && msg.contains("line 2"),
        "{msg}"
    );
    assert!(
        !out.path().join("matmul/table1.json").exists(),
        "no table was started"
    );

    std::fs::write(exp.path().join("matmul.toml"), "[table1\n").unwrap();
    let msg = runner::reproduce(&g, PAPERS, &opts)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("line 1"), "{msg}");
}

#[test]
fn unwritable_output_is_an_error_before_any_work() {
    let g = ctx();
    let file = tempfile::NamedTempFile::new().unwrap();
    let opts = Options {
        papers: vec!["matmul".into()],
        mode: Mode::Quick,
        out: Some(file.path().join("under-a-file")),
        resume: false,
        experiments: None,
        check_only: false,
    };
    let err = runner::reproduce(&g, PAPERS, &opts).unwrap_err();
    assert!(matches!(err, RunError::Output(_)), "{err}");
}

#[test]
fn every_built_in_experiment_file_parses_and_papers_are_unique() {
    let keys: Vec<&str> = PAPERS.iter().map(|p| p.key).collect();
    assert_eq!(keys, ["tridiagonal", "matmul", "lu", "bicg", "fem-storage"]);
    for p in PAPERS {
        for f in p.files {
            f.builtin
                .parse::<toml::Table>()
                .unwrap_or_else(|e| panic!("{}: {e}", f.name));
        }
    }
    assert!(runner::select(PAPERS, &["nope".into()]).is_err());
    assert_eq!(runner::select(PAPERS, &["all".into()]).unwrap().len(), 5);
}
