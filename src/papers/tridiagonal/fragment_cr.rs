//! Cyclic reduction in fragment shaders, as §3.2 built it (Fig. 2–4, 7/8).
//!
//! - `P0`: the original system, one RGBA32F texel `P = (a, b, c, k)` per equation, one
//!   system per row (Fig. 7: every row of the batch is computed by the same quad). When `n`
//!   is not `2^q - 1`, `P0` is a padded copy whose extra equations are identity rows
//!   `(0, 1, 0, 0)`: their unknowns are 0, so the first `n` unknowns are unchanged.
//! - Reduction: level `s = 1 … q-1` is one quad over its run `[PS_s, PS_s + PC_s)` of the
//!   P1/P2 ping-pong ([`PingPong`], copy or switch method), reading level `s-1` (or `P0`).
//!   Under the copy method every level's run is copied back into the one input texture, so
//!   the runs are gathered as they are made; under the switch method odd and even levels sit
//!   in different buffers, and one extra pass copies the last level's parity into the other
//!   buffer ("gathered into one buffer", Fig. 2).
//! - Filling: levels `s = q … 1` ping-pong between two R32F buffers X1/X2 (Fig. 3), each
//!   level one quad; a last pass collects `x_1 … x_n` into the result texture.
//!
//! Every coordinate is delivered by the rasterizer from per-vertex texture coordinates
//! precomputed in [`CrLayout`] (see [`super::layout`] for the exact half-texel convention).

use std::time::{Duration, Instant};

use super::layout::CrLayout;
use super::{BatchSolver, TridiagonalError, check_systems, find_non_finite};
use crate::gl::{
    Buffer, Define, Format, Gl, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect,
    RenderTexture, TexTarget, Texture,
};
use std::rc::Rc;

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
}

impl CrParams {
    pub fn new(method: PingPongMethod) -> CrParams {
        CrParams {
            method,
            check_finite: true,
            count_fetches: false,
            profile: false,
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
    gather_quads: Option<(QuadBatch, Rect)>,
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
        if n == 0 || batch == 0 {
            return Err(TridiagonalError::Shape(format!(
                "{n} unknowns × {batch} systems: both must be at least 1"
            )));
        }
        let layout = CrLayout::new(n, batch);
        let (np, b) = (layout.np, batch as u32);
        let mut defs = vec![];
        if params.count_fetches {
            defs.push(Define::flag("COUNT_FETCHES"));
        }
        let with = |extra: Define| {
            let mut d = defs.clone();
            d.push(extra);
            d
        };
        let reduce = Program::fragment(gl, "tridiagonal/cr_reduce.frag", &defs)?;
        let fill = Program::fragment(gl, "tridiagonal/cr_fill.frag", &defs)?;
        let copy_p = Program::fragment(
            gl,
            "tridiagonal/copy.frag",
            &with(Define::new("NFLOATS", "4u")),
        )?;
        let copy_x = Program::fragment(
            gl,
            "tridiagonal/copy.frag",
            &with(Define::new("NFLOATS", "1u")),
        )?;

        let padded = layout.padded();
        let p0 = if padded as usize != n {
            let t = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, padded, b, None)?;
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
            pw,
            b,
            &vec![0f32; 4 * (pw * b) as usize],
        )?;
        // X: N' + 1 values of the fill plus two guard columns of zeros at N'+1, N'+2 that
        // hold y^(q+1) = (x_0, x_N') for the first fill level (never written).
        let xw = np + 3;
        let x = PingPong::new(
            gl,
            params.method,
            TexTarget::Rect,
            Format::R32F,
            xw,
            b,
            &vec![0f32; (xw * b) as usize],
        )?;
        let out = RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n as u32, b, None)?;

        let pad_quad = QuadBatch::new(gl, &[Quad::identity(Rect::new(0, 0, n as u32, b))])?;
        let reduce_quads = layout
            .levels
            .iter()
            .map(|l| QuadBatch::new(gl, &[layout.reduce_quad(l)]))
            .collect::<Result<Vec<_>, _>>()?;
        let gather_quads = if params.method == PingPongMethod::Switch && !layout.levels.is_empty() {
            let last = layout.levels.len() % 2; // parity of the last level s = q-1
            let runs: Vec<_> = layout
                .levels
                .iter()
                .filter(|l| l.s % 2 == last % 2)
                .map(|l| Quad::identity(Rect::new(l.ps, 0, l.pc, b)))
                .collect();
            Some((QuadBatch::new(gl, &runs)?, Rect::full(pw, b)))
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
                QuadBatch::new(gl, &[quad])
            })
            .collect::<Result<Vec<_>, _>>()?;
        let collect_quad = QuadBatch::new(gl, &[layout.collect_quad()])?;
        let counter = if params.count_fetches {
            Some(Buffer::<u32>::zeroed(gl, 2)?)
        } else {
            None
        };
        let name = format!("CR fragment ({})", params.method);
        Ok(FragmentCr {
            gl: gl.clone(),
            layout,
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

    /// The gathered reduction levels (P1 after the gather), row-major RGBA: for tests.
    pub fn read_levels(&self) -> Result<Vec<f32>, TridiagonalError> {
        Ok(self.p.read()?)
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

    fn run(&mut self, systems: &Texture) -> Result<(), TridiagonalError> {
        let (gl, prof) = (self.gl.clone(), self.params.profile);
        let counter = self.counter.as_ref();
        let mut fetches = FetchCounts::default();
        let mut times = CrProfile::default();
        let b = self.layout.batch as u32;
        let pw = self.layout.p_width;
        // Pad: copy the caller's n columns into the identity-padded P0.
        if let Some(p0) = &self.p0 {
            let n = self.layout.n as u32;
            Self::phase(
                &gl,
                prof,
                counter,
                &mut times.pad,
                &mut fetches.copy,
                || {
                    p0.bind();
                    self.copy_p.bind_texture(0, "u_src", systems);
                    self.pad_quad.draw(&self.copy_p, p0.texture().width(), b)?;
                    let _ = n;
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
        Self::phase(
            &gl,
            prof,
            counter,
            &mut times.reduce,
            &mut fetches.reduce,
            || {
                for (l, quad) in levels.iter().zip(quads) {
                    p.pass(Rect::new(l.ps, 0, l.pc, b), |input| {
                        reduce.bind_texture(0, "u_p", if l.s == 1 { p0 } else { input });
                        quad.draw(reduce, pw, b)
                    })?;
                }
                Ok(())
            },
        )?;
        if let Some((quad, rect)) = &self.gather_quads {
            let copy_p = &self.copy_p;
            Self::phase(
                &gl,
                prof,
                counter,
                &mut times.gather,
                &mut fetches.gather,
                || {
                    p.pass(*rect, |input| {
                        copy_p.bind_texture(0, "u_src", input);
                        quad.draw(copy_p, pw, b)
                    })?;
                    Ok(())
                },
            )?;
        }
        // Filling, eq. (16): s = q … 1, X1/X2 ping-pong; level s reads level s-1 of P.
        let (fill, x, fquads, layout) = (&self.fill, &mut self.x, &self.fill_quads, &self.layout);
        let levels_tex = p.input();
        let xw = layout.np + 3;
        Self::phase(
            &gl,
            prof,
            counter,
            &mut times.fill,
            &mut fetches.fill,
            || {
                for s in (1..=layout.q).rev() {
                    let w = layout.fill_width(s);
                    x.pass(Rect::new(0, 0, w, b), |input| {
                        fill.bind_texture(0, "u_x", input);
                        fill.bind_texture(1, "u_p", if s == 1 { p0 } else { levels_tex });
                        fquads[s - 1].draw(fill, xw, b)
                    })?;
                }
                Ok(())
            },
        )?;
        let (out, copy_x, cq) = (&self.out, &self.copy_x, &self.collect_quad);
        let xin = x.input();
        Self::phase(
            &gl,
            prof,
            counter,
            &mut times.collect,
            &mut fetches.copy,
            || {
                out.bind();
                copy_x.bind_texture(0, "u_src", xin);
                cq.draw(copy_x, out.texture().width(), b)?;
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
        (self.layout.n, self.layout.batch)
    }
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        check_systems(systems, self.layout.n, self.layout.batch)?;
        self.run(systems)?;
        self.gl.check("cyclic reduction")?;
        if self.params.check_finite {
            find_non_finite(self.out.texture(), self.layout.n)?;
        }
        Ok(self.out.texture())
    }
    fn output(&self) -> &Texture {
        self.out.texture()
    }
    fn set_check_finite(&mut self, on: bool) {
        self.params.check_finite = on;
    }
}
