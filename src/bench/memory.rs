//! SSBO bandwidth in compute shaders (read, write, copy; `vec4` and `dvec4`), and upload /
//! readback bandwidth between the host and GL buffers and textures.
//!
//! Bytes per kernel, with `n` elements of `e` bytes:
//! - read (`ssbo_read.comp`, `READS` = 16 elements per invocation, `n / 16` invocations):
//!   `n·e` read + `n·e / 16` written (the sums);
//! - write (`ssbo_write.comp`): `n·e` written;
//! - copy (`ssbo_copy.comp`, STREAM copy): `2·n·e`;
//! - upload / readback: the buffer's or texture's bytes, host memory on the other side.
//!
//! The SSBO kernels are swept over the array size `n·e` ([`super::sweep`]): the row's value
//! is the plateau at the large sizes, its `peak` the best size.

use bytemuck::Pod;

use super::kernel::{Step, groups_256, time_dispatch};
use super::ladder::sweep;
use super::measurement::{Measurement, Unit};
use super::settings::Settings;
use crate::gl::measure::measure_gpu;
use crate::gl::timing::TimingPlan;
use crate::gl::{Buffer, BufferTexture, Define, Format, Gl, GlError, Program, TexTarget, Texture};
use crate::stats::{max_rel_error, max_rel_error_with};

/// Elements each invocation of the read kernel sums.
const READS: usize = 16;

/// A measured bandwidth (the API the papers' experiments use).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bandwidth {
    /// Gigabytes (10⁹ bytes) per second, from the median time.
    pub gb_per_s: f64,
    /// Bytes counted per run.
    pub bytes: f64,
    pub median_ms: f64,
}

/// An SSBO element: four floats of either precision.
trait Elem: Pod {
    /// The float it holds four of.
    type Scalar: Pod + Into<f64>;
    const NAME: &'static str;
    const VEC: &'static str;
    fn new(v: [f64; 4]) -> Self;
    /// A buffer-texture view of a buffer of these elements (one texel each), where GL has a
    /// texel format for them.
    fn texel_view(gl: &Gl, b: &Buffer<Self>) -> Result<BufferTexture, GlError>;
    /// The elements' floats in order, without a copy.
    fn flat(v: &[Self]) -> &[Self::Scalar] {
        bytemuck::cast_slice(v)
    }
}

impl Elem for [f32; 4] {
    type Scalar = f32;
    const NAME: &'static str = "f32";
    const VEC: &'static str = "vec4";
    fn new(v: [f64; 4]) -> Self {
        v.map(|x| x as f32)
    }
    fn texel_view(gl: &Gl, b: &Buffer<Self>) -> Result<BufferTexture, GlError> {
        BufferTexture::new(gl, b)
    }
}

impl Elem for [f64; 4] {
    type Scalar = f64;
    const NAME: &'static str = "f64";
    const VEC: &'static str = "dvec4";
    fn new(v: [f64; 4]) -> Self {
        v
    }
    fn texel_view(_: &Gl, _: &Buffer<Self>) -> Result<BufferTexture, GlError> {
        Err(GlError::Unsupported("fp64 buffer textures".into()))
    }
}

/// Small integers: every sum below is exact in f32.
fn pattern<T: Elem>(n: usize) -> Vec<T> {
    (0..n)
        .map(|i| T::new([(i % 251) as f64, (i % 7) as f64, 1.0, (i % 3) as f64]))
        .collect()
}

/// The SSBO kernels, and the read kernel through a buffer texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    Copy,
    /// [`Op::Read`]'s loads made with `texelFetch` on a [`BufferTexture`] view of the same
    /// buffer (`samplerBuffer`, RGBA32F): the texture path a compute kernel reads linear
    /// arrays through, as CUDA's `tex1Dfetch` (fem-storage's Jacobi, §4 of its paper).
    TexRead,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Read | Op::TexRead => "read",
            Op::Write => "write",
            Op::Copy => "copy",
        }
    }
}

/// The key of the buffer-texture read row: a `compute.texture.` row, so that it is one of
/// the rows the compute texture-read roof is the best of ([`crate::work::Access::keys`]).
pub(super) const TEXBUF_READ: &str = "compute.texture.rgba32f.buffer.read";

/// SSBO bandwidth of `op` over `bytes` bytes per buffer of `T` elements.
fn ssbo<T: Elem>(gl: &Gl, s: &Settings, op: Op, bytes: usize) -> Result<Measurement, GlError> {
    let key = match op {
        Op::TexRead => TEXBUF_READ.to_string(),
        _ => format!("ssbo.{}.{}", op.name(), T::NAME),
    };
    let e = std::mem::size_of::<T>();
    let n = (bytes / e / READS).max(1) * READS;
    let mut defines = vec![Define::new("VEC", T::VEC), Define::new("READS", READS)];
    if op == Op::TexRead {
        defines.push(Define::flag("TEXTURE"));
    }
    let (prog, x, out_len) = match op {
        Op::Read | Op::TexRead => ("bench/ssbo_read.comp", Some(pattern::<T>(n)), n / READS),
        Op::Write => ("bench/ssbo_write.comp", None, n),
        Op::Copy => ("bench/ssbo_copy.comp", Some(pattern::<T>(n)), n),
    };
    if T::NAME == "f64" && !gl.info().fp64 {
        return Err(GlError::Unsupported("fp64 in shaders".into()));
    }
    let prog = Program::compute(gl, prog, &defines)?;
    let xb = x.as_ref().map(|x| Buffer::from_slice(gl, x)).transpose()?;
    let yb = Buffer::<T>::zeroed(gl, out_len)?;
    let view = match (&xb, op) {
        (Some(xb), Op::TexRead) => Some(T::texel_view(gl, xb)?),
        _ => None,
    };
    match (&xb, &view) {
        (_, Some(view)) => {
            prog.bind_buffer_texture(0, "u_x", view);
            yb.bind(1);
        }
        (Some(xb), None) => {
            xb.bind(0);
            yb.bind(1);
        }
        (None, None) => yb.bind(0),
    }
    prog.set_u32("n", n as u32);
    prog.set_u32("u_threads", (n / READS) as u32);
    prog.set_f32("u_value", 3.0);
    let (t, reps) = time_dispatch(gl, s, &prog, groups_256(out_len))?;
    let out = yb.read()?;
    let error = ssbo_error::<T>(op, T::flat(&out), x.as_deref(), n);
    let moved = match op {
        Op::Read | Op::TexRead => n * e + out_len * e,
        Op::Write => n * e,
        Op::Copy => 2 * n * e,
    };
    let what = format!(
        "compute {}{} of {n} {} elements ({:.0} MiB)",
        op.name(),
        if op == Op::TexRead {
            " through a buffer texture (texelFetch)"
        } else {
            ""
        },
        T::VEC,
        (n * e) as f64 / (1 << 20) as f64
    );
    // Sums of small integers are exact, copies bit-exact: any difference is an error.
    let check = (error, 0.0);
    Ok(Measurement::new(
        &key,
        what,
        Unit::GBs,
        (moved as u64 * reps as u64) as f64,
        reps,
        t,
        Some(check),
    ))
}

/// The largest relative error of an SSBO pass's output `got` (its floats) against what `op`
/// makes of the input `x` (`n` elements): the reference entry by entry (`j` = element · 4 +
/// component), since at the sweep's largest sizes a reference vector would be more memory
/// than the arrays themselves.
fn ssbo_error<T: Elem>(op: Op, got: &[T::Scalar], x: Option<&[T]>, n: usize) -> f64 {
    let x = x.map(T::flat).unwrap_or_default();
    let g = n / READS;
    match op {
        Op::Read | Op::TexRead => max_rel_error_with(got, |j| {
            (0..READS)
                .map(|k| x[(j / 4 + k * g) * 4 + j % 4].into())
                .sum()
        }),
        Op::Copy => max_rel_error_with(got, |j| x[j].into()),
        Op::Write => max_rel_error_with(got, |j| {
            let i = j / 4;
            [(i & 0xFFFF) as f64, (i >> 16) as f64, 3.0, 1.0][j % 4]
        }),
    }
}

/// Upload and readback of a `vec4` SSBO or an RGBA32F texture of `bytes` bytes.
fn transfer(gl: &Gl, s: &Settings, up: bool, texture: bool) -> Result<Measurement, GlError> {
    let dir = if up { "upload" } else { "readback" };
    let (key, what);
    let side = ((s.buffer_bytes.min(64 << 20) / 16) as f64).sqrt() as u32;
    let n = side as usize * side as usize;
    let data: Vec<f32> = pattern::<[f32; 4]>(n).into_iter().flatten().collect();
    let want: Vec<f64> = data.iter().map(|&v| v as f64).collect();
    // The readback's destination, written once so that its pages are mapped: a fresh vector
    // per run timed the kernel's first touch of 64 MiB of pages as much as the transfer
    // (1.0 to 1.8 GB/s from pass to pass for the SSBO, 2.1 to 7.1 for the texture, issue 23).
    let mut got = vec![-1f32; data.len()];
    let t = if texture {
        key = format!("{dir}.texture");
        what = format!("{dir} of a {side}×{side} RGBA32F rectangle texture");
        let tex = Texture::new(gl, TexTarget::Rect, Format::RGBA32F, side, side, None)?;
        tex.upload(&data)?;
        let t = measure_gpu(gl, super::budget::clip(s.timing), || {
            if up {
                tex.upload(&data)
            } else {
                tex.read_into(&mut got)
            }
        })?;
        if up {
            got = tex.read()?;
        }
        t
    } else {
        key = format!("{dir}.ssbo");
        what = format!("{dir} of a {n}-vec4 SSBO");
        let v: &[[f32; 4]] = bytemuck::cast_slice(&data);
        let buf = Buffer::from_slice(gl, v)?;
        let t = measure_gpu(gl, super::budget::clip(s.timing), || {
            if up {
                buf.upload(v)
            } else {
                buf.read_into(0, bytemuck::cast_slice_mut(&mut got))
            }
        })?;
        if up {
            got = bytemuck::cast_slice(&buf.read()?).to_vec();
        }
        t
    };
    let check = (max_rel_error(&got, &want), 0.0);
    let amount = (n * 16) as f64;
    Ok(Measurement::new(
        &key,
        what,
        Unit::GBs,
        amount,
        1,
        t,
        Some(check),
    ))
}

/// Whether a bench row is a host transfer (`upload.*`, `readback.*`, the keys [`steps`]
/// makes), which is measured more often than the others (`passes_in_children` in
/// [`super`]).
pub(super) fn is_transfer(key: &str) -> bool {
    key.starts_with("upload.") || key.starts_with("readback.")
}

pub(super) fn steps<'a>(gl: &'a Gl, s: &'a Settings, out: &mut Vec<Step<'a>>) {
    // Each SSBO kernel is swept over its array size (`super::sweep`).
    let cap = s.ssbo_cap(gl);
    let end = s.ladder_end(gl, cap);
    for op in [Op::Read, Op::Write, Op::Copy] {
        out.push((
            format!("ssbo.{}.f32", op.name()),
            Box::new(move || sweep(s.sweep_from, end, cap, |b| ssbo::<[f32; 4]>(gl, s, op, b))),
        ));
        out.push((
            format!("ssbo.{}.f64", op.name()),
            Box::new(move || sweep(s.sweep_from, end, cap, |b| ssbo::<[f64; 4]>(gl, s, op, b))),
        ));
    }
    // The buffer-texture read, f32 only (RGBA32F texels), within the device's
    // GL_MAX_TEXTURE_BUFFER_SIZE.
    let texels = usize::try_from(gl.info().max_texture_buffer_size.max(0)).unwrap_or(0);
    let tex_cap = cap.min(texels.saturating_mul(16));
    if tex_cap > 0 {
        let end = s.ladder_end(gl, tex_cap);
        out.push((
            TEXBUF_READ.into(),
            Box::new(move || {
                sweep(s.sweep_from, end, tex_cap, |b| {
                    ssbo::<[f32; 4]>(gl, s, Op::TexRead, b)
                })
            }),
        ));
    }
    for texture in [false, true] {
        for up in [true, false] {
            let key = format!(
                "{}.{}",
                if up { "upload" } else { "readback" },
                if texture { "texture" } else { "ssbo" }
            );
            out.push((key, Box::new(move || transfer(gl, s, up, texture))));
        }
    }
}

/// Copy bandwidth of `vec4` SSBOs in a compute shader over `mib` MiB per buffer (STREAM copy;
/// bytes = read + written), verified against the source.
pub fn ssbo_stream_bandwidth(gl: &Gl, mib: usize) -> Result<Bandwidth, GlError> {
    let s = Settings {
        timing: TimingPlan::new(1, 5, std::time::Duration::from_secs(2)),
        min_run_ms: 0.0,
        ..Settings::quick()
    };
    let m = ssbo::<[f32; 4]>(gl, &s, Op::Copy, mib << 20)?;
    let gb_per_s = m.value.ok_or_else(|| {
        GlError::Invalid(format!(
            "streaming copy kernel gave wrong data ({})",
            m.note
        ))
    })?;
    Ok(Bandwidth {
        gb_per_s,
        bytes: m.amount / m.reps as f64,
        median_ms: m.timing.median_ms / m.reps as f64,
    })
}
