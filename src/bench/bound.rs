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
//! Bytes that name no kind ([`Bytes::other`], e.g. a row written before access kinds
//! existed) are read against the fastest shader peak of the kernel's pipeline
//! ([`Limits::fastest_gbs`]). The roof of a kind is the best of the bench rows that make that access
//! ([`Access::keys`]); the copy path bounds only copies, so fragment and compute fractions
//! are read against the shader paths they use.
//!
//! # Counting rule (every `Work` constructor in `src/papers` follows it)
//! Bytes as before — every fetch, load, store, written texel and copied byte counted once, no
//! cache model — now filed by what makes the access: a fragment shader's `texture`/`texelFetch`
//! of an R32F (one-channel) texture is [`Access::TexScalar`], of an RGBA texture
//! [`Access::TexRgba`]; a fragment's output is [`Access::Target`]; a `glCopyTexSubImage2D`
//! moves its rectangle's bytes twice (read and write), both [`Access::Copy`]; a compute shader's
//! buffer load or store is [`Access::SsboRead`] / [`Access::SsboWrite`]; its `texelFetch`
//! (textures, buffer textures) or `imageLoad` is [`Access::ImageRead`], its `imageStore`
//! [`Access::ImageWrite`]. Shared memory is not device traffic and is not counted.
//!
//! The term that gives the maximum names the limiter. A limit the profile lacks (a check
//! failed, or the device has no fp64) drops its term. [`Bound::fraction`] is
//! `t_bound / t_measured`: 1 means the kernel runs at the device's limit; above
//! [`OVER_BOUND`] the bench or the work model is wrong.

use serde::{Deserialize, Serialize};

use super::{BenchError, DeviceProfile, Limits};

/// A fraction of bound above this is a defect of a roof or of a work model (5 % for the
/// roofs' own run-to-run spread).
pub const OVER_BOUND: f64 = 1.05;

/// Which pipeline a kernel runs in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// Fragment shaders rendering to textures (the 2005 papers' technique).
    #[default]
    Fragment,
    /// Compute shaders over SSBOs or images.
    Compute,
}

/// How a kernel reaches memory; each kind has its own roof (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Fragment texture reads of one-channel (R32F) texels: scalar gathers.
    TexScalar,
    /// Fragment texture reads of RGBA texels.
    TexRgba,
    /// Fragment outputs written to a render target.
    Target,
    /// `glCopyTexSubImage2D`: the rectangle read and written.
    Copy,
    /// Compute shader-storage loads.
    SsboRead,
    /// Compute shader-storage stores.
    SsboWrite,
    /// Compute `texelFetch` / `imageLoad`.
    ImageRead,
    /// Compute `imageStore`.
    ImageWrite,
}

impl Access {
    pub const ALL: [Access; 8] = [
        Access::TexScalar,
        Access::TexRgba,
        Access::Target,
        Access::Copy,
        Access::SsboRead,
        Access::SsboWrite,
        Access::ImageRead,
        Access::ImageWrite,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Access::TexScalar => "texture scalar read",
            Access::TexRgba => "texture RGBA read",
            Access::Target => "render-target write",
            Access::Copy => "copy (glCopyTexSubImage2D)",
            Access::SsboRead => "SSBO read",
            Access::SsboWrite => "SSBO write",
            Access::ImageRead => "compute texelFetch/imageLoad",
            Access::ImageWrite => "compute imageStore",
        }
    }

    /// The pipeline the access belongs to.
    pub fn kind(self) -> Kind {
        match self {
            Access::TexScalar | Access::TexRgba | Access::Target | Access::Copy => Kind::Fragment,
            _ => Kind::Compute,
        }
    }

    /// The prefixes of the bench rows whose kernels make this access (the roof is their best).
    /// The compute texture row reads with `texelFetch` and writes with `imageStore`, so it
    /// bounds both image kinds; the SSBO copy both reads and writes.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Access::TexScalar => &["texture.r32f."],
            Access::TexRgba => &["texture.rgba32f."],
            Access::Target => &["target."],
            Access::Copy => &["copytex."],
            Access::SsboRead => &["ssbo.read.", "ssbo.copy."],
            Access::SsboWrite => &["ssbo.write.", "ssbo.copy."],
            Access::ImageRead | Access::ImageWrite => &["compute.texture."],
        }
    }
}

/// Bytes of one kernel by access kind (see the counting rule in the module docs). Serialized
/// as its non-zero kinds; a bare number (rows written before access kinds) is [`Bytes::other`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "BytesRepr")]
pub struct Bytes {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tex_scalar: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tex_rgba: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub target: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub copy: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ssbo_read: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ssbo_write: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub image_read: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub image_write: f64,
    /// Bytes of no known kind: bounded by the pipeline's fastest roof.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub other: f64,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

/// What a [`Bytes`] may be read from.
#[derive(Deserialize)]
#[serde(untagged)]
enum BytesRepr {
    Total(f64),
    Kinds {
        #[serde(default)]
        tex_scalar: f64,
        #[serde(default)]
        tex_rgba: f64,
        #[serde(default)]
        target: f64,
        #[serde(default)]
        copy: f64,
        #[serde(default)]
        ssbo_read: f64,
        #[serde(default)]
        ssbo_write: f64,
        #[serde(default)]
        image_read: f64,
        #[serde(default)]
        image_write: f64,
        #[serde(default)]
        other: f64,
    },
}

impl From<BytesRepr> for Bytes {
    fn from(r: BytesRepr) -> Bytes {
        match r {
            BytesRepr::Total(other) => Bytes {
                other,
                ..Bytes::default()
            },
            BytesRepr::Kinds {
                tex_scalar,
                tex_rgba,
                target,
                copy,
                ssbo_read,
                ssbo_write,
                image_read,
                image_write,
                other,
            } => Bytes {
                tex_scalar,
                tex_rgba,
                target,
                copy,
                ssbo_read,
                ssbo_write,
                image_read,
                image_write,
                other,
            },
        }
    }
}

impl Bytes {
    /// `Bytes::of(&[(Access::TexRgba, r), (Access::Target, w)])`: the sum per kind.
    pub fn of(parts: &[(Access, f64)]) -> Bytes {
        let mut b = Bytes::default();
        for &(a, v) in parts {
            *b.slot(a) += v;
        }
        b
    }
    /// Bytes of no known kind.
    pub fn other(v: f64) -> Bytes {
        Bytes {
            other: v,
            ..Bytes::default()
        }
    }
    fn slot(&mut self, a: Access) -> &mut f64 {
        match a {
            Access::TexScalar => &mut self.tex_scalar,
            Access::TexRgba => &mut self.tex_rgba,
            Access::Target => &mut self.target,
            Access::Copy => &mut self.copy,
            Access::SsboRead => &mut self.ssbo_read,
            Access::SsboWrite => &mut self.ssbo_write,
            Access::ImageRead => &mut self.image_read,
            Access::ImageWrite => &mut self.image_write,
        }
    }
    /// The bytes of kind `a`.
    pub fn get(&self, a: Access) -> f64 {
        let mut c = *self;
        *c.slot(a)
    }
    /// Adds `v` bytes of kind `a`.
    pub fn add_kind(&mut self, a: Access, v: f64) {
        *self.slot(a) += v;
    }
    /// Every byte, read plus written, of every kind.
    pub fn total(&self) -> f64 {
        Access::ALL.iter().map(|&a| self.get(a)).sum::<f64>() + self.other
    }
    /// Every count scaled by `k`.
    pub fn scale(&self, k: f64) -> Bytes {
        let mut b = Bytes::other(self.other * k);
        for a in Access::ALL {
            b.add_kind(a, self.get(a) * k);
        }
        b
    }
}

impl std::ops::Add for Bytes {
    type Output = Bytes;
    fn add(self, o: Bytes) -> Bytes {
        let mut b = Bytes::other(self.other + o.other);
        for a in Access::ALL {
            b.add_kind(a, self.get(a) + o.get(a));
        }
        b
    }
}

impl std::ops::AddAssign for Bytes {
    fn add_assign(&mut self, o: Bytes) {
        *self = *self + o;
    }
}

impl std::ops::Sub for Bytes {
    type Output = Bytes;
    fn sub(self, o: Bytes) -> Bytes {
        self + o.scale(-1.0)
    }
}

/// What a kernel does, counted from its algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Work {
    /// Bytes read plus written, by access kind.
    pub bytes: Bytes,
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
    /// The runner-up term when it is within [`CLOSE`] of the limiter's: the bound is then
    /// labelled with both ("bandwidth ≈ fp32"), since a roof measured a little differently
    /// would swap them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close: Option<Limiter>,
}

/// How close (relative) a second term must be to the largest to be named beside it.
pub const CLOSE: f64 = 0.2;

impl Bound {
    /// The limiter's name, with the runner-up's when it is close: `bandwidth ≈ fp32`.
    pub fn label(&self) -> String {
        match self.close {
            Some(c) => format!("{} ≈ {}", self.limiter.name(), c.name()),
            None => self.limiter.name().to_string(),
        }
    }

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
            },
            None => Bound {
                ms: 0.0,
                limiter: Limiter::Unknown,
                close: None,
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
