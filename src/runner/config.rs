//! Pieces of experiment files shared by the papers.
//!
//! Each `experiments/<paper>.toml` is parsed by its paper into the paper's own typed struct
//! (`serde`), with these pieces for the common parts. A field with the wrong type or a
//! missing one is reported with the file, the line and the problem (see
//! [`super::Session::config`]).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::Mode;
use crate::gl::TimingPlan;

/// Sizes for a full and for a quick run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sizes {
    pub full: Vec<u32>,
    pub quick: Vec<u32>,
}

impl Sizes {
    pub fn pick(&self, mode: Mode) -> &[u32] {
        match mode {
            Mode::Quick => &self.quick,
            Mode::Full => &self.full,
        }
    }
}

/// Repetitions of a timed measurement.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Repeat {
    /// The paper's repetition count (at most this many timed runs).
    pub repetitions: usize,
    /// Untimed warm-up runs.
    #[serde(default = "one")]
    pub warmup: usize,
    /// Per-row time budget in seconds: repetitions stop once it is spent (at least one run).
    pub budget_s: f64,
}

fn one() -> usize {
    1
}

impl Repeat {
    pub fn plan(&self) -> TimingPlan {
        TimingPlan::new(
            self.warmup,
            self.repetitions,
            Duration::from_secs_f64(self.budget_s),
        )
    }
}
