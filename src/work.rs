//! The work model: what a kernel does, counted from its algorithm ([`Work`]: bytes by access
//! kind, flops, passes, dispatches), and the bound a device's limits put on its time
//! ([`Bound`], what limits it: [`Limiter`]).
//!
//! These are plain data, below everything that uses them: the papers count their kernels'
//! [`Work`], the bench (`crate::bench::bound`) turns a work into a [`Bound`] from the
//! device's measured limits, and the report's tables carry both. Keeping them here, not in
//! the bench, is what lets the report use them without importing the bench (which draws
//! with the report).
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

use serde::{Deserialize, Serialize};

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
    /// The compute rectangle-texture row reads with `texelFetch` and writes with `imageStore`,
    /// so it bounds both image kinds; the buffer-texture row only reads (its sums go to an
    /// SSBO), so it bounds reads only; the SSBO copy both reads and writes.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Access::TexScalar => &["texture.r32f."],
            Access::TexRgba => &["texture.rgba32f."],
            Access::Target => &["target."],
            Access::Copy => &["copytex."],
            Access::SsboRead => &["ssbo.read.", "ssbo.copy."],
            Access::SsboWrite => &["ssbo.write.", "ssbo.copy."],
            Access::ImageRead => &["compute.texture."],
            Access::ImageWrite => &["compute.texture.rgba32f.rect."],
        }
    }
}

/// Bytes of one kernel by access kind (see the counting rule in the module docs). Serialized
/// as its non-zero kinds; a bare number (rows written before access kinds) is [`Bytes::other`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
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

/// What a [`Bytes`] may be read from: a bare number, or the kinds as [`Bytes`] writes them
/// (its derived field-by-field form, `#[serde(remote = "Self")]`).
#[derive(Deserialize)]
#[serde(untagged)]
enum BytesRepr {
    Total(f64),
    Kinds(#[serde(with = "Bytes")] Bytes),
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match BytesRepr::deserialize(d)? {
            BytesRepr::Total(other) => Bytes {
                other,
                ..Bytes::default()
            },
            BytesRepr::Kinds(b) => b,
        })
    }
}

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Bytes::serialize(self, s)
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
    /// Where a fixed cost is known only as a range (llvmpipe's draws and dispatches have
    /// modes: [`crate::bench::fixed`]): the bound with the fixed costs the row's own table met
    /// when it started (its first probe), when that is above `ms`, the bound with the least
    /// costs seen. A row's `of bound` interval reaches up to the fraction of this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms_met: Option<f64>,
}

/// How close (relative) a second term must be to the largest to be named beside it.
pub const CLOSE: f64 = 0.2;

/// What joins names that tie in one cell: a limiter and its close runner-up
/// (`bandwidth ≈ fp32`), the `versus` table's tied variants (`CR (copy) ≈ CR (switch)`).
pub const TIED: &str = " ≈ ";

impl Bound {
    /// The limiter's name, with the runner-up's when it is close: `bandwidth ≈ fp32`.
    pub fn label(&self) -> String {
        match self.close {
            Some(c) => format!("{}{TIED}{}", self.limiter.name(), c.name()),
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

#[cfg(test)]
mod tests {
    use super::Bytes;

    #[test]
    fn bytes_read_a_bare_number_or_kinds_and_write_the_non_zero_kinds() {
        let bare: Bytes = serde_json::from_str("12.5").unwrap();
        let other = Bytes {
            other: 12.5,
            ..Bytes::default()
        };
        assert_eq!(bare, other);
        let kinds: Bytes = serde_json::from_str(r#"{"tex_rgba": 4, "copy": 2}"#).unwrap();
        let want = Bytes {
            tex_rgba: 4.0,
            copy: 2.0,
            ..Bytes::default()
        };
        assert_eq!(kinds, want);
        let text = serde_json::to_string(&kinds).unwrap();
        assert_eq!(text, r#"{"tex_rgba":4.0,"copy":2.0}"#);
        assert!(serde_json::from_str::<Bytes>("\"many\"").is_err());
    }
}
