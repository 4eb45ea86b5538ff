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
//!
//! # The rules, and why
//! - Many short runs ([`super::Settings::fixed_timing`]), the best kept, three untimed runs
//!   first: a software driver's cost per operation falls into modes that last a few runs
//!   (its worker threads asleep or awake), a long run averages them away, and the first
//!   runs after a pause are cheaper than the steady state.
//! - One more pass in a child process kept on one CPU (`bench --pass K --one-cpu`,
//!   [`super::affinity::pin_to_one_cpu`]); a row keeps the better of its passes' best and
//!   that floor (`super::passes::with_floor`): a cost that moves with where the threads run
//!   is no property of the device, and a dependent pass cannot beat the driver's own work.
//! - [`probe`]: `fixed.draw` and `fixed.dispatch` measured again, briefly ([`PROBE_OPS`]
//!   operations, the best of [`PROBE_RUNS`] runs after [`PROBE_WARMUP`]), in the process that
//!   times the rows, at each table's first bounded row and after a row at over `REPROBE_AT`
//!   of a fixed-cost bound (`runner::session::writer`): a bound is the least the device was
//!   seen to need in that process; the probed costs set how far up `of bound`'s interval
//!   reaches (`Bound::ms_met`).
//!
//! The measurements behind these rules (issue 23) are in that issue and its commits.

use super::kernel::Step;
use super::measurement::{Measurement, Unit};
use super::settings::Settings;
use crate::gl::measure::measure_gpu;
use crate::gl::{
    Buffer, Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget,
};
use crate::stats::max_rel_error;

/// Operations per timed run of the probe.
pub const PROBE_OPS: u32 = 100;
/// Untimed runs before the probe's timed ones (see the module docs: the first runs after
/// an idle spell are cheaper than the steady state).
pub const PROBE_WARMUP: usize = 3;
/// Timed runs of the probe; the probe keeps the best.
pub const PROBE_RUNS: usize = 15;

/// The most one probed cost's runs may take together (it stops after this even with fewer runs).
const PROBE_BUDGET: std::time::Duration = std::time::Duration::from_millis(250);

/// The fixed costs probed in this process (see the module docs), ms per operation; `None`
/// where the device cannot run it (no compute shaders) or its check failed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FixedProbe {
    pub draw_ms: Option<f64>,
    pub dispatch_ms: Option<f64>,
}

impl FixedProbe {
    /// The bench's fixed costs, as a probe would give them.
    pub fn of(limits: &super::limits::Limits) -> FixedProbe {
        FixedProbe {
            draw_ms: limits.draw_ms,
            dispatch_ms: limits.dispatch_ms,
        }
    }

    /// Each cost the lesser of the two (either alone where the other is unknown).
    pub fn least(self, o: FixedProbe) -> FixedProbe {
        let min = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        FixedProbe {
            draw_ms: min(self.draw_ms, o.draw_ms),
            dispatch_ms: min(self.dispatch_ms, o.dispatch_ms),
        }
    }

    /// `limits` with these costs where they are known.
    pub fn applied_to(self, limits: &super::limits::Limits) -> super::limits::Limits {
        super::limits::Limits {
            draw_ms: self.draw_ms.or(limits.draw_ms),
            dispatch_ms: self.dispatch_ms.or(limits.dispatch_ms),
            ..limits.clone()
        }
    }
}

/// [`FixedProbe`]: an empty draw and an empty dispatch, measured as the bench measures them
/// with [`PROBE_OPS`] operations per run and the best of [`PROBE_RUNS`] runs after
/// [`PROBE_WARMUP`] (about 0.15 s on llvmpipe).
pub fn probe(gl: &Gl) -> Result<FixedProbe, GlError> {
    let s = Settings {
        fixed_ops: PROBE_OPS,
        fixed_timing: crate::gl::timing::TimingPlan::fixed(PROBE_WARMUP, PROBE_RUNS, PROBE_BUDGET),
        ..Settings::quick()
    };
    let ms = |m: Measurement| m.value.map(|us| us * 1e-3);
    Ok(FixedProbe {
        draw_ms: ms(draw(gl, &s)?),
        dispatch_ms: if gl.caps().compute {
            ms(dispatch(gl, &s)?)
        } else {
            None
        },
    })
}

fn draw(gl: &Gl, s: &Settings) -> Result<Measurement, GlError> {
    let ops = s.fixed_ops.max(2) & !1;
    let targets = [
        RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, 16, 16, None)?,
        RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, 16, 16, None)?,
    ];
    let prog = Program::fragment(gl, "bench/fill.frag", &[])?;
    let quads = QuadBatch::new(gl, &[Quad::identity(Rect::new(2, 3, 1, 1))])?;
    let t = measure_gpu(gl, super::budget::clip(s.fixed_timing), || {
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
    let t = measure_gpu(gl, super::budget::clip(s.fixed_timing), || {
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
    let t = measure_gpu::<GlError>(gl, super::budget::clip(s.fixed_timing), || {
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

/// Whether a bench row is a fixed cost (its key starts `fixed.`): such rows come last in
/// a pass ([`super::passes::order`]) and stay in the process that runs the tables.
pub fn is_fixed_cost(key: &str) -> bool {
    key.starts_with("fixed.")
}

pub(super) fn steps<'a>(gl: &'a Gl, s: &'a Settings, out: &mut Vec<Step<'a>>) {
    out.push(("fixed.draw".into(), Box::new(move || draw(gl, s))));
    out.push(("fixed.dispatch".into(), Box::new(move || dispatch(gl, s))));
    out.push(("fixed.finish".into(), Box::new(move || finish(gl, s))));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_combine_cost_by_cost_and_fill_in_the_bench() {
        let a = FixedProbe {
            draw_ms: Some(0.04),
            dispatch_ms: None,
        };
        let b = FixedProbe {
            draw_ms: Some(0.01),
            dispatch_ms: Some(0.02),
        };
        assert_eq!(a.least(b), b);
        assert_eq!(a.least(FixedProbe::default()), a);
        let bench = super::super::limits::Limits {
            draw_ms: Some(0.03),
            dispatch_ms: Some(0.05),
            ..Default::default()
        };
        let l = a.applied_to(&bench);
        assert_eq!((l.draw_ms, l.dispatch_ms), (Some(0.04), Some(0.05)));
        assert_eq!(FixedProbe::of(&bench).least(a).draw_ms, Some(0.03));
    }
}
