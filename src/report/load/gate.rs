//! The gate before a run: the samplers (`/proc`, or fixed samples in tests), the policy
//! that says how long to wait and whether to refuse, and [`gate`] itself.

use std::collections::VecDeque;
use std::time::Duration;

use super::sample::{DEFAULT_WAIT_S, LoadSample, Snapshot, THRESHOLD};
use crate::mode::Mode;

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
    /// The default for a run in `mode`: `/proc`, threshold ¼ of the cores; a full run
    /// samples 2 s at a time and waits up to [`DEFAULT_WAIT_S`], a quick run samples a
    /// quarter second once.
    pub fn for_run(mode: Mode) -> QuietPolicy {
        let full = mode == Mode::Full;
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
