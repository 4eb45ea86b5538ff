//! A stop request ends the repetition loops within one run (issue 40). A test binary of its
//! own: the request is process-wide and cannot be taken back, so it must not reach the
//! other tests' repetitions.

mod common;

use std::time::{Duration, Instant};

use gpgpu_repro::gl::timing::{self, TimingPlan};

/// A long row: 1000 runs of 20 ms, a 60 s budget. A stop request 200 ms in ends it after
/// the run under way, with at least one timed run kept; `rounds` before its next run, with
/// no result when no round was finished.
#[test]
fn a_stop_request_ends_repetitions_and_rounds_within_one_run() {
    let plan = TimingPlan::fixed(2, 1000, Duration::from_secs(60));
    let run = || -> Result<((), f64), ()> {
        std::thread::sleep(Duration::from_millis(20));
        Ok(((), 20.0))
    };
    let stopper = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(200));
        timing::request_stop();
    });
    let t0 = Instant::now();
    let samples = timing::repeat(plan, run).unwrap();
    let took = t0.elapsed();
    stopper.join().unwrap();
    assert!(timing::stop_requested());
    assert!(took < Duration::from_secs(2), "repeat went on for {took:?}");
    let n = samples.timing().runs;
    assert!((1..1000).contains(&n), "{n} runs");
    // After the request, one timed run and no warm-up.
    let t0 = Instant::now();
    let samples = timing::repeat(plan, run).unwrap();
    assert_eq!(samples.timing().runs, 1);
    assert!(t0.elapsed() < Duration::from_millis(500));
    // Interleaved rounds: no run at all, and no result to read.
    let t0 = Instant::now();
    let mut made = 0;
    let r = timing::rounds(plan, 3, |_| -> Result<f64, timing::Stopped> {
        made += 1;
        std::thread::sleep(Duration::from_millis(20));
        Ok(20.0)
    });
    assert_eq!(r.err(), Some(timing::Stopped));
    assert_eq!(made, 0);
    assert!(t0.elapsed() < Duration::from_millis(500));
}

/// The whole program under SIGTERM (issue 40): a quick run of tridiagonal is stopped at ten
/// points, each a little later into a row than the last (after the next newly measured row,
/// then 0.2 s, 0.5 s, …), each run resuming the one before. Every stop ends the process within
/// 5 s of the signal with 130 (an orderly stop, or the stop's backstop `runner::STOP_GRACE`),
/// every JSON file in the output parses, and the last run, let finish, reuses what the stopped
/// runs measured.
#[cfg(unix)]
#[test]
fn sigterm_at_ten_points_of_a_quick_run_exits_within_5_s_and_resume_reuses_the_rows() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_gpgpu-repro");
    let out = tempfile::tempdir().unwrap();
    // The paper's own tables as a quick run has them; its simulations on small grids (they
    // run last, after every stop point, and would make the finishing run most of the test).
    let small = "[31]";
    let exp = common::experiments_with(&[(
        "sims",
        &[
            ("fig14_heat.sizes.quick", small),
            ("fig14_all.size.quick", small),
            ("frames.size.quick", small),
        ],
    )]);
    let run = |resume: bool| {
        let mut c = Command::new(bin);
        c.args([
            "reproduce",
            "tridiagonal",
            "--quick",
            "--no-bench",
            "--experiments",
        ])
        .arg(exp.path())
        .arg("--out")
        .arg(out.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        if resume {
            c.arg("--resume");
        }
        c
    };
    let mut stops = Vec::new();
    for i in 0..10u64 {
        let mut child = run(i > 0).spawn().unwrap();
        // The child's progress lines, read on a thread of their own (a full pipe would stall it).
        let (tx, rx) = std::sync::mpsc::channel();
        let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let measured = rx
            .iter()
            .find(|l| l.ends_with(": done"))
            .unwrap_or_else(|| panic!("stop {i}: the run ended before measuring a row"));
        std::thread::sleep(Duration::from_millis(200 + 300 * i));
        if child.try_wait().unwrap().is_some() {
            break; // the run finished before this point: nothing left to stop
        }
        // SAFETY: `kill` with a child's pid and SIGTERM.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
        let signalled = Instant::now();
        let status = child.wait().unwrap();
        let took = signalled.elapsed();
        eprintln!("stop {i} after `{measured}`: exit {status:?} {took:?} after SIGTERM");
        stops.push(took);
        assert!(
            took < Duration::from_secs(5),
            "stop {i}: the process ended {took:?} after SIGTERM"
        );
        assert_eq!(status.code(), Some(130), "stop {i}: {status:?}");
        every_json_parses(out.path());
    }
    assert!(
        stops.len() >= 5,
        "only {} stops landed in the run",
        stops.len()
    );
    let done = run(true).output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "the resumed run: {stderr}");
    let reused = stderr.lines().filter(|l| l.ends_with("(reused)")).count();
    assert!(reused >= stops.len(), "{reused} rows reused: {stderr}");
    every_json_parses(out.path());
}
#[cfg(unix)]
fn every_json_parses(dir: &std::path::Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            every_json_parses(&p);
        } else if p.extension().is_some_and(|x| x == "json") {
            let text = std::fs::read_to_string(&p).unwrap();
            serde_json::from_str::<serde_json::Value>(&text)
                .unwrap_or_else(|e| panic!("{} does not parse: {e}", p.display()));
        }
    }
}

/// The stop's backstop (issue 40): a row that does not end after SIGTERM — here one made to
/// stall by the test hook `GPGPU_REPRO_TEST_STALL_ROW`, deaf to the stop request — is ended
/// by `runner::STOP_GRACE`'s `_exit(130)`: not before the grace (the orderly path could not
/// stop it), within a second after it, with the backstop's message, and every JSON file
/// written before it still parses.
#[cfg(unix)]
#[test]
fn a_row_that_outlasts_the_grace_is_ended_by_the_backstop() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_gpgpu-repro");
    let out = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args(["reproduce", "tridiagonal", "--quick", "--no-bench", "--out"])
        .arg(out.path())
        .env("GPGPU_REPRO_TEST_STALL_ROW", "CR (copy)")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    rx.iter()
        .find(|l| l.starts_with("test hook: row"))
        .expect("the run reached the stalled row");
    // SAFETY: `kill` with a child's pid and SIGTERM.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let signalled = Instant::now();
    let status = child.wait().unwrap();
    let took = signalled.elapsed();
    let grace = gpgpu_repro::runner::STOP_GRACE;
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(
        took >= grace,
        "ended {took:?} after SIGTERM, before the grace"
    );
    assert!(
        took < grace + Duration::from_secs(1),
        "ended {took:?} after SIGTERM"
    );
    let rest: Vec<String> = rx.iter().collect();
    assert!(
        rest.iter().any(|l| l.contains("did not end within")),
        "no backstop message: {rest:?}"
    );
    every_json_parses(out.path());
}
