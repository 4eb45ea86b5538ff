//! Regression tests of issue 14 (bad input, full disks, signals), one per case, named after
//! it. Experiment files are checked parse-and-plan only (`--check`): nothing is measured.

mod common;

use std::path::Path;
use std::process::Command;

use common::{at_mut, experiments_copy, set_key};
use gpgpu_repro::gl::{self, DeviceSelector};
use gpgpu_repro::registry::{self, PAPERS};
use gpgpu_repro::report::files::{write_atomic, write_atomic_with};
use gpgpu_repro::report::index::PaperRecord;
use gpgpu_repro::report::{LineChart, Series};
use gpgpu_repro::runner::{
    self, Check, ExperimentFile, Mode, Options, PaperEntry, RunError, Session,
};

fn ctx() -> gl::Gl {
    gl::headless(&DeviceSelector::Auto).expect("a headless GL context")
}

const BIN: &str = env!("CARGO_BIN_EXE_gpgpu-repro");

fn options(papers: &[&str], exp: Option<&Path>, out: &Path, check_only: bool) -> Options {
    Options {
        papers: papers.iter().map(|s| s.to_string()).collect(),
        mode: Mode::Quick,
        out: Some(out.to_path_buf()),
        resume: false,
        experiments: exp.map(Path::to_path_buf),
        check_only,
        bench: false,
        profile: false,
    }
}

// ---- 14.1: every number validated on load, named with its file, table and key ----------

#[test]
fn budget_s_nan_inf_or_negative_is_refused_on_load_naming_file_and_key() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    for bad in ["nan", "inf", "-inf", "-1.0", "0.0"] {
        let exp = experiments_copy();
        let path = exp.path().join("matmul.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let text = set_key(&text, "table1.repeat.quick.budget_s", bad);
        std::fs::write(&path, text).unwrap();
        let opts = options(&["matmul"], Some(exp.path()), out.path(), false);
        let err = runner::reproduce(&g, PAPERS, &opts).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, RunError::Config { .. }), "{bad}: {msg}");
        assert!(msg.contains(&path.display().to_string()), "{bad}: {msg}");
        assert!(msg.contains("budget_s"), "{bad}: {msg}");
        assert!(
            std::fs::read_dir(out.path()).unwrap().next().is_none(),
            "{bad}: nothing written"
        );
    }
}

#[test]
fn repetitions_zero_is_refused_on_load() {
    let text = registry::MATMUL.files[0].builtin;
    let text = set_key(text, "table1.repeat.quick.repetitions", "0");
    let g = ctx();
    let check = Check {
        mode: Mode::Quick,
        device: g.info(),
    };
    let err = (registry::MATMUL.files[0].parse)(&text, &check)
        .map(drop)
        .unwrap_err();
    assert!(err.contains("repetitions"), "{err}");
}

#[test]
fn non_finite_number_anywhere_is_refused_naming_its_key() {
    let t: toml::Table = "[a.b]\nx = [1.0, 2.0, nan]\n".parse().unwrap();
    let err = runner::entry::reject_non_finite(&t).unwrap_err();
    assert!(err.contains("a.b.x[2]"), "{err}");
    let t: toml::Table = "[a]\ny = -inf\n".parse().unwrap();
    assert!(runner::entry::reject_non_finite(&t).is_err());
    let t: toml::Table = "[a]\ny = 1e300\nz = 3\n".parse().unwrap();
    assert!(runner::entry::reject_non_finite(&t).is_ok());
}

// ---- 14.4: validate every file before touching any output; never an empty record ---------

#[test]
fn type_error_keeps_the_previous_record_and_report() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let record = out.path().join("matmul/paper.json");
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    std::fs::write(&record, "{\"previous\": true}").unwrap();
    std::fs::write(out.path().join("REPORT.md"), "previous report").unwrap();
    let exp = common::experiments_with(&[("matmul", &[("table1.sizes.quick", "\"big\"")])]);
    // A type error in any selected paper stops the run before any paper starts.
    let opts = options(
        &["tridiagonal", "matmul"],
        Some(exp.path()),
        out.path(),
        false,
    );
    let err = runner::reproduce(&g, PAPERS, &opts).unwrap_err();
    assert!(matches!(err, RunError::Config { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        "{\"previous\": true}"
    );
    assert_eq!(
        std::fs::read_to_string(out.path().join("REPORT.md")).unwrap(),
        "previous report"
    );
    assert!(!out.path().join("tridiagonal").exists(), "no paper started");
}

static FAILS_AT_ONCE: PaperEntry = PaperEntry {
    key: "fails-at-once",
    title: "A paper that stops on its first error",
    files: &[ExperimentFile::of::<toml::Table>(
        "fails-at-once",
        "[x]\ny = 1\n",
    )],
    tables: &[],
    run: |_| Err(RunError::algorithm(std::io::Error::other("broken"))),
    original: &common::TEST_ORIGINAL,
};

#[test]
fn a_run_that_stops_at_once_never_replaces_a_record_with_an_empty_one() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let record = out.path().join("fails-at-once/paper.json");
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    std::fs::write(&record, "{\"previous\": true}").unwrap();
    let opts = options(&["fails-at-once"], None, out.path(), false);
    let err = runner::reproduce(&g, &[&FAILS_AT_ONCE], &opts).unwrap_err();
    assert!(err.to_string().contains("broken"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        "{\"previous\": true}"
    );
}

// ---- 14.5: atomic writes, every error names its path ------------------------------------

#[test]
fn png_and_table_writes_are_atomic_when_the_write_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fig.png");
    write_atomic(&path, b"the old complete file").unwrap();
    // A full disk fails the write half-way: the old file stays whole, no temp file remains,
    // and the error names the path.
    let err = write_atomic_with(&path, |w| {
        std::io::Write::write_all(w, &[0u8; 4096])?;
        Err(std::io::Error::from_raw_os_error(28)) // ENOSPC
    })
    .unwrap_err();
    assert!(err.to_string().contains("fig.png"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"the old complete file");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["fig.png"]);
    // A chart goes through the same path and is a complete PNG.
    LineChart::new("t", "x", "y")
        .series(Series::ours("s", vec![(1.0, 1.0), (2.0, 3.0)]))
        .save(&path)
        .unwrap();
    let png = std::fs::read(&path).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    image::load_from_memory(&png).expect("a complete PNG");
    // An unwritable place: the error names the chart's path.
    let blocked = dir.path().join("fig.png/under-a-file.png");
    let err = LineChart::new("t", "x", "y")
        .series(Series::ours("s", vec![(1.0, 1.0), (2.0, 3.0)]))
        .save(&blocked)
        .unwrap_err();
    assert!(err.to_string().contains("under-a-file.png"), "{err}");
}

// ---- 14.6: sims.toml read through --experiments -----------------------------------------

#[test]
fn sims_toml_is_read_from_the_experiments_dir() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let exp = common::experiments_with(&[("sims", &[("fig14_heat.verify_steps", "\"ten\"")])]);
    let opts = options(&["tridiagonal"], Some(exp.path()), out.path(), true);
    let msg = runner::reproduce(&g, PAPERS, &opts)
        .unwrap_err()
        .to_string();
    let path = exp.path().join("sims.toml");
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    // Without the folder, the built-in copy is used and is fine.
    let opts = options(&["tridiagonal"], None, out.path(), true);
    runner::reproduce(&g, PAPERS, &opts).unwrap();
}

// ---- 14.7: --resume, the runner's mechanism ---------------------------------------------

#[test]
fn resume_reuses_every_row_of_a_table_measured_before() {
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    let paper = registry::paper("matmul").unwrap();
    let cols = || {
        vec![
            gpgpu_repro::report::Column::key("N").int(),
            gpgpu_repro::report::Column::ours("time").unit("ms"),
        ]
    };
    let mut measured = 0;
    for resume in [false, true] {
        let s = Session::for_tests(&g, paper.info(), Mode::Quick, dir.path(), resume).unwrap();
        let mut t = s.table("t", "T", cols(), &"config").unwrap();
        for n in [8, 16, 32] {
            let key = n.to_string();
            if t.reuse(&key).unwrap().is_some() {
                continue;
            }
            measured += 1;
            let row = t.row(key).num("N", n as f64).num("time", 1.0);
            t.push(row).unwrap();
        }
        let table = t.finish().unwrap();
        assert_eq!(table.rows.len(), 3);
    }
    assert_eq!(measured, 3, "the second run measured nothing again");
}

#[test]
fn resume_reuse_all_is_all_or_nothing_and_values_are_read_back() {
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    let paper = registry::paper("matmul").unwrap();
    let cols = || {
        vec![
            gpgpu_repro::report::Column::key("part").text(),
            gpgpu_repro::report::Column::ours("time").unit("ms"),
        ]
    };
    let keys = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let s = Session::for_tests(&g, paper.info(), Mode::Quick, dir.path(), false).unwrap();
    let mut t = s.table("t", "T", cols(), &"config").unwrap();
    for (key, ms, ok) in [("a", 1.5, true), ("b", 2.0, true), ("c", 3.0, false)] {
        let row = t.row(key).text("part", key).num("time", ms);
        t.push(if ok {
            row.verify(0.0, 0.0)
        } else {
            row.fail("bad")
        })
        .unwrap();
    }
    t.finish().unwrap();
    let s = Session::for_tests(&g, paper.info(), Mode::Quick, dir.path(), true).unwrap();
    let mut t = s.table("t", "T", cols(), &"config").unwrap();
    // "c" failed: a group with it is measured again, and none of the group is added.
    assert!(t.reuse_all(&keys(&["a", "c"])).unwrap().is_none());
    assert!(t.rows().is_empty());
    let rows = t
        .reuse_all(&keys(&["a", "b"]))
        .unwrap()
        .expect("both reusable");
    assert_eq!(t.rows().len(), 2);
    assert_eq!(t.value(&rows[0], "time"), Some(1.5));
    assert_eq!(t.text(&rows[1], "part"), Some("b"));
    assert_eq!(t.value(&rows[1], "part"), None);
    // A different configuration reuses nothing.
    let s = Session::for_tests(&g, paper.info(), Mode::Quick, dir.path(), true).unwrap();
    let mut t = s.table("t", "T", cols(), &"other config").unwrap();
    assert!(t.reuse("a").unwrap().is_none());
    // Records written before `reused` existed still load.
    let old = r#"{"id": "t", "title": "T", "rows": 2, "failed": 0}"#;
    let r: gpgpu_repro::report::index::TableRef = serde_json::from_str(old).unwrap();
    assert_eq!(r.reused, 0);
}

// ---- 14.7: every table of every paper honours --resume ---------------------------------

/// Tables that `--resume` recomputes instead of reusing, with the reason: most measure nothing
/// of their own, their rows are derived (instantly) from what other tables of the same run
/// measured or reused; the 2005 model family's two tables are exact, untimed and small.
const RECOMPUTED: &[(&str, &str, &str)] = &[
    ("lu", "table1", "passes, copies, bytes: Table 4's counts"),
    ("lu", "table2", "flops, bytes: Table 4's counts"),
    ("lu", "sec5_1", "Table 4's factors compared bit for bit"),
    // Not derived: exact, untimed runs of the 2005 model's members (small N), recomputed
    // rather than rebuilt from their rows (the findings read the measured matrices' counts).
    (
        "lu",
        "table5_family",
        "each member's Table 5 error ends, untimed",
    ),
    ("lu", "sec5_1_family", "each member × matrix class, untimed"),
    (
        "fem-storage",
        "fig3_bytes",
        "bytes computed from Table 2's counts",
    ),
    // Timed, but by the profiled solve `--resume` reruns for its iteration count (no row
    // holds the blocks' laps): B4 reads this solve's blocks.
    (
        "bicg",
        "table2_blocks",
        "the blocks of the profiled solve --resume reruns",
    ),
    // Read from their two sides' rows at no cost, so always formed again by this build's
    // rules: a resumed run cannot keep an older build's `faster` word.
    ("tridiagonal", "versus", "read from its sides' rows"),
    ("matmul", "versus", "read from its sides' rows"),
    ("lu", "versus", "read from its sides' rows"),
    ("bicg", "versus", "read from its sides' rows"),
    ("fem-storage", "versus", "read from its sides' rows"),
];

/// Every experiment file shrunk so that each paper's quick run takes seconds on llvmpipe: one
/// small size per table, one timed run without warm-up.
fn tiny_experiments() -> tempfile::TempDir {
    const ONCE: &str = "{ repetitions = 1, warmup = 0, budget_s = 0.001 }";
    let edits: &[(&str, &[(&str, &str)])] = &[
        (
            "tridiagonal",
            &[
                ("table1.n", "15"),
                ("table1.batch", "2"),
                ("table1.cg_iterations", "1"),
                ("fig11.grids.quick", "[16]"),
                ("fig11.cg_iterations", "[1]"),
                ("arith2005.grids.quick", "[16]"),
                ("arith2005.cg_iterations", "[1]"),
                ("fig11.repeat.quick", ONCE),
                ("sweep.grids.quick", "[16]"),
                ("sweep.repeat", ONCE),
                ("passes.grids.quick", "[16]"),
                ("passes.repeat", ONCE),
                ("fig9.grids.quick", "[4]"),
                ("fig9.repeat", ONCE),
            ],
        ),
        (
            "sims",
            &[
                ("fig14_heat.sizes.quick", "[15]"),
                ("fig14_heat.solvers", r#"["cr", "thomas"]"#),
                ("fig14_heat.verify_steps", "1"),
                ("fig14_heat.repeat.quick", ONCE),
                ("fig14_all.size.quick", "[15]"),
                ("fig14_all.view", "[32, 24]"),
                ("fig14_all.verify_steps", "1"),
                ("fig14_all.repeat.quick", ONCE),
                ("frames.size.quick", "[15]"),
                ("frames.fig13", "[1]"),
                ("frames.fig16", "[1]"),
                ("frames.fig18", "[1]"),
                ("frames.fig19", "[1]"),
                ("stability.n", "8"),
                ("stability.steps", "2"),
                ("stability.multiples", "[2.0]"),
            ],
        ),
        (
            "matmul",
            &[
                ("table1.sizes.quick", "[32]"),
                ("table1.repeat.quick", ONCE),
                ("table1.tune.n.quick", "64"),
                ("table1.tune.repeat", ONCE),
            ],
        ),
        (
            "lu",
            &[
                ("table4.sizes.quick", "[8]"),
                ("table4.labelled_sizes.quick", "[8]"),
                ("table4.repeat.quick", ONCE),
                ("cpu.repeat", ONCE),
                ("bandwidth.texture_size", "64"),
                ("table5.operands.quick", "256"),
                ("sec51.scan", "2"),
                ("sec51_2005.sizes.quick", "[8, 12]"),
                ("compute.repeat", ONCE),
            ],
        ),
        (
            "bicg",
            &[
                ("fig4.meshes.quick", r#"["4x4x4", "4x4x6"]"#),
                ("fig4.gpu", ONCE),
                ("fig4.cpu", ONCE),
                // The large-mesh rule (CPU time scaled from short runs), both ways: the
                // converging solve an untimed reference on all CPUs (4×4×4), and the timed
                // one-thread whole solve (4×4×6).
                ("fig4.cpu_scaled_above", "0"),
                ("fig4.cpu_full_solve", r#"["4x4x6"]"#),
                ("fig4.cpu_timed_iterations", "2"),
                ("periter.mesh.quick", r#""4x4x4""#),
                ("periter.iterations", "2"),
                ("spmv.mesh.quick", r#""4x4x4""#),
                ("spmv.repeat", ONCE),
                ("table2.mesh.quick", r#""4x4x4""#),
                ("fig6.mesh.quick", r#""4x4x4""#),
                ("fig6.local_sizes", "[32, 64]"),
                ("fig6.repeat", ONCE),
                ("precision.mesh.quick", r#""4x4x4""#),
                ("precision_charged.mesh.quick", r#""6x6x6""#),
                ("anchor.meshes.quick", r#"["4x4x4"]"#),
                ("legacy.meshes.quick", r#"["4x4x4"]"#),
                ("biofet.nodes.quick", "11"),
            ],
        ),
        (
            "fem-storage",
            &[
                ("table2.grids_2d.quick", "[6]"),
                ("table2.grids_3d.quick", "[4]"),
                ("table4.sizes.quick", "[64]"),
                ("table4.dims", "[2]"),
                ("table4.jacobi_budget_s.quick", "[2.0]"),
                ("table4.direct.quick", ONCE),
                ("perf.unknowns.quick", "[64]"),
                ("perf.sweeps", "2"),
                ("perf.repeat.quick", ONCE),
            ],
        ),
    ];
    common::experiments_with(edits)
}

#[test]
fn resume_reuses_every_row_of_every_paper() {
    let g = ctx();
    let exp = tiny_experiments();
    let out = tempfile::tempdir().unwrap();
    let mut measured_again = Vec::new();
    let mut recomputed = Vec::new();
    for paper in PAPERS {
        let mut opts = options(&[paper.key], Some(exp.path()), out.path(), false);
        let started = std::time::Instant::now();
        runner::reproduce(&g, PAPERS, &opts)
            .unwrap_or_else(|e| panic!("{}: the first run: {e}", paper.key));
        let first = started.elapsed();
        opts.resume = true;
        runner::reproduce(&g, PAPERS, &opts)
            .unwrap_or_else(|e| panic!("{}: the run with --resume: {e}", paper.key));
        eprintln!(
            "{}: {:.1} s, then {:.1} s with --resume",
            paper.key,
            first.as_secs_f64(),
            (started.elapsed() - first).as_secs_f64()
        );
        if paper.key == "lu" {
            // The 2005 model's size cap predicts from the last order measured: a reused
            // order's rows keep that measurement's time for it (the first order measured
            // in a process builds the programs and predicts nothing).
            let t: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(out.path().join("lu/sec5_1_2005.json")).unwrap(),
            )
            .unwrap();
            let ms = |n: u32| -> Vec<Option<f64>> {
                t["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|r| r["key"].as_str().unwrap().starts_with(&format!("N={n} ")))
                    .map(|r| r["measured_ms"].as_f64())
                    .collect()
            };
            assert!(ms(8).iter().all(Option::is_none), "{:?}", ms(8));
            assert!(ms(12).len() == 4 && ms(12).iter().all(|m| m.is_some_and(|m| m > 0.0)));
        }
        let path = out.path().join(paper.key).join("paper.json");
        let record: PaperRecord =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(!record.tables.is_empty(), "{}: no table", paper.key);
        // Tables and rows this device cannot run are written again (instantly), not reused.
        for t in record.tables.iter().filter(|t| t.skipped.is_none()) {
            assert!(t.rows > 0, "{}/{}: no row", paper.key, t.id);
            let name = format!(
                "{}/{} ({} of {} rows reused)",
                paper.key, t.id, t.reused, t.rows
            );
            if RECOMPUTED
                .iter()
                .any(|r| (r.0, r.1) == (paper.key, t.id.as_str()))
            {
                recomputed.push(name);
            } else if t.reused + t.skipped_rows < t.rows {
                // (A row skipped over a size cap is reused with its reason, and counts in
                // both; a row the device cannot run is written again, and counts once.)
                measured_again.push(name);
            }
        }
    }
    assert!(
        measured_again.is_empty(),
        "tables measured again under --resume: {measured_again:?}"
    );
    // The allow-list names tables that ran here (and nothing else is recomputed).
    assert_eq!(recomputed.len(), RECOMPUTED.len(), "{recomputed:?}");
}

/// A run into a folder holding a complete run of its mode is compared with it (`previous.md`,
/// `run.json`'s `previous`, the report's threats); a run with `--resume`, or over a run of the
/// other mode, compares nothing and leaves no `previous.md` of an earlier pair.
#[test]
fn a_run_is_compared_with_the_complete_run_of_its_mode_it_replaces() {
    let g = ctx();
    let exp = tiny_experiments();
    let out = tempfile::tempdir().unwrap();
    let previous_md = out.path().join("previous.md");
    let run_json = out.path().join("run.json");
    let previous = || -> Option<String> {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
        v["previous"].as_str().map(str::to_string)
    };
    let mut opts = options(&["fem-storage"], Some(exp.path()), out.path(), false);
    let run = |opts: &Options| runner::reproduce(&g, PAPERS, opts).unwrap();
    run(&opts);
    assert!(
        !previous_md.exists(),
        "nothing to compare with in an empty folder"
    );
    assert_eq!(previous(), None);
    let first_commit: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
    run(&opts);
    let md = std::fs::read_to_string(&previous_md).expect("previous.md after the second run");
    assert!(md.contains("## Stability summary"), "{md}");
    assert!(md.contains("the run this one replaced"), "{md}");
    let reading = previous().expect("run.json's previous");
    let commit = first_commit["commit"].as_str().unwrap();
    assert!(
        reading.starts_with(&format!("the run of `{commit}`")) && reading.contains("fem-storage"),
        "{reading}"
    );
    let report = std::fs::read_to_string(out.path().join("REPORT.md")).unwrap();
    assert!(
        report.contains("**Against the run it replaced.**"),
        "{report}"
    );
    // --resume completes a run, it does not replace one: no comparison, the old one removed.
    opts.resume = true;
    run(&opts);
    assert!(!previous_md.exists());
    assert_eq!(previous(), None);
    // Over a complete run of the other mode: nothing compared.
    opts.resume = false;
    let text = std::fs::read_to_string(&run_json).unwrap();
    std::fs::write(
        &run_json,
        text.replace("\"mode\": \"quick\"", "\"mode\": \"full\""),
    )
    .unwrap();
    run(&opts);
    assert!(!previous_md.exists());
    assert_eq!(previous(), None);
}

// ---- 14.8: files honour the umask -------------------------------------------------------

#[cfg(unix)]
#[test]
fn files_written_honour_the_umask_like_file_create() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    std::fs::File::create(&plain).unwrap();
    let ours = dir.path().join("ours.md");
    write_atomic(&ours, b"x").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&ours), mode(&plain), "same mode as File::create");
}

// ---- 14.9: SIGTERM like Ctrl-C ----------------------------------------------------------

#[cfg(unix)]
#[test]
fn sigterm_is_handled_like_ctrl_c_and_writes_the_records() {
    let out = tempfile::tempdir().unwrap();
    // The quick run without the bench and with a small tuning product, so that its first
    // table is written within seconds and its later tables are still running.
    let exp = common::experiments_with(&[("matmul", &[("table1.tune.n.quick", "64")])]);
    let mut child = Command::new(BIN)
        .args([
            "reproduce",
            "matmul",
            "--quick",
            "--no-bench",
            "--experiments",
        ])
        .arg(exp.path())
        .arg("--out")
        .arg(out.path())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let first_row = out.path().join("matmul/table1.json");
    let started = std::time::Instant::now();
    while !first_row.exists() {
        assert!(started.elapsed().as_secs() < 300, "no row written in 300 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    // An orderly exit with an interrupted program's code (128 + SIGINT), not death by the
    // signal.
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(out.path().join("matmul/paper.json").exists());
    assert!(out.path().join("REPORT.md").exists());
}

// ---- 14.13: the command line ------------------------------------------------------------

#[test]
fn sim_help_lists_the_simulations_and_their_defaults() {
    let out = Command::new(BIN).args(["sim", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for s in registry::SIMS {
        assert!(help.contains(s.name), "{help}");
        assert!(
            help.contains(&format!("--size {}", s.default_size())),
            "{help}"
        );
    }
    let out = Command::new(BIN).args(["sim", "nope"]).output().unwrap();
    assert!(!out.status.success());
}

#[test]
fn reproduce_matmul_matmul_runs_it_once() {
    let chosen = runner::select(PAPERS, &["matmul".into(), "lu".into(), "matmul".into()]).unwrap();
    let keys: Vec<&str> = chosen.iter().map(|p| p.key).collect();
    assert_eq!(keys, ["matmul", "lu"]);
}

#[test]
fn check_flag_validates_every_file_and_writes_nothing() {
    let out = tempfile::tempdir().unwrap();
    let target = out.path().join("o");
    let status = Command::new(BIN)
        .args(["reproduce", "all", "--quick", "--check", "--out"])
        .arg(&target)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(!target.exists(), "--check writes nothing");
}

// ---- 14.14: every numeric field mutated -------------------------------------------------

/// Every path to a number (integer or float) in `v`.
fn numeric_paths(v: &toml::Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        toml::Value::Integer(_) | toml::Value::Float(_) => out.push(path.clone()),
        toml::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(format!("[{i}]"));
                numeric_paths(x, path, out);
                path.pop();
            }
        }
        toml::Value::Table(t) => {
            for (k, x) in t {
                path.push(k.clone());
                numeric_paths(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[test]
fn every_numeric_field_mutated_to_0_neg1_nan_inf_1e12_never_panics() {
    let g = ctx();
    let exp = experiments_copy();
    let mut tried = 0;
    let mut accepted = Vec::new();
    for paper in PAPERS {
        for file in paper.files {
            let original: toml::Value = toml::from_str(file.builtin).unwrap();
            let mut paths = Vec::new();
            numeric_paths(&original, &mut vec![], &mut paths);
            let path = exp.path().join(format!("{}.toml", file.name));
            for p in &paths {
                for (label, int_value) in [
                    ("0", Some(0i64)),
                    ("-1", Some(-1)),
                    ("1e12", Some(1_000_000_000_000)),
                    ("nan", None),
                    ("inf", None),
                    ("-inf", None),
                ] {
                    let mut v = original.clone();
                    let slot = at_mut(&mut v, p);
                    *slot = match (slot.is_integer(), int_value) {
                        (true, Some(i)) => toml::Value::Integer(i),
                        _ => toml::Value::Float(label.parse::<f64>().unwrap()),
                    };
                    std::fs::write(&path, toml::to_string(&v).unwrap()).unwrap();
                    let check = Check {
                        mode: Mode::Quick,
                        device: g.info(),
                    };
                    let key = p.join(".").replace(".[", "[");
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        runner::entry::load(paper.files, Some(exp.path()), &check).map(drop)
                    }))
                    .unwrap_or_else(|_| panic!("{}: {key} = {label} panicked", file.name));
                    tried += 1;
                    match result {
                        Err(RunError::Config { file: f, message }) => {
                            assert!(f.contains(&format!("{}.toml", file.name)), "{f}");
                            if label.contains("nan") || label.contains("inf") {
                                assert!(
                                    message.contains(&key) || message.contains("line"),
                                    "{key} = {label}: {message}"
                                );
                            }
                        }
                        Err(e) => panic!("{key} = {label}: not a config error: {e}"),
                        Ok(()) => {
                            assert!(
                                !label.contains("nan") && !label.contains("inf"),
                                "{}: {key} = {label} accepted",
                                file.name
                            );
                            accepted.push(format!("{}: {key} = {label}", file.name));
                        }
                    }
                    std::fs::write(&path, file.builtin).unwrap();
                }
            }
        }
    }
    // What the papers' own validation does not refuse yet (sizes, tiles, tolerances): they
    // run and either work or end in a FAILED row; listed to track the papers' checks.
    eprintln!(
        "{tried} mutations; {} accepted by the load checks:\n  {}",
        accepted.len(),
        accepted.join("\n  ")
    );
    assert!(tried > 3000, "{tried}");
}

// ---- 12.23: every number in a note comes from the run ----------------------------------

/// The numbers of `text` a reader would take for measurements or data, with their printed
/// decimals (`"2.43"` → (2.43, 2)); structural ones are left out: parts of names (`fp32`,
/// `RGBA32F`, `I2`, `2D`), references (`Fig. 11`, `§4.3`, `eq. (2)`, `Table 1`, `GL 4.3`),
/// hardware names (`Quadro FX 3400`, `GeForce 6800`), `32-bit`, years, and counts ≤ 10.
fn numbers_in(text: &str) -> Vec<(String, f64, i32)> {
    const REFS: &[&str] = &[
        "Fig.",
        "Figs.",
        "Fig",
        "Table",
        "Tables",
        "§",
        "eq.",
        "eqs.",
        "Eq.",
        "(",
        "Algorithm",
        "Algorithms",
        "GL",
        "Section",
        "seed",
        "Mesa",
        "LLVM",
        "Quadro",
        "FX",
        "GeForce",
        "GTX",
        "IV",
        "Core",
        "i7",
        "issue",
        "item",
        "Harris's",
        "#",
        "OpenGL",
        "version",
    ];
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (chars[i] == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
                || (chars[i] == ','
                    && chars
                        .get(i + 1..i + 4)
                        .is_some_and(|d| d.iter().all(char::is_ascii_digit))
                    && chars.get(i + 4).is_none_or(|c| !c.is_ascii_digit())))
        {
            i += 1;
        }
        // Scientific notation: 2.4e-7.
        if chars.get(i) == Some(&'e')
            && let Some(j) = (i + 1..(i + 3).min(chars.len()))
                .find(|&j| chars[j].is_ascii_digit())
                .filter(|&j| {
                    chars[i + 1..j]
                        .iter()
                        .all(|&c| c == '-' || c == '+' || c == '−')
                })
        {
            i = j;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
        }
        let token: String = chars[start..i].iter().collect();
        let prev_word: String = {
            let head: String = chars[..start].iter().collect();
            let head = head.trim_end_matches([' ', '(']);
            head.rsplit(' ').next().unwrap_or("").to_string()
        };
        let glued_before = start > 0
            && (chars[start - 1].is_alphabetic()
                || matches!(
                    chars[start - 1],
                    '_' | '.' | '/' | '§' | '#' | '`' | '-' | '^'
                ));
        let glued_after = chars
            .get(i)
            .is_some_and(|c| c.is_alphabetic() || *c == '_' || *c == '`');
        let bit = chars[i..].iter().take(4).collect::<String>() == "-bit";
        if glued_before || glued_after || bit || REFS.contains(&prev_word.as_str()) {
            continue;
        }
        let clean = token.replace(',', "");
        let Ok(v) = clean.replace('−', "-").parse::<f64>() else {
            continue;
        };
        let decimals = match clean.split_once('e') {
            Some((m, e)) => {
                let e: i32 = e.replace('−', "-").parse().unwrap_or(0);
                m.split_once('.').map_or(0, |(_, f)| f.len() as i32) - e
            }
            None => clean.split_once('.').map_or(0, |(_, f)| f.len() as i32),
        };
        let year = decimals == 0 && (1900.0..=2100.0).contains(&v);
        if year || (decimals == 0 && v <= 10.0) {
            continue;
        }
        out.push((token, v, decimals));
    }
    out
}

/// Every number of a run's tables (cells, and numbers in keys and text cells), of the
/// experiment file and of the device profile: what a note may quote.
fn run_values(dir: &Path, record: &PaperRecord, toml: &str) -> (Vec<f64>, Vec<f64>) {
    let mut values = Vec::new();
    let mut derived = Vec::new();
    let add_text = |s: &str, values: &mut Vec<f64>| {
        values.extend(numbers_in(s).into_iter().map(|n| n.1));
        // Numbers glued to names in text cells ("n=2") count too.
        for w in s.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
            if let Ok(v) = w.parse::<f64>() {
                values.push(v);
            }
        }
    };
    add_text(toml, &mut values);
    // The experiment file's numbers (the paper's) and the audit's are one group each: a note
    // may quote a ratio of two of the paper's numbers, or of a printed and a recomputed value.
    let mut groups: Vec<Vec<f64>> = vec![values.clone()];
    groups.push(
        record
            .audits
            .iter()
            .flat_map(|a| [a.printed, a.recomputed])
            .collect(),
    );
    values.extend(groups[1].clone());
    if let Ok(p) = std::fs::read_to_string(dir.join("../device.json")) {
        add_text(&p, &mut values);
    }
    for t in record.tables.iter().filter(|t| t.skipped.is_none()) {
        let table: gpgpu_repro::report::Table = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{}.json", t.id))).unwrap(),
        )
        .unwrap();
        let mut columns: Vec<Vec<f64>> = vec![Vec::new(); table.columns.len()];
        columns.append(&mut groups);
        for r in &table.rows {
            add_text(&r.key, &mut values);
            let mut row = Vec::new();
            let mut ends = Vec::new();
            for (j, v) in r.values.iter().enumerate() {
                match v {
                    gpgpu_repro::report::Value::Num(x) => {
                        row.push(*x);
                        columns[j].push(*x);
                    }
                    // An estimate is its median (a number of the row and column) and the
                    // ends of its interval (numbers of the row: a finding may divide another
                    // number of the row by them, as F5's GPU time by the direct solve's).
                    gpgpu_repro::report::Value::Est(e) => {
                        row.push(e.median);
                        columns[j].push(e.median);
                        ends.extend([e.lo, e.hi]);
                    }
                    gpgpu_repro::report::Value::Text(s) => add_text(s, &mut values),
                    _ => {}
                }
            }
            if let gpgpu_repro::report::Status::Verified { error, tolerance } = r.status {
                row.extend([error, tolerance]);
            }
            values.extend(&row);
            values.extend(&ends);
            row.extend(ends);
            columns.push(row);
        }
        // Ratios, differences and sums of two numbers of one row or one column.
        for group in &columns {
            for (a_i, &a) in group.iter().enumerate() {
                for &b in &group[a_i + 1..] {
                    derived.extend([a / b, b / a, a - b, b - a, a + b, a * b]);
                }
            }
        }
    }
    values.retain(|v| v.is_finite());
    derived.retain(|v| v.is_finite());
    (values, derived)
}

/// Whether `v` printed with `decimals` decimals could read `x` (or `x` %, or `x` as 10³·v).
fn reads_as(x: f64, decimals: i32, sorted: &[f64]) -> bool {
    let h = 0.5 * 10f64.powi(-decimals) * (1.0 + 1e-9) + 1e-12;
    [1.0, 0.01, 1e-3, 1e3].iter().any(|scale| {
        let (lo, hi) = ((x - h) * scale, (x + h) * scale);
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        let i = sorted.partition_point(|v| *v < lo);
        sorted.get(i).is_some_and(|v| *v <= hi) || {
            // the same number negated (a difference written as a magnitude)
            let (nlo, nhi) = (-hi, -lo);
            let j = sorted.partition_point(|v| *v < nlo);
            sorted.get(j).is_some_and(|v| *v <= nhi)
        }
    })
}

#[test]
fn every_number_in_a_note_or_finding_comes_from_the_run() {
    let g = ctx();
    let exp = tiny_experiments();
    let out = tempfile::tempdir().unwrap();
    // The device's limits from a small bench of two passes, saved where the run looks for
    // them: the run reuses them as this device's `device.json`, so the notes' bounds and
    // between-run terms are still this run's numbers, measured in seconds, not a minute.
    let two_passes = gpgpu_repro::bench::Settings {
        passes: 2,
        ..common::tiny_bench()
    };
    gpgpu_repro::bench::measure(&g, &two_passes, false)
        .unwrap()
        .save(&out.path().join(gpgpu_repro::report::files::DEVICE_JSON))
        .unwrap();
    let mut untraced = Vec::new();
    let mut checked = 0;
    for paper in PAPERS {
        let mut opts = options(&[paper.key], Some(exp.path()), out.path(), false);
        opts.bench = true;
        let parses = runner::entry::parse_count();
        runner::reproduce(&g, PAPERS, &opts).unwrap_or_else(|e| panic!("{}: {e}", paper.key));
        // Issue 26: the runner parses each experiment file once and hands the typed value on.
        assert_eq!(
            runner::entry::parse_count() - parses,
            paper.files.len(),
            "{}: each experiment file is parsed once per run",
            paper.key
        );
        let dir = out.path().join(paper.key);
        let record: PaperRecord =
            serde_json::from_str(&std::fs::read_to_string(dir.join("paper.json")).unwrap())
                .unwrap();
        let toml: String = paper
            .files
            .iter()
            .map(|f| {
                let tiny = exp.path().join(format!("{}.toml", f.name));
                f.builtin.to_string() + &std::fs::read_to_string(tiny).unwrap()
            })
            .collect();
        let (mut values, mut derived) = run_values(&dir, &record, &toml);
        values.sort_by(f64::total_cmp);
        derived.sort_by(f64::total_cmp);
        let texts = record.notes.iter().cloned().chain(
            record
                .findings
                .iter()
                .map(|f| format!("{} {} {} {}", f.paper, f.ours, f.why, f.claim)),
        );
        for text in texts {
            for (token, x, d) in numbers_in(&text) {
                checked += 1;
                if !reads_as(x, d, &values) && !reads_as(x, d, &derived) {
                    untraced.push(format!("{}: {token} in “{text}”", paper.key));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} numbers found in the notes");
    // The report is an article a reader finishes: the abstract on its first screen, no
    // summary cell over 300 characters, the whole under 300 lines, the details on the
    // papers' pages.
    let report = std::fs::read_to_string(out.path().join("REPORT.md")).unwrap();
    let first_screen: Vec<&str> = report.lines().take(12).collect();
    assert!(first_screen.contains(&"## Abstract"), "{report}");
    // The abstract says why each undecided claim is undecided, from this run's verdicts: on
    // a software rasterizer the GPU-against-CPU claims are grouped under what they need.
    let undecided = report
        .lines()
        .find(|l| l.starts_with("- **Undecided:**"))
        .expect("the abstract's undecided line");
    if undecided.contains("not testable here") {
        assert!(
            undecided.contains("need a GPU whose graphics pipeline is not the CPU"),
            "{undecided}"
        );
    }
    let summary = report
        .split("### The claims")
        .nth(1)
        .and_then(|r| r.split("### Terms").next())
        .expect("the claims table");
    for line in summary.lines().filter(|l| l.starts_with('|')) {
        for cell in line.split(" | ") {
            assert!(
                cell.chars().count() <= 310,
                "a cell over 300 characters: {cell}"
            );
        }
    }
    assert!(
        report.lines().count() < 300,
        "{} lines",
        report.lines().count()
    );
    for p in PAPERS {
        assert!(
            report.contains(&format!("]({}/README.md)", p.key)),
            "{report}"
        );
        assert!(out.path().join(p.key).join("README.md").is_file());
    }
    assert!(
        untraced.is_empty(),
        "{} numbers in notes that no table, experiment file or device profile of the run \
         holds (nor a ratio, sum or difference of two numbers of one row or column):\n{}",
        untraced.len(),
        untraced.join("\n")
    );
}

#[test]
fn the_number_reader_skips_names_and_references_and_keeps_measurements() {
    let found: Vec<String> = numbers_in(
        "Fig. 11 and §4.3, eq. (2), GL 4.3, fp32 RGBA32F I2, Quadro FX 3400, 32-bit, in 2005: \
         CR takes 2.43 ms, 3.2× Thomas, error 1.8e-7, 1,024 rows, 4 passes, 73 %",
    )
    .into_iter()
    .map(|n| n.0)
    .collect();
    assert_eq!(found, ["2.43", "3.2", "1.8e-7", "1,024", "73"]);
    let sorted = [0.75, 2.4312, 1024.0];
    assert!(reads_as(2.43, 2, &sorted));
    assert!(!reads_as(2.44, 2, &sorted));
    assert!(reads_as(75.0, 0, &sorted), "a percentage of 0.75");
}

// ---- issue 40: closed sets on load, one paper's error, a closed stdout ------------------

#[test]
fn check_refuses_a_scalar_format_outside_its_closed_set() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let target = out.path().join("o");
    let exp = experiments_copy();
    let path = exp.path().join("lu.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, set_key(&text, "table4.scalar_format", "\"bgr32f\"")).unwrap();
    let opts = options(&["lu"], Some(exp.path()), &target, true);
    match runner::reproduce(&g, PAPERS, &opts) {
        Err(RunError::Config { file, message }) => {
            assert!(file.contains("lu.toml"), "{file}");
            assert!(message.contains("bgr32f"), "{message}");
            assert!(
                message.contains("r32f"),
                "names the values allowed: {message}"
            );
        }
        other => panic!("`--check` accepted scalar_format = \"bgr32f\": {other:?}"),
    }
    assert!(!target.exists(), "--check writes nothing");
    // The paper's kernel names in bicg's Table 2 are a closed set too.
    std::fs::write(&path, text).unwrap();
    let path = exp.path().join("bicg.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("kernel = \"SpMV\""));
    std::fs::write(
        &path,
        text.replace("kernel = \"SpMV\"", "kernel = \"SpMv\""),
    )
    .unwrap();
    let opts = options(&["bicg"], Some(exp.path()), &target, true);
    match runner::reproduce(&g, PAPERS, &opts) {
        Err(RunError::Config { file, message }) => {
            assert!(file.contains("bicg.toml"), "{file}");
            assert!(message.contains("SpMv"), "{message}");
        }
        other => panic!("`--check` accepted kernel = \"SpMv\": {other:?}"),
    }
}

static CONFIG_FAILS: PaperEntry = PaperEntry {
    key: "config-fails",
    title: "A paper that finds a configuration error while it runs",
    files: &[ExperimentFile::of::<toml::Table>(
        "config-fails",
        "[x]\ny = 1\n",
    )],
    tables: &[],
    run: |_| {
        Err(RunError::Config {
            file: "config-fails.toml".into(),
            message: "a value found wrong while running".into(),
        })
    },
    original: &common::TEST_ORIGINAL,
};

static RAN_AFTER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

static RUNS_AFTER: PaperEntry = PaperEntry {
    key: "runs-after",
    title: "A paper after one that failed",
    files: &[ExperimentFile::of::<toml::Table>(
        "runs-after",
        "[x]\ny = 1\n",
    )],
    tables: &[],
    run: |_| {
        RAN_AFTER.store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    },
    original: &common::TEST_ORIGINAL,
};

#[test]
fn a_config_error_in_one_paper_fails_it_and_the_papers_after_it_still_run() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let opts = options(&["config-fails", "runs-after"], None, out.path(), false);
    let err = runner::reproduce(&g, &[&CONFIG_FAILS, &RUNS_AFTER], &opts).unwrap_err();
    assert!(matches!(err, RunError::Failed(_)), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("config-fails"), "{msg}");
    assert!(msg.contains("a value found wrong while running"), "{msg}");
    assert!(
        RAN_AFTER.load(std::sync::atomic::Ordering::SeqCst),
        "the paper after the failed one ran"
    );
    assert!(
        !out.path().join("config-fails/paper.json").exists(),
        "no empty record for a paper that stopped on its first error"
    );
}

/// `gpgpu-repro info | head -1`: the reader goes away before the program writes; the program
/// ends quietly (SIGPIPE's default action or exit 0), never with a panic (exit 101).
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(BIN)
        .arg("info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close the only read end of the pipe before the program prints anything.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
        "{:?}: {stderr}",
        out.status
    );
}
