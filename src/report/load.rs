//! A quiet machine is part of the measurement: the load of the machine before and during a
//! run, read from `/proc`, and the gate that makes a full run wait for quiet or refuse.
//!
//! # What is sampled
//! Two snapshots of `/proc/stat` (the `cpu` line: jiffies spent per state, summed over the
//! CPUs; the `cpuN` lines give the number of cores `c`) and of this process's own CPU time in
//! `/proc/self/stat` (`utime + stime`, every thread of the process, llvmpipe's included),
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

use std::collections::VecDeque;
use std::time::{Duration, Instant};

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

/// Parses `/proc/<pid>/stat`: the process's `utime + stime` in jiffies (fields 14 and 15;
/// the command name in field 2 may hold spaces and parentheses, so fields are counted after
/// its last `)`).
pub fn parse_self_stat(text: &str) -> Option<u64> {
    let rest = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // After the name: field 3 (state) is f[0], so field k is f[k - 3].
    let utime: u64 = f.get(11)?.parse().ok()?;
    let stime: u64 = f.get(12)?.parse().ok()?;
    Some(utime + stime)
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

/// Takes load samples and pauses between them.
pub trait Sampler {
    /// One sample (it may take time, e.g. a sampling interval); `None` when the load cannot
    /// be read here.
    fn sample(&mut self) -> Option<LoadSample>;
    /// Waits `d` before the next sample.
    fn pause(&mut self, d: Duration);
}

/// Samples `/proc` over `interval` (sleeping through it).
pub struct ProcSampler {
    pub interval: Duration,
}

impl Sampler for ProcSampler {
    fn sample(&mut self) -> Option<LoadSample> {
        let a = Snapshot::now()?;
        std::thread::sleep(self.interval);
        Snapshot::now()?.since(&a, 0.0)
    }
    fn pause(&mut self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// Known samples, in order (the last one repeats); pauses take no time. For tests.
pub struct FixedSampler {
    samples: VecDeque<LoadSample>,
}

impl FixedSampler {
    pub fn new(samples: Vec<LoadSample>) -> FixedSampler {
        FixedSampler {
            samples: samples.into(),
        }
    }
}

impl Sampler for FixedSampler {
    fn sample(&mut self) -> Option<LoadSample> {
        if self.samples.len() > 1 {
            self.samples.pop_front()
        } else {
            self.samples.front().cloned()
        }
    }
    fn pause(&mut self, _: Duration) {}
}

/// Where a run reads the load from.
#[derive(Clone, Debug)]
pub enum LoadSource {
    /// `/proc`: the gate samples over [`QuietPolicy::interval`]; every table is sampled
    /// from its start to its end.
    Proc,
    /// These samples for the gate (tests); tables are not sampled.
    Fixed(Vec<LoadSample>),
    /// Nothing sampled, nothing recorded.
    Off,
}

/// How a run treats a busy machine.
#[derive(Clone, Debug)]
pub struct QuietPolicy {
    /// See [`THRESHOLD`].
    pub threshold: f64,
    /// Wait for quiet (full runs, `--wait-quiet`): sample, pause, sample again… while the
    /// time spent (sampling included) is under this; the first sample at or past it decides.
    pub wait: Duration,
    /// Run anyway when still noisy after `wait` (`--allow-noisy`).
    pub allow_noisy: bool,
    /// Wait and refuse (a full run); else sample once and warn (a quick run).
    pub enforce: bool,
    /// The length of one sample of the gate.
    pub interval: Duration,
    /// The pause between two samples while waiting.
    pub pause: Duration,
    pub source: LoadSource,
}

impl QuietPolicy {
    /// The default for a full (`true`) or quick run: `/proc`, threshold ¼ of the cores; a
    /// full run samples 2 s at a time and waits up to [`DEFAULT_WAIT_S`], a quick run samples
    /// a quarter second once.
    pub fn for_run(full: bool) -> QuietPolicy {
        QuietPolicy {
            threshold: THRESHOLD,
            wait: Duration::from_secs(DEFAULT_WAIT_S),
            allow_noisy: false,
            enforce: full,
            interval: if full {
                Duration::from_secs(2)
            } else {
                Duration::from_millis(250)
            },
            pause: Duration::from_secs(3),
            source: LoadSource::Proc,
        }
    }

    /// Whether tables are sampled from their start to their end (the threshold used).
    pub fn span_threshold(&self) -> Option<f64> {
        matches!(self.source, LoadSource::Proc).then_some(self.threshold)
    }

    /// Runs the gate on this policy's source ([`gate`]); `say` gets the progress lines.
    pub fn check(&self, say: &mut dyn FnMut(&str)) -> Result<Gate, NoisyError> {
        match &self.source {
            LoadSource::Proc => gate(
                self,
                &mut ProcSampler {
                    interval: self.interval,
                },
                say,
            ),
            LoadSource::Fixed(s) => gate(self, &mut FixedSampler::new(s.clone()), say),
            LoadSource::Off => Ok(Gate::default()),
        }
    }
}

/// What the gate saw before the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gate {
    /// The last sample (`None`: the load cannot be read here).
    pub before: Option<LoadSample>,
    /// Seconds spent sampling and waiting.
    pub waited_s: f64,
}

/// A full run refused on a busy machine.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "the machine is busy: {} — more than {:.0} % of the cores ({:.2}) busy with other work, \
     still after {:.0} s of waiting for quiet. A full run measured now would time the other \
     work too. Stop it and run again, wait longer (--wait-quiet SECONDS), or run anyway with \
     --allow-noisy (the report then marks the run and its tables noisy). Nothing was written.",
    .sample.describe(),
    .threshold * 100.0,
    .threshold * .sample.cores as f64,
    .waited_s
)]
pub struct NoisyError {
    pub sample: LoadSample,
    pub threshold: f64,
    pub waited_s: f64,
}

/// The gate before a run (see the module docs): samples until a quiet sample or until
/// `policy.wait` has passed (a full run), or once (a quick run).
pub fn gate(
    policy: &QuietPolicy,
    sampler: &mut dyn Sampler,
    say: &mut dyn FnMut(&str),
) -> Result<Gate, NoisyError> {
    let wait = policy.wait.as_secs_f64();
    let mut waited = 0.0;
    let mut last_said = f64::NEG_INFINITY;
    loop {
        let Some(s) = sampler.sample() else {
            say("machine load: cannot be read here (no /proc); not recorded");
            return Ok(Gate {
                before: None,
                waited_s: waited,
            });
        };
        let s = s.judged(policy.threshold);
        waited += s.seconds;
        if !s.noisy {
            return Ok(Gate {
                before: Some(s),
                waited_s: waited,
            });
        }
        if !policy.enforce || waited >= wait {
            if policy.enforce && !policy.allow_noisy {
                return Err(NoisyError {
                    sample: s,
                    threshold: policy.threshold,
                    waited_s: waited,
                });
            }
            say(&format!(
                "warning: the machine is busy ({}); {} — the report marks it noisy",
                s.describe(),
                if policy.enforce {
                    "running anyway (--allow-noisy)"
                } else {
                    "a quick run goes on"
                }
            ));
            return Ok(Gate {
                before: Some(s),
                waited_s: waited,
            });
        }
        if waited - last_said >= 15.0 || last_said < 0.0 {
            say(&format!(
                "the machine is busy ({}); waiting for quiet ({:.0} of {:.0} s; --wait-quiet, \
                 --allow-noisy)",
                s.describe(),
                waited,
                wait
            ));
            last_said = waited;
        }
        let pause = policy
            .pause
            .min(Duration::from_secs_f64((wait - waited).max(0.0)));
        sampler.pause(pause);
        waited += pause.as_secs_f64();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  145776 0 12462 700153 585 0 60 239 0 0\n\
                        cpu0 67001 0 5515 356762 153 0 13 117 0 0\n\
                        cpu1 78774 0 6946 343390 431 0 47 122 0 0\n\
                        intr 992238 0 0\nctxt 1\ncpu_extra 1\n";

    #[test]
    fn parses_proc_stat() {
        let t = parse_stat(STAT).unwrap();
        assert_eq!(t.cores, 2);
        assert_eq!(t.busy, 145776 + 12462 + 60);
        assert_eq!(t.all, 145776 + 12462 + 700153 + 585 + 60 + 239);
        assert_eq!(t.steal, 239);
        assert_eq!(parse_stat("intr 1 2\n"), None);
        assert_eq!(parse_stat("cpu 1 2\n"), None);
        // Old kernels print only four fields.
        let old = parse_stat("cpu 10 0 5 100\ncpu0 10 0 5 100\n").unwrap();
        assert_eq!((old.busy, old.all, old.steal, old.cores), (15, 115, 0, 1));
    }

    #[test]
    fn parses_own_stat_with_a_name_holding_spaces_and_parentheses() {
        let line = "12612 (my (odd) prog) R 12607 12607 8128 0 -1 4194304 98 0 0 0 \
                    70 30 0 0 20 0 1 0 430415 3133440 413";
        assert_eq!(parse_self_stat(line), Some(100));
        assert_eq!(parse_self_stat("12 (x) R 1 2"), None);
        assert_eq!(parse_self_stat("no parenthesis"), None);
    }

    #[test]
    fn parses_loadavg() {
        assert_eq!(
            parse_loadavg("2.87 1.73 1.12 6/123 12613\n"),
            Some([2.87, 1.73, 1.12])
        );
        assert_eq!(parse_loadavg("2.87 x"), None);
        assert_eq!(parse_loadavg(""), None);
    }

    fn snap(busy: u64, idle: u64, steal: u64, own: u64, at: Instant) -> Snapshot {
        Snapshot {
            cpu: CpuTimes {
                busy,
                all: busy + idle + steal,
                steal,
                cores: 2,
            },
            own,
            at,
        }
    }

    #[test]
    fn others_are_the_busy_cores_less_our_own() {
        let t = Instant::now();
        // 200 jiffies over 2 cores (1 s at 100 Hz): 150 busy, of which 100 ours, 10 stolen.
        let a = snap(1000, 5000, 0, 300, t);
        let b = snap(1150, 5040, 10, 400, t);
        let s = LoadSample::between(&a, &b, 1.0, [1.0, 0.5, 0.2]).unwrap();
        assert!((s.others - 2.0 * 50.0 / 200.0).abs() < 1e-12, "{s:?}");
        assert!((s.steal - 2.0 * 10.0 / 200.0).abs() < 1e-12, "{s:?}");
        // 0.5 + 0.1 cores busy > ¼ of 2 cores: noisy; below a threshold of ½ it is not.
        assert!(s.clone().judged(0.25).noisy);
        assert!(!s.judged(0.5).noisy);
        // Our own time alone (a whole core) is not the machine's noise.
        let quiet = LoadSample::between(&a, &snap(1100, 5100, 0, 400, t), 1.0, [0.0; 3]).unwrap();
        assert_eq!(quiet.others, 0.0);
        // No jiffy passed: no sample.
        assert_eq!(LoadSample::between(&a, &a, 0.0, [0.0; 3]), None);
    }

    fn sample(others: f64) -> LoadSample {
        LoadSample {
            seconds: 2.0,
            cores: 2,
            others,
            steal: 0.0,
            loadavg: [others, 0.0, 0.0],
            noisy: false,
        }
    }

    fn policy(full: bool, wait_s: u64, allow_noisy: bool) -> QuietPolicy {
        QuietPolicy {
            wait: Duration::from_secs(wait_s),
            allow_noisy,
            ..QuietPolicy::for_run(full)
        }
    }

    fn run_gate(p: &QuietPolicy, samples: Vec<f64>) -> (Result<Gate, NoisyError>, Vec<String>) {
        let mut said = Vec::new();
        let mut s = FixedSampler::new(samples.into_iter().map(sample).collect());
        let g = gate(p, &mut s, &mut |l| said.push(l.to_string()));
        (g, said)
    }

    #[test]
    fn a_quiet_machine_passes_at_once() {
        let (g, said) = run_gate(&policy(true, 120, false), vec![0.3, 2.0]);
        let g = g.unwrap();
        assert_eq!(g.waited_s, 2.0);
        assert!(!g.before.unwrap().noisy);
        assert!(said.is_empty(), "{said:?}");
    }

    #[test]
    fn a_full_run_waits_for_quiet() {
        // Busy, busy, then quiet: two samples of 2 s and two pauses of 3 s, then 2 s.
        let (g, said) = run_gate(&policy(true, 120, false), vec![1.5, 1.0, 0.2]);
        let g = g.unwrap();
        assert_eq!(g.waited_s, 2.0 + 3.0 + 2.0 + 3.0 + 2.0);
        assert_eq!(g.before.unwrap().others, 0.2);
        assert!(said[0].contains("waiting for quiet"), "{said:?}");
    }

    #[test]
    fn a_full_run_on_a_busy_machine_refuses_after_the_wait_unless_allowed() {
        let (g, _) = run_gate(&policy(true, 10, false), vec![1.0]);
        let e = g.unwrap_err();
        // 2 + 3 + 2 + 3 + 2 ≥ 10 s.
        assert_eq!(e.waited_s, 12.0);
        let msg = e.to_string();
        assert!(
            msg.contains("busy") && msg.contains("--allow-noisy") && msg.contains("--wait-quiet"),
            "{msg}"
        );
        let (g, said) = run_gate(&policy(true, 10, true), vec![1.0]);
        assert!(g.unwrap().before.unwrap().noisy);
        assert!(said.last().unwrap().contains("running anyway"), "{said:?}");
        // --wait-quiet 0: one sample, then the decision.
        let (g, _) = run_gate(&policy(true, 0, false), vec![1.0]);
        assert_eq!(g.unwrap_err().waited_s, 2.0);
    }

    #[test]
    fn a_quick_run_only_warns() {
        let (g, said) = run_gate(&policy(false, 120, false), vec![1.9, 0.0]);
        let g = g.unwrap();
        assert!(g.before.unwrap().noisy);
        assert_eq!(said.len(), 1);
        assert!(said[0].contains("quick run goes on"), "{said:?}");
    }

    #[test]
    fn the_threshold_is_a_share_of_the_cores() {
        // Exactly a quarter of 2 cores is not more than a quarter.
        assert!(!sample(0.5).is_noisy(0.25));
        assert!(sample(0.51).is_noisy(0.25));
        let p = QuietPolicy {
            threshold: 0.5,
            ..policy(true, 0, false)
        };
        assert!(run_gate(&p, vec![0.9]).0.is_ok());
    }

    #[test]
    fn a_run_record_names_what_was_noisy() {
        let mut r = RunLoad::from_gate(&Gate {
            before: Some(sample(1.0).judged(THRESHOLD)),
            waited_s: 0.0,
        });
        assert!(r.ran_noisy && r.noisy());
        r.noisy_parts.push("table4".into());
        let d = r.describe();
        assert!(d.starts_with("**noisy**") && d.contains("table4"), "{d}");
        let quiet = RunLoad::from_gate(&Gate {
            before: Some(sample(0.1).judged(THRESHOLD)),
            waited_s: 2.0,
        });
        assert!(!quiet.noisy() && quiet.describe().starts_with("quiet"));
    }
}
