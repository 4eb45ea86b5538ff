//! The between-run groups: which term of [`crate::stats::between`] a bench row feeds and
//! which a timed row carries (its limiter's).

use super::measurement::{Measurement, Unit};
use crate::work::{Access, Bound, Limiter};

/// The between-run group of every memory and FMA roof (the default term: intervals with no
/// known limiter carry it).
pub const DEVICE_BOUND: &str = "device-bound";
/// The group of every memory roof.
pub const BANDWIDTH: &str = "bandwidth";
/// The group of the FMA roofs (fp32 and fp64, both pipelines).
pub const FMA: &str = "fma";
/// The group of the fixed costs (empty draw, dispatch, finish).
pub const FIXED_COST: &str = "fixed cost";
/// The group of the host transfers (uploads and read-backs).
pub const HOST_TRANSFER: &str = "host transfer";

/// The group of memory roofs of access kind `a`: `bandwidth: SSBO read`.
pub fn access_term(a: Access) -> String {
    format!("{BANDWIDTH}: {}", a.name())
}

/// The between-run group a bench row feeds, from its key: `upload.*`/`readback.*` host
/// transfers, `fixed.*` fixed costs, `fma.*` FMA, any other GB/s row a memory roof; `None`
/// for a row of none of them.
pub(crate) fn row_group(m: &Measurement) -> Option<&'static str> {
    let k = m.key.as_str();
    if k.starts_with("upload.") || k.starts_with("readback.") {
        Some(HOST_TRANSFER)
    } else if k.starts_with("fixed.") {
        Some(FIXED_COST)
    } else if k.starts_with("fma.") {
        Some(FMA)
    } else if m.unit == Unit::GBs {
        Some(BANDWIDTH)
    } else {
        None
    }
}

/// The between-run groups whose terms a timed row bounded by `bound` carries (the largest
/// applies): its limiter's, and its close runner-up's where the bound names one
/// ([`crate::stats::between`]'s model). A bandwidth limit is that of `access`, the access
/// kind whose term sets the memory part of the bound ([`super::Limits::dominant_access`]), or of
/// all memory roofs where no kind is known; an unknown limiter, the default group.
pub fn between_groups(bound: &Bound, access: Option<Access>) -> Vec<String> {
    let name = |l: Limiter| match (l, access) {
        (Limiter::Bandwidth, Some(a)) => access_term(a),
        (Limiter::Bandwidth, None) => BANDWIDTH.to_string(),
        (Limiter::Fp32 | Limiter::Fp64, _) => FMA.to_string(),
        (Limiter::FixedCost, _) => FIXED_COST.to_string(),
        (Limiter::Unknown, _) => DEVICE_BOUND.to_string(),
    };
    std::iter::once(bound.limiter)
        .chain(bound.close)
        .map(name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_carries_its_limiters_group_and_a_close_runner_ups() {
        let b = |limiter, close| Bound {
            ms: 1.0,
            limiter,
            close,
            ms_met: None,
        };
        assert_eq!(
            between_groups(&b(Limiter::Bandwidth, None), Some(Access::TexRgba)),
            vec![access_term(Access::TexRgba)]
        );
        assert_eq!(
            between_groups(&b(Limiter::Bandwidth, None), None),
            vec![BANDWIDTH]
        );
        assert_eq!(
            between_groups(&b(Limiter::Fp64, Some(Limiter::FixedCost)), None),
            vec![FMA, FIXED_COST]
        );
        assert_eq!(
            between_groups(&b(Limiter::Unknown, None), None),
            vec![DEVICE_BOUND]
        );
    }
}
