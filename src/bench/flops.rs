//! FMA throughput, fp32 and fp64, in compute (`fma.comp`) and fragment (`fma.frag`) shaders.
//!
//! Each invocation (or fragment) `i` runs `C` independent `vec4` chains (`dvec4` for fp64),
//! `x ← a·x + b` for `8·iters` steps, from `x_c = s + (0, 1, 2, 3) + c/2`,
//! `s = (i mod 64) / 64`, and writes `Σ_c Σ_lanes x_c`. One step of one chain is 4 FMAs,
//! 8 flops: a kernel does `threads · iters · 8 · C · 8` flops. A chain is a dependency chain
//! (each FMA waits for the last), so a core needs about `latency × FMA units` independent
//! FMAs in flight to reach its throughput; the kernel runs with `C` = 2, 4 and 8 and the row
//! keeps the best (clpeak and the Empirical Roofline Toolkit vary the same way), so that the
//! roof is the throughput, not the latency, whatever the vector width and register file.
//! `a`, `b` are uniforms and the seeds come from the invocation index (nothing folds), and
//! the sums are stored (nothing is dead code).
//!
//! The invocations grow from [`FROM_THREADS`] by 4× to [`super::Settings::fma_threads`] while
//! one call of the lightest kernel (2 chains) lasts less than [`MIN_CALL_MS`] and the row's
//! time share allows (`ladder::grow`). On a GPU that is the mode's count (a call of about a
//! millisecond at a datacenter GPU's fragment FMA rate); on a software renderer, as many as
//! make a call long enough that its launch costs little beside it, which on softpipe is far
//! fewer than the mode's count (issue 36).
//! The count reached and the counts not reached are in the row (`what`,
//! [`super::Measurement::unreached`]).
//!
//! With `a = 1 − 1/(8·iters)` and `b = 1 − a` each chain tends to 1 without reaching it, so
//! the result still depends on the seed and is checked against the same recurrence in f64.
//! Error bound: each step adds at most one rounding (ε) and shrinks the earlier errors by
//! `a`, so the error stays below `ε / (1 − a) = 8·iters·ε` relative; the tolerance is twice
//! that, plus the final rounding to f32.

use super::kernel::{Step, groups_256, time_dispatch, time_kernel};
use super::ladder::grow;
use super::measurement::{Measurement, Unit};
use super::settings::Settings;
use crate::gl::timing::Timing;
use crate::gl::{
    Buffer, Define, Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget,
};
use crate::stats::max_rel_error;

/// Loop trips of the kernel: each trip is `STEP8`, [`STEPS_PER_TRIP`] steps of every chain.
const ITERS: u32 = 64;

/// Steps of one chain per loop trip (`STEP8` = 8 × `STEP`, one step of each chain).
const STEPS_PER_TRIP: u32 = 8;

/// The chain counts tried; the row keeps the fastest.
const CHAINS: [u32; 3] = [2, 4, 8];

/// The fewest invocations the FMA kernels start from (module docs).
pub const FROM_THREADS: usize = 256;
/// A call of the 2-chain kernel at least this long stops the invocations' growth.
pub const MIN_CALL_MS: f64 = 2.0;

fn coefficients() -> (f32, f32) {
    let a = 1.0 - 1.0 / ((STEPS_PER_TRIP * ITERS) as f32);
    (a, 1.0 - a)
}

/// An fp64 kernel needs fp64 in shaders.
fn needs_fp64(gl: &Gl, double: bool) -> Result<(), GlError> {
    if double && !gl.info().fp64 {
        return Err(GlError::Unsupported("fp64 in shaders".into()));
    }
    Ok(())
}

/// The chains' uniforms, the same in the compute and the fragment kernel: the trip count and
/// the coefficients [`coefficients`] gives (the CPU reference uses the same).
fn set_chain_uniforms(prog: &Program) {
    let (a, b) = coefficients();
    prog.set_i32("u_iters", ITERS as i32);
    prog.set_f32("u_a", a);
    prog.set_f32("u_b", b);
}

/// The CPU reference of invocation `i` with `chains` chains (f64 arithmetic; `a`, `b` as the
/// shader sees them).
fn reference(i: usize, double: bool, chains: u32) -> f64 {
    let (a, b) = coefficients();
    let (a, b) = (a as f64, b as f64);
    let s = (i % 64) as f64 / 64.0;
    let round = |v: f64| if double { v } else { v as f32 as f64 };
    let mut sum = 0.0;
    for lane in 0..4 {
        for c in 0..chains {
            let mut x = round(round(s + lane as f64) + round(c as f64 * 0.5));
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

fn defines(double: bool, chains: u32) -> Vec<Define> {
    let mut d = vec![Define::new("CHAINS", chains)];
    if double {
        d.push(Define::flag("DOUBLE"));
    }
    d
}

/// Flops of `reps` kernels: per thread and trip, `chains` × [`STEPS_PER_TRIP`] vec4 FMAs of
/// 4 lanes × 2 flops.
fn flops(threads: usize, reps: u32, chains: u32) -> f64 {
    threads as f64 * ITERS as f64 * (chains * STEPS_PER_TRIP) as f64 * 8.0 * reps as f64
}

fn check(got: &[f32], double: bool, chains: u32) -> (f64, f64) {
    let table: Vec<f64> = (0..64).map(|i| reference(i, double, chains)).collect();
    let want: Vec<f64> = (0..got.len()).map(|i| table[i % 64]).collect();
    (max_rel_error(got, &want), tolerance(double))
}

/// What a run measured: `who` × the steps of each chain (one description for the compute
/// and the fragment kernels, from the same constants as [`flops`]).
fn what(who: &str, double: bool, chains: u32) -> String {
    format!(
        "{who} × {} {} FMA steps × {chains} chains (best of {CHAINS:?} chains)",
        STEPS_PER_TRIP * ITERS,
        if double { "dvec4" } else { "vec4" }
    )
}

/// The fastest of the chain counts (a failed check or GL error of any count fails the row).
fn best_of_chains(
    mut run: impl FnMut(u32) -> Result<Measurement, GlError>,
) -> Result<Measurement, GlError> {
    let mut best: Option<Measurement> = None;
    for c in CHAINS {
        let m = run(c)?;
        if m.value.is_none() {
            return Ok(m);
        }
        if best.as_ref().is_none_or(|b| m.value > b.value) {
            best = Some(m);
        }
    }
    Ok(best.expect("CHAINS is not empty"))
}

fn prec(double: bool) -> &'static str {
    if double { "f64" } else { "f32" }
}

/// What one FMA kernel ran: its timing and calls per run ([`time_kernel`]), the invocations
/// it ran, who it was (for the row's `what`) and its output.
struct Ran {
    timed: (Timing, u32),
    threads: usize,
    who: String,
    got: Vec<f32>,
}

/// One pipeline's FMA kernel: runs `threads` invocations (about, for a fragment pass) of
/// the kernel built with `defines`.
type Kernel = fn(&Gl, &Settings, &[Define], usize) -> Result<Ran, GlError>;

/// The pipelines the FMA rows are measured in, by their key's name.
const PIPELINES: [(&str, Kernel); 2] = [("compute", compute), ("fragment", fragment)];

/// A compute dispatch of `threads` invocations.
fn compute(gl: &Gl, s: &Settings, defines: &[Define], threads: usize) -> Result<Ran, GlError> {
    let prog = Program::compute(gl, "bench/fma.comp", defines)?;
    let y = Buffer::<f32>::zeroed(gl, threads)?;
    y.bind(0);
    set_chain_uniforms(&prog);
    let timed = time_dispatch(gl, s, &prog, groups_256(threads))?;
    Ok(Ran {
        timed,
        threads,
        who: format!("compute, {threads} invocations"),
        got: y.read()?,
    })
}

/// A fragment pass over a square of about `threads` fragments.
fn fragment(gl: &Gl, s: &Settings, defines: &[Define], threads: usize) -> Result<Ran, GlError> {
    let side = (threads as f64).sqrt() as u32;
    let prog = Program::fragment(gl, "bench/fma.frag", defines)?;
    let dst = RenderTexture::new(gl, TexTarget::Rect, Format::R32F, side, side, None)?;
    let quads = QuadBatch::new(gl, &[Quad::identity(Rect::full(side, side))])?;
    set_chain_uniforms(&prog);
    prog.set_f32("u_width", side as f32);
    let timed = time_kernel(gl, s, || {
        dst.bind();
        quads.draw(&prog, side, side)
    })?;
    Ok(Ran {
        timed,
        threads: side as usize * side as usize,
        who: format!("fragment pass, {side}² fragments"),
        got: dst.texture().read()?,
    })
}

/// The row of the FMA kernel of `pipeline` (`compute`, `fragment`) with `chains` chains at
/// about `threads` invocations: its flops over its time, its output checked against the
/// reference.
fn fma(
    gl: &Gl,
    s: &Settings,
    (pipeline, kernel): (&str, Kernel),
    double: bool,
    chains: u32,
    threads: usize,
) -> Result<Measurement, GlError> {
    needs_fp64(gl, double)?;
    let ran = kernel(gl, s, &defines(double, chains), threads)?;
    let (t, reps) = ran.timed;
    Ok(Measurement::new(
        &format!("fma.{pipeline}.{}", prec(double)),
        what(&ran.who, double, chains),
        Unit::Gflops,
        flops(ran.threads, reps, chains),
        reps,
        t,
        Some(check(&ran.got, double, chains)),
    ))
}

/// The row of one FMA kernel (`run(settings, chains, threads)`): the invocations grown as
/// the module docs say (one call of the lightest kernel per count, [`probe`]), then the best
/// of [`CHAINS`] at that count.
fn row(
    s: &Settings,
    run: impl Fn(&Settings, u32, usize) -> Result<Measurement, GlError>,
) -> Result<Measurement, GlError> {
    let one = probe(s);
    // A growth step makes two calls: the calibration and the one timed run of [`probe`].
    let (_, threads, unreached) = grow(
        FROM_THREADS,
        s.fma_threads as usize,
        MIN_CALL_MS,
        2.0,
        |n| {
            let m = run(&one, CHAINS[0], n)?;
            let call_ms = m.timing.min_ms / m.reps.max(1) as f64;
            Ok(((), call_ms))
        },
    )?;
    let mut m = best_of_chains(|c| run(s, c, threads))?;
    m.unreached = unreached;
    if !m.unreached.is_empty() {
        m.what = format!(
            "{} (invocations grown to {threads}: one call ≥ {MIN_CALL_MS} ms or the time \
             share spent)",
            m.what
        );
    }
    Ok(m)
}

pub(super) fn steps<'a>(gl: &'a Gl, s: &'a Settings, out: &mut Vec<Step<'a>>) {
    for double in [false, true] {
        for p in PIPELINES {
            out.push((
                format!("fma.{}.{}", p.0, prec(double)),
                Box::new(move || row(s, |s, c, n| fma(gl, s, p, double, c, n))),
            ));
        }
    }
}

/// The settings of a growth step: one timed call, no repetition (only its length is used).
fn probe(s: &Settings) -> Settings {
    Settings {
        timing: crate::gl::timing::TimingPlan::once(),
        min_run_ms: 0.0,
        ..*s
    }
}
