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

/// A value for a full and for a quick run (`full = …`, `quick = …` in the TOML).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerMode<T> {
    pub full: T,
    pub quick: T,
}

impl<T> PerMode<T> {
    /// The value for `mode`.
    pub fn pick(&self, mode: Mode) -> &T {
        match mode {
            Mode::Quick => &self.quick,
            Mode::Full => &self.full,
        }
    }
}

/// Sizes for a full and for a quick run.
pub type Sizes = PerMode<Vec<u32>>;

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
