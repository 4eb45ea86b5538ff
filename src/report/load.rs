//! A quiet machine is part of the measurement: the load of the machine before and during a
//! run, read from `/proc`, and the gate that makes a full run wait for quiet or refuse.
//!
//! # What is sampled
//! Two snapshots of `/proc/stat` (the `cpu` line: jiffies spent per state, summed over the
//! CPUs; the `cpuN` lines give the number of cores `c`) and of this process's own CPU time in
//! `/proc/self/stat` (`utime + stime`, every thread of the process, llvmpipe's included, and
//! `cutime + cstime`, its children's once it has waited for them: the bench's passes),
//! taken at the two ends of an interval, give
//! - busy jiffies `Δbusy = Δ(user + nice + system + irq + softirq)` (guest time is already in
//!   user), all jiffies `Δall = Δ(user + nice + system + idle + iowait + irq + softirq + steal)`;
//! - **other processes' busy cores** `others = c · (Δbusy − Δown) / Δall` (clamped at 0): how
//!   many cores the rest of the machine kept busy, on average, over the interval;
//! - **stolen cores** `steal = c · Δsteal / Δall` (a virtual machine's CPU time taken by the
//!   hypervisor for other guests);
//! - the load average (1, 5, 15 min) of `/proc/loadavg` at the end, for the record only (it
//!   counts this process's own threads too).
//!
//! Jiffies are the same unit (`USER_HZ`) in both files, so no clock rate is needed.
//!
//! # The rule
//! A sample is **noisy** when `others + steal > threshold · c`, the threshold a share of the
//! cores ([`THRESHOLD`] = ¼ by default): on the 2-core machine this project measures on, other
//! work using half a core or more makes a sample noisy.
//!
//! # The gate ([`gate`])
//! Before a **full** run the machine is sampled (an interval of [`QuietPolicy::interval`]);
//! while noisy the run pauses and samples again, up to [`QuietPolicy::wait`] in all; still
//! noisy then, the run refuses ([`NoisyError`]) unless [`QuietPolicy::allow_noisy`] — before
//! anything is written. A **quick** run samples once, warns when noisy and goes on. Either
//! way the run records what it saw ([`RunLoad`]): the sample before the run, the time waited,
//! the load over each paper's (or the bench's) whole span, and which tables (bench
//! measurements) were measured while the machine was noisy, each from two snapshots at its
//! start and end ([`Snapshot`]), so every table's record says what ran beside it.
//!
//! The sampler is a trait ([`Sampler`]): `/proc` in a run ([`ProcSampler`]), fixed samples in
//! tests ([`FixedSampler`]), so the rule and the gate are tested on known samples and no test
//! depends on the machine being quiet or busy.

mod gate;
pub mod run_load;
pub mod sample;
pub use gate::{
    FixedSampler, Gate, LoadSource, NoisyError, ProcSampler, QuietPolicy, Sampler, gate,
};
pub use run_load::RunLoad;
pub use sample::{
    CpuTimes, DEFAULT_WAIT_S, LoadSample, MIN_JUDGED_S, Snapshot, THRESHOLD, parse_loadavg,
    parse_self_stat, parse_stat,
};

#[cfg(test)]
mod tests;
