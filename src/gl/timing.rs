//! Timing as the papers did it: `glFinish()` on both sides of the measured region and a
//! monotonic CPU clock; warm-up runs, then repetitions until a count or a time budget is
//! reached (at least one); median, mean, min and max. GL timer queries are not used: on
//! llvmpipe `GL_TIME_ELAPSED` returns far less than a pass really takes.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::Gl;

/// How many runs to make.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimingPlan {
    /// Untimed runs first (shader compilation, driver caches, page faults).
    pub warmup: usize,
    /// The most timed runs (the paper's count).
    pub repetitions: usize,
    /// Stop repeating once this much time went into timed runs (at least one run is made).
    pub budget: Duration,
}

impl TimingPlan {
    pub fn new(warmup: usize, repetitions: usize, budget: Duration) -> Self {
        TimingPlan {
            warmup,
            repetitions: repetitions.max(1),
            budget,
        }
    }
    /// A single timed run, no warm-up.
    pub fn once() -> Self {
        TimingPlan {
            warmup: 0,
            repetitions: 1,
            budget: Duration::ZERO,
        }
    }
}

/// The statistics of a set of timed runs, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub runs: usize,
    pub median_ms: f64,
    pub mean_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
}

impl Timing {
    /// Statistics of `samples` (milliseconds); empty gives all zeros.
    pub fn from_samples(samples: &[f64]) -> Timing {
        if samples.is_empty() {
            return Timing::default();
        }
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let median = if n % 2 == 1 {
            s[n / 2]
        } else {
            0.5 * (s[n / 2 - 1] + s[n / 2])
        };
        Timing {
            runs: n,
            median_ms: median,
            mean_ms: s.iter().sum::<f64>() / n as f64,
            min_ms: s[0],
            max_ms: s[n - 1],
        }
    }
}

/// Times `f` on the GPU: `glFinish` before the clock starts and before it stops.
pub fn measure_gpu<E>(
    gl: &Gl,
    plan: TimingPlan,
    mut f: impl FnMut() -> Result<(), E>,
) -> Result<Timing, E> {
    measure(plan, || gl.finish(), &mut f)
}

/// Times `f` on the CPU alone.
pub fn measure_cpu<E>(plan: TimingPlan, mut f: impl FnMut() -> Result<(), E>) -> Result<Timing, E> {
    measure(plan, || {}, &mut f)
}

fn measure<E>(
    plan: TimingPlan,
    sync: impl Fn(),
    f: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Timing, E> {
    for _ in 0..plan.warmup {
        f()?;
    }
    sync();
    let mut samples = Vec::with_capacity(plan.repetitions);
    let mut spent = Duration::ZERO;
    while samples.len() < plan.repetitions.max(1) && (samples.is_empty() || spent < plan.budget) {
        sync();
        let t0 = Instant::now();
        f()?;
        sync();
        let dt = t0.elapsed();
        spent += dt;
        samples.push(dt.as_secs_f64() * 1e3);
    }
    Ok(Timing::from_samples(&samples))
}

/// Accumulates `glFinish`-bracketed time over several regions (a profile of kernel types).
#[derive(Clone, Debug, Default)]
pub struct Stopwatch {
    total: Duration,
    count: u64,
}

impl Stopwatch {
    /// Runs `f` between two `glFinish` calls and adds its time.
    pub fn time<T>(&mut self, gl: &Gl, f: impl FnOnce() -> T) -> T {
        gl.finish();
        let t0 = Instant::now();
        let out = f();
        gl.finish();
        self.total += t0.elapsed();
        self.count += 1;
        out
    }
    pub fn total(&self) -> Duration {
        self.total
    }
    pub fn count(&self) -> u64 {
        self.count
    }
}
