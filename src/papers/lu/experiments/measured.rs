//! What the tables share: one order's measurements, the test matrix and its references, the
//! verification of fragment factors.

use std::collections::HashMap;

use super::config::Config;
use crate::papers::lu::cpu::{Reference, Update, diag_dominant};
use crate::papers::lu::fragment::LuInfo;
use crate::report::RowBuilder;
use crate::runner::RunError;
use crate::stats::max_rel_error;

/// What one configuration measured at one order (for Tables 1, 2, Fig. 6, §4.3 and §5.1).
#[derive(Clone, Debug)]
pub(super) struct Measured {
    pub(super) info: LuInfo,
    /// A over table4's rounds (its samples in round order: configurations of one order pair
    /// by index).
    pub(super) a: crate::stats::Estimate,
    /// G and T over the same rounds (round order, as `a`); `info` holds their medians (its
    /// other parts are the median run's).
    pub(super) g: crate::stats::Estimate,
    pub(super) t: crate::stats::Estimate,
    pub(super) gflops: f64,
    pub(super) factors: Vec<f32>,
}

/// The order-`n` test matrix of the tables and its references.
pub(super) fn reference(cfg: &Config, n: u32) -> Result<Reference, RunError> {
    let a = diag_dominant(n as usize, cfg.table4.seed + n as u64);
    Reference::of(a, n as usize).map_err(RunError::algorithm)
}

/// Whether two factorizations hold the same bits.
pub(super) fn bit_identical(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Verifies fragment-shader factors (see the module docs): error vs `f64` within the
/// tolerance, and, on a correctly rounding device, the bits of the CPU `f32` loop.
pub(super) fn verify_fragment(
    row: RowBuilder,
    factors: &[f32],
    r: &Reference,
    exact: bool,
    form: Update,
) -> RowBuilder {
    let err = max_rel_error(factors, &r.f64);
    if exact && !bit_identical(factors, r.cpu_f32_of(form)) {
        row.fail(format!(
            "factors differ from the CPU f32 loop's bits ({form:?} update) although this device rounds + − × ÷ correctly (Table 5); error vs f64 {err:.3e}"
        ))
    } else {
        row.verify(err, r.tol)
    }
}

/// GFLOPS of `flops` done in `ms` milliseconds.
pub(super) fn gflops(flops: f64, ms: f64) -> f64 {
    flops / (ms * 1e-3) / 1e9
}

/// The compute rows' (time ms, GFLOPS with its interval) by row key.
pub(super) type ComputeTimes = HashMap<String, (f64, crate::stats::Estimate)>;
