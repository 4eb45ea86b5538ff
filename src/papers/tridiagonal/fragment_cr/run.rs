//! One solve of a [`FragmentCr`], pass group by pass group: pad (`P0`), the reduction levels
//! of eq. (15), the switch method's gather, the fill levels of eq. (16) and the collect of
//! `x_1 … x_n`. Each group is timed (`glFinish`-bracketed, with [`CrParams::profile`]) and
//! its fetches counted (instrumented shaders) as a whole; every pass is shown to the
//! observer before and after it draws ([`cr_trace`] says what it is).

use std::time::Instant;

use super::params::{CrParams, CrProfile, FetchCounts};
use super::solver::FragmentCr;
use super::trace as cr_trace;
use crate::gl::observe::{Observer, observed};
use crate::gl::{
    Buffer, Gl, PassObserver, PingPong, Program, QuadBatch, Rect, RenderTexture, Texture,
};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::layout::CrLayout;

/// The solver's shape and options, as every pass reads them.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    layout: &'a CrLayout,
    params: &'a CrParams,
    cols: u32,
}

impl Ctx<'_> {
    /// Systems per tile column (the height of every pass).
    fn b(&self) -> u32 {
        self.layout.batch as u32
    }

    /// The rectangle a pass covers in every tile column (what the copy method copies).
    fn span(&self, x: u32, w: u32, stride: u32) -> Rect {
        Rect::new(x, 0, (self.cols - 1) * stride + w, self.b())
    }
}

/// The pass groups a solve times and counts (pad and collect share one fetch count).
#[derive(Clone, Copy)]
enum Group {
    Pad,
    Reduce,
    Gather,
    Fill,
    Collect,
}

/// The times and fetch counts of one solve's pass groups, and how to take them.
struct Phases<'a> {
    gl: &'a Gl,
    profile: bool,
    counter: Option<&'a Buffer<u32>>,
    fetches: FetchCounts,
    times: CrProfile,
}

impl Phases<'_> {
    /// Runs `f`, bracketed by `glFinish` when profiling, and adds its time to the group's
    /// slot; with fetch counting, adds the counter's increments to the group's count.
    fn phase(
        &mut self,
        group: Group,
        f: impl FnOnce() -> Result<(), TridiagonalError>,
    ) -> Result<(), TridiagonalError> {
        let (slot, count) = match group {
            Group::Pad => (&mut self.times.pad, &mut self.fetches.copy),
            Group::Reduce => (&mut self.times.reduce, &mut self.fetches.reduce),
            Group::Gather => (&mut self.times.gather, &mut self.fetches.gather),
            Group::Fill => (&mut self.times.fill, &mut self.fetches.fill),
            Group::Collect => (&mut self.times.collect, &mut self.fetches.copy),
        };
        if let Some(c) = self.counter {
            c.upload(&[0, 0])?;
            c.bind(7);
        }
        let t0 = self.profile.then(|| {
            self.gl.finish();
            Instant::now()
        });
        f()?;
        if let Some(t0) = t0 {
            self.gl.finish();
            *slot += t0.elapsed();
        }
        if let Some(c) = self.counter {
            self.gl.storage_barrier();
            let v = c.read()?;
            count[0] += v[0] as u64;
            count[1] += v[1] as u64;
        }
        Ok(())
    }
}

impl FragmentCr {
    /// One solve of the systems in `systems`, into `self.out`.
    pub(super) fn run(
        &mut self,
        systems: &Texture,
        mut obs: Observer<'_>,
    ) -> Result<(), TridiagonalError> {
        let cx = Ctx {
            layout: &self.layout,
            params: &self.params,
            cols: self.cols,
        };
        let mut ph = Phases {
            gl: &self.gl,
            profile: self.params.profile,
            counter: self.counter.as_ref(),
            fetches: FetchCounts::default(),
            times: CrProfile::default(),
        };
        let (quads, copy_p) = (&self.quads, &self.copy_p);
        // Pad: copy the caller's n columns into the identity-padded P0.
        if let Some(p0) = &self.p0 {
            ph.phase(Group::Pad, || {
                pad(cx, systems, p0, copy_p, &quads.pad, &mut obs)
            })?;
        }
        let p0: &Texture = self.p0.as_ref().map(|t| t.texture()).unwrap_or(systems);
        // Reduction, eq. (15): level 1 reads P0, level s > 1 reads the ping-pong input.
        let (p, reduce) = (&mut self.p, &self.reduce);
        ph.phase(Group::Reduce, || {
            reduce_levels(cx, p0, p, reduce, &quads.reduce, obs.as_deref_mut())
        })?;
        if let Some(quad) = &quads.gather {
            ph.phase(Group::Gather, || {
                gather(cx, p, copy_p, quad, obs.as_deref_mut())
            })?;
        }
        // Filling, eq. (16): s = q … 1, X1/X2 ping-pong; level s reads level s-1 of P.
        let (x, fill) = (&mut self.x, &self.fill);
        ph.phase(Group::Fill, || {
            fill_levels(cx, p0, p, x, fill, &quads.fill, obs.as_deref_mut())
        })?;
        let (out, copy_x) = (&self.out, &self.copy_x);
        ph.phase(Group::Collect, || {
            collect(cx, x, out, copy_x, &quads.collect, &mut obs)
        })?;
        self.fetches = ph.fetches;
        self.profile = ph.times;
        Ok(())
    }
}

/// Copies the caller's `n` columns into the identity-padded `P0`.
fn pad(
    cx: Ctx,
    systems: &Texture,
    p0: &RenderTexture,
    copy_p: &Program,
    quad: &QuadBatch,
    obs: &mut Observer<'_>,
) -> Result<(), TridiagonalError> {
    let info = || cr_trace::pad(cx.layout, cx.params, cx.cols, systems, p0.texture());
    observed(obs, info, || {
        p0.bind();
        copy_p.bind_texture(0, "u_src", systems);
        quad.draw(copy_p, p0.texture().width(), cx.b())?;
        Ok(())
    })
}

/// The reduction levels `s = 1 … q-1` (eq. 15), one pass each over the P1/P2 ping-pong.
fn reduce_levels(
    cx: Ctx,
    p0: &Texture,
    p: &mut PingPong,
    reduce: &Program,
    quads: &[QuadBatch],
    mut obs: Option<&mut (dyn PassObserver + '_)>,
) -> Result<(), TridiagonalError> {
    let (layout, params, cols, b) = (cx.layout, cx.params, cx.cols, cx.b());
    let (lw, pw) = (layout.p_width, layout.p_width * cols);
    for (l, quad) in layout.levels.iter().zip(quads) {
        let reading = p.pair().1;
        if let Some(o) = obs.as_deref_mut() {
            o.before(&cr_trace::reduce(layout, params, cols, l, p0, p, reading))?;
        }
        p.pass(cx.span(l.ps, l.pc, lw), |input| {
            reduce.bind_texture(0, "u_p", if l.s == 1 { p0 } else { input });
            quad.draw(reduce, pw, b)
        })?;
        if let Some(o) = obs.as_deref_mut() {
            o.after(&cr_trace::reduce(layout, params, cols, l, p0, p, reading))?;
        }
    }
    Ok(())
}

/// The switch method's gather: the even levels' runs into the odd levels' buffer.
fn gather(
    cx: Ctx,
    p: &mut PingPong,
    copy_p: &Program,
    quad: &QuadBatch,
    mut obs: Option<&mut (dyn PassObserver + '_)>,
) -> Result<(), TridiagonalError> {
    let (layout, params, cols, b) = (cx.layout, cx.params, cx.cols, cx.b());
    let pw = layout.p_width * cols;
    if layout.levels.len() % 2 == 1 {
        // The odd levels' buffer is the input: switch (no draw) so that the
        // pass reads the even levels and renders into the odd ones' buffer.
        p.end_pass(Rect::new(0, 0, 0, 0))?;
    }
    let reading = p.pair().1;
    if let Some(o) = obs.as_deref_mut() {
        o.before(&cr_trace::gather(layout, params, cols, p, reading))?;
    }
    p.pass(Rect::new(0, 0, pw, b), |input| {
        copy_p.bind_texture(0, "u_src", input);
        quad.draw(copy_p, pw, b)
    })?;
    if let Some(o) = obs {
        o.after(&cr_trace::gather(layout, params, cols, p, reading))?;
    }
    Ok(())
}

/// The fill levels `s = q … 1` (eq. 16) over the X1/X2 ping-pong; level `s` reads level
/// `s-1` of the reduction (`P0` for `s = 1`).
fn fill_levels(
    cx: Ctx,
    p0: &Texture,
    p: &PingPong,
    x: &mut PingPong,
    fill: &Program,
    quads: &[QuadBatch],
    mut obs: Option<&mut (dyn PassObserver + '_)>,
) -> Result<(), TridiagonalError> {
    let (layout, params, cols, b) = (cx.layout, cx.params, cx.cols, cx.b());
    let levels_tex = p.input();
    let levels_label = crate::gl::observe::pair_label(p.method(), "P", p.pair().1);
    let xw = layout.np + 3;
    for s in (1..=layout.q).rev() {
        let reading = x.pair().1;
        let (lt, ll) = if s == 1 {
            (p0, "P0")
        } else {
            (levels_tex, levels_label.as_str())
        };
        if let Some(o) = obs.as_deref_mut() {
            o.before(&cr_trace::fill(layout, params, cols, s, lt, ll, x, reading))?;
        }
        x.pass(cx.span(0, layout.fill_width(s), xw), |input| {
            fill.bind_texture(0, "u_x", input);
            fill.bind_texture(1, "u_p", lt);
            quads[s - 1].draw(fill, xw * cols, b)
        })?;
        if let Some(o) = obs.as_deref_mut() {
            o.after(&cr_trace::fill(layout, params, cols, s, lt, ll, x, reading))?;
        }
    }
    Ok(())
}

/// Collects `x_1 … x_n` of the last fill level into the result texture.
fn collect(
    cx: Ctx,
    x: &PingPong,
    out: &RenderTexture,
    copy_x: &Program,
    quad: &QuadBatch,
    obs: &mut Observer<'_>,
) -> Result<(), TridiagonalError> {
    let info = || cr_trace::collect(cx.layout, cx.params, cx.cols, x, out.texture());
    observed(obs, info, || {
        out.bind();
        copy_x.bind_texture(0, "u_src", x.input());
        quad.draw(copy_x, out.texture().width(), cx.b())?;
        Ok(())
    })
}
