//! One sample of the machine's load: `/proc/stat` and `/proc/loadavg` read and compared over
//! a span ([`Snapshot`], [`LoadSample`]) against the noise threshold ([`THRESHOLD`]).

use std::time::Instant;

use serde::{Deserialize, Serialize};

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
