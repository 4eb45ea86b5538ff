//! The invariant of issue 23: no timed row of any paper attains more than
//! [`OVER_BOUND`] of its bound. A quick pass of every paper with shrunken experiment files
//! (each paper's built-in file, every `repeat` cut to one run without warm-up, every quick
//! size list cut to its first size) against a short bench profile; it fails on any row above
//! the bound, naming the table, the row and the fraction. The speed of nothing is asserted:
//! a fraction above 1 says a roof or a work model is wrong, whatever the machine's speed.

use std::path::Path;
use std::time::Duration;

use gpgpu_repro::bench::{self, OVER_BOUND, Settings};
use gpgpu_repro::gl::timing::TimingPlan;
use gpgpu_repro::report::index::PaperRecord;

/// Cuts a built-in experiment file down (module docs).
fn shrink(v: &mut toml::Value) {
    let toml::Value::Table(t) = v else { return };
    for (k, v) in t.iter_mut() {
        match (k.as_str(), &mut *v) {
            ("repeat", toml::Value::Table(r)) if r.contains_key("quick") => {
                for (_, mode) in r.iter_mut() {
                    if let toml::Value::Table(m) = mode {
                        one_run(m);
                    }
                }
            }
            ("repeat", toml::Value::Table(r)) => one_run(r),
            ("quick", toml::Value::Array(a)) => a.truncate(1),
            _ => shrink(v),
        }
    }
}

/// One timed run, no warm-up, the least budget.
fn one_run(r: &mut toml::Table) {
    r.insert("repetitions".into(), 1.into());
    r.insert("warmup".into(), 0.into());
    r.insert("budget_s".into(), 0.001.into());
    r.remove("max_repetitions");
}

/// A short bench whose sweep still reaches past the caches that small sizes sit in.
fn short_bench() -> Settings {
    Settings {
        mode: gpgpu_repro::Mode::Quick,
        sweep_from: 256 << 10,
        buffer_bytes: 16 << 20,
        sweep_cap: 16 << 20,
        fma_threads: 1 << 14,
        fixed_ops: 50,
        fixed_timing: TimingPlan::fixed(3, 20, Duration::from_millis(200)),
        min_run_ms: 5.0,
        // Best of several runs: a roof measured from too few runs on a shared machine is low,
        // and every row above it would be a false alarm.
        timing: TimingPlan::new(1, 6, Duration::from_millis(300)).adaptive(0.03, 10),
        passes: 2,
        // No time limit: the sweep's sizes are what the test checks.
        budget: Duration::from_secs(600),
        software_budget: Duration::from_secs(600),
        software_cap: 16 << 20,
        warm_cap: Duration::ZERO,
    }
}

// A timing test, so it stays out of the suite (run it with `-- --ignored` on a quiet
// machine). Its two old offenders — the tridiagonal sweep's small CR rows against a
// fixed-cost bound measured in another process, and matmul's compute texture tuning rows —
// were met by the per-table fixed-cost probe (`bench::fixed::probe`) and the compute texture
// roof. `reproduce` reports the same check on stderr and in the report's threats: the full
// run of 1cc8256 has no row above 1.05 of its bound (of 380 with one); of the quick pair
// of that commit, one run had one row at the threshold (`sweep` `32 CR fragment (copy)`,
// 1.05 of a fixed-cost bound probed above the bench's own value). Since 0404386 a table's
// fixed costs are the lesser of probe and bench; the quick pair and the full run of 209d6b4
// have no row above 1.05. The quick pair of 7e0cf3b had one (`32 CR fragment (copy)`, 1.39:
// that row met a cheaper mode of llvmpipe's draws than the table's probe had); since
// 7a03027 a row at over 0.8 of a fixed-cost bound probes the fixed costs again at once, and
// the table's rows are read against the least probed costs (`runner::session::writer`).
#[test]
#[ignore = "a timing test: run it on a quiet machine; see the comment"]
fn no_row_of_a_quick_pass_of_every_paper_is_above_its_bound() {
    let exp = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir("experiments").unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let t: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let mut v = toml::Value::Table(t);
        shrink(&mut v);
        let name = path.file_name().unwrap();
        std::fs::write(exp.path().join(name), toml::to_string(&v).unwrap()).unwrap();
    }
    // The profile the run reads its bounds from (reused: same device, quick mode).
    let gl = gpgpu_repro::gl::headless(&gpgpu_repro::gl::DeviceSelector::Auto).unwrap();
    let profile = bench::measure(&gl, &short_bench(), false).unwrap();
    profile.save(&out.path().join("device.json")).unwrap();
    drop(gl);

    let r = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .args(["reproduce", "all", "--quick", "--experiments"])
        .arg(exp.path())
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr).into_owned();
    assert!(r.status.success(), "exit {:?}: {err}", r.status);
    let mut over = Vec::new();
    for e in std::fs::read_dir(out.path()).unwrap() {
        let rec = e.unwrap().path().join("paper.json");
        if !rec.exists() {
            continue;
        }
        let rec: PaperRecord =
            serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
        over.extend(
            rec.notes
                .iter()
                .filter(|n| n.starts_with("Bound exceeded"))
                .map(|n| format!("{}: {n}", rec.key)),
        );
    }
    assert!(
        over.is_empty(),
        "rows above {OVER_BOUND} of bound:\n{}\n(stderr:\n{err})",
        over.join("\n")
    );
    assert!(Path::new(out.path()).join("device.json").exists());
}
