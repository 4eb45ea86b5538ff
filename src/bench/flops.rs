//! FMA throughput, fp32 and fp64, in compute (`fma.comp`) and fragment (`fma.frag`) shaders.
//!
//! Each invocation (or fragment) `i` runs two independent `vec4` chains (`dvec4` for fp64),
//! `x ← a·x + b` for `16·iters` steps, from `x₀ = s + (0, 1, 2, 3)` and `x₁ = x₀ + 0.5`,
//! `s = (i mod 64) / 64`, and writes `Σ (x₀ + x₁)`. One step of one chain is 4 FMAs, 8 flops:
//! a kernel does `threads · iters · 16 · 2 · 8` flops. With `a = 1 − 1/(16·iters)` and
//! `b = 1 − a` each chain tends to 1 without reaching it, so the result still depends on the
//! seed and is checked against the same recurrence in f64. Error bound: each step adds at
//! most one rounding (ε) and shrinks the earlier errors by `a`, so the error stays below
//! `ε / (1 − a) = 16·iters·ε` relative; the tolerance is twice that, plus the final rounding
//! to f32.

use super::profile::{Measurement, Unit};
use super::{Settings, Step, groups_256, time_kernel};
use crate::gl::{
    Buffer, Define, Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget,
};
use crate::util::max_rel_error;

/// Loop trips of the kernel: each trip is `STEP16`, 16 vec4 FMAs, i.e. [`STEPS_PER_TRIP`]
/// steps of each of the two chains.
const ITERS: u32 = 64;

/// Steps of one chain per loop trip (`STEP16` = 8 × `STEP2`, one step of each chain).
const STEPS_PER_TRIP: u32 = 8;

fn coefficients() -> (f32, f32) {
    let a = 1.0 - 1.0 / ((STEPS_PER_TRIP * ITERS) as f32);
    (a, 1.0 - a)
}

/// The CPU reference of invocation `i` (f64 arithmetic; `a`, `b` as the shader sees them).
fn reference(i: usize, double: bool) -> f64 {
    let (a, b) = coefficients();
    let (a, b) = (a as f64, b as f64);
    let s = (i % 64) as f64 / 64.0;
    let round = |v: f64| if double { v } else { v as f32 as f64 };
    let mut sum = 0.0;
    for c in 0..4 {
        for x0 in [s + c as f64, s + c as f64 + 0.5] {
            let mut x = round(x0);
            for _ in 0..STEPS_PER_TRIP * ITERS {
                x = x * a + b;
            }
            sum += x;
        }
    }
    sum
}

/// Relative tolerance of the result (see the module docs).
fn tolerance(double: bool) -> f64 {
    let eps = if double {
        f64::EPSILON
    } else {
        f32::EPSILON as f64
    };
    2.0 * (STEPS_PER_TRIP * ITERS) as f64 * eps + f32::EPSILON as f64
}

fn defines(double: bool) -> Vec<Define> {
    if double {
        vec![Define::flag("DOUBLE")]
    } else {
        vec![]
    }
}

/// Flops of `reps` kernels: per thread and trip, 2 chains × [`STEPS_PER_TRIP`] vec4 FMAs of
/// 4 lanes × 2 flops.
fn flops(threads: usize, reps: u32) -> f64 {
    threads as f64 * ITERS as f64 * (2 * STEPS_PER_TRIP) as f64 * 8.0 * reps as f64
}

fn check(got: &[f32], double: bool) -> (f64, f64) {
    let table: Vec<f64> = (0..64).map(|i| reference(i, double)).collect();
    let want: Vec<f64> = (0..got.len()).map(|i| table[i % 64]).collect();
    (max_rel_error(got, &want), tolerance(double))
}

/// What a run measured: `who` × the steps of each of the two chains (one description for
/// the compute and the fragment kernels, from the same constants as [`flops`]).
fn what(who: &str, double: bool) -> String {
    format!(
        "{who} × {} {} FMA steps × 2 chains",
        STEPS_PER_TRIP * ITERS,
        if double { "dvec4" } else { "vec4" }
    )
}

fn prec(double: bool) -> &'static str {
    if double { "f64" } else { "f32" }
}

/// FMA throughput of a compute dispatch of `threads` invocations.
fn compute(gl: &Gl, s: &Settings, double: bool) -> Result<Measurement, GlError> {
    if double && !gl.info().fp64 {
        return Err(GlError::Unsupported("fp64 in shaders".into()));
    }
    let threads = s.fma_threads as usize;
    let prog = Program::compute(gl, "bench/fma.comp", &defines(double))?;
    let y = Buffer::<f32>::zeroed(gl, threads)?;
    y.bind(0);
    let (a, b) = coefficients();
    prog.set_i32("u_iters", ITERS as i32);
    prog.set_f32("u_a", a);
    prog.set_f32("u_b", b);
    let groups = groups_256(threads);
    let (t, reps) = time_kernel(gl, s, || {
        prog.dispatch(groups)?;
        gl.storage_barrier();
        Ok(())
    })?;
    let got = y.read()?;
    Ok(Measurement::new(
        &format!("fma.compute.{}", prec(double)),
        what(&format!("compute, {threads} invocations"), double),
        Unit::Gflops,
        flops(threads, reps),
        reps,
        t,
        Some(check(&got, double)),
    ))
}

/// FMA throughput of a fragment pass over a square of about `threads` fragments.
fn fragment(gl: &Gl, s: &Settings, double: bool) -> Result<Measurement, GlError> {
    if double && !gl.info().fp64 {
        return Err(GlError::Unsupported("fp64 in shaders".into()));
    }
    let side = (s.fma_threads as f64).sqrt() as u32;
    let prog = Program::fragment(gl, "bench/fma.frag", &defines(double))?;
    let dst = RenderTexture::new(gl, TexTarget::Rect, Format::R32F, side, side, None)?;
    let quads = QuadBatch::new(gl, &[Quad::identity(Rect::full(side, side))])?;
    let (a, b) = coefficients();
    prog.set_i32("u_iters", ITERS as i32);
    prog.set_f32("u_a", a);
    prog.set_f32("u_b", b);
    prog.set_f32("u_width", side as f32);
    let (t, reps) = time_kernel(gl, s, || {
        dst.bind();
        quads.draw(&prog, side, side)
    })?;
    let got = dst.texture().read()?;
    let threads = side as usize * side as usize;
    Ok(Measurement::new(
        &format!("fma.fragment.{}", prec(double)),
        what(&format!("fragment pass, {side}² fragments"), double),
        Unit::Gflops,
        flops(threads, reps),
        reps,
        t,
        Some(check(&got, double)),
    ))
}

pub(super) fn steps<'a>(gl: &'a Gl, s: &'a Settings, out: &mut Vec<Step<'a>>) {
    for double in [false, true] {
        out.push((
            format!("fma.compute.{}", prec(double)),
            Box::new(move || compute(gl, s, double)),
        ));
        out.push((
            format!("fma.fragment.{}", prec(double)),
            Box::new(move || fragment(gl, s, double)),
        ));
    }
}
