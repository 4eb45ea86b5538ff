//! Steady clocks for every timed GPU run: a hardware GPU lowers its clocks when it idles, so
//! a kernel timed on a device that has just been idle runs slower than the same kernel a
//! moment later.
//!
//! # Why
//! A hardware GPU left idle — through the seconds of a CPU loop timed in the same round, or
//! a simulation's set-up — drops its clocks, and the kernel timed next pays for it (the
//! H200's clock log beside its run, `figures/nvidia-h200-pcie-sse2/logs/`; issue 36).
//!
//! # The rule
//! Before a timed GPU run ([`rewarm`], called by [`super::measure::measure_gpu`],
//! [`super::measure::rounds_gpu`] and every table that times GPU runs by hand), where the
//! device is a hardware GPU that has been idle — no `glFinish` returned — for more than
//! [`IDLE`], the run's own work is repeated, untimed, in batches of calls back to back that
//! last at least [`BATCH_MS`], until two successive batches agree within [`AGREE`] or
//! [`CAP`] has passed (BabelStream's repetitions, the Empirical Roofline Toolkit's trials;
//! the bench warms its passes by the same rule, [`crate::bench::warm`]). A warm-up run of a
//! timing plan counts as a run here: the re-warm comes before whichever run first follows
//! the idle spell.
//!
//! A software rasterizer is not re-warmed: its "GPU" is the CPU, whose clock the machine's
//! governor sets whether GL is busy or not, and repeating its slowest rows would only cost
//! minutes.

use std::time::{Duration, Instant};

use super::context::Gl;

/// Two successive runs agree when they differ by at most this fraction of the earlier one.
pub const AGREE: f64 = 0.02;
/// A hardware GPU idle longer than this is re-warmed before its next timed run.
pub const IDLE: Duration = Duration::from_millis(20);
/// Each re-warm batch calls the run's work back to back for at least this long (ms).
pub const BATCH_MS: f64 = 10.0;
/// The most calls of one batch.
pub const MAX_BATCH: u32 = 4096;
/// The longest a re-warm goes on without two agreeing batches.
/// (Short: the bench's passes start with a 2–3 s warm-up of their own, `bench::warm`; a
/// re-warm only restores the clocks after a pause.)
pub const CAP: Duration = Duration::from_millis(500);

/// Whether run `b` agrees with the run `a` before it (within [`AGREE`] of `a`).
pub fn agree(a: f64, b: f64) -> bool {
    a > 0.0 && (b - a).abs() <= AGREE * a
}

/// Runs `run` (one timed run, ms) until two successive runs agree or `cap` has passed (at
/// least two runs, so that there is a pair): the runs and whether they settled. A failed
/// run (NaN) ends it, not settled.
pub fn until_steady(cap: Duration, mut run: impl FnMut() -> f64) -> (Vec<f64>, bool) {
    let t0 = Instant::now();
    let mut runs: Vec<f64> = Vec::new();
    loop {
        let ms = run();
        runs.push(ms);
        if ms.is_nan() {
            return (runs, false);
        }
        if let [.., a, b] = runs[..]
            && agree(a, b)
        {
            return (runs, true);
        }
        if runs.len() >= 2 && t0.elapsed() >= cap {
            return (runs, false);
        }
    }
}

/// Whether a device is re-warmed before its next timed run: a hardware GPU (not a
/// `software` rasterizer) idle for longer than [`IDLE`], or not known to have run at all.
pub fn needs_rewarm(software: bool, idle: Option<Duration>) -> bool {
    !software && idle.is_none_or(|d| d > IDLE)
}

/// The calls per batch for a work whose one call took `once_ms`: enough for `batch_ms`
/// ([`BATCH_MS`] for a re-warm; the bench's warm-up sets its own).
pub fn batch_calls(once_ms: f64, batch_ms: f64) -> u32 {
    if once_ms > 0.0 && once_ms.is_finite() {
        (batch_ms / once_ms).ceil().clamp(1.0, MAX_BATCH as f64) as u32
    } else {
        MAX_BATCH
    }
}

/// The warm-up loop of a re-warm and of the bench's passes: `batch(k)` makes `k` calls back
/// to back and returns their time (ms); one call sizes the batches to `batch_ms`
/// ([`batch_calls`]), then batches until two agree or `cap` passes. The batches' times (empty
/// never: the sizing call is not among them) and whether they settled; the first error ends
/// it.
pub fn settle<E>(
    cap: Duration,
    batch_ms: f64,
    mut batch: impl FnMut(u32) -> Result<f64, E>,
) -> Result<(Vec<f64>, bool), E> {
    let k = batch_calls(batch(1)?, batch_ms);
    let mut failed = None;
    let steady = until_steady(cap, || {
        batch(k).unwrap_or_else(|e| {
            failed = Some(e);
            f64::NAN
        })
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(steady),
    }
}

thread_local! {
    /// Re-warms made on this thread ([`count`]).
    static COUNT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// [`force`]'s setting on this thread.
    static FORCED: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Re-warm before every timed run whatever the device and its idle time (`true`), or by the
/// rule (`false`), on this thread: so that a software rasterizer can run the re-warm path
/// (tests, and `GPGPU_REPRO_REWARM=always`, which sets it for the whole process).
pub fn force(on: bool) {
    FORCED.with(|f| f.set(Some(on)));
}

fn forced() -> bool {
    FORCED.with(|f| {
        f.get().unwrap_or_else(|| {
            let on = std::env::var("GPGPU_REPRO_REWARM").is_ok_and(|v| v == "always");
            f.set(Some(on));
            on
        })
    })
}

/// Re-warms `gl` with `work` (one call of the run about to be timed) where [`needs_rewarm`]
/// says so, or where [`force`]d; nothing otherwise (module docs). How many re-warms this
/// thread made: [`count`].
pub fn rewarm<E>(gl: &Gl, mut work: impl FnMut() -> Result<(), E>) -> Result<(), E> {
    if !(forced() || needs_rewarm(gl.info().cpu_rasterizer(), gl.idle())) {
        return Ok(());
    }
    COUNT.with(|c| c.set(c.get() + 1));
    settle(CAP, BATCH_MS, |k| {
        gl.finish();
        let t0 = Instant::now();
        for _ in 0..k {
            work()?;
        }
        gl.finish();
        Ok(t0.elapsed().as_secs_f64() * 1e3)
    })
    .map(drop)
}

/// One run of `f` on steady clocks: [`rewarm`]ed with `f` itself, then `f` once more, its
/// result returned. For runs that time their own region (an LU whose upload is outside its
/// timers); a run timed from outside is [`super::measure::once_gpu`].
pub fn warm_run<T, E>(gl: &Gl, mut f: impl FnMut() -> Result<T, E>) -> Result<T, E> {
    super::ledger::book_gpu(|| {
        rewarm(gl, || f().map(drop))?;
        f()
    })
}

/// How many re-warms this thread has made.
pub fn count() -> u64 {
    COUNT.with(std::cell::Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_runs_agree_within_two_percent_of_the_first() {
        assert!(agree(10.0, 10.2));
        assert!(agree(10.0, 9.8));
        assert!(!agree(10.0, 10.21));
        assert!(!agree(0.0, 0.0));
        assert!(!agree(10.0, f64::NAN));
    }

    #[test]
    fn a_warm_up_ends_at_the_first_agreeing_pair_or_at_the_cap() {
        // Clocks rising: 30, 18, 11, 10.1, 10.0 ms: the 4th and 5th agree (1 %).
        let mut seq = [30.0, 18.0, 11.0, 10.1, 10.0, 10.0].into_iter();
        let (runs, settled) = until_steady(Duration::from_secs(60), || seq.next().unwrap());
        assert_eq!(runs, vec![30.0, 18.0, 11.0, 10.1, 10.0]);
        assert!(settled);
        // Never agreeing: the cap (zero) ends it after the first pair.
        let mut k = 0.0;
        let (runs, settled) = until_steady(Duration::ZERO, || {
            k += 1.0;
            k * 10.0
        });
        assert_eq!(runs, vec![10.0, 20.0]);
        assert!(!settled);
        // A failed run (NaN) ends it at once, however long the cap.
        let (runs, settled) = until_steady(Duration::from_secs(60), || f64::NAN);
        assert_eq!((runs.len(), settled), (1, false));
    }

    #[test]
    fn only_a_hardware_gpu_idle_past_the_threshold_is_rewarmed() {
        let past = IDLE + Duration::from_millis(1);
        assert!(needs_rewarm(false, Some(past)));
        assert!(needs_rewarm(false, None));
        assert!(!needs_rewarm(false, Some(IDLE)));
        assert!(!needs_rewarm(false, Some(Duration::ZERO)));
        assert!(!needs_rewarm(true, Some(past)));
        assert!(!needs_rewarm(true, None));
    }

    #[test]
    fn batches_last_at_least_the_batch_time() {
        assert_eq!(batch_calls(0.3, BATCH_MS), 34); // 34 × 0.3 = 10.2 ms ≥ 10, 33 × 0.3 < 10
        assert_eq!(batch_calls(BATCH_MS, BATCH_MS), 1);
        assert_eq!(batch_calls(270.0, BATCH_MS), 1);
        assert_eq!(batch_calls(1e-9, BATCH_MS), MAX_BATCH);
        assert_eq!(batch_calls(0.0, BATCH_MS), MAX_BATCH);
        assert_eq!(batch_calls(f64::NAN, BATCH_MS), MAX_BATCH);
    }

    #[test]
    fn settle_sizes_its_batches_by_one_call_and_stops_at_two_agreeing() {
        // One call 2.5 ms → batches of 4 calls; batch times fall as the clocks rise.
        let mut asked = Vec::new();
        let mut times = [2.5, 40.0, 25.0, 10.4, 10.3, 10.3].into_iter();
        let (runs, settled) = settle(Duration::from_secs(60), BATCH_MS, |k| {
            asked.push(k);
            Ok::<f64, ()>(times.next().unwrap())
        })
        .unwrap();
        assert_eq!(asked, vec![1, 4, 4, 4, 4]);
        assert_eq!(runs, vec![40.0, 25.0, 10.4, 10.3]);
        assert!(settled);
        // The first error ends it and is returned.
        let mut n = 0;
        let r = settle(Duration::from_secs(60), BATCH_MS, |_| {
            n += 1;
            if n == 3 {
                Err("lost")
            } else {
                Ok(5.0 * n as f64)
            }
        });
        assert_eq!(r, Err("lost"));
    }
}
