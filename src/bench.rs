//! Device bandwidths measured with simple streaming shaders, the yardsticks for "achieved
//! bandwidth as a fraction of what the device can stream" in the papers' experiments.
//!
//! - [`ssbo_stream_bandwidth`]: a STREAM-style copy `y[i] = x[i]` over `vec4` SSBOs in a
//!   compute shader; bytes moved = read + written.
//! - [`texture_read_bandwidth`]: a fragment pass whose fragments each read `FETCHES`
//!   consecutive RGBA32F texels of a rectangle texture (the access pattern of the 2005
//!   papers' passes); bytes = fragments × fetches × 16, written bytes ignored (1/FETCHES).
//!
//! Both are verified: the copy against the source, the sums against a CPU sum.

use crate::gl::timing::{TimingPlan, measure_gpu};
use crate::gl::{
    Buffer, Define, Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget,
    Texture,
};

/// A measured bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bandwidth {
    /// Gigabytes (10⁹ bytes) per second, from the median time.
    pub gb_per_s: f64,
    /// Bytes counted per run.
    pub bytes: f64,
    pub median_ms: f64,
}

/// Copy bandwidth of SSBOs in a compute shader over `mib` MiB per buffer.
pub fn ssbo_stream_bandwidth(gl: &Gl, mib: usize) -> Result<Bandwidth, GlError> {
    let n = (mib << 20) / 16;
    let x: Vec<[f32; 4]> = (0..n).map(|i| [i as f32, 1.0, 2.0, 3.0]).collect();
    let xb = Buffer::from_slice(gl, &x)?;
    let yb = Buffer::<[f32; 4]>::zeroed(gl, n)?;
    let prog = Program::compute(gl, "bench/ssbo_copy.comp", &[])?;
    xb.bind(0);
    yb.bind(1);
    prog.set_u32("n", n as u32);
    let groups = (n as u32).div_ceil(prog.local_size[0]);
    let plan = TimingPlan::new(1, 5, std::time::Duration::from_secs(2));
    let t = measure_gpu(gl, plan, || {
        prog.dispatch([groups.min(65535), groups.div_ceil(65535), 1])
    })?;
    let y = yb.read()?;
    if y != x {
        return Err(GlError::Invalid(
            "streaming copy kernel gave wrong data".into(),
        ));
    }
    let bytes = 2.0 * (n * 16) as f64;
    Ok(Bandwidth {
        gb_per_s: bytes / (t.median_ms * 1e-3) / 1e9,
        bytes,
        median_ms: t.median_ms,
    })
}

/// Texture-read bandwidth of a fragment pass over a `side × side` RGBA32F rectangle texture.
pub fn texture_read_bandwidth(gl: &Gl, side: u32) -> Result<Bandwidth, GlError> {
    const FETCHES: u32 = 8;
    let data: Vec<f32> = (0..side * side * 4).map(|i| (i % 7) as f32).collect();
    let src = Texture::new(
        gl,
        TexTarget::Rect,
        Format::RGBA32F,
        side,
        side,
        Some(&data),
    )?;
    let dst = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, side, side, None)?;
    let prog = Program::fragment(
        gl,
        "bench/texture_read.frag",
        &[Define::new("FETCHES", FETCHES)],
    )?;
    let quads = QuadBatch::new(gl, &[Quad::identity(Rect::full(side, side))])?;
    let plan = TimingPlan::new(1, 5, std::time::Duration::from_secs(2));
    let t = measure_gpu(gl, plan, || {
        dst.bind();
        prog.bind_texture(0, "u_src", &src);
        prog.set_f32("u_width", side as f32);
        quads.draw(&prog, side, side)
    })?;
    // Verify one row against the CPU.
    let out = dst.texture().read_rect(Rect::new(0, side / 2, side, 1))?;
    let row = (side / 2) as usize * side as usize * 4;
    for x in 0..side as usize {
        for c in 0..4 {
            let want: f32 = (0..FETCHES as usize)
                .map(|k| data[row + ((x + k) % side as usize) * 4 + c])
                .sum();
            if out[x * 4 + c] != want {
                return Err(GlError::Invalid(
                    "texture-read kernel gave wrong sums".into(),
                ));
            }
        }
    }
    let bytes = side as f64 * side as f64 * FETCHES as f64 * 16.0;
    Ok(Bandwidth {
        gb_per_s: bytes / (t.median_ms * 1e-3) / 1e9,
        bytes,
        median_ms: t.median_ms,
    })
}
