//! A stop request ends the repetition loops within one run (issue 40). A test binary of its
//! own: the request is process-wide and cannot be taken back, so it must not reach the
//! other tests' repetitions.

use std::time::{Duration, Instant};

use gpgpu_repro::gl::timing::{self, TimingPlan};

/// A long row: 1000 runs of 20 ms, a 60 s budget. A stop request 200 ms in ends it after
/// the run under way, with at least one timed run kept; `rounds` likewise.
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
    // Interleaved rounds: one round, every variant timed once.
    let t0 = Instant::now();
    let r = timing::rounds(plan, 3, |_| -> Result<f64, ()> {
        std::thread::sleep(Duration::from_millis(20));
        Ok(20.0)
    })
    .unwrap();
    assert!(r.timings.iter().all(|t| t.runs == 1), "{:?}", r.timings);
    assert!(t0.elapsed() < Duration::from_millis(500));
}
