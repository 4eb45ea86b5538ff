//! The bound a device's limits put on a kernel's time.
//!
//! A kernel of the `kind` pipeline that moves `B` bytes, does `F₃₂` fp32 and `F₆₄` fp64
//! flops, in `P` fragment passes and `D` compute dispatches, cannot take less than
//!
//! ```text
//! t_bound = max( B / BW_kind,  F₃₂ / peak₃₂_kind,  F₆₄ / peak₆₄_kind,  P·t_draw + D·t_dispatch )
//! ```
//!
//! `BW_kind` is the best bandwidth measured in that pipeline ([`Limits::compute_gbs`] or
//! [`Limits::fragment_gbs`]), the peaks the FMA rates of the same pipeline. The term that
//! gives the maximum names the limiter. A limit the profile lacks (a check failed, or the
//! device has no fp64) drops its term. [`Bound::fraction`] is `t_bound / t_measured`: 1 means
//! the kernel runs at the device's limit.

use serde::{Deserialize, Serialize};

use super::{BenchError, DeviceProfile, Limits};

/// Which pipeline a kernel runs in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// Fragment shaders rendering to textures (the 2005 papers' technique).
    #[default]
    Fragment,
    /// Compute shaders over SSBOs or images.
    Compute,
}

/// What a kernel does, counted from its algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Work {
    /// Bytes read plus written.
    pub bytes: f64,
    /// fp32 flops (an FMA counts 2).
    pub flops32: f64,
    /// fp64 flops.
    pub flops64: f64,
    /// Fragment passes (draw calls, each with its framebuffer switch).
    pub passes: u64,
    /// Compute dispatches (each with its barrier).
    pub dispatches: u64,
    pub kind: Kind,
}

/// Which term of the bound is the largest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limiter {
    #[serde(rename = "bandwidth")]
    Bandwidth,
    #[serde(rename = "fp32")]
    Fp32,
    #[serde(rename = "fp64")]
    Fp64,
    #[serde(rename = "fixed cost")]
    FixedCost,
    /// The profile has none of the limits the work needs.
    #[serde(rename = "unknown")]
    Unknown,
}

impl Limiter {
    pub fn name(self) -> &'static str {
        match self {
            Limiter::Bandwidth => "bandwidth",
            Limiter::Fp32 => "fp32",
            Limiter::Fp64 => "fp64",
            Limiter::FixedCost => "fixed cost",
            Limiter::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The least time a kernel can take on the device, and what sets it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bound {
    pub ms: f64,
    pub limiter: Limiter,
}

impl Bound {
    /// `bound / measured`: the fraction of the device's limit the kernel attains (`None` for
    /// an unknown bound or a measured time that is not a positive number).
    pub fn fraction(&self, measured_ms: f64) -> Option<f64> {
        (self.limiter != Limiter::Unknown && measured_ms.is_finite() && measured_ms > 0.0)
            .then(|| self.ms / measured_ms)
    }
}

impl Limits {
    /// The bound of `work` (see the module docs); an error for a negative or non-finite count.
    pub fn bound(&self, work: &Work) -> Result<Bound, BenchError> {
        for (name, v) in [
            ("bytes", work.bytes),
            ("flops32", work.flops32),
            ("flops64", work.flops64),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(BenchError::Work(format!(
                    "{name} = {v}: counts must be finite and ≥ 0"
                )));
            }
        }
        let (bw, p32, p64) = match work.kind {
            Kind::Fragment => (
                self.fragment_gbs,
                self.fragment_fp32_gflops,
                self.fragment_fp64_gflops,
            ),
            Kind::Compute => (
                self.compute_gbs,
                self.compute_fp32_gflops,
                self.compute_fp64_gflops,
            ),
        };
        // amount / (G per s) in ms; a term with nothing to do costs nothing.
        let term = |amount: f64, rate: Option<f64>| match rate {
            _ if amount == 0.0 => Some(0.0),
            Some(r) if r > 0.0 => Some(amount / (r * 1e9) * 1e3),
            _ => None,
        };
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
            (term(work.bytes, bw), Limiter::Bandwidth),
            (term(work.flops32, p32), Limiter::Fp32),
            (term(work.flops64, p64), Limiter::Fp64),
            (fixed, Limiter::FixedCost),
        ];
        let best = terms
            .iter()
            .filter_map(|&(t, l)| t.map(|t| (t, l)))
            .filter(|&(t, _)| t > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        Ok(match best {
            Some((ms, limiter)) => Bound { ms, limiter },
            None => Bound {
                ms: 0.0,
                limiter: Limiter::Unknown,
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
