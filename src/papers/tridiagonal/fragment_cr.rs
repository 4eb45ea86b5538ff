//! Cyclic reduction in fragment shaders, as §3.2 built it (Fig. 2–4, 7/8).
//!
//! - `P0`: the original system, one RGBA32F texel `P = (a, b, c, k)` per equation, one
//!   system per row (Fig. 7: every row of the batch is computed by the same quad). When `n`
//!   is not `2^q - 1`, `P0` is a padded copy whose extra equations are identity rows
//!   `(0, 1, 0, 0)`: their unknowns are 0, so the first `n` unknowns are unchanged.
//! - Reduction: level `s = 1 … q-1` is one quad over its run `[PS_s, PS_s + PC_s)` of the
//!   P1/P2 ping-pong ([`PingPong`], copy or switch method), reading level `s-1` (or `P0`).
//!   Under the copy method every level's run is copied back into the one input texture, so
//!   the runs are gathered as they are made; under the switch method odd levels sit in P1 and
//!   even levels in P2, and one extra pass gathers them "into the buffer that holds more data"
//!   (§3.2, Fig. 2): the even levels' runs (`Σ_{s even} PC_s`, the smaller set) are copied
//!   into P1, which already holds the odd levels (level 1 alone is `N'/2 − 1` of the
//!   `N' − q − 1` texels). When the last level is odd, P1 is the current input: the gather
//!   first switches the two buffers (no draw), then renders into P1.
//! - Batches (Fig. 7/8) are rows of one 2D texture. 3D batches (Fig. 9) are tiles side by
//!   side: [`FragmentCr::tiled`] lays `cols` columns of `rows` systems next to each other in
//!   every buffer (each column of tiles has its own P0/P1/P2/X run layout) and draws every
//!   level as one draw call of `cols` quads (one quad when `cols = 1`); see [`super::tiled`].
//! - Filling: levels `s = q … 1` ping-pong between two R32F buffers X1/X2 (Fig. 3), each
//!   level one quad; a last pass collects `x_1 … x_n` into the result texture.
//!
//! Every coordinate is delivered by the rasterizer from per-vertex texture coordinates
//! precomputed in [`CrLayout`] (see [`super::layout`] for the exact half-texel convention).

use std::time::{Duration, Instant};

use super::cr_trace;
use super::layout::{CrLayout, tiles};
use super::{BatchSolver, TridiagonalError, check_systems, find_non_finite};
use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::{
    Buffer, Format, Gl, PassObserver, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect,
    RenderTexture, TexTarget, Texture,
};
use crate::papers::lu::arith2005::Arith2005;
use std::rc::Rc;

/// RGBA texels one reduction fragment fetches (`P_i`, `P_{i∓d}`: cr_reduce.frag).
pub const REDUCE_TEXELS: u64 = 3;
/// Fetches of a fill fragment that solves eq. (16): one RGBA `P` texel and two `x` values.
pub const FILL_P_TEXELS: u64 = 1;
pub const FILL_X_VALUES: u64 = 2;

/// Exact static count of the fragment CR's fetches `[texels, floats]` per phase
/// (reduction, gather, fill, pad + collect): each reduction fragment fetches 3 RGBA texels;
/// each fill fragment 1 x (copied unknown) or 2 x + 1 RGBA texel (new unknown); the gather
/// (switch method: the even levels' runs), pad and collect one texel per fragment.
pub fn static_fetches(l: &CrLayout, method: PingPongMethod) -> [[u64; 2]; 4] {
    let b = l.batch as u64;
    let red: u64 = l.levels.iter().map(|v| v.pc as u64).sum::<u64>() * b;
    let mut fill = [0u64; 2];
    for s in 1..=l.q {
        let w = l.fill_width(s) as u64;
        let (odd, even) = (w / 2, w - w / 2);
        fill[0] += b * (even + (FILL_P_TEXELS + FILL_X_VALUES) * odd);
        fill[1] += b * (even + (4 * FILL_P_TEXELS + FILL_X_VALUES) * odd);
    }
    let gather: u64 = if method == PingPongMethod::Switch && l.levels.len() >= 2 {
        let even: u64 = l
            .levels
            .iter()
            .filter(|v| v.s % 2 == 0)
            .map(|v| v.pc as u64)
            .sum();
        even * b
    } else {
        0
    };
    let pad = u64::from(l.padded() as usize != l.n);
    let copy = [
        (l.n as u64) * b * (1 + pad),
        (l.n as u64) * b * (1 + 4 * pad),
    ];
    [
        [REDUCE_TEXELS * red, 4 * REDUCE_TEXELS * red],
        [gather, 4 * gather],
        fill,
        copy,
    ]
}

/// Flops of one reduction fragment (cr_reduce.frag): α, γ (2 divisions), `a' = α a`,
/// `c' = γ c` (1 each), `b'` and `k'` (2 FMAs each, 4 flops): 12 (a division counts 1, an
/// FMA 2).
pub const REDUCE_FLOPS: f64 = 12.0;
/// Flops of a fill fragment that solves eq. (16): `(k − a x_l − c x_r) / b`, 2 FMAs and a
/// division: 5 (a copied unknown does none).
pub const FILL_FLOPS: f64 = 5.0;

/// The work of one [`FragmentCr`] solve of `cols` tile columns of layout `l` (the row's
/// timed run), from the pass structure of [`FragmentCr`]'s `run` and the shaders:
///
/// ```text
/// bytes  = 4·F                                  every fetched float ([`static_fetches`], Table 1's count)
///        + 16·b·(n·[padded] + Σ_s PC_s + G)     RGBA32F written: pad, reduction, gather
///        + 4·b·(Σ_{s=1}^{q} W_s + n)            R32F written: fill levels, collect
///        + copy method: 2·(16·b·Σ_s PC_s + 4·b·Σ_s W_s)   each pass's rectangle copied back
/// flops  = 12·b·Σ_s PC_s + 5·b·Σ_s ⌊W_s/2⌋
/// passes = [padded] + (q − 1) + [gather] + q + 1
/// ```
///
/// times `cols` (one draw call covers every tile column), with `b` the systems per column,
/// `PC_s` the reduction runs, `W_s` the fill widths, `G = Σ_{s even} PC_s` the switch
/// method's gather (0 under copy), and the copy method's `glCopyTexSubImage2D` counted as a
/// read and a write of its rectangle. No cache model: every fetch is counted once, though
/// neighbouring fragments fetch the same texels.
pub fn cr_work(l: &CrLayout, method: PingPongMethod, cols: u32) -> Work {
    let b = l.batch as u64;
    let st = static_fetches(l, method);
    let floats: u64 = st.iter().map(|v| v[1]).sum();
    let red: u64 = l.levels.iter().map(|v| v.pc as u64).sum::<u64>() * b;
    let gather = st[1][0];
    let fill: u64 = (1..=l.q).map(|s| l.fill_width(s) as u64).sum::<u64>() * b;
    let odd: u64 = (1..=l.q).map(|s| l.fill_width(s) as u64 / 2).sum::<u64>() * b;
    let padded = l.padded() as usize != l.n;
    let n = (l.n as u64) * b;
    let written = 16 * (n * u64::from(padded) + red + gather) + 4 * (fill + n);
    let copied = match method {
        PingPongMethod::Copy => 2 * (16 * red + 4 * fill),
        PingPongMethod::Switch => 0,
    };
    let has_gather = u64::from(gather > 0);
    let c = cols as f64;
    // RGBA fetches: the reductions' and the gather's texels, the fill's P texels, the
    // padded copy's; the rest are R32F (scalar) fetches of x.
    let rgba_floats = 4 * (st[0][0] + st[1][0] + FILL_P_TEXELS * odd + n * u64::from(padded));
    let bytes = Bytes::of(&[
        (Access::TexRgba, 4.0 * rgba_floats as f64),
        (Access::TexScalar, 4.0 * (floats - rgba_floats) as f64),
        (Access::Target, written as f64),
        (Access::Copy, copied as f64),
    ]);
    Work {
        bytes: bytes.scale(c),
        flops32: c * (REDUCE_FLOPS * red as f64 + FILL_FLOPS * odd as f64),
        passes: u64::from(padded) + l.levels.len() as u64 + has_gather + l.q as u64 + 1,
        kind: Kind::Fragment,
        ..Work::default()
    }
}

/// Options of [`FragmentCr`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrParams {
    /// Ping-pong method of the P1/P2 and X1/X2 buffers.
    pub method: PingPongMethod,
    /// Read the result back after each solve and fail on a non-finite value (a zero pivot
    /// anywhere shows up as inf/NaN). On by default; turn off in timed loops.
    pub check_finite: bool,
    /// Instrumented shaders that count texture fetches (Table 1, measured).
    pub count_fetches: bool,
    /// `glFinish`-bracketed time of every pass group (which pass dominates).
    pub profile: bool,
    /// Which operations follow the 2005 arithmetic model (the `arith2005` table); IEEE by
    /// default.
    pub arith: Arith2005,
}

impl CrParams {
    pub fn new(method: PingPongMethod) -> CrParams {
        CrParams {
            method,
            check_finite: true,
            count_fetches: false,
            profile: false,
            arith: Arith2005::IEEE,
        }
    }
}

/// Texel and float fetch totals of the instrumented passes, per phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FetchCounts {
    /// `[texels, floats]` fetched by the reduction levels.
    pub reduce: [u64; 2],
    /// … by the gather pass (switch method only).
    pub gather: [u64; 2],
    /// … by the fill levels.
    pub fill: [u64; 2],
    /// … by the padding and collect passes.
    pub copy: [u64; 2],
}

/// Time per pass group of the last solve (with [`CrParams::profile`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrProfile {
    pub pad: Duration,
    pub reduce: Duration,
    pub gather: Duration,
    pub fill: Duration,
    pub collect: Duration,
}

/// The fragment-shader cyclic-reduction solver (see the module docs).
pub struct FragmentCr {
    gl: Gl,
    layout: CrLayout,
    /// Tile columns side by side (1 for a plain batch; Fig. 9's tiling otherwise).
    cols: u32,
    params: CrParams,
    name: String,
    reduce: Rc<Program>,
    fill: Rc<Program>,
    copy_p: Rc<Program>,
    copy_x: Rc<Program>,
    p0: Option<RenderTexture>,
    p: PingPong,
    x: PingPong,
    out: RenderTexture,
    pad_quad: QuadBatch,
    reduce_quads: Vec<QuadBatch>,
    gather_quads: Option<QuadBatch>,
    fill_quads: Vec<QuadBatch>,
    collect_quad: QuadBatch,
    counter: Option<Buffer<u32>>,
    fetches: FetchCounts,
    profile: CrProfile,
}

impl FragmentCr {
    /// A solver for `batch` systems of `n ≥ 1` unknowns with the given ping-pong method.
    pub fn new(
        gl: &Gl,
        n: usize,
        batch: usize,
        method: PingPongMethod,
    ) -> Result<FragmentCr, TridiagonalError> {
        Self::with_params(gl, n, batch, CrParams::new(method))
    }

    pub fn with_params(
        gl: &Gl,
        n: usize,
        batch: usize,
        params: CrParams,
    ) -> Result<FragmentCr, TridiagonalError> {
        Self::tiled(gl, n, batch, 1, params)
    }

    /// A solver for `cols` tile columns of `rows` systems of `n` unknowns each, side by side
    /// in one texture of `cols·n × rows` (Fig. 9); solve with [`FragmentCr::solve_tiled`].
    /// Tiling (`cols > 1`) needs the switch method: under the copy method one
    /// `glCopyTexSubImage2D` per pass would have to skip the other tiles' guard columns.
    pub fn tiled(
        gl: &Gl,
        n: usize,
        rows: usize,
        cols: usize,
        params: CrParams,
    ) -> Result<FragmentCr, TridiagonalError> {
        if n == 0 || rows == 0 || cols == 0 {
            return Err(TridiagonalError::Shape(format!(
                "{n} unknowns × {rows} systems × {cols} tile columns: each must be at least 1"
            )));
        }
        if cols > 1 && params.method != PingPongMethod::Switch {
            return Err(TridiagonalError::Unsupported(
                "tiled batches (Fig. 9) with the copy method: use the switch method".into(),
            ));
        }
        let layout = CrLayout::new(n, rows);
        let max = gl.info().max_rectangle_texture_size.max(0) as u64;
        let widest = (layout.np as u64 + 3) * cols as u64;
        if widest > max || rows as u64 > max {
            return Err(TridiagonalError::Unsupported(format!(
                "{n} unknowns × {rows} systems × {cols} tile columns need a {widest}×{rows} \
                 texture; the device's largest rectangle texture is {max}×{max}"
            )));
        }
        let (np, b, c) = (layout.np, rows as u32, cols as u32);
        let [reduce, fill, copy_p, copy_x] =
            super::programs::cr_programs(params.count_fetches, params.arith)
                .map(|(file, defs)| Program::fragment(gl, file, &defs));
        let (reduce, fill, copy_p, copy_x) = (reduce?, fill?, copy_p?, copy_x?);

        let padded = layout.padded();
        let p0 = if padded as usize != n {
            let t = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, padded * c, b, None)?;
            t.clear([0.0, 1.0, 0.0, 0.0]); // identity rows beyond n
            Some(t)
        } else {
            None
        };
        let pw = layout.p_width;
        let p = PingPong::new(
            gl,
            params.method,
            TexTarget::Rect,
            Format::RGBA32F,
            pw * c,
            b,
            &vec![0f32; 4 * (pw * c * b) as usize],
        )?;
        // X: N' + 1 values of the fill plus two guard columns of zeros at N'+1, N'+2 that
        // hold y^(q+1) = (x_0, x_N') for the first fill level (never written).
        let xw = np + 3;
        let x = PingPong::new(
            gl,
            params.method,
            TexTarget::Rect,
            Format::R32F,
            xw * c,
            b,
            &vec![0f32; (xw * c * b) as usize],
        )?;
        let out = RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n as u32 * c, b, None)?;

        let nn = n as u32;
        let batch = |quads: Vec<Quad>| QuadBatch::new(gl, &quads);
        let pad_quad = batch(tiles(
            Quad::identity(Rect::new(0, 0, nn, b)),
            c,
            padded,
            nn,
            nn,
        ))?;
        let reduce_quads = layout
            .levels
            .iter()
            .map(|l| {
                let src = if l.s == 1 { padded } else { pw };
                batch(tiles(layout.reduce_quad(l), c, pw, src, src))
            })
            .collect::<Result<Vec<_>, _>>()?;
        // The gather (switch method): the even levels' runs into the odd levels' buffer.
        let gather_quads = if params.method == PingPongMethod::Switch && layout.levels.len() >= 2 {
            let runs: Vec<_> = layout
                .levels
                .iter()
                .filter(|l| l.s % 2 == 0)
                .flat_map(|l| tiles(Quad::identity(Rect::new(l.ps, 0, l.pc, b)), c, pw, pw, pw))
                .collect();
            Some(batch(runs)?)
        } else {
            None
        };
        let fill_quads = (1..=layout.q)
            .map(|s| {
                let mut quad = layout.fill_quad(s);
                if s == layout.q {
                    // y^(q+1) lives in the guard columns N'+1, N'+2.
                    for t in &mut quad.tex {
                        t[0] += (np + 1) as f32;
                    }
                }
                let zw = if s == 1 { padded } else { pw };
                batch(tiles(quad, c, xw, xw, zw))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let collect_quad = batch(tiles(layout.collect_quad(), c, nn, xw, xw))?;
        let counter = if params.count_fetches {
            Some(Buffer::<u32>::zeroed(gl, 2)?)
        } else {
            None
        };
        let name = format!("CR fragment ({})", params.method);
        Ok(FragmentCr {
            gl: gl.clone(),
            layout,
            cols: c,
            params,
            name,
            reduce,
            fill,
            copy_p,
            copy_x,
            p0,
            p,
            x,
            out,
            pad_quad,
            reduce_quads,
            gather_quads,
            fill_quads,
            collect_quad,
            counter,
            fetches: FetchCounts::default(),
            profile: CrProfile::default(),
        })
    }

    pub fn layout(&self) -> &CrLayout {
        &self.layout
    }
    pub fn params(&self) -> &CrParams {
        &self.params
    }
    /// Fetch totals of the last solve (instrumented builds only; zeros otherwise).
    pub fn fetch_counts(&self) -> FetchCounts {
        self.fetches
    }
    /// Pass-group times of the last solve (with [`CrParams::profile`]).
    pub fn profile(&self) -> &CrProfile {
        &self.profile
    }
    /// Turns per-pass-group timing on or off.
    pub fn set_profiling(&mut self, on: bool) {
        self.params.profile = on;
    }
    /// Turns the finite check after each solve on or off.
    pub fn set_check_finite(&mut self, on: bool) {
        self.params.check_finite = on;
    }

    /// Solves the tiled systems of a [`FragmentCr::tiled`] solver: an RGBA32F rectangle
    /// texture of `cols·n × rows`; returns the R32F texture `cols·n × rows` of `x`.
    pub fn solve_tiled(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        self.solve_observed(systems, None)
    }

    /// [`Self::solve_tiled`] with an observer called before and after every pass (the
    /// `trace` command; [`super::cr_trace`] says what each pass is). The GL work is the same.
    pub fn solve_observed(
        &mut self,
        systems: &Texture,
        obs: Option<&mut dyn PassObserver>,
    ) -> Result<&Texture, TridiagonalError> {
        let c = self.cols as usize;
        check_systems(systems, self.layout.n * c, self.layout.batch)?;
        self.run(systems, obs)?;
        self.gl.check("cyclic reduction")?;
        if self.params.check_finite {
            find_non_finite(self.out.texture(), self.layout.n * c)?;
        }
        Ok(self.out.texture())
    }

    /// Runs `f`, bracketed by `glFinish` when profiling, and adds its time to `slot`;
    /// with fetch counting, adds the counter's increments to `count`.
    fn phase(
        gl: &Gl,
        profile: bool,
        counter: Option<&Buffer<u32>>,
        slot: &mut Duration,
        count: &mut [u64; 2],
        f: impl FnOnce() -> Result<(), TridiagonalError>,
    ) -> Result<(), TridiagonalError> {
        if let Some(c) = counter {
            c.upload(&[0, 0])?;
            c.bind(7);
        }
        let t0 = profile.then(|| {
            gl.finish();
            Instant::now()
        });
        f()?;
        if let Some(t0) = t0 {
            gl.finish();
            *slot += t0.elapsed();
        }
        if let Some(c) = counter {
            gl.storage_barrier();
            let v = c.read()?;
            count[0] += v[0] as u64;
            count[1] += v[1] as u64;
        }
        Ok(())
    }

    fn run(
        &mut self,
        systems: &Texture,
        mut obs: Option<&mut dyn PassObserver>,
    ) -> Result<(), TridiagonalError> {
        let (layout, params, cols) = (&self.layout, &self.params, self.cols);
        let (gl, prof) = (self.gl.clone(), self.params.profile);
        let counter = self.counter.as_ref();
        let mut fetches = FetchCounts::default();
        let mut times = CrProfile::default();
        let b = self.layout.batch as u32;
        let pw = self.layout.p_width * self.cols;
        // Pad: copy the caller's n columns into the identity-padded P0.
        if let Some(p0) = &self.p0 {
            Self::phase(
                &gl,
                prof,
                counter,
                &mut times.pad,
                &mut fetches.copy,
                || {
                    let info = || cr_trace::pad(layout, params, cols, systems, p0.texture());
                    if let Some(o) = obs.as_deref_mut() {
                        o.before(&info())?;
                    }
                    p0.bind();
                    self.copy_p.bind_texture(0, "u_src", systems);
                    self.pad_quad.draw(&self.copy_p, p0.texture().width(), b)?;
                    if let Some(o) = obs.as_deref_mut() {
                        o.after(&info())?;
                    }
                    Ok(())
                },
            )?;
        }
        let p0: &Texture = self.p0.as_ref().map(|t| t.texture()).unwrap_or(systems);
        // Reduction, eq. (15): level 1 reads P0, level s > 1 reads the ping-pong input.
        let (reduce, p, quads, levels) = (
            &self.reduce,
            &mut self.p,
            &self.reduce_quads,
            &self.layout.levels,
        );
        // The rectangle a pass covers in every tile column (what the copy method copies).
        let span = |x: u32, w: u32, stride: u32| Rect::new(x, 0, (self.cols - 1) * stride + w, b);
        let lw = self.layout.p_width;
        Self::phase(
            &gl,
            prof,
            counter,
            &mut times.reduce,
            &mut fetches.reduce,
            || {
                for (l, quad) in levels.iter().zip(quads) {
                    let reading = p.pair().1;
                    if let Some(o) = obs.as_deref_mut() {
                        o.before(&cr_trace::reduce(layout, params, cols, l, p0, p, reading))?;
                    }
                    p.pass(span(l.ps, l.pc, lw), |input| {
                        reduce.bind_texture(0, "u_p", if l.s == 1 { p0 } else { input });
                        quad.draw(reduce, pw, b)
                    })?;
                    if let Some(o) = obs.as_deref_mut() {
                        o.after(&cr_trace::reduce(layout, params, cols, l, p0, p, reading))?;
                    }
                }
                Ok(())
            },
        )?;
        if let Some(quad) = &self.gather_quads {
            let copy_p = &self.copy_p;
            let last_odd = levels.len() % 2 == 1;
            Self::phase(
                &gl,
                prof,
                counter,
                &mut times.gather,
                &mut fetches.gather,
                || {
                    if last_odd {
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
                    if let Some(o) = obs.as_deref_mut() {
                        o.after(&cr_trace::gather(layout, params, cols, p, reading))?;
                    }
                    Ok(())
                },
            )?;
        }
        // Filling, eq. (16): s = q … 1, X1/X2 ping-pong; level s reads level s-1 of P.
        let (fill, x, fquads) = (&self.fill, &mut self.x, &self.fill_quads);
        let levels_tex = p.input();
        let levels_label = crate::gl::observe::pair_label(p.method(), "P", p.pair().1);
        let xw = layout.np + 3;
        Self::phase(
            &gl,
            prof,
            counter,
            &mut times.fill,
            &mut fetches.fill,
            || {
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
                    x.pass(span(0, layout.fill_width(s), xw), |input| {
                        fill.bind_texture(0, "u_x", input);
                        fill.bind_texture(1, "u_p", lt);
                        fquads[s - 1].draw(fill, xw * self.cols, b)
                    })?;
                    if let Some(o) = obs.as_deref_mut() {
                        o.after(&cr_trace::fill(layout, params, cols, s, lt, ll, x, reading))?;
                    }
                }
                Ok(())
            },
        )?;
        let (out, copy_x, cq) = (&self.out, &self.copy_x, &self.collect_quad);
        let xin = x.input();
        let x: &PingPong = x;
        Self::phase(
            &gl,
            prof,
            counter,
            &mut times.collect,
            &mut fetches.copy,
            || {
                let info = || cr_trace::collect(layout, params, cols, x, out.texture());
                if let Some(o) = obs.as_deref_mut() {
                    o.before(&info())?;
                }
                out.bind();
                copy_x.bind_texture(0, "u_src", xin);
                cq.draw(copy_x, out.texture().width(), b)?;
                if let Some(o) = obs {
                    o.after(&info())?;
                }
                Ok(())
            },
        )?;
        self.fetches = fetches;
        self.profile = times;
        Ok(())
    }
}

impl BatchSolver for FragmentCr {
    fn name(&self) -> &str {
        &self.name
    }
    fn shape(&self) -> (usize, usize) {
        (self.layout.n * self.cols as usize, self.layout.batch)
    }
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        self.solve_tiled(systems)
    }
    fn output(&self) -> &Texture {
        self.out.texture()
    }
    fn set_check_finite(&mut self, on: bool) {
        self.params.check_finite = on;
    }
    fn work(&self) -> Option<Work> {
        Some(cr_work(&self.layout, self.params.method, self.cols))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cr_work_of_the_smallest_two_level_system() {
        // n = 3 = 2^2 − 1 (no pad), one system: one reduction level of 1 equation (3 RGBA
        // fetches, 12 floats); fill s = 2 writes 3 values (1 new: 1 P + 2 x, 2 copied: 1 x
        // each; 8 floats), s = 1 writes 5 (2 new, 3 copied; 15 floats); collect 3 floats.
        let l = CrLayout::new(3, 1);
        let w = cr_work(&l, PingPongMethod::Switch, 1);
        let read = 4 * (12 + 8 + 15 + 3);
        let written = 16 + 4 * (3 + 5 + 3);
        assert_eq!(w.bytes.total(), (read + written) as f64);
        // RGBA fetches: 3 texels of the reduction, 3 P texels of the fill (1 + 2 new
        // unknowns); the rest are R32F.
        assert_eq!(w.bytes.get(Access::TexRgba), 16.0 * 6.0);
        assert_eq!(w.bytes.get(Access::Target), written as f64);
        assert_eq!(w.flops32, 12.0 + 5.0 * 3.0);
        assert_eq!(w.passes, 4); // reduction, two fill levels, collect
        // The copy method copies each pass's rectangle back: 1 RGBA + 8 R32F texels.
        let c = cr_work(&l, PingPongMethod::Copy, 1);
        assert_eq!((c.bytes - w.bytes).total(), (2 * (16 + 4 * 8)) as f64);
        // Tiles multiply the traffic and arithmetic, not the passes.
        let t = cr_work(&l, PingPongMethod::Switch, 3);
        assert_eq!(
            (t.bytes, t.flops32, t.passes),
            (w.bytes.scale(3.0), 3.0 * w.flops32, 4)
        );
    }
}
