//! One row of `bench`: a measurement (its passes, its sweep, its check against the CPU
//! reference) and the unit of its value.

use serde::{Deserialize, Serialize};

use super::sweep::{CacheLevel, Plateau, SweepPoint};
use crate::gl::Timing;

/// The unit of a measurement's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unit {
    /// 10⁹ bytes per second.
    #[serde(rename = "GB/s")]
    GBs,
    /// 10⁹ flops per second (an FMA is 2 flops).
    #[serde(rename = "GFLOPS")]
    Gflops,
    /// Microseconds per operation.
    #[serde(rename = "µs")]
    Micros,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::GBs => "GB/s",
            Unit::Gflops => "GFLOPS",
            Unit::Micros => "µs",
        }
    }
}

/// One measured limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Stable key, e.g. `ssbo.copy.f32` (see [`super::Limits`] for which keys feed which limit).
    pub key: String,
    /// What was run, in words.
    pub what: String,
    pub unit: Unit,
    /// The measured value: the best of the timed runs (the least time; BabelStream's rule), and
    /// for a swept bandwidth the plateau at the large sizes (the memory roof); `None` when the
    /// check failed or the device lacks the feature.
    pub value: Option<f64>,
    /// A swept bandwidth's best rate at any size (the fastest cache level), GB/s.
    #[serde(default)]
    pub peak: Option<f64>,
    /// A swept bandwidth's plateau ([`super::sweep::plateau`]).
    #[serde(default)]
    pub plateau: Option<Plateau>,
    /// Cache levels the sweep shows above the plateau, smallest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cache: Vec<CacheLevel>,
    /// Every size of the sweep (empty: not swept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sweep: Vec<SweepPoint>,
    /// Bytes, flops or operations of one timed run (all its kernel calls; the largest size's
    /// for a sweep).
    pub amount: f64,
    /// Kernel calls per timed run.
    pub reps: u32,
    /// The timed runs (ms).
    pub timing: Timing,
    /// Max relative error of the read-back result against the CPU reference (`None`:
    /// nothing to read back, e.g. a bare `glFinish`).
    pub error: Option<f64>,
    pub tolerance: f64,
    /// Why there is no value, or a remark.
    pub note: String,
    /// Each pass's value when the bench ran in passes ([`super::passes`]); `value` is their
    /// best (a swept row's: the plateau of the passes' best curve).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passes: Vec<f64>,
    /// A fixed cost's value in the pass made with the process on one CPU (the floor,
    /// [`super::fixed`]), apart from `passes`: it is another configuration, not another
    /// spell, so the between-run terms ([`super::DeviceProfile::between_terms`]) do not pair it.
    /// `value` is the better of it and the passes' best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_cpu: Option<f64>,
    /// The sizes of a sweep's planned ladder that it did not measure (bytes; for an FMA row,
    /// the invocation counts): its time share was spent ([`super::budget`]), or an
    /// allocation failed. Empty: the whole ladder was measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreached: Vec<f64>,
    /// Where a sweep's planned ladder ends (bytes; [`super::Settings::ladder_end`]): past
    /// the device's last cache. `None`: not swept, or an older profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep_end: Option<f64>,
}

impl Measurement {
    /// A verified (or failed) measurement: `amount` units per timed run of `timing`.
    pub(crate) fn new(
        key: &str,
        what: String,
        unit: Unit,
        amount: f64,
        reps: u32,
        timing: Timing,
        check: Option<(f64, f64)>,
    ) -> Measurement {
        let (error, tolerance) = match check {
            Some((e, tol)) => (Some(e), tol),
            None => (None, 0.0),
        };
        let ok = error.is_none_or(|e| e <= tolerance);
        // Best of the runs: a roof is what the device can reach, and the least time is the
        // estimate of it that other processes can only lengthen.
        let value = match unit {
            Unit::Micros => timing.min_ms * 1e3 / amount,
            Unit::GBs | Unit::Gflops => amount / (timing.min_ms * 1e-3) / 1e9,
        };
        Measurement {
            what,
            value: (ok && value.is_finite() && value > 0.0).then_some(value),
            amount,
            reps,
            timing,
            error,
            tolerance,
            note: if ok {
                String::new()
            } else {
                format!(
                    "check failed: error {:.1e} > {tolerance:.0e}",
                    error.unwrap_or(0.0)
                )
            },
            ..Measurement::bare(key, unit)
        }
    }

    /// Whether a swept row's plateau is the memory's: its sweep reached its planned end
    /// (past the device's last cache). A sweep that stopped short (its time share spent)
    /// may have read its plateau in a cache; so may an older profile's, which has no planned
    /// end recorded and counts as having left. A row that was not swept counts as having left.
    pub fn left_caches(&self) -> bool {
        match (self.sweep.last(), self.sweep_end) {
            (Some(last), Some(end)) => last.bytes >= end,
            _ => true,
        }
    }

    /// A measurement that could not be made, with the reason.
    pub(crate) fn failed(key: &str, why: &str) -> Measurement {
        Measurement {
            note: why.to_string(),
            ..Measurement::bare(key, Unit::GBs)
        }
    }

    /// The row `key` in `unit` with nothing measured: no value, no sweep, no check.
    fn bare(key: &str, unit: Unit) -> Measurement {
        Measurement {
            key: key.to_string(),
            what: String::new(),
            unit,
            value: None,
            peak: None,
            plateau: None,
            cache: vec![],
            sweep: vec![],
            passes: vec![],
            one_cpu: None,
            unreached: vec![],
            sweep_end: None,
            amount: 0.0,
            reps: 0,
            timing: Timing::default(),
            error: None,
            tolerance: 0.0,
            note: String::new(),
        }
    }
}
