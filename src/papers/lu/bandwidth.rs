//! §4.3's yardstick: the texture-read bandwidth of this device, measured with a streaming
//! fragment shader (`glsl/lu/stream.frag`): every fragment of a `size × size` pass fetches
//! `TAPS` RGBA32F texels of a 4-wide neighbourhood of a `size × size` texture (the cache-
//! friendly pattern of GPUBench's cache-bandwidth test, the paper's Table 3) and writes their
//! sum. Bandwidth = `size² · TAPS · 16 B / time` (median of `glFinish`-bracketed passes).
//!
//! (Written inside the paper because `gpgpu_repro::bench::texture_read_bandwidth` was not on
//! `main` yet; the two measure the same thing.)

use crate::gl::timing::{TimingPlan, measure_gpu};
use crate::gl::{
    Define, Format, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture,
};

use super::LuError;

/// Texels fetched per fragment.
pub const TAPS: u32 = 16;

/// The measured texture-read bandwidth in GB/s, and the median pass time in ms.
pub fn texture_read_bandwidth(gl: &Gl, size: u32, plan: TimingPlan) -> Result<(f64, f64), LuError> {
    let data: Vec<f32> = (0..size * size * 4).map(|i| (i % 97) as f32).collect();
    let src = Texture::new(
        gl,
        TexTarget::Rect,
        Format::RGBA32F,
        size,
        size,
        Some(&data),
    )?;
    let dst = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, size, size, None)?;
    let prog = Program::fragment(gl, "lu/stream.frag", &[Define::new("TAPS", TAPS)])?;
    let quad = QuadBatch::new(gl, &[Quad::identity(Rect::full(size, size))])?;
    let t = measure_gpu(gl, plan, || -> Result<(), LuError> {
        dst.bind();
        prog.bind_texture(0, "u_src", &src);
        quad.draw(&prog, size, size)?;
        Ok(())
    })?;
    let bytes = size as f64 * size as f64 * TAPS as f64 * 16.0;
    Ok((bytes / (t.median_ms * 1e-3) / 1e9, t.median_ms))
}
