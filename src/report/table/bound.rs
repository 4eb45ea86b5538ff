//! What a timed GPU row attained against the device's limits ([`Attained`]) and the three
//! bound columns it fills.

use serde::{Deserialize, Serialize};

use super::Column;
#[cfg(doc)]
use super::RowBuilder;

/// What a timed GPU row did and how long it took; the runner fills `bound` from the device's
/// profile (`device.json`) when the row is added, and the bound columns with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attained {
    /// The kernel, as its point on the roofline is labelled (one point per kernel: its row
    /// with the most work).
    pub kernel: String,
    pub work: crate::work::Work,
    /// The measured time the work took (ms): the median of the timed runs.
    pub ms: f64,
    /// The 95 % interval of that median (ms), when the row kept its runs ([`RowBuilder::work_timed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_ms: Option<(f64, f64)>,
    /// The between-run term that interval includes (log units, [`crate::stats::between`]).
    #[serde(default, skip_serializing_if = "crate::stats::is_zero")]
    pub between: f64,
    /// The bound on this device, when its limits are known.
    #[serde(default)]
    pub bound: Option<crate::work::Bound>,
    /// The algorithm and input this row solves, where the paper (or a variant) solves the
    /// same with the other pipeline: rows with equal `(algorithm, input)` and different
    /// pipelines meet in the legacy-vs-compute table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus: Option<(String, String)>,
    /// A tuning candidate that was not chosen: its kernel's point on the roofline is the
    /// chosen candidate's (or another row's), not this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_chosen: bool,
}

impl Attained {
    /// `bound / measured` (1 = at the device's limit).
    pub fn fraction(&self) -> Option<f64> {
        self.bound.and_then(|b| b.fraction(self.ms))
    }

    /// The fraction with its interval, `bound / [hi, lo]`, when the time has one.
    pub fn fraction_est(&self) -> Option<crate::stats::Estimate> {
        let f = self.fraction()?;
        let b = self.bound?;
        Some(match self.interval_ms {
            Some((lo, hi)) if lo > 0.0 && hi > 0.0 => crate::stats::Estimate {
                between: self.between,
                ..crate::stats::Estimate::with_interval(
                    f,
                    b.ms / hi,
                    b.ms / lo,
                    crate::stats::LEVEL,
                )
            },
            _ => crate::stats::Estimate::exact(f),
        })
    }
}

/// The columns a timed GPU row's bound fills: the least time this device's measured limits
/// allow for the row's work (ms), which limit sets it, and the fraction of it attained.
pub const BOUND: &str = "bound";
pub const LIMITER: &str = "limiter";
pub const OF_BOUND: &str = "of bound";

/// The three bound columns, to append to a timed table's columns.
pub fn bound_columns() -> [Column; 3] {
    [
        Column::ours(BOUND).unit("ms").sci(2),
        Column::ours(LIMITER).text(),
        Column::ours(OF_BOUND).fixed(2),
    ]
}
