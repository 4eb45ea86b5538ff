//! Pieces of experiment files shared by the papers.
//!
//! Each `experiments/<paper>.toml` is parsed by its paper into the paper's own typed struct
//! (`serde`), with these pieces for the common parts. A field with the wrong type or a
//! missing one is reported with the file, the line and the problem (see
//! [`super::Session::config`]).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::gl::TimingPlan;
use crate::mode::Mode;

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

    /// Each mode with its value, full first (for checks whose errors name `key.mode`).
    pub fn each(&self) -> impl Iterator<Item = (Mode, &T)> {
        Mode::ALL.into_iter().map(|m| (m, self.pick(m)))
    }
}

/// The one rule for a number that must be positive: finite and > 0. The error names the key
/// and the value, in one wording for every paper.
pub fn positive(key: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(format!("{key} = {v}: must be a finite number > 0"))
    }
}

/// The one rule for a lower bound: `v ≥ min`. The error names the key, the value and the
/// bound, in one wording for every paper.
pub fn at_least<T: PartialOrd + std::fmt::Display>(key: &str, v: T, min: T) -> Result<(), String> {
    if v >= min {
        Ok(())
    } else {
        Err(format!("{key} = {v}: must be ≥ {min}"))
    }
}

/// Sizes for a full and for a quick run.
pub type Sizes = PerMode<Vec<u32>>;

impl Sizes {
    /// The one rule for a list of sizes: every size of both modes is at least `min` (what
    /// `min` means is the caller's: `what` names it, e.g. "nodes per side"); the error names
    /// `key.mode` and the size.
    pub fn at_least(&self, key: &str, min: u32, what: &str) -> Result<(), String> {
        for (mode, sizes) in self.each() {
            if let Some(n) = sizes.iter().find(|&&n| n < min) {
                return Err(format!("{key}.{mode}: {n} {what}: must be ≥ {min}"));
            }
        }
        Ok(())
    }
}

/// Repetitions of a timed measurement. Checked on load: `repetitions` ≥ 1, `budget_s`
/// finite and > 0, `ci_target` in [0, 1), `max_repetitions` ≥ `repetitions` (the error names
/// the key's line). This is the one rule for every paper's repetitions and budgets: a
/// loaded `Repeat` is always in range, so papers do not check it again.
///
/// At least `repetitions` timed runs (the paper's count) are made, then more while the
/// median's 95 % interval is wider than `ci_target` (relative half-width; 0: no more) and
/// fewer than `max_repetitions` were made; all within `budget_s` (at least one run).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RepeatToml")]
pub struct Repeat {
    /// The paper's repetition count (at most this many timed runs).
    pub repetitions: usize,
    /// Untimed warm-up runs.
    #[serde(default = "one")]
    pub warmup: usize,
    /// Per-row time budget in seconds: repetitions stop once it is spent (at least one run).
    pub budget_s: f64,
    /// The relative half-width of the median's interval that ends the repetitions.
    #[serde(default = "ci_target")]
    pub ci_target: f64,
    /// The most timed runs (default: the larger of `repetitions` and 40).
    #[serde(default)]
    pub max_repetitions: Option<usize>,
}

fn ci_target() -> f64 {
    crate::gl::timing::DEFAULT_CI_TARGET
}

fn one() -> usize {
    1
}

/// [`Repeat`] as written in the file, before its ranges are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RepeatToml {
    repetitions: usize,
    #[serde(default = "one")]
    warmup: usize,
    budget_s: f64,
    #[serde(default = "ci_target")]
    ci_target: f64,
    #[serde(default)]
    max_repetitions: Option<usize>,
}

impl TryFrom<RepeatToml> for Repeat {
    type Error = String;
    fn try_from(r: RepeatToml) -> Result<Repeat, String> {
        let repeat = Repeat {
            repetitions: r.repetitions,
            warmup: r.warmup,
            budget_s: r.budget_s,
            ci_target: r.ci_target,
            max_repetitions: r.max_repetitions,
        };
        repeat.validate()?;
        Ok(repeat)
    }
}

/// The longest budget accepted: a week per row.
const MAX_BUDGET_S: f64 = 7.0 * 24.0 * 3600.0;

impl Repeat {
    /// `repetitions` ≥ 1 and `budget_s` finite, > 0 and at most a week.
    pub fn validate(&self) -> Result<(), String> {
        if self.repetitions == 0 {
            return Err("repeat: repetitions must be at least 1".into());
        }
        if !(self.budget_s.is_finite() && self.budget_s > 0.0 && self.budget_s <= MAX_BUDGET_S) {
            return Err(format!(
                "repeat: budget_s = {} must be a finite number of seconds > 0 and at most {MAX_BUDGET_S}",
                self.budget_s
            ));
        }
        if !(self.ci_target.is_finite() && (0.0..1.0).contains(&self.ci_target)) {
            return Err(format!(
                "repeat: ci_target = {} must be a relative half-width in [0, 1) (0.03: ±3 %)",
                self.ci_target
            ));
        }
        if let Some(m) = self.max_repetitions
            && m < self.repetitions
        {
            return Err(format!(
                "repeat: max_repetitions = {m} must be at least repetitions = {}",
                self.repetitions
            ));
        }
        Ok(())
    }

    /// The repetition rule in words, for a caption, with `unit` what is repeated ("run",
    /// "round") and `per` what the budget is for ("solver", "variant and row"): "1 warm-up
    /// round(s); at least 3 rounds (budget allowing), then more until every median's 95 %
    /// interval is within ±3 % of it, at most 40 rounds and 2 s per solver". Every table says
    /// its rule this way.
    pub fn rule(&self, unit: &str, per: &str) -> String {
        self.rule_with(unit, per, "budget allowing")
    }

    /// [`Repeat::rule`] for a plan whose first repetitions the budget does not cut
    /// ([`TimingPlan::floored`]: tuning).
    pub fn rule_floored(&self, unit: &str, per: &str) -> String {
        self.rule_with(unit, per, "whatever they take")
    }

    fn rule_with(&self, unit: &str, per: &str, floor: &str) -> String {
        format!(
            "{} warm-up {unit}(s); at least {} {unit}s ({floor}), then more until every \
             median's 95 % interval is within ±{} % of it, at most {} {unit}s and {} s per {per}",
            self.warmup,
            self.repetitions,
            (1000.0 * self.ci_target).round() / 10.0,
            self.max_runs(),
            self.budget_s
        )
    }

    /// The most timed runs.
    pub fn max_runs(&self) -> usize {
        self.max_repetitions
            .unwrap_or(crate::gl::timing::DEFAULT_MAX_RUNS)
            .max(self.repetitions)
    }

    /// The timing plan; a budget out of range (only possible for a `Repeat` built in code,
    /// not loaded) is clamped to (0, a week] instead of panicking.
    pub fn plan(&self) -> TimingPlan {
        let budget = if self.budget_s.is_finite() {
            self.budget_s.clamp(0.0, MAX_BUDGET_S)
        } else {
            MAX_BUDGET_S
        };
        TimingPlan::new(
            self.warmup,
            self.repetitions,
            Duration::from_secs_f64(budget),
        )
        .adaptive(self.ci_target, self.max_runs())
    }
}

#[cfg(test)]
mod tests {
    use super::Repeat;

    #[test]
    fn a_repeat_rule_says_every_number_of_the_plan_as_configured() {
        let r = Repeat {
            repetitions: 3,
            warmup: 1,
            budget_s: 2.5,
            ci_target: 0.025,
            max_repetitions: Some(8),
        };
        assert_eq!(
            r.rule("round", "solver"),
            "1 warm-up round(s); at least 3 rounds (budget allowing), then more until every \
             median's 95 % interval is within ±2.5 % of it, at most 8 rounds and 2.5 s per solver"
        );
        assert!(
            r.rule_floored("round", "candidate")
                .contains("at least 3 rounds (whatever they take)")
        );
        let r = Repeat {
            ci_target: 0.03,
            max_repetitions: None,
            ..r
        };
        assert!(r.rule("run", "row").contains("±3 % of it, at most 40 runs"));
    }
}
