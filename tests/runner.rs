//! The experiment runner and the report: rows saved as they finish, --resume, FAILED rows,
//! malformed experiment files and unwritable output folders.

mod common;
use common::{TEST_ORIGINAL, ctx};

use gpgpu_repro::gl::Need;
use gpgpu_repro::registry::{self, PAPERS};
use gpgpu_repro::report::index::PaperRecord;
use gpgpu_repro::report::{Column, Row, Table};
use gpgpu_repro::runner::{
    self, ExperimentFile, Mode, Options, PaperEntry, RunError, Session, TableSpec,
};

fn columns() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::ours("time").unit("ms"),
        Column::ours("error").sci(1),
    ]
}

/// A quick run of `papers` into `out`: no resume, the built-in experiments, no bench.
fn quick(papers: &[&str], out: &std::path::Path) -> Options {
    Options {
        papers: papers.iter().map(|p| p.to_string()).collect(),
        mode: Mode::Quick,
        out: Some(out.to_path_buf()),
        resume: false,
        experiments: None,
        check_only: false,
        bench: false,
        // The profiled warm-ups on, as `reproduce` has them.
        profile: true,
    }
}

#[test]
fn rows_are_written_at_once_and_failures_are_marked() {
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    let paper = registry::paper("matmul").unwrap();
    let s = Session::for_tests(&g, paper.info(), Mode::Quick, dir.path(), false).unwrap();
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
        let s = Session::for_tests(&g, paper.info(), Mode::Quick, dir.path(), false).unwrap();
        let mut t = s.table("demo", "Demo", columns(), &"config A").unwrap();
        t.push(Row::new("8").num(8.0).num(1.5).num(0.0).verify(0.0, 1e-5))
            .unwrap();
        t.push(Row::new("9").num(9.0).num(1.5).num(1.0).verify(1.0, 1e-5))
            .unwrap();
        t.finish().unwrap();
    }
    let s = Session::for_tests(&g, paper.info(), Mode::Quick, dir.path(), true).unwrap();
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
        experiments: Some(exp.path().to_path_buf()),
        ..quick(&["matmul"], out.path())
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
    let opts = quick(&["matmul"], &file.path().join("under-a-file"));
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

// ---- Tables a device cannot run: skipped with the reason, not failed --------------------

/// No device offers GL 9.9: what a GL 3.3 device is to a compute table.
const FUTURE: Need = Need::Version(9, 9);

static NEEDS_TOO_MUCH: PaperEntry = PaperEntry {
    key: "needs-too-much",
    title: "A paper with a table and a row no device can run",
    files: &[ExperimentFile::of::<toml::Table>(
        "needs-too-much",
        "[x]\ny = 1\n",
    )],
    tables: &[&[
        TableSpec::needs("future", &[FUTURE]),
        TableSpec::any("now").rows_need(&[FUTURE]),
    ]],
    run: |s| {
        if s.runs("future") {
            return Err(RunError::Failed(vec![
                "ran a table the device lacks".into(),
            ]));
        }
        if !s.runs("now") {
            return Err(RunError::Failed(vec!["skipped a table it can run".into()]));
        }
        let cols = vec![Column::key("k").text(), Column::ours("v")];
        let mut t = s.table("now", "Now", cols, &())?;
        t.push(
            t.row("ran")
                .text("k", "ran")
                .num("v", 1.0)
                .verify(0.0, 1e-6),
        )?;
        let why = s.lacks(&[FUTURE]).unwrap_or_default();
        t.push(t.row("later").text("k", "later").skip(why))?;
        t.finish()?;
        Ok(())
    },
    original: &TEST_ORIGINAL,
};

#[test]
fn tables_and_rows_the_device_lacks_are_skipped_with_the_reason_and_the_run_succeeds() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let opts = quick(&["needs-too-much"], out.path());
    runner::reproduce(&g, &[&NEEDS_TOO_MUCH], &opts).expect("skipping is not failing");
    let rec: PaperRecord = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("needs-too-much/paper.json")).unwrap(),
    )
    .unwrap();
    let offers = g.caps().offers();
    let want = format!("needs OpenGL 9.9, device offers {offers}");
    let future = rec.tables.iter().find(|t| t.id == "future").unwrap();
    assert_eq!(future.skipped.as_deref(), Some(want.as_str()));
    assert_eq!(future.rows, 0);
    let now = rec.tables.iter().find(|t| t.id == "now").unwrap();
    assert_eq!((now.rows, now.failed, now.skipped_rows), (2, 0, 1));
    assert_eq!(rec.failed_rows(), 0);
    assert_eq!(rec.skipped(), "1 table, 1 row");
    assert!(!out.path().join("needs-too-much/future.md").exists());
    let md = std::fs::read_to_string(out.path().join("needs-too-much/now.md")).unwrap();
    assert!(md.contains(&format!("skipped: {want}")), "{md}");
    // The paper's page says why in full; the report's omissions list names the table.
    let page = std::fs::read_to_string(out.path().join("needs-too-much/README.md")).unwrap();
    assert!(
        page.contains(&format!("Skipped on this device: {want}")),
        "{page}"
    );
    let report = std::fs::read_to_string(out.path().join("REPORT.md")).unwrap();
    assert!(
        report.contains(&format!("table `future`: skipped, {want}")),
        "{report}"
    );
    // `info`'s plan says the same before anything runs.
    let plan = |id| {
        NEEDS_TOO_MUCH
            .info()
            .table_spec(id)
            .map(|t| t.plan(g.caps()))
            .unwrap()
    };
    assert_eq!(plan("future"), format!("skipped: {want}"));
    assert_eq!(plan("now"), format!("runs; some rows skipped ({want})"));
}

#[test]
fn every_paper_declares_its_tables_once() {
    for p in PAPERS {
        let ids: Vec<&str> = p.info().table_specs().map(|t| t.id).collect();
        assert!(!ids.is_empty(), "{}: no tables declared", p.key);
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{}: {ids:?}", p.key);
    }
    // On a device with compute, fp64 and fragment SSBOs (llvmpipe) every table runs.
    let g = ctx();
    if let Some(why) = g
        .caps()
        .lacks(&[Need::Compute, Need::Fp64, Need::FragmentSsbo])
    {
        println!("not checking that every table runs: the device {why}");
        return;
    }
    for p in PAPERS {
        for t in p.info().table_specs() {
            assert_eq!(t.plan(g.caps()), "runs", "{}/{}", p.key, t.id);
        }
    }
}

/// `gpgpu-repro reproduce PAPERS --quick --no-bench --out DIR` with
/// `GPGPU_REPRO_WITHOUT=without` (the bench's own lacks are `tests/bench.rs`'s).
fn reproduce_without(without: &str, papers: &[&str], out: &std::path::Path) -> String {
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .arg("reproduce")
        .args(papers)
        .args(["--quick", "--no-bench", "--out"])
        .arg(out)
        .env(gpgpu_repro::gl::caps::WITHOUT_ENV, without)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr).into_owned();
    assert!(r.status.success(), "exit {:?}: {err}", r.status);
    err
}

#[test]
fn without_fp64_bicg_runs_its_fp32_build_and_skips_the_rest() {
    let out = tempfile::tempdir().unwrap();
    reproduce_without("fp64", &["bicg"], out.path());
    let md = std::fs::read_to_string(out.path().join("bicg/precision.md")).unwrap();
    let fp32 = md.lines().find(|l| l.starts_with("| fp32")).unwrap();
    assert!(fp32.contains("ok (≤"), "{fp32}");
    let fp64 = md.lines().find(|l| l.starts_with("| fp64")).unwrap();
    assert!(
        fp64.contains("skipped: needs fp64 (double) shaders"),
        "{fp64}"
    );
    let rec: PaperRecord =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("bicg/paper.json")).unwrap())
            .unwrap();
    assert_eq!(rec.failed_rows(), 0);
    let ran: Vec<&str> = rec
        .tables
        .iter()
        .filter(|t| t.skipped.is_none())
        .map(|t| t.id.as_str())
        .collect();
    // The fp32 tables (the precision table's fp32 row, the fragment and compute fp32 Bi-CG of
    // `legacy`), the CPU anchor, and what the fp32 rows feed: the roofline and the
    // legacy-vs-compute pairs.
    assert_eq!(ran, ["precision", "anchor", "legacy", "roofline", "versus"]);
    // The binary profiles each timed row's last warm-up run: the legacy table's rows keep
    // their passes, named by their shaders, and the page says where the time goes.
    let legacy: Vec<_> = rec
        .profiles
        .iter()
        .filter(|p| p.table == "legacy")
        .collect();
    assert!(
        legacy
            .iter()
            .flat_map(|p| &p.runs)
            .flat_map(|r| &r.passes)
            .any(|q| q.pass.starts_with("bicg/") && q.calls > 0 && q.ms > 0.0),
        "{legacy:?}"
    );
    let page = std::fs::read_to_string(out.path().join("bicg/README.md")).unwrap();
    assert!(page.contains("## Where the time goes"), "{page}");
}

#[test]
fn without_compute_the_compute_papers_skip_their_gpu_tables_and_exit_0() {
    let out = tempfile::tempdir().unwrap();
    let log = reproduce_without("compute", &["matmul", "fem-storage"], out.path());
    assert!(
        log.contains("matmul/table1: skipped (needs compute shaders (GL 4.3)"),
        "{log}"
    );
    let page = std::fs::read_to_string(out.path().join("matmul/README.md")).unwrap();
    assert!(page.contains("Skipped on this device: needs compute shaders"));
    // fem-storage's storage counts are CPU work and still run, verified.
    let rec: PaperRecord = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("fem-storage/paper.json")).unwrap(),
    )
    .unwrap();
    let t2 = rec.tables.iter().find(|t| t.id == "table2").unwrap();
    assert!(
        t2.skipped.is_none() && t2.rows > 0 && t2.failed == 0,
        "{t2:?}"
    );
}

// ---- A quiet machine, recorded: the gate before a run, with known samples ---------------

#[test]
fn a_full_run_on_a_busy_machine_refuses_and_writes_nothing_unless_allowed() {
    use gpgpu_repro::report::load::{LoadSample, LoadSource, QuietPolicy};
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("run");
    let opts = Options {
        mode: Mode::Full,
        ..quick(&["needs-too-much"], &dir)
    };
    // Other processes keep 1.5 of 2 cores busy: more than a quarter of them.
    let busy = LoadSample {
        seconds: 1.0,
        cores: 2,
        others: 1.5,
        steal: 0.0,
        loadavg: [2.0, 1.5, 1.0],
        noisy: false,
    };
    // Fixed samples: no pause takes time, no table is sampled.
    let mut policy = QuietPolicy {
        wait: std::time::Duration::from_secs(5),
        source: LoadSource::Fixed(vec![busy]),
        ..QuietPolicy::for_run(gpgpu_repro::Mode::Full)
    };
    let err = runner::reproduce_with(&g, &[&NEEDS_TOO_MUCH], &opts, &policy).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, RunError::Noisy(_)), "{msg}");
    assert!(
        msg.contains("1.50 of 2 cores") && msg.contains("--allow-noisy"),
        "{msg}"
    );
    assert!(!dir.exists(), "a refused run writes nothing");

    policy.allow_noisy = true;
    runner::reproduce_with(&g, &[&NEEDS_TOO_MUCH], &opts, &policy).unwrap();
    let rec: PaperRecord = serde_json::from_str(
        &std::fs::read_to_string(dir.join("needs-too-much/paper.json")).unwrap(),
    )
    .unwrap();
    let m = rec.provenance.machine.expect("the load is recorded");
    assert!(m.ran_noisy && m.noisy(), "{m:?}");
    assert_eq!(m.before.as_ref().map(|s| s.others), Some(1.5));
    assert!(m.waited_s >= 5.0, "{m:?}");
    let report = std::fs::read_to_string(dir.join("REPORT.md")).unwrap();
    assert!(
        report.contains("`needs-too-much` was measured while other work ran"),
        "{report}"
    );
    let page = std::fs::read_to_string(dir.join("needs-too-much/README.md")).unwrap();
    assert!(page.contains("**Noisy run.**"), "{page}");
}

/// A paper that takes a known time, for the run-time test.
static TAKES_A_MOMENT: PaperEntry = PaperEntry {
    key: "takes-a-moment",
    title: "A paper that sleeps",
    files: &[ExperimentFile::of::<toml::Table>(
        "takes-a-moment",
        "[x]\ny = 1\n",
    )],
    tables: &[],
    run: |_| {
        std::thread::sleep(std::time::Duration::from_millis(300));
        Ok(())
    },
    original: &TEST_ORIGINAL,
};

#[test]
fn the_report_states_the_whole_commands_run_time_and_each_papers() {
    use gpgpu_repro::report::index::{RUN_JSON, RunTimes};
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let opts = quick(&["takes-a-moment", "needs-too-much"], out.path());
    let started = std::time::Instant::now();
    runner::reproduce(&g, &[&TAKES_A_MOMENT, &NEEDS_TOO_MUCH], &opts).unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    let run: RunTimes =
        serde_json::from_str(&std::fs::read_to_string(out.path().join(RUN_JSON)).unwrap()).unwrap();
    assert!(run.complete);
    let keys: Vec<&str> = run.papers.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(keys, ["takes-a-moment", "needs-too-much"]);
    let papers: f64 = run.papers.iter().map(|p| p.1).sum();
    // The whole command: at least every paper's time (one paper's is not the whole), and
    // no more than the wall clock around it.
    assert!(run.papers[0].1 >= 0.3, "{run:?}");
    assert!(
        run.seconds >= papers && run.seconds <= elapsed,
        "{run:?} vs {elapsed} s"
    );
    let report = std::fs::read_to_string(out.path().join("REPORT.md")).unwrap();
    assert!(report.contains(&run.describe()), "{report}");
    assert!(
        !report.contains("this paper's run time"),
        "a paper's time posing as the run's: {report}"
    );
    let page = std::fs::read_to_string(out.path().join("takes-a-moment/README.md")).unwrap();
    assert!(page.contains("this paper's run time"), "{page}");
}

// ---- Issue 26: each experiment file parsed once, the typed value handed to the run --------

/// A paper's typed configuration, with a range its validation refuses.
#[derive(serde::Deserialize)]
struct CountedConfig {
    n: u32,
}

impl runner::Experiments for CountedConfig {
    fn validate(&self, _: &runner::Check) -> Result<(), String> {
        if self.n == 0 {
            return Err("n = 0: must be ≥ 1".into());
        }
        Ok(())
    }
}

/// A paper that checks it is handed its parsed configuration (and that reading it again
/// through the session parses nothing).
struct Counted;

impl runner::Paper for Counted {
    type Config = CountedConfig;
    fn run(s: &Session, config: &CountedConfig) -> Result<(), RunError> {
        let again: &CountedConfig = s.config()?;
        if config.n != 7 || !std::ptr::eq(config, again) {
            return Err(RunError::Failed(vec![
                "not the configuration loaded".into(),
            ]));
        }
        // Asking for another type than the file parses into is an error, not a panic.
        match s.config::<toml::Table>() {
            Err(RunError::Config { .. }) => Ok(()),
            _ => Err(RunError::Failed(vec!["a wrong type was handed out".into()])),
        }
    }
}

static COUNTED: PaperEntry = PaperEntry {
    key: "counted",
    title: "A paper whose file is parsed once",
    files: &[ExperimentFile::of::<CountedConfig>("counted", "n = 7\n")],
    tables: &[],
    run: runner::run_paper::<Counted>,
    original: &TEST_ORIGINAL,
};

#[test]
fn each_experiment_file_is_parsed_once_and_its_value_handed_to_the_run() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    let opts = quick(&["counted"], out.path());
    let before = runner::entry::parse_count();
    runner::reproduce(&g, &[&COUNTED], &opts).unwrap();
    assert_eq!(runner::entry::parse_count() - before, 1);
    // The paper's validation runs on load, and names the file read.
    let exp = tempfile::tempdir().unwrap();
    std::fs::write(exp.path().join("counted.toml"), "n = 0\n").unwrap();
    let opts = Options {
        experiments: Some(exp.path().to_path_buf()),
        ..opts
    };
    match runner::reproduce(&g, &[&COUNTED], &opts) {
        Err(RunError::Config { file, message }) => {
            assert!(file.contains("counted.toml"), "{file}");
            assert!(message.contains("n = 0"), "{message}");
        }
        other => panic!("expected a config error, got {other:?}"),
    }
}

#[test]
fn a_row_near_its_fixed_cost_bound_probes_the_fixed_costs_again() {
    use gpgpu_repro::bench::{Kind, Work};
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    // A bench whose empty draw costs a second: every row's fixed-cost term would be huge,
    // and the table's probes (this process, a few µs to ms) lower it.
    let (_s, mut t) = bounded_table(&g, dir.path(), 1000.0);
    let work = |passes| Work {
        passes,
        kind: Kind::Fragment,
        ..Work::default()
    };
    let row = |t: &runner::TableWriter, key: &str, passes, ms| {
        t.row(key)
            .num("N", 1.0)
            .num("time", ms)
            .work("empty passes", work(passes), ms)
            .unchecked("a test row")
    };
    // Far below its bound (a day for one pass): no second probe.
    t.push(row(&t, "slow", 1, 86_400_000.0)).unwrap();
    let probes = |t: &runner::TableWriter| {
        t.table()
            .caption
            .iter()
            .find(|c| c.starts_with("Fixed costs probed"))
            .cloned()
            .expect("the probe's caption")
    };
    assert!(!probes(&t).contains("probed again"), "{}", probes(&t));
    // A billion passes in a millisecond: far above any probe's bound, so it probes again,
    // and the row is still reported above its bound (the invariant's note stays).
    t.push(row(&t, "fast", 1_000_000_000, 1.0)).unwrap();
    assert!(
        probes(&t).contains("probed again after 1 row "),
        "{}",
        probes(&t)
    );
    let table = t.finish().unwrap();
    let bound = |key: &str| {
        let r = table.rows.iter().find(|r| r.key == key).unwrap();
        r.attained.as_ref().unwrap().bound.unwrap().ms
    };
    // Both rows are read against the same (least) draw cost: per pass, equal bounds.
    assert!((bound("fast") / 1e9 - bound("slow")).abs() <= 1e-9 * bound("slow"));
    assert!(bound("slow") < 1000.0);
}

#[test]
fn a_fixed_cost_seen_far_below_the_tables_probe_widens_of_bound_up_to_the_probes_bound() {
    use gpgpu_repro::bench::{Kind, Work};
    use gpgpu_repro::report::{OF_BOUND, Value};
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    // A bench that met a draw of a picosecond: far below any probe in this process.
    let (_s, mut t) = bounded_table(&g, dir.path(), 1e-9);
    let work = Work {
        passes: 1000,
        kind: Kind::Fragment,
        ..Work::default()
    };
    t.push(
        t.row("r")
            .num("N", 1.0)
            .num("time", 1e6)
            .work("empty passes", work, 1e6)
            .unchecked("a test row"),
    )
    .unwrap();
    let table = t.finish().unwrap();
    let row = &table.rows[0];
    let b = row.attained.as_ref().unwrap().bound.unwrap();
    assert!((b.ms - 1e-6).abs() < 1e-18, "1000 picosecond draws: {b:?}");
    let met = b.ms_met.expect("the probe's bound is above the least one");
    assert!(met > b.ms);
    let Value::Est(e) = &row.values[table.col(OF_BOUND)] else {
        panic!("of bound: {:?}", row.values);
    };
    assert_eq!(e.median, b.ms / 1e6);
    assert!(
        (e.hi - met / 1e6).abs() <= 1e-9 * e.hi,
        "{e:?} against {met}"
    );
}

#[test]
fn a_timed_row_carries_its_limiters_between_run_term_not_the_default() {
    use gpgpu_repro::bench::groups::{DEVICE_BOUND, FIXED_COST};
    use gpgpu_repro::bench::{Kind, Work};
    use gpgpu_repro::gl::Timing;
    use gpgpu_repro::report::{OF_BOUND, Value};
    use gpgpu_repro::stats::between::Group;
    use gpgpu_repro::stats::{BetweenTerms, set_between_terms};
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    // The device-bound pool moved by R = 0.19 between passes, the fixed costs by R = 0.019
    // (20 differences each, k/100 and k/1000: the 19th is the 95th percentile).
    let ramp = |step: f64| (1..=20).map(|i| i as f64 * step).collect::<Vec<_>>();
    let group = |name: &str, d| Group {
        name: name.into(),
        fallback: None,
        differences: d,
        span: Vec::new(),
    };
    set_between_terms(BetweenTerms::resolve(
        &[
            group(DEVICE_BOUND, ramp(0.01)),
            group(FIXED_COST, ramp(0.001)),
        ],
        DEVICE_BOUND,
    ));
    let (h_default, h_fixed) = (0.19 / 2f64.sqrt(), 0.019 / 2f64.sqrt());
    // A bench whose empty draw costs a second: a row of one pass is fixed-cost bound.
    let (_s, mut t) = bounded_table(&g, dir.path(), 1000.0);
    let samples: Vec<f64> = (0..12).map(|i| 2000.0 + i as f64).collect();
    let timing = Timing::from_samples(&samples);
    assert!(
        (timing.between - h_default).abs() < 1e-12,
        "made with the default"
    );
    let work = Work {
        passes: 1,
        kind: Kind::Fragment,
        ..Work::default()
    };
    t.push(
        t.row("r")
            .num("N", 1.0)
            .timed("time", &timing)
            .work_timed("one pass", work, &timing)
            .unchecked("a test row"),
    )
    .unwrap();
    let table = t.finish().unwrap();
    set_between_terms(BetweenTerms::default());
    let row = &table.rows[0];
    let a = row.attained.as_ref().unwrap();
    assert_eq!(
        a.bound.unwrap().limiter,
        gpgpu_repro::work::Limiter::FixedCost
    );
    assert!((a.between - h_fixed).abs() < 1e-12, "{a:?}");
    let Value::Est(time) = &row.values[table.col("time")] else {
        panic!("time: {:?}", row.values);
    };
    // The repetitions' interval is kept, the term is the fixed costs'.
    let within = timing.est().within();
    assert!((time.between - h_fixed).abs() < 1e-12);
    assert!(
        (time.within().lo - within.lo).abs() < 1e-9 && (time.within().hi - within.hi).abs() < 1e-9
    );
    assert!(
        time.hi < timing.hi_ms,
        "narrower than with the default term"
    );
    // The fraction of bound: the row's term twice.
    let Value::Est(f) = &row.values[table.col(OF_BOUND)] else {
        panic!("of bound: {:?}", row.values);
    };
    assert!((f.between - h_fixed * 2f64.sqrt()).abs() < 1e-12, "{f:?}");
}

/// A session on `dir` whose bench says an empty draw costs `draw_ms`, and a table with the
/// bound columns (`N`, `time`, bound, limiter, of bound).
fn bounded_table(
    g: &gpgpu_repro::gl::Gl,
    dir: &std::path::Path,
    draw_ms: f64,
) -> (Session, runner::TableWriter) {
    use gpgpu_repro::bench::DeviceProfile;
    use gpgpu_repro::report::with_bound_columns;
    let paper = registry::paper("matmul").unwrap();
    let s = Session::for_tests(g, paper.info(), Mode::Quick, dir, false).unwrap();
    let mut p = DeviceProfile::new(g.info().clone(), gpgpu_repro::Mode::Quick, 0.0, vec![]);
    p.limits.draw_ms = Some(draw_ms);
    s.set_profile(std::rc::Rc::new(p));
    let cols = with_bound_columns(vec![
        Column::key("N").int(),
        Column::ours("time").unit("ms"),
    ]);
    let t = s
        .table("bounded", "Bounded table", cols, &("config", 1))
        .unwrap();
    (s, t)
}

// ---- Issue 41: each row of a set of rounds claims its own variant's profiled run ----------

/// A paper that times two variants "in one set of rounds" (their profiled runs handed in
/// directly) and writes each variant's row on its own, the second variant's first.
struct TwoVariants;

impl runner::Paper for TwoVariants {
    type Config = CountedConfig;
    fn run(s: &Session, _: &CountedConfig) -> Result<(), RunError> {
        use gpgpu_repro::gl::profile::{PassTime, RunProfile, give};
        let run = |variant: usize| RunProfile {
            variant: Some(variant),
            wall_ms: 2.0,
            passes: vec![PassTime {
                pass: format!("v{variant}.comp"),
                calls: 1,
                ms: 1.0,
            }],
        };
        let mut t = s.table("two", "Two variants", columns(), &("config", 1))?;
        give(vec![run(0), run(1)]);
        for (key, v) in [("1", 1), ("0", 0)] {
            let row = t.row(key).num("N", 1.0).num("time", 1.0).num("error", 0.0);
            t.push_variant(row.unchecked("a test row"), Some(v))?;
        }
        t.finish().map(drop)
    }
}

static TWO_VARIANTS: PaperEntry = PaperEntry {
    key: "two-variants",
    title: "A paper that writes the rows of one set of rounds one by one",
    files: &[ExperimentFile::of::<CountedConfig>(
        "two-variants",
        "n = 7\n",
    )],
    tables: &[],
    run: runner::run_paper::<TwoVariants>,
    original: &TEST_ORIGINAL,
};

#[test]
fn each_variants_row_claims_its_own_profiled_run_only() {
    let g = ctx();
    let out = tempfile::tempdir().unwrap();
    runner::reproduce(&g, &[&TWO_VARIANTS], &quick(&["two-variants"], out.path())).unwrap();
    let rec: PaperRecord = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("two-variants/paper.json")).unwrap(),
    )
    .unwrap();
    let passes = |row: &str| -> Vec<String> {
        let p = rec.profiles.iter().find(|p| p.row == row).unwrap();
        p.runs
            .iter()
            .flat_map(|r| r.passes.iter().map(|q| q.pass.clone()))
            .collect()
    };
    assert_eq!(passes("1"), ["v1.comp"], "{:?}", rec.profiles);
    assert_eq!(passes("0"), ["v0.comp"], "{:?}", rec.profiles);
}

/// Issue 37: the report's overview cells stay short (detail one click away on the paper's
/// page): each paper's set-up, how it runs here, and each claim's summary line and section
/// are under 300 characters.
#[test]
fn the_overview_cells_of_every_paper_are_under_300_characters() {
    for p in gpgpu_repro::registry::PAPERS {
        let o = p.original;
        let mut cells = vec![("setup", o.setup), ("here", o.here)];
        for c in o.claims {
            cells.push(("claim", c.short));
            cells.push(("section", c.section));
        }
        for (what, text) in cells {
            let n = text.chars().count();
            assert!(n <= 300, "{} {what}: {n} characters: {text}", p.key);
        }
    }
}
