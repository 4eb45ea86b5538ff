//! The audit of a paper's own numbers: every derived value the paper prints is recomputed
//! from its raw values with its own formula. `REPORT.md` lists every audit in a table and
//! describes every disagreement ([`Audit::describe`]) under it.

use serde::{Deserialize, Serialize};

/// One recomputed number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Audit {
    /// What was recomputed, e.g. "Table 1, N = 512: GPU GFLOPS from GPU ms".
    pub what: String,
    pub printed: f64,
    pub recomputed: f64,
    /// Relative tolerance for the paper's rounding.
    pub tolerance: f64,
}

impl Audit {
    pub fn new(what: impl Into<String>, printed: f64, recomputed: f64, tolerance: f64) -> Audit {
        Audit {
            what: what.into(),
            printed,
            recomputed,
            tolerance,
        }
    }

    /// Relative difference |printed - recomputed| / |recomputed|.
    pub fn rel_diff(&self) -> f64 {
        (self.printed - self.recomputed).abs() / self.recomputed.abs().max(f64::MIN_POSITIVE)
    }

    /// Whether the printed value agrees with the recomputed one within the tolerance.
    pub fn agrees(&self) -> bool {
        self.rel_diff() <= self.tolerance
    }

    /// The note for a disagreement.
    pub fn describe(&self) -> String {
        format!(
            "{}: the paper prints {}, its own formula gives {} ({:+.1}%).",
            self.what,
            short(self.printed),
            short(self.recomputed),
            100.0 * (self.printed - self.recomputed) / self.recomputed.abs().max(f64::MIN_POSITIVE)
        )
    }
}

/// A number as an audit prints it: four decimals (trailing zeros cut), or scientific when
/// very large or small.
pub fn short(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e7 || v.abs() < 1e-3) {
        format!("{v:.4e}")
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
