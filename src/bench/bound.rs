//! The bound a device's limits put on a kernel's time.
//!
//! A kernel of the `kind` pipeline that moves `B_a` bytes of each access kind `a`
//! ([`Access`]: fragment texture reads of scalar or RGBA texels, render-target writes, the
//! copy path, SSBO reads and writes, compute image reads and writes), does `F₃₂` fp32 and
//! `F₆₄` fp64 flops, in `P` fragment passes and `D` compute dispatches, cannot take less than
//!
//! ```text
//! t_bound = max( max_a B_a / BW_a,  F₃₂ / peak₃₂_kind,  F₆₄ / peak₆₄_kind,  P·t_draw + D·t_dispatch )
//! ```
//!
//! # The memory term
//! `BW_a` is the **peak** rate of access kind `a` over the bench's working-set sweep
//! ([`Limits::access`], [`super::AccessRoof::peak_gbs`]): the fastest level (a cache where the sweep
//! shows one), not the memory plateau. Two choices keep the bound a true lower bound:
//! - *the peak, not the plateau*: the work models count every access (no cache model), so a
//!   kernel that re-reads data from a cache moves counted bytes at the cache's rate; against
//!   the memory plateau it could read above 1 for no fault of its own;
//! - *the maximum over kinds, not their sum*: `Σ_a B_a / BW_a` assumes that texture reads,
//!   target writes and copies never overlap, which the hardware does not promise (a GPU's
//!   texture units and render back ends run at once; llvmpipe's threads interleave them), so
//!   the sum could overestimate. Each kind alone needs at least `B_a / BW_a`, hence the max.
//!
//! Bytes that name no kind ([`Bytes::other`](crate::work::Bytes::other), e.g. a row written before access kinds
//! existed) are read against the fastest shader peak of the kernel's pipeline
//! ([`Limits::fastest_gbs`]). The roof of a kind is the best of the bench rows that make that access
//! ([`Access::keys`]); the copy path bounds only copies, so fragment and compute fractions
//! are read against the shader paths they use.
//!
//! What counts as a kernel's work, and its counting rule, is [`crate::work`]'s.
//!
//! The term that gives the maximum names the limiter. A limit the profile lacks (a check
//! failed, or the device has no fp64) drops its term. [`Bound::fraction`] is
//! `t_bound / t_measured`: 1 means the kernel runs at the device's limit; above
//! [`OVER_BOUND`](crate::work::OVER_BOUND) the bench or the work model is wrong.

use super::{BenchError, DeviceProfile, Limits};
use crate::work::{Access, Bound, CLOSE, Kind, Limiter, Work};

impl Limits {
    /// The bound of `work` (see the module docs); an error for a negative or non-finite count.
    pub fn bound(&self, work: &Work) -> Result<Bound, BenchError> {
        let b = &work.bytes;
        let mut counts: Vec<(&str, f64)> =
            Access::ALL.iter().map(|&a| (a.name(), b.get(a))).collect();
        counts.extend([
            ("other bytes", b.other),
            ("flops32", work.flops32),
            ("flops64", work.flops64),
        ]);
        for (name, v) in counts {
            if !v.is_finite() || v < 0.0 {
                return Err(BenchError::Work(format!(
                    "{name} = {v}: counts must be finite and ≥ 0"
                )));
            }
        }
        let (p32, p64) = match work.kind {
            Kind::Fragment => (self.fragment_fp32_gflops, self.fragment_fp64_gflops),
            Kind::Compute => (self.compute_fp32_gflops, self.compute_fp64_gflops),
        };
        // amount / (G per s) in ms; a term with nothing to do costs nothing.
        let term = |amount: f64, rate: Option<f64>| match rate {
            _ if amount == 0.0 => Some(0.0),
            Some(r) if r > 0.0 => Some(amount / (r * 1e9) * 1e3),
            _ => None,
        };
        // The largest of the per-kind memory terms that are known.
        let memory = Access::ALL
            .iter()
            .map(|&a| term(b.get(a), self.peak_gbs(a)))
            .chain([term(b.other, self.fastest_gbs(work.kind))])
            .flatten()
            .fold(None, |acc: Option<f64>, t| {
                Some(acc.map_or(t, |m| m.max(t)))
            });
        let fixed = match (work.passes, work.dispatches) {
            (0, 0) => Some(0.0),
            (p, d) => {
                let draw = if p == 0 {
                    Some(0.0)
                } else {
                    self.draw_ms.map(|t| t * p as f64)
                };
                let disp = if d == 0 {
                    Some(0.0)
                } else {
                    self.dispatch_ms.map(|t| t * d as f64)
                };
                draw.zip(disp).map(|(a, b)| a + b)
            }
        };
        let terms = [
            (memory, Limiter::Bandwidth),
            (term(work.flops32, p32), Limiter::Fp32),
            (term(work.flops64, p64), Limiter::Fp64),
            (fixed, Limiter::FixedCost),
        ];
        let mut ranked: Vec<(f64, Limiter)> = terms
            .iter()
            .filter_map(|&(t, l)| t.map(|t| (t, l)))
            .filter(|&(t, _)| t > 0.0)
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        Ok(match ranked.first() {
            Some(&(ms, limiter)) => Bound {
                ms,
                limiter,
                close: ranked
                    .get(1)
                    .filter(|r| crate::stats::within(ms, r.0, CLOSE))
                    .map(|r| r.1),
                ms_met: None,
            },
            None => Bound {
                ms: 0.0,
                limiter: Limiter::Unknown,
                close: None,
                ms_met: None,
            },
        })
    }
}

impl DeviceProfile {
    /// The bound of `work` on this device ([`Limits::bound`]).
    pub fn bound(&self, work: &Work) -> Result<Bound, BenchError> {
        self.limits.bound(work)
    }
}
