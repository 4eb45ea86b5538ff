//! Steady clocks: before each pass the device is warmed with a timed kernel until two
//! successive timings agree within [`AGREE`](crate::gl::steady::AGREE) (BabelStream's repetitions, the Empirical
//! Roofline Toolkit's trials), bounded by a time cap ([`super::Settings::warm_cap`]).
//!
//! # Why
//! A GPU idles between the bench's passes — each pass is a process of its own, which makes
//! its context and compiles its shaders before its first kernel — and an idle GPU drops its
//! clocks, so a pass that starts cold measures the device's power state (on the H200 the
//! passes of one roof disagreed by a factor, issue 36).
//!
//! # The kernel
//! The SSBO copy of the bench ([`super::memory`], `vec4`, [`BYTES`] per array; on a device
//! without compute shaders, GL 3.3, the render-target write of `fill.frag` over a target of
//! [`BYTES`]), repeated in each timed run until a run lasts at least
//! [`super::Settings::min_run_ms`] (one calibration call sets the count). It moves memory and
//! keeps every core busy, so both the memory and the core clocks are raised. The warm-up ends at the first run within
//! [`AGREE`](crate::gl::steady::AGREE) of the run before it, or at the cap (recorded as not settled); what it did is
//! in the profile ([`WarmUp`], `DeviceProfile::warm_up`).

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::kernel::groups_256;
use super::settings::Settings;
use crate::gl::measure::measure_gpu;
use crate::gl::steady;
use crate::gl::timing::TimingPlan;
use crate::gl::{
    Buffer, Define, Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget,
};

/// Bytes of each of the warm-up kernel's two arrays.
pub const BYTES: usize = 8 << 20;

/// What a warm-up did before one pass.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WarmUp {
    /// The pass it preceded (0-based), and where: `child` (a pass's own process) or
    /// `parent` (the process that runs the tables: fixed costs, host transfers).
    pub pass: u32,
    pub process: String,
    /// Timed runs made.
    pub runs: u32,
    /// Wall time of the whole warm-up (calibration included), ms.
    pub ms: f64,
    /// Each timed run, ms, in order.
    pub run_ms: Vec<f64>,
    /// Whether the last two runs agreed within [`AGREE`](crate::gl::steady::AGREE) (else the cap ended it).
    pub settled: bool,
    /// Why there was no warm-up (a GL error), or empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl WarmUp {
    /// One line: `pass 1 (child): 4 runs, 83 ms, settled`.
    pub fn describe(&self) -> String {
        if !self.note.is_empty() {
            return format!(
                "pass {} ({}): not warmed ({})",
                self.pass + 1,
                self.process,
                self.note
            );
        }
        let pass = if self.process.contains("before") {
            String::new()
        } else {
            format!("pass {} ", self.pass + 1)
        };
        format!(
            "{pass}({}): {} runs, {:.0} ms, {}",
            self.process,
            self.runs,
            self.ms,
            if self.settled {
                "settled"
            } else {
                "not settled (cap)"
            }
        )
    }
}

/// Warms the device before pass `pass` in `process` (module docs).
pub fn warm_up(gl: &Gl, s: &Settings, pass: u32, process: &str) -> WarmUp {
    let t0 = Instant::now();
    let mut w = WarmUp {
        pass,
        process: process.to_string(),
        ..WarmUp::default()
    };
    let done = match kernel(gl, s, &mut w) {
        Err(GlError::Unsupported(_)) => fragment_kernel(gl, s, &mut w),
        r => r,
    };
    if let Err(e) = done {
        w.note = e.to_string();
    }
    w.ms = t0.elapsed().as_secs_f64() * 1e3;
    w
}

fn kernel(gl: &Gl, s: &Settings, w: &mut WarmUp) -> Result<(), GlError> {
    let n = BYTES / 16;
    let defines = [Define::new("VEC", "vec4"), Define::new("READS", 16)];
    let prog = Program::compute(gl, "bench/ssbo_copy.comp", &defines)?;
    let x = Buffer::<[f32; 4]>::from_slice(gl, &vec![[1.0f32; 4]; n])?;
    let y = Buffer::<[f32; 4]>::zeroed(gl, n)?;
    x.bind(0);
    y.bind(1);
    prog.set_u32("n", n as u32);
    let groups = groups_256(n);
    let call = || -> Result<(), GlError> {
        prog.dispatch(groups)?;
        gl.storage_barrier();
        Ok(())
    };
    settle(gl, s, w, call)
}

/// The warm-up of a device without compute shaders: render-target writes (module docs).
fn fragment_kernel(gl: &Gl, s: &Settings, w: &mut WarmUp) -> Result<(), GlError> {
    let side = ((BYTES / 16) as f64).sqrt() as u32;
    let dst = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, side, side, None)?;
    let prog = Program::fragment(gl, "bench/fill.frag", &[])?;
    let quads = QuadBatch::new(gl, &[Quad::identity(Rect::full(side, side))])?;
    prog.set_f32("u_value", 3.0);
    settle(gl, s, w, || {
        dst.bind();
        quads.draw(&prog, side, side)
    })
}

/// Times runs of `call` (repeated to [`Settings::min_run_ms`]) until they settle
/// ([`steady::settle`], the re-warm's loop).
fn settle(
    gl: &Gl,
    s: &Settings,
    w: &mut WarmUp,
    call: impl Fn() -> Result<(), GlError>,
) -> Result<(), GlError> {
    let (runs, settled) = steady::settle(s.warm_cap, s.min_run_ms, |k| {
        let batch = || (0..k).try_for_each(|_| call());
        measure_gpu(gl, TimingPlan::once(), batch).map(|t| t.median_ms)
    })?;
    w.runs = runs.len() as u32;
    w.run_ms = runs;
    w.settled = settled;
    Ok(())
}
