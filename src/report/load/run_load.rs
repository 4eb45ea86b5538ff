//! What a run saw of the machine ([`RunLoad`]): the gate's last sample, the wait, the load
//! over the run.

use serde::{Deserialize, Serialize};

use super::gate::Gate;
use super::sample::LoadSample;

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
