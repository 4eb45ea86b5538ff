//! The process's ledger of the time spent inside timed runs: on the GPU (every
//! [`super::measure::once_gpu`] bracket with its re-warm, and runs that keep their own clock,
//! [`book_gpu`]) and on the CPU ([`super::measure::once_cpu`]). The runner reads it around
//! each table's rows, and the report's *Where the run's time went* shows what each table's
//! wall time went to: a faster GPU shortens the first part, not the second, so a run's length
//! on a fast device is read from it.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Nanoseconds spent inside [`book_gpu`] in this process (every
/// [`super::measure::once_gpu`]: re-warm, brackets and run).
static GPU_NS: AtomicU64 = AtomicU64::new(0);
/// Nanoseconds spent inside [`super::measure::once_cpu`] in this process.
static CPU_NS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// How many brackets are open on this thread: only the outermost is booked, so that a
    /// timed run nested in another is not counted twice.
    static OPEN: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f`, a timed GPU run, and books its wall time: [`super::measure::once_gpu`]'s
/// brackets, and runs whose clock is their own (an LU timing its passes, a simulation timing
/// step and view).
pub fn book_gpu<R>(f: impl FnOnce() -> R) -> R {
    booked(&GPU_NS, f)
}

/// Runs `f`, a timed CPU run ([`super::measure::once_cpu`]), and books its wall time.
pub fn book_cpu<R>(f: impl FnOnce() -> R) -> R {
    booked(&CPU_NS, f)
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
    /// Inside [`book_gpu`] (every [`super::measure::once_gpu`]): the timed GPU runs, their
    /// warm-ups and re-warms.
    pub gpu: Duration,
    /// Inside [`book_cpu`] (every [`super::measure::once_cpu`]): the timed CPU runs (the
    /// papers' CPU baselines) and their warm-ups.
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
