//! Bandwidths of the legacy pipeline: texture fetches in a fragment pass, render-target
//! writes, and `glCopyTexSubImage2D` (the copy method's transfer, Kim & Lee 2005 §3.3).
//!
//! Bytes per kernel over a `w × w` target with texels of `e` bytes:
//! - fetch (`texture_fetch.frag`, `FETCHES` = 8 per fragment): `8·w²·e` read + `w²·e`
//!   written (the sums, into a target of the texture's format);
//! - render-target write (`fill.frag`): `w²·e` written;
//! - `glCopyTexSubImage2D`: `w²·e` read + `w²·e` written;
//! - compute fetch (`texture_fetch.comp`, RGBA32F rectangle, consecutive): as the fragment
//!   fetch, the sums stored with `imageStore`.
//!
//! Each kernel is swept over its texture's size ([`super::sweep`]): a row's value is the
//! plateau at the large sizes, its `peak` the best size.
//!
//! Consecutive fetches read texels `x, x+1, …, x+7` of the fragment's row (the papers' passes);
//! strided fetches read rows `y, y + w/8, …`, each fetch in a different part of the texture.

use super::kernel::{Step, time_kernel};
use super::ladder::sweep;
use super::measurement::{Measurement, Unit};
use super::memory::Bandwidth;
use super::settings::Settings;
use crate::gl::timing::TimingPlan;
use crate::gl::{
    Define, Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture,
    image_access,
};
use crate::stats::{max_rel_error, max_rel_error_with};

/// Texels each fragment of the fetch kernel sums.
const FETCHES: u32 = 8;

/// Side of the cache-resident read's texture ([`FetchPass::cached`]): 16² RGBA32F texels,
/// 4 KiB, inside any texture cache.
const CACHE_TILE: u32 = 16;

/// The key of the compute pipeline's texture-path row ([`compute_fetch`]).
const COMPUTE_FETCH: &str = "compute.texture.rgba32f.rect.consecutive";

fn fmt_name(f: Format) -> &'static str {
    match f {
        Format::R32F => "r32f",
        Format::RGBA32F => "rgba32f",
    }
}

/// Small integers, so that every sum is exact in f32.
fn pattern(side: u32, f: Format) -> Vec<f32> {
    (0..side as usize * side as usize * f.channels())
        .map(|i| (i % 13) as f32)
        .collect()
}

/// What a fetch measurement fetches.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fetch {
    format: Format,
    target: TexTarget,
    strided: bool,
}

/// The streaming read: 8 consecutive texels per fragment from an RGBA32F rectangle texture
/// ([`texture_read_bandwidth`], [`FetchPass::streaming`]).
const STREAMING: Fetch = Fetch {
    format: Format::RGBA32F,
    target: TexTarget::Rect,
    strided: false,
};

impl Fetch {
    fn key(self) -> String {
        format!(
            "texture.{}.{}.{}",
            fmt_name(self.format),
            match self.target {
                TexTarget::Rect => "rect",
                TexTarget::Tex2D => "2d",
            },
            if self.strided {
                "strided"
            } else {
                "consecutive"
            }
        )
    }
}

/// A fetch kernel set up once and run pass by pass: the bench times it (its `texture.*` rows), and
/// [`FetchPass::streaming`] is the yardstick a paper times in the same rounds as its own
/// passes (LU §4.3).
pub struct FetchPass {
    f: Fetch,
    side: u32,
    /// The source texture's side: `side`, or [`CACHE_TILE`] for the cache-resident read.
    src_side: u32,
    data: Vec<f32>,
    src: Texture,
    dst: RenderTexture,
    prog: std::rc::Rc<Program>,
    quads: QuadBatch,
    stride: u32,
}

impl FetchPass {
    fn new(gl: &Gl, f: Fetch, side: u32) -> Result<FetchPass, GlError> {
        FetchPass::with_source(gl, f, side, side)
    }

    /// A `side²` pass reading a `src_side²` texture (`src_side < side`: every fragment's
    /// fetches wrap into it, both coordinates).
    fn with_source(gl: &Gl, f: Fetch, side: u32, src_side: u32) -> Result<FetchPass, GlError> {
        let data = pattern(src_side, f.format);
        let src = Texture::new(gl, f.target, f.format, src_side, src_side, Some(&data))?;
        let dst = RenderTexture::new(gl, TexTarget::Rect, f.format, side, side, None)?;
        let mut defines = vec![Define::new("FETCHES", FETCHES)];
        if f.target == TexTarget::Rect {
            defines.push(Define::flag("RECT"));
        }
        if f.strided {
            defines.push(Define::flag("STRIDED"));
        }
        if src_side < side {
            defines.push(Define::flag("WRAP_ROWS"));
        }
        let prog = Program::fragment(gl, "bench/texture_fetch.frag", &defines)?;
        let quads = QuadBatch::new(gl, &[Quad::identity(Rect::full(side, side))])?;
        let stride = (src_side / FETCHES).max(1);
        prog.set_vec2("u_size", [src_side as f32, src_side as f32]);
        prog.set_f32("u_stride", stride as f32);
        Ok(FetchPass {
            f,
            side,
            src_side,
            data,
            src,
            dst,
            prog,
            quads,
            stride,
        })
    }

    /// The streaming texture read of [`texture_read_bandwidth`]: 8 consecutive texels per
    /// fragment from a `side × side` RGBA32F rectangle texture.
    pub fn streaming(gl: &Gl, side: u32) -> Result<FetchPass, GlError> {
        FetchPass::new(gl, STREAMING, side)
    }

    /// The cache-resident read, GPUBench's "cache" bandwidth test as the 2005 papers' Table 3
    /// measured it (LU §4.3: "texture-cache bandwidth"): the streaming read's 8 consecutive
    /// RGBA32F texels per fragment over a `side²` target, all from one 16²
    /// texture (4 KiB), so that every fetch after the first hits the texture cache.
    pub fn cached(gl: &Gl, side: u32) -> Result<FetchPass, GlError> {
        FetchPass::with_source(gl, STREAMING, side, CACHE_TILE.min(side))
    }

    /// One pass (not waited for).
    pub fn run(&self) -> Result<(), GlError> {
        self.dst.bind();
        self.prog.bind_texture(0, "u_src", &self.src);
        self.quads.draw(&self.prog, self.side, self.side)
    }

    /// The bytes one pass fetches (the written sums not counted).
    pub fn fetched_bytes(&self) -> f64 {
        let texels = self.side as f64 * self.side as f64;
        texels * self.f.format.texel_bytes() as f64 * FETCHES as f64
    }

    /// The last pass's sums against the CPU's in f64: the largest relative error.
    pub fn error(&self) -> Result<f64, GlError> {
        let got = self.dst.texture().read()?;
        let want = fetch_reference(&self.data, self.src_side, self.side, self.f, self.stride);
        Ok(max_rel_error(&got, &want))
    }
}

/// Fetch bandwidth; `count_writes` adds the output's bytes to the count.
fn fetch(
    gl: &Gl,
    s: &Settings,
    f: Fetch,
    side: u32,
    count_writes: bool,
) -> Result<Measurement, GlError> {
    let pass = FetchPass::new(gl, f, side)?;
    let (t, reps) = time_kernel(gl, s, || pass.run())?;
    let e = f.format.texel_bytes() as f64;
    let texels = side as f64 * side as f64;
    let bytes = pass.fetched_bytes() + if count_writes { texels * e } else { 0.0 };
    let what = format!(
        "fragment pass, {FETCHES} {} fetches per fragment from a {side}² {:?} {:?}",
        if f.strided { "strided" } else { "consecutive" },
        f.format,
        f.target
    );
    Ok(Measurement::new(
        &f.key(),
        what,
        Unit::GBs,
        bytes * reps as f64,
        reps,
        t,
        Some((pass.error()?, 0.0)),
    ))
}

/// CPU reference of a fetch kernel over a `side²` target reading a `src_side²` texture: the
/// same sums in f64. An R32F fetch returns (r, 0, 0, 1), of which an R32F target keeps r.
fn fetch_reference(data: &[f32], src_side: u32, side: u32, f: Fetch, stride: u32) -> Vec<f64> {
    let (w, sw, c) = (side as usize, src_side as usize, f.format.channels());
    let texel = |x: usize, y: usize, ch: usize| data[((y % sw) * sw + x % sw) * c + ch] as f64;
    let mut want = vec![0f64; w * w * c];
    for y in 0..w {
        for x in 0..w {
            for k in 0..FETCHES as usize {
                let (sx, sy) = if f.strided {
                    (x, (y + k * stride as usize) % sw)
                } else {
                    ((x + k) % sw, y)
                };
                for ch in 0..c {
                    want[(y * w + x) * c + ch] += texel(sx, sy, ch);
                }
            }
        }
    }
    want
}

/// Texture-fetch bandwidth of a compute shader (`texture_fetch.comp`): the consecutive
/// RGBA32F rectangle fetch of [`fetch`], read with `texelFetch` and written with
/// `imageStore`, so that a compute kernel's reach through the texture path is measured
/// beside its shader-storage loads. Bytes: `8·w²·16` read + `w²·16` written.
fn compute_fetch(gl: &Gl, s: &Settings, side: u32) -> Result<Measurement, GlError> {
    let f = Fetch {
        format: Format::RGBA32F,
        target: TexTarget::Rect,
        strided: false,
    };
    let data = pattern(side, f.format);
    let src = Texture::new(gl, f.target, f.format, side, side, Some(&data))?;
    let dst = Texture::new(gl, TexTarget::Rect, f.format, side, side, None)?;
    let prog = Program::compute(
        gl,
        "bench/texture_fetch.comp",
        &[Define::new("FETCHES", FETCHES)],
    )?;
    prog.bind_texture(0, "u_src", &src);
    prog.bind_image(0, &dst, image_access::WRITE_ONLY);
    prog.set_i32("u_side", side as i32);
    let g = side.div_ceil(16);
    let (t, reps) = time_kernel(gl, s, || {
        prog.dispatch([g, g, 1])?;
        gl.image_barrier();
        Ok(())
    })?;
    let got = dst.read()?;
    let want = fetch_reference(&data, side, side, f, 1);
    let bytes = side as f64 * side as f64 * f.format.texel_bytes() as f64 * (FETCHES + 1) as f64;
    Ok(Measurement::new(
        COMPUTE_FETCH,
        format!(
            "compute dispatch, {FETCHES} consecutive texelFetch per invocation from a {side}² \
             RGBA32F rectangle texture, imageStore of the sum"
        ),
        Unit::GBs,
        bytes * reps as f64,
        reps,
        t,
        Some((max_rel_error(&got, &want), 0.0)),
    ))
}

/// Render-target write bandwidth: every fragment of a `side²` target writes `(x, y, 3, 1)`.
fn target_write(gl: &Gl, s: &Settings, format: Format, side: u32) -> Result<Measurement, GlError> {
    let dst = RenderTexture::new(gl, TexTarget::Rect, format, side, side, None)?;
    let prog = Program::fragment(gl, "bench/fill.frag", &[])?;
    let quads = QuadBatch::new(gl, &[Quad::identity(Rect::full(side, side))])?;
    prog.set_f32("u_value", 3.0);
    let (t, reps) = time_kernel(gl, s, || {
        dst.bind();
        quads.draw(&prog, side, side)
    })?;
    let got = dst.texture().read()?;
    let (c, w) = (format.channels(), side as usize);
    // Entry by entry (texel `j / c`, channel `j % c`): no reference array at 512 MiB.
    let error = max_rel_error_with(&got, |j| {
        let i = j / c;
        [(i % w) as f64, (i / w) as f64, 3.0, 1.0][j % c]
    });
    let bytes = side as f64 * side as f64 * format.texel_bytes() as f64;
    Ok(Measurement::new(
        &format!("target.{}", fmt_name(format)),
        format!("fragment pass writing every texel of a {side}² {format:?} target"),
        Unit::GBs,
        bytes * reps as f64,
        reps,
        t,
        Some((error, 0.0)),
    ))
}

/// `glCopyTexSubImage2D` of a whole `side²` RGBA32F framebuffer into a texture.
fn copy_tex(gl: &Gl, s: &Settings, side: u32) -> Result<Measurement, GlError> {
    let f = Format::RGBA32F;
    let data = pattern(side, f);
    let src = RenderTexture::new(gl, TexTarget::Rect, f, side, side, Some(&data))?;
    let dst = Texture::new(gl, TexTarget::Rect, f, side, side, None)?;
    let (t, reps) = time_kernel(gl, s, || src.copy_to(&dst, Rect::full(side, side)))?;
    let got = dst.read()?;
    let bytes = 2.0 * side as f64 * side as f64 * f.texel_bytes() as f64;
    Ok(Measurement::new(
        "copytex.rgba32f",
        format!("glCopyTexSubImage2D of a {side}² RGBA32F framebuffer"),
        Unit::GBs,
        bytes * reps as f64,
        reps,
        t,
        Some((max_rel_error_with(&got, |j| data[j].into()), 0.0)),
    ))
}

/// The side of a square texture of about `bytes` bytes of `texel`-byte texels: a multiple of
/// [`FETCHES`], at least `FETCHES`.
fn side_of(bytes: usize, texel: usize) -> u32 {
    let side = ((bytes / texel.max(1)) as f64).sqrt() as u32;
    (side / FETCHES).max(1) * FETCHES
}

/// The bytes of a square texture of `side` texels of `texel` bytes.
fn bytes_of(side: u32, texel: usize) -> usize {
    side as usize * side as usize * texel
}

pub(super) fn steps<'a>(gl: &'a Gl, s: &'a Settings, out: &mut Vec<Step<'a>>) {
    // Every kernel is swept over its texture's size (`super::sweep`); the ladder's sizes are
    // rounded to square textures.
    let swept = move |texel: usize, at: Box<dyn Fn(u32) -> Result<Measurement, GlError> + 'a>| {
        let cap = s.texture_cap(gl, texel);
        let end = s.ladder_end(gl, cap);
        sweep(s.sweep_from, end, cap, move |b| {
            let side = side_of(b, texel);
            let mut m = at(side)?;
            m.what = format!("{} ({} bytes)", m.what, bytes_of(side, texel));
            Ok(m)
        })
    };
    for format in [Format::RGBA32F, Format::R32F] {
        for target in [TexTarget::Rect, TexTarget::Tex2D] {
            for strided in [false, true] {
                let f = Fetch {
                    format,
                    target,
                    strided,
                };
                out.push((
                    f.key(),
                    Box::new(move || {
                        swept(
                            format.texel_bytes(),
                            Box::new(move |side| fetch(gl, s, f, side, true)),
                        )
                    }),
                ));
            }
        }
    }
    for format in [Format::RGBA32F, Format::R32F] {
        out.push((
            format!("target.{}", fmt_name(format)),
            Box::new(move || {
                swept(
                    format.texel_bytes(),
                    Box::new(move |side| target_write(gl, s, format, side)),
                )
            }),
        ));
    }
    out.push((
        COMPUTE_FETCH.into(),
        Box::new(move || swept(16, Box::new(move |side| compute_fetch(gl, s, side)))),
    ));
    out.push((
        "copytex.rgba32f".into(),
        Box::new(move || swept(16, Box::new(move |side| copy_tex(gl, s, side)))),
    ));
}

/// Texture-read bandwidth of a fragment pass over a `side × side` RGBA32F rectangle texture:
/// 8 consecutive texels per fragment; bytes = the fetched bytes only (the written sums, 1/8
/// of them, are not counted). Verified against a CPU sum.
pub fn texture_read_bandwidth(gl: &Gl, side: u32) -> Result<Bandwidth, GlError> {
    let s = Settings {
        timing: TimingPlan::new(1, 5, std::time::Duration::from_secs(2)),
        min_run_ms: 0.0,
        ..Settings::quick()
    };
    let m = fetch(gl, &s, STREAMING, side, false)?;
    let gb_per_s = m.value.ok_or_else(|| {
        GlError::Invalid(format!("texture-read kernel gave wrong sums ({})", m.note))
    })?;
    Ok(Bandwidth {
        gb_per_s,
        bytes: m.amount / m.reps as f64,
        median_ms: m.timing.median_ms / m.reps as f64,
    })
}
