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
    /// Statistics of `samples` (milliseconds); empty gives all zeros. The median is the
    /// lower median, `sorted[(n − 1) / 2]`: always one of the measured times (see [`median_index`]).
    pub fn from_samples(samples: &[f64]) -> Timing {
        if samples.is_empty() {
            return Timing::default();
        }
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        Timing {
            runs: n,
            median_ms: s[median_index(n)],
            mean_ms: s.iter().sum::<f64>() / n as f64,
            min_ms: s[0],
            max_ms: s[n - 1],
        }
    }
}

/// The project's one median definition: the index of the median in `n ≥ 1` sorted samples,
/// `(n − 1) / 2` (the lower median, a time that was measured rather than an average of two).
pub fn median_index(n: usize) -> usize {
    n.saturating_sub(1) / 2
}

/// The samples of a repeated measurement: each run's result and its time in ms.
#[derive(Clone, Debug)]
pub struct Samples<S> {
    pub runs: Vec<(S, f64)>,
}

impl<S> Samples<S> {
    /// Median, mean, min and max of the times.
    pub fn timing(&self) -> Timing {
        Timing::from_samples(&self.runs.iter().map(|r| r.1).collect::<Vec<_>>())
    }
    /// The run whose time is the median ([`median_index`]).
    pub fn median(&self) -> &S {
        let mut idx: Vec<usize> = (0..self.runs.len()).collect();
        idx.sort_by(|&a, &b| self.runs[a].1.total_cmp(&self.runs[b].1));
        &self.runs[idx[median_index(idx.len())]].0
    }
    /// The last run's result.
    pub fn last(&self) -> &S {
        &self.runs.last().expect("at least one run").0
    }
}

/// The one repetition loop behind every timed number: `plan.warmup` untimed runs, then timed
/// runs until `plan.repetitions` are made or `plan.budget` is spent (at least one). `run` does
/// one run and returns its result and its time in ms — measured by the caller, so that a run
/// can time only its own region (e.g. an LU whose upload is excluded) and report parts.
pub fn repeat<S, E>(
    plan: TimingPlan,
    mut run: impl FnMut() -> Result<(S, f64), E>,
) -> Result<Samples<S>, E> {
    for _ in 0..plan.warmup {
        run()?;
    }
    let mut runs = Vec::with_capacity(plan.repetitions);
    let mut spent_ms = 0.0;
    while runs.len() < plan.repetitions.max(1)
        && (runs.is_empty() || spent_ms < plan.budget.as_secs_f64() * 1e3)
    {
        let (out, ms) = run()?;
        spent_ms += ms;
        runs.push((out, ms));
    }
    Ok(Samples { runs })
}

/// Times `f` on the GPU: `glFinish` before the clock starts and before it stops.
pub fn measure_gpu<E>(
    gl: &Gl,
    plan: TimingPlan,
    mut f: impl FnMut() -> Result<(), E>,
) -> Result<Timing, E> {
    gl.finish();
    let samples = repeat(plan, || {
        gl.finish();
        let t0 = Instant::now();
        f()?;
        gl.finish();
        Ok(((), t0.elapsed().as_secs_f64() * 1e3))
    })?;
    Ok(samples.timing())
}

/// Times `f` on the CPU alone.
pub fn measure_cpu<E>(plan: TimingPlan, mut f: impl FnMut() -> Result<(), E>) -> Result<Timing, E> {
    let samples = repeat(plan, || {
        let t0 = Instant::now();
        f()?;
        Ok(((), t0.elapsed().as_secs_f64() * 1e3))
    })?;
    Ok(samples.timing())
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
