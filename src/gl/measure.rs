//! The clock around one timed run, as the papers timed theirs: a monotonic CPU clock between
//! two `glFinish()` calls on the GPU ([`once_gpu`]), the clock alone on the CPU
//! ([`once_cpu`]); and the repetition loops of [`super::timing`] with these brackets
//! ([`measure_gpu`], [`rounds_gpu`], [`measure_cpu`]). Every timed GPU run is made on steady
//! clocks: a hardware GPU idle for a while is first re-warmed with the run's own work
//! ([`super::steady`]).
//!
//! The process keeps a ledger of the time spent inside these brackets ([`ledger`]): what a
//! table's wall time went to, timed GPU runs (with their warm-ups and re-warms) against timed
//! CPU runs. On a GPU the first shrinks and the second does not, so a run's length on a fast
//! device is read from it.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::context::Gl;
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
    booked(&CPU_NS, || {
        let t0 = Instant::now();
        let out = f()?;
        Ok((out, t0.elapsed().as_secs_f64() * 1e3))
    })
}

/// Nanoseconds spent inside [`once_gpu`] (re-warm, brackets and run) and [`book_gpu`] in
/// this process.
static GPU_NS: AtomicU64 = AtomicU64::new(0);
/// Nanoseconds spent inside [`once_cpu`] in this process.
static CPU_NS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// How many brackets are open on this thread: only the outermost is booked, so that a
    /// timed run nested in another is not counted twice.
    static OPEN: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f`, a timed GPU run whose clock is its own (an LU timing its passes, a simulation
/// timing step and view), and books its wall time as [`once_gpu`]'s is.
pub fn book_gpu<R>(f: impl FnOnce() -> R) -> R {
    booked(&GPU_NS, f)
}

/// Runs `f` and adds its wall time to `account`, unless a bracket is already open.
fn booked<R>(account: &AtomicU64, f: impl FnOnce() -> R) -> R {
    let outer = OPEN.with(|o| {
        o.set(o.get() + 1);
        o.get() == 1
    });
    let t0 = Instant::now();
    let out = f();
    OPEN.with(|o| o.set(o.get() - 1));
    if outer {
        let ns = u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
        account.fetch_add(ns, Ordering::Relaxed);
    }
    out
}

/// The time this process has spent in timed runs so far: subtract two readings to get a
/// span's ([`Ledger::since`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ledger {
    /// Inside [`once_gpu`] and [`book_gpu`]: the timed GPU runs, their warm-ups and re-warms.
    pub gpu: Duration,
    /// Inside [`once_cpu`]: the timed CPU runs (the papers' CPU baselines) and their warm-ups.
    pub cpu: Duration,
}

impl Ledger {
    /// The time booked between `earlier` and `self`.
    pub fn since(&self, earlier: &Ledger) -> Ledger {
        Ledger {
            gpu: self.gpu.saturating_sub(earlier.gpu),
            cpu: self.cpu.saturating_sub(earlier.cpu),
        }
    }
}

/// The ledger now.
pub fn ledger() -> Ledger {
    Ledger {
        gpu: Duration::from_nanos(GPU_NS.load(Ordering::Relaxed)),
        cpu: Duration::from_nanos(CPU_NS.load(Ordering::Relaxed)),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bracket_nested_in_another_is_booked_once_and_the_next_one_again() {
        let ms = Duration::from_millis;
        let account = AtomicU64::new(0);
        booked(&account, || {
            std::thread::sleep(ms(10));
            booked(&account, || std::thread::sleep(ms(50)));
        });
        // Once: 60 ms and a little; twice would be at least 110.
        let once = Duration::from_nanos(account.load(Ordering::Relaxed));
        assert!(once >= ms(60) && once < ms(110), "{once:?}");
        booked(&account, || std::thread::sleep(ms(20)));
        let after = Duration::from_nanos(account.load(Ordering::Relaxed));
        assert!(after >= once + ms(20), "{once:?} then {after:?}");
    }

    #[test]
    fn a_span_is_the_difference_of_two_readings() {
        let a = Ledger {
            gpu: Duration::from_secs(3),
            cpu: Duration::from_secs(1),
        };
        let b = Ledger {
            gpu: Duration::from_secs(5),
            cpu: Duration::from_secs(4),
        };
        let d = b.since(&a);
        assert_eq!((d.gpu.as_secs(), d.cpu.as_secs()), (2, 3));
        assert_eq!(a.since(&b), Ledger::default());
    }
}
