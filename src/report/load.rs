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

use std::time::Instant;

use serde::{Deserialize, Serialize};

mod gate;
pub use gate::{
    FixedSampler, Gate, LoadSource, NoisyError, ProcSampler, QuietPolicy, Sampler, gate,
};

/// Share of the cores that other processes (and steal) may keep busy before a sample counts
/// as noisy.
pub const THRESHOLD: f64 = 0.25;

/// Seconds a full run waits for quiet by default (`--wait-quiet`).
pub const DEFAULT_WAIT_S: u64 = 120;

/// The CPU counters of `/proc/stat`'s `cpu` line, in jiffies, and the number of cores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTimes {
    /// user + nice + system + irq + softirq.
    pub busy: u64,
    /// Every state of the first eight fields: busy + idle + iowait + steal.
    pub all: u64,
    pub steal: u64,
    /// `cpuN` lines.
    pub cores: usize,
}

/// Parses `/proc/stat`; `None` when it has no well-formed `cpu` line.
pub fn parse_stat(text: &str) -> Option<CpuTimes> {
    let mut times = None;
    let mut cores = 0;
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("cpu") => {
                let v: Vec<u64> = fields.map_while(|f| f.parse().ok()).collect();
                if v.len() < 4 {
                    return None;
                }
                let at = |i: usize| v.get(i).copied().unwrap_or(0);
                let (user, nice, system, idle) = (at(0), at(1), at(2), at(3));
                let (iowait, irq, softirq, steal) = (at(4), at(5), at(6), at(7));
                let busy = user + nice + system + irq + softirq;
                times = Some(CpuTimes {
                    busy,
                    all: busy + idle + iowait + steal,
                    steal,
                    cores: 0,
                });
            }
            Some(name) if name.starts_with("cpu") && name[3..].parse::<u32>().is_ok() => cores += 1,
            _ => {}
        }
    }
    times.map(|t| CpuTimes {
        cores: cores.max(1),
        ..t
    })
}

/// Parses `/proc/<pid>/stat`: the CPU time of the process and of its children it has waited
/// for, `utime + stime + cutime + cstime` in jiffies (fields 14 to 17; the command name in
/// field 2 may hold spaces and parentheses, so fields are counted after its last `)`). The
/// children count as this process: a bench runs its passes in child processes
/// ([`crate::bench::passes_in_processes`]), which must not read as other processes' load
/// (they did: "other processes 1.34 of 2 cores" over a quiet bench, issue 23).
pub fn parse_self_stat(text: &str) -> Option<u64> {
    let rest = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // After the name: field 3 (state) is f[0], so field k is f[k - 3].
    let field = |k: usize| -> Option<u64> { f.get(k - 3)?.parse().ok() };
    Some(field(14)? + field(15)? + field(16)? + field(17)?)
}

/// Parses `/proc/loadavg`: the 1, 5 and 15 minute load averages.
pub fn parse_loadavg(text: &str) -> Option<[f64; 3]> {
    let v: Vec<f64> = text
        .split_whitespace()
        .take(3)
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

/// The machine's counters at one moment.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot {
    pub cpu: CpuTimes,
    /// This process's CPU time (jiffies).
    pub own: u64,
    pub at: Instant,
}

/// The shortest span [`Snapshot::since`] judges (s).
pub const MIN_JUDGED_S: f64 = 1.0;

impl Snapshot {
    /// The counters now; `None` where `/proc` cannot be read (not Linux).
    pub fn now() -> Option<Snapshot> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        Some(Snapshot {
            cpu: parse_stat(&stat)?,
            own: parse_self_stat(&own)?,
            at: Instant::now(),
        })
    }

    /// The load between `earlier` and `self` ([`LoadSample::between`]), with the load average
    /// now. A span shorter than [`MIN_JUDGED_S`] is recorded but never judged noisy: at 100
    /// jiffies a second its few ticks, and our own threads' time booked a tick late, read as
    /// other processes' (derived tables that take milliseconds were flagged noisy on a quiet
    /// machine).
    pub fn since(&self, earlier: &Snapshot, threshold: f64) -> Option<LoadSample> {
        let loadavg = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|t| parse_loadavg(&t))
            .unwrap_or_default();
        let seconds = (self.at - earlier.at).as_secs_f64();
        LoadSample::between(earlier, self, seconds, loadavg).map(|s| {
            if seconds < MIN_JUDGED_S {
                s
            } else {
                s.judged(threshold)
            }
        })
    }
}

/// The load over one interval (see the module docs for the formulas).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadSample {
    /// Length of the interval (s).
    pub seconds: f64,
    pub cores: usize,
    /// Cores other processes kept busy, on average.
    pub others: f64,
    /// Cores stolen by the hypervisor, on average.
    pub steal: f64,
    /// The load average (1, 5, 15 min) at the interval's end.
    pub loadavg: [f64; 3],
    /// `others + steal > threshold · cores` by the threshold of the run that took it.
    pub noisy: bool,
}

impl LoadSample {
    /// The load between two snapshots `seconds` apart; `None` when no jiffy passed.
    pub fn between(
        a: &Snapshot,
        b: &Snapshot,
        seconds: f64,
        loadavg: [f64; 3],
    ) -> Option<LoadSample> {
        let all = b.cpu.all.checked_sub(a.cpu.all).filter(|&d| d > 0)? as f64;
        let busy = b.cpu.busy.saturating_sub(a.cpu.busy) as f64;
        let own = b.own.saturating_sub(a.own) as f64;
        let steal = b.cpu.steal.saturating_sub(a.cpu.steal) as f64;
        let c = b.cpu.cores as f64;
        Some(LoadSample {
            seconds,
            cores: b.cpu.cores,
            others: (c * (busy - own) / all).max(0.0),
            steal: c * steal / all,
            loadavg,
            noisy: false,
        })
    }

    /// Cores busy with other work: other processes and steal.
    pub fn busy(&self) -> f64 {
        self.others + self.steal
    }

    /// Whether more than `threshold` of the cores were busy with other work.
    pub fn is_noisy(&self, threshold: f64) -> bool {
        self.busy() > threshold * self.cores as f64
    }

    /// The sample with its `noisy` flag set by `threshold`.
    pub fn judged(mut self, threshold: f64) -> LoadSample {
        self.noisy = self.is_noisy(threshold);
        self
    }

    /// "other processes 0.62 of 2 cores, steal 0.00, load average 1.45 1.20 0.90 (over 2.0 s)".
    pub fn describe(&self) -> String {
        format!(
            "other processes {:.2} of {} cores, steal {:.2}, load average {:.2} {:.2} {:.2} \
             (over {:.1} s)",
            self.others,
            self.cores,
            self.steal,
            self.loadavg[0],
            self.loadavg[1],
            self.loadavg[2],
            self.seconds
        )
    }
}

/// What a run saw of the machine: recorded in each paper's provenance and in `device.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunLoad {
    /// The last sample of the gate before the run (`None`: not measured).
    #[serde(default)]
    pub before: Option<LoadSample>,
    /// Seconds the run waited for quiet before it started.
    #[serde(default)]
    pub waited_s: f64,
    /// Over the paper's (or the bench's) whole span.
    #[serde(default)]
    pub during: Option<LoadSample>,
    /// The machine was noisy before the run and it ran anyway (quick mode, `--allow-noisy`).
    #[serde(default)]
    pub ran_noisy: bool,
    /// The tables (bench measurements) measured while the machine was noisy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub noisy_parts: Vec<String>,
}

impl RunLoad {
    /// The record of a gate's outcome, before anything ran.
    pub fn from_gate(g: &Gate) -> RunLoad {
        RunLoad {
            before: g.before.clone(),
            waited_s: g.waited_s,
            during: None,
            ran_noisy: g.before.as_ref().is_some_and(|s| s.noisy),
            noisy_parts: vec![],
        }
    }

    /// Whether any part of the run was measured on a noisy machine.
    pub fn noisy(&self) -> bool {
        self.before.as_ref().is_some_and(|s| s.noisy)
            || self.during.as_ref().is_some_and(|s| s.noisy)
            || !self.noisy_parts.is_empty()
    }

    /// The noisy parts in short: all of them up to `n`, else the first `n` and how many more.
    pub fn noisy_parts_short(&self, n: usize) -> String {
        let k = self.noisy_parts.len();
        if k <= n {
            self.noisy_parts.join(", ")
        } else {
            format!("{} and {} more", self.noisy_parts[..n].join(", "), k - n)
        }
    }

    /// One line for a report: quiet or **noisy**, and what was measured.
    pub fn describe(&self) -> String {
        let mut s = String::from(if self.noisy() { "**noisy**" } else { "quiet" });
        let mut parts = Vec::new();
        if let Some(b) = &self.before {
            parts.push(format!("before the run: {}", b.describe()));
        }
        // The gate's own sampling is not waiting.
        let sampled = self.before.as_ref().map_or(0.0, |b| b.seconds);
        if self.waited_s > sampled + 0.5 {
            parts.push(format!("waited {:.0} s for quiet", self.waited_s));
        }
        if self.ran_noisy {
            parts.push("ran although noisy (quick mode or --allow-noisy)".into());
        }
        if let Some(d) = &self.during {
            parts.push(format!("during it: {}", d.describe()));
        }
        if !self.noisy_parts.is_empty() {
            parts.push(format!(
                "measured while noisy: {}",
                self.noisy_parts.join(", ")
            ));
        }
        if parts.is_empty() {
            parts.push("load not measured".into());
        }
        s.push_str(&format!(" ({})", parts.join("; ")));
        s
    }
}

#[cfg(test)]
mod tests;
