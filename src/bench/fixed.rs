//! Fixed costs: what a pass, a dispatch and a `glFinish` cost however little they do.
//!
//! - `fixed.draw`: bind one of two 16² RGBA32F framebuffers (alternating, so every draw
//!   switches) and draw a one-texel quad with `fill.frag`; µs per draw.
//! - `fixed.dispatch`: one work group of one invocation (`tiny.comp`, writes one float)
//!   followed by the storage barrier; µs per dispatch.
//! - `fixed.finish`: `glFinish` with nothing queued; µs per call (nothing to read back).
//!
//! A timed run makes `fixed_ops` operations between two `glFinish` calls; the value written
//! by the last one is read back and checked.

use super::profile::{Measurement, Unit};
use super::{Settings, Step};
use crate::gl::timing::measure_gpu;
use crate::gl::{
    Buffer, Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget,
};
use crate::util::max_rel_error;

fn draw(gl: &Gl, s: &Settings) -> Result<Measurement, GlError> {
    let ops = s.fixed_ops.max(2) & !1;
    let targets = [
        RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, 16, 16, None)?,
        RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, 16, 16, None)?,
    ];
    let prog = Program::fragment(gl, "bench/fill.frag", &[])?;
    let quads = QuadBatch::new(gl, &[Quad::identity(Rect::new(2, 3, 1, 1))])?;
    let t = measure_gpu(gl, s.timing, || {
        for k in 0..ops {
            let dst = &targets[(k % 2) as usize];
            dst.bind();
            prog.set_f32("u_value", k as f32);
            quads.draw(&prog, 16, 16)?;
        }
        Ok(())
    })?;
    // The last draw into each target wrote its index at texel (2, 3).
    let got: Vec<f32> = targets
        .iter()
        .map(|t| t.texture().read_rect(Rect::new(2, 3, 1, 1)).map(|v| v[2]))
        .collect::<Result<_, _>>()?;
    let want = [(ops - 2) as f64, (ops - 1) as f64];
    Ok(Measurement::new(
        "fixed.draw",
        "one-texel draw after a framebuffer switch".into(),
        Unit::Micros,
        ops as f64,
        ops,
        t,
        Some((max_rel_error(&got, &want), 0.0)),
    ))
}

fn dispatch(gl: &Gl, s: &Settings) -> Result<Measurement, GlError> {
    let ops = s.fixed_ops.max(1);
    let prog = Program::compute(gl, "bench/tiny.comp", &[])?;
    let y = Buffer::<f32>::zeroed(gl, 1)?;
    y.bind(0);
    let t = measure_gpu(gl, s.timing, || {
        for k in 0..ops {
            prog.set_f32("u_value", k as f32);
            prog.dispatch([1, 1, 1])?;
            gl.storage_barrier();
        }
        Ok(())
    })?;
    let got = y.read()?;
    Ok(Measurement::new(
        "fixed.dispatch",
        "dispatch of one invocation + storage barrier".into(),
        Unit::Micros,
        ops as f64,
        ops,
        t,
        Some((max_rel_error(&got, &[(ops - 1) as f64]), 0.0)),
    ))
}

fn finish(gl: &Gl, s: &Settings) -> Result<Measurement, GlError> {
    let ops = s.fixed_ops.max(1);
    let t = measure_gpu::<GlError>(gl, s.timing, || {
        for _ in 0..ops {
            gl.finish();
        }
        Ok(())
    })?;
    Ok(Measurement::new(
        "fixed.finish",
        "glFinish with nothing queued".into(),
        Unit::Micros,
        ops as f64,
        ops,
        t,
        None,
    ))
}

pub(super) fn steps<'a>(gl: &'a Gl, s: &'a Settings, out: &mut Vec<Step<'a>>) {
    out.push(("fixed.draw".into(), Box::new(move || draw(gl, s))));
    out.push(("fixed.dispatch".into(), Box::new(move || dispatch(gl, s))));
    out.push(("fixed.finish".into(), Box::new(move || finish(gl, s))));
}
