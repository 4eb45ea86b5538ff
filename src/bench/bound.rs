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
//! # The hierarchical term ([`Limits::bound_in`])
//! Where a kernel's **working set** is known — the distinct bytes it touches, by access kind,
//! `W_a` (at most its counted bytes `B_a`) — the bound adds what a hierarchical roofline adds:
//! those bytes must come at least once from the level of the memory hierarchy that holds the
//! whole working set `W = Σ_a W_a`, at that level's rate,
//!
//! ```text
//! memory term = max_a max( B_a / BW_a,  W_a / BW_a(W) )
//! ```
//!
//! with `BW_a(W)` read from the sweep at the working set's size ([`Limits::rate_at`]: the
//! fastest rate at the sizes from the largest swept size at or below `W` up; the whole
//! curve's where `W` lies below the sweep's smallest size). The first term is the one
//! above (every counted access at the fastest level); the second only ever raises the
//! bound, and only for a working set past a cache (a set that lives in a cache moves its
//! `W_a ≤ B_a` bytes at the cache's rate, which the first term already covers). So a
//! cache-resident kernel is bounded by the cache's rate and a streaming one by the memory's,
//! and neither bound can exceed what the kernel could reach. The papers' [`Work`] counts do
//! not yet carry a working set; [`Limits::bound`] is this bound without the second term.
//!
//! What counts as a kernel's work, and its counting rule, is [`crate::work`]'s.
//!
//! The term that gives the maximum names the limiter. A limit the profile lacks (a check
//! failed, or the device has no fp64) drops its term. [`Bound::fraction`] is
//! `t_bound / t_measured`: 1 means the kernel runs at the device's limit; above
//! [`OVER_BOUND`](crate::work::OVER_BOUND) the bench or the work model is wrong.

use super::error::BenchError;
use super::limits::Limits;
use super::profile::DeviceProfile;
use crate::work::{Access, Bound, Bytes, CLOSE, Kind, Limiter, Work};

impl Limits {
    /// The bound of `work` (see the module docs); an error for a negative or non-finite count.
    pub fn bound(&self, work: &Work) -> Result<Bound, BenchError> {
        self.bound_with(work, None)
    }

    /// The bound of `work` whose working set (distinct bytes by access kind) is
    /// `working_set`: the hierarchical term of the module docs added. An error where a kind's
    /// working set exceeds its counted bytes (the set is part of what is moved).
    pub fn bound_in(&self, work: &Work, working_set: &Bytes) -> Result<Bound, BenchError> {
        for a in Access::ALL {
            let (w, b) = (working_set.get(a), work.bytes.get(a));
            if !w.is_finite() || w < 0.0 || w > b {
                return Err(BenchError::Work(format!(
                    "{}: working set {w} must be finite, ≥ 0 and ≤ the {b} bytes moved",
                    a.name()
                )));
            }
        }
        self.bound_with(work, Some(working_set))
    }

    /// The rate of access kind `a` for a working set of `bytes` (GB/s): the fastest rate of
    /// its curve at the sizes from the largest swept size at or below `bytes` up (a set
    /// between two swept sizes may still be in the smaller one's level); the whole curve's
    /// below its smallest size; the kind's peak where it has no curve (module docs).
    pub fn rate_at(&self, a: Access, bytes: f64) -> Option<f64> {
        let roof = self.roof(a)?;
        let c = &roof.curve;
        if c.is_empty() {
            return roof.peak_gbs;
        }
        let from = c.iter().rposition(|p| p.bytes <= bytes).unwrap_or(0);
        c[from..].iter().filter_map(|p| p.gbs).reduce(f64::max)
    }

    fn bound_with(&self, work: &Work, working_set: Option<&Bytes>) -> Result<Bound, BenchError> {
        check_counts(work)?;
        let b = &work.bytes;
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
        // The largest of the per-kind memory terms that are known: every counted byte at
        // the fastest level, and the working set's at its own level (module docs).
        let level = working_set.map(Bytes::total);
        let memory = Access::ALL
            .iter()
            .flat_map(|&a| {
                let set = working_set.zip(level).map_or(Some(0.0), |(w, level)| {
                    term(w.get(a), self.rate_at(a, level))
                });
                [term(b.get(a), self.peak_gbs(a)), set]
            })
            .chain([term(b.other, self.fastest_gbs(work.kind))])
            .flatten()
            .fold(None, |acc: Option<f64>, t| {
                Some(acc.map_or(t, |m| m.max(t)))
            });
        let fixed = self.fixed_ms(work);
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

    /// The fixed costs of `work`'s passes (draws) and dispatches; `None` where one it has is
    /// unknown.
    fn fixed_ms(&self, work: &Work) -> Option<f64> {
        match (work.passes, work.dispatches) {
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
        }
    }
}

/// Every count of `work` finite and ≥ 0, else the error naming the first that is not.
fn check_counts(work: &Work) -> Result<(), BenchError> {
    let b = &work.bytes;
    let mut counts: Vec<(&str, f64)> = Access::ALL.iter().map(|&a| (a.name(), b.get(a))).collect();
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
    Ok(())
}

impl DeviceProfile {
    /// The bound of `work` on this device ([`Limits::bound`]).
    pub fn bound(&self, work: &Work) -> Result<Bound, BenchError> {
        self.limits.bound(work)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::limits::AccessRoof;
    use crate::bench::sweep::SweepPoint;

    const MIB: f64 = (1 << 20) as f64;

    /// SSBO reads: 40 GB/s up to 1 MiB (a cache), 20 at 4 MiB, 10 from 16 MiB (memory).
    fn limits() -> Limits {
        let curve = [
            (MIB, 40.0),
            (4.0 * MIB, 20.0),
            (16.0 * MIB, 10.0),
            (64.0 * MIB, 10.0),
        ]
        .iter()
        .map(|&(bytes, g)| SweepPoint {
            bytes,
            gbs: Some(g),
        })
        .collect();
        Limits {
            access: vec![AccessRoof {
                access: Access::SsboRead,
                memory_gbs: Some(10.0),
                peak_gbs: Some(40.0),
                cache_only: false,
                curve,
            }],
            ..Limits::default()
        }
    }

    #[test]
    fn the_rate_is_read_at_the_working_set_size() {
        let l = limits();
        let r = |b: f64| l.rate_at(Access::SsboRead, b);
        assert_eq!(
            r(0.25 * MIB),
            Some(40.0),
            "below the sweep: the whole curve's best"
        );
        assert_eq!(r(MIB), Some(40.0));
        assert_eq!(
            r(2.0 * MIB),
            Some(40.0),
            "between 1 and 4 MiB: maybe still at 1 MiB's"
        );
        assert_eq!(r(4.0 * MIB), Some(20.0));
        assert_eq!(
            r(100.0 * MIB),
            Some(10.0),
            "past the sweep: its last size's"
        );
        assert_eq!(l.rate_at(Access::TexRgba, MIB), None, "a kind not measured");
    }

    #[test]
    fn a_streaming_working_set_is_bounded_by_memory_and_a_cached_one_by_the_cache() {
        let l = limits();
        // 160 MB counted (each byte read twice), 80 MB distinct: 80e6 / 10 GB/s = 8 ms
        // beats 160e6 / 40 GB/s = 4 ms.
        let work = Work {
            bytes: Bytes::of(&[(Access::SsboRead, 160e6)]),
            kind: Kind::Compute,
            ..Work::default()
        };
        let streaming = Bytes::of(&[(Access::SsboRead, 80e6)]);
        let b = l.bound_in(&work, &streaming).unwrap();
        assert!((b.ms - 8.0).abs() < 1e-9, "{}", b.ms);
        assert!((l.bound(&work).unwrap().ms - 4.0).abs() < 1e-9);
        // 0.5 MB distinct, re-read 320 times: the cache's rate, as without the set.
        let cached = Bytes::of(&[(Access::SsboRead, 0.5e6)]);
        let b = l.bound_in(&work, &cached).unwrap();
        assert!((b.ms - 4.0).abs() < 1e-9, "{}", b.ms);
        // A working set larger than the bytes moved is an error.
        let too_big = Bytes::of(&[(Access::SsboRead, 200e6)]);
        assert!(l.bound_in(&work, &too_big).is_err());
    }
}
