//! The clock around one timed run, as the papers timed theirs: a monotonic CPU clock between
//! two `glFinish()` calls on the GPU ([`once_gpu`]), the clock alone on the CPU
//! ([`once_cpu`]); and the repetition loops of [`super::timing`] with these brackets
//! ([`measure_gpu`], [`rounds_gpu`], [`measure_cpu`]). Every timed GPU run is made on steady
//! clocks: a hardware GPU idle for a while is first re-warmed with the run's own work
//! ([`super::steady`]).
//!
//! Every bracket books its wall time in the process's ledger ([`super::ledger`]): timed GPU
//! runs (with their re-warms) against timed CPU runs.

use std::time::{Duration, Instant};

use super::context::Gl;
use super::ledger::{book_cpu, book_gpu};
use super::timing::{Rounds, Samples, Stopped, Timing, TimingPlan, repeat, rounds};

/// [`rounds`] on the GPU: `glFinish` before the clock starts and before it stops, each run
/// on steady clocks ([`super::steady::rewarm`]).
pub fn rounds_gpu<E: From<Stopped>>(
    gl: &Gl,
    plan: TimingPlan,
    k: usize,
    mut f: impl FnMut(usize) -> Result<(), E>,
) -> Result<Rounds, E> {
    // Before the first `glFinish`, which would make an idle device look busy.
    if k > 0 {
        super::steady::rewarm(gl, || f(0))?;
    }
    gl.finish();
    rounds(plan, k, |i| once_gpu(gl, || f(i)).map(|((), ms)| ms))
}

/// Times `f` on the GPU: `glFinish` before the clock starts and before it stops, each run on
/// steady clocks ([`once_gpu`]).
pub fn measure_gpu<E>(
    gl: &Gl,
    plan: TimingPlan,
    f: impl FnMut() -> Result<(), E>,
) -> Result<Timing, E> {
    Ok(samples_gpu(gl, plan, f)?.timing())
}

/// [`measure_gpu`] keeping each run's result: the samples.
pub fn samples_gpu<S, E>(
    gl: &Gl,
    plan: TimingPlan,
    mut f: impl FnMut() -> Result<S, E>,
) -> Result<Samples<S>, E> {
    // Before the first `glFinish`, which would make an idle device look busy.
    super::steady::rewarm(gl, || f().map(drop))?;
    gl.finish();
    repeat(plan, || once_gpu(gl, &mut f))
}

/// Times `f` on the CPU alone.
pub fn measure_cpu<E>(plan: TimingPlan, f: impl FnMut() -> Result<(), E>) -> Result<Timing, E> {
    Ok(samples_cpu(plan, f)?.timing())
}

/// [`measure_cpu`] keeping each run's result: the samples.
pub fn samples_cpu<S, E>(
    plan: TimingPlan,
    mut f: impl FnMut() -> Result<S, E>,
) -> Result<Samples<S>, E> {
    repeat(plan, || once_cpu(&mut f))
}

/// One timed GPU run, as every GPU time here is taken: the device re-warmed where it idled
/// ([`super::steady::rewarm`]), then `f` between two `glFinish` calls. `f`'s result and its
/// time (ms); for the tables that time GPU runs by hand, beside CPU variants in the same
/// [`rounds`].
pub fn once_gpu<T, E>(gl: &Gl, mut f: impl FnMut() -> Result<T, E>) -> Result<(T, f64), E> {
    book_gpu(|| {
        super::steady::rewarm(gl, || f().map(drop))?;
        gl.finish();
        let t0 = Instant::now();
        let out = f()?;
        gl.finish();
        Ok((out, t0.elapsed().as_secs_f64() * 1e3))
    })
}

/// One timed CPU run: `f`'s result and its time (ms).
pub fn once_cpu<T, E>(f: impl FnOnce() -> Result<T, E>) -> Result<(T, f64), E> {
    book_cpu(|| {
        let t0 = Instant::now();
        let out = f()?;
        Ok((out, t0.elapsed().as_secs_f64() * 1e3))
    })
}

/// Accumulates `glFinish`-bracketed time over several regions (a profile of kernel types).
#[derive(Clone, Debug, Default)]
pub struct Stopwatch {
    /// Each call's time, in order (the total and the count are read from them).
    laps: Vec<Duration>,
}

impl Stopwatch {
    /// Runs `f` between two `glFinish` calls and adds its time.
    pub fn time<T>(&mut self, gl: &Gl, f: impl FnOnce() -> T) -> T {
        gl.finish();
        let t0 = Instant::now();
        let out = f();
        gl.finish();
        self.laps.push(t0.elapsed());
        out
    }

    /// The calls' times in `n` consecutive blocks of (nearly) equal call counts, each
    /// block's sum in seconds: a quantity's course over the work it timed, so that two
    /// stopwatches of one run can be paired block by block (empty with fewer than `n` calls).
    pub fn blocks(&self, n: usize) -> Vec<f64> {
        if n == 0 || self.laps.len() < n {
            return Vec::new();
        }
        let len = self.laps.len();
        (0..n)
            .map(|b| {
                self.laps[b * len / n..(b + 1) * len / n]
                    .iter()
                    .map(Duration::as_secs_f64)
                    .sum()
            })
            .collect()
    }
    pub fn total(&self) -> Duration {
        self.laps.iter().sum()
    }
    pub fn count(&self) -> u64 {
        self.laps.len() as u64
    }
}
