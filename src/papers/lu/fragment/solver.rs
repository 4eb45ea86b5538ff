//! The decomposition: the textures, the programs, and the passes of each step under I1–I4 and
//! the copy or switch method.

use std::rc::Rc;
use std::time::Instant;

use crate::gl::measure::Stopwatch;
use crate::gl::{
    Define, Gl, GlError, PassObserver, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect,
    RenderTexture, TexTarget,
};

use super::info::LuInfo;
use super::layout::{self, Kind, PassPlan, layout, pack, rect_minus, step_passes, unpack};
use super::lu_trace;
use super::params::{Feed, Params, Variant};
use super::programs::{COPY_FRAG, L_FRAG, ONEPASS_FRAG, ProgramSet, U_FRAG};
use crate::papers::lu::error::LuError;

/// An LU factorization on the GPU with one of I1–I4 (see the module docs).
pub struct FragmentLu {
    pub(super) gl: Gl,
    pub(super) params: Params,
    pub(super) n: usize,
    pub(super) np: usize,
    pub(super) pp: PingPong,
    /// The paper's switch method for I1, I3, I4: the texture the L passes write.
    pub(super) l_tex: Option<RenderTexture>,
    /// The ping-pong texture the first pass reads, and the one each step's U pass (I2: its
    /// pass) wrote, for the gathering readback ([`layout::merge`]).
    pub(super) first: usize,
    pub(super) written: Vec<usize>,
    pub(super) batch: QuadBatch,
    pub(super) carry: QuadBatch,
    pub(super) copy_prog: Rc<Program>,
    /// Scalar: [L, U, I2]; vector: L and U with START = 0..3 (I3) or EDGE_BRANCH (I4).
    pub(super) progs_l: Vec<Rc<Program>>,
    pub(super) progs_u: Vec<Rc<Program>>,
    pub(super) prog_onepass: Option<Rc<Program>>,
    pub(super) info: LuInfo,
    /// `glFinish`-bracketed time of the computing draw calls and of the carrying ones.
    pub(super) draws: Stopwatch,
    pub(super) carries: Stopwatch,
}

impl FragmentLu {
    /// Uploads the row-major `n × n` matrix `a` and compiles the programs.
    pub fn new(gl: &Gl, a: &[f32], n: usize, params: Params) -> Result<FragmentLu, LuError> {
        LuError::check_square(a, n)?;
        let np = if params.variant.vector() {
            n.div_ceil(4) * 4
        } else {
            n
        };
        let max = gl.info().max_rectangle_texture_size as usize;
        if np > max {
            return Err(LuError::Size(format!(
                "N = {n} exceeds the device's largest rectangle texture ({max})"
            )));
        }
        let (w, h, fmt) = layout(params, np);
        let packed = pack(a, n, params);
        let pp = PingPong::new(gl, params.method, TexTarget::Rect, fmt, w, h, &packed)?;
        if params.feed == Feed::Paper {
            pp.upload_render_buffer(&packed)?;
        }
        let l_tex = if params.separate_l() {
            Some(RenderTexture::new(
                gl,
                TexTarget::Rect,
                fmt,
                w,
                h,
                Some(&packed),
            )?)
        } else {
            None
        };
        let set = ProgramSet::of(
            params.variant,
            params.fetch_only,
            params.arith,
            params.separate_l(),
            params.i2,
        );
        let build = |list: &[Vec<Define>], file: &str| -> Result<Vec<Rc<Program>>, GlError> {
            list.iter()
                .map(|d| Program::fragment(gl, file, d))
                .collect()
        };
        let progs_l = build(&set.l, L_FRAG)?;
        let progs_u = build(&set.u, U_FRAG)?;
        let prog_onepass = match &set.onepass {
            Some(d) => Some(Program::fragment(gl, ONEPASS_FRAG, d)?),
            None => None,
        };
        Ok(FragmentLu {
            gl: gl.clone(),
            params,
            n,
            np,
            first: pp.pair().1,
            pp,
            l_tex,
            written: vec![],
            batch: QuadBatch::new(gl, &[])?,
            carry: QuadBatch::new(gl, &[])?,
            copy_prog: Program::fragment(gl, COPY_FRAG, &[])?,
            progs_l,
            progs_u,
            prog_onepass,
            info: LuInfo {
                n,
                padded: np,
                ..Default::default()
            },
            draws: Stopwatch::default(),
            carries: Stopwatch::default(),
        })
    }

    /// Replaces the matrix (both buffers under the switch method); counts are reset.
    pub fn upload(&mut self, a: &[f32]) -> Result<(), LuError> {
        LuError::check_square(a, self.n)?;
        let packed = pack(a, self.n, self.params);
        self.pp.upload(&packed)?;
        if self.params.feed == Feed::Paper {
            self.pp.upload_render_buffer(&packed)?;
        }
        if let Some(l) = &self.l_tex {
            l.texture().upload(&packed)?;
        }
        Ok(())
    }

    /// Runs the whole decomposition on the uploaded matrix; returns its counts and times.
    /// Does not check the pivots: [`Self::factors`] does, on the result.
    pub fn run(&mut self) -> Result<LuInfo, LuError> {
        self.run_observed(None)
    }

    /// [`Self::run`] with an observer called before and after every pass (the `trace`
    /// command; `lu_trace.rs` says what each pass is). The GL work is the same.
    pub fn run_observed(
        &mut self,
        mut obs: Option<&mut dyn PassObserver>,
    ) -> Result<LuInfo, LuError> {
        self.pp.reset_stats();
        self.pp.set_profiling(self.params.profile);
        self.draws = Stopwatch::default();
        self.carries = Stopwatch::default();
        self.info = LuInfo {
            n: self.n,
            padded: self.np,
            texel_bytes: self.pp.input().format().texel_bytes() as u64,
            ..Default::default()
        };
        self.first = self.pp.pair().1;
        self.written.clear();
        self.gl.finish();
        let t0 = Instant::now();
        let mut prev: Vec<Rect> = vec![];
        for i in 0..self.np {
            for pass in step_passes(self.params.variant, self.np, i) {
                let rect = pass.rect;
                let carry: Vec<Rect> = if self.params.method == PingPongMethod::Switch
                    && self.params.feed == Feed::Alt
                {
                    prev.iter().flat_map(|p| rect_minus(*p, rect)).collect()
                } else {
                    vec![]
                };
                let reading = self.pp.pair().1;
                let (p, np) = (&self.params, self.np);
                if let Some(o) = obs.as_deref_mut() {
                    let l = self.l_tex.as_ref().map(|l| l.texture());
                    o.before(&lu_trace::pass_info(
                        p, np, &pass, &carry, &self.pp, reading, l,
                    ))?;
                }
                self.run_pass(&pass, &carry)?;
                let p = &self.params;
                if let Some(o) = obs.as_deref_mut() {
                    let l = self.l_tex.as_ref().map(|l| l.texture());
                    o.after(&lu_trace::pass_info(
                        p, np, &pass, &carry, &self.pp, reading, l,
                    ))?;
                }
                prev = vec![rect];
            }
        }
        self.gl.finish();
        let a = t0.elapsed();
        let st = self.pp.stats();
        let info = &mut self.info;
        info.copies = st.copies;
        info.copied_bytes = st.copied_bytes;
        info.a_ms = a.as_secs_f64() * 1e3;
        if self.params.profile {
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            info.g_ms = ms(self.draws.total() + self.carries.total());
            info.g_carry_ms = ms(self.carries.total());
            info.t_ms = ms(st.copy_time);
            info.c_ms = info.a_ms - info.g_ms - info.t_ms;
        }
        self.gl.check_now("LU passes")?;
        Ok(self.info)
    }

    /// The packed factors (`L` strictly below the diagonal, `U` on and above), row-major
    /// `n × n`; a zero or non-finite pivot becomes [`LuError::Pivot`].
    pub fn factors(&self) -> Result<Vec<f32>, LuError> {
        let lu = unpack(&self.state()?, self.n, self.params);
        crate::papers::lu::cpu::checked_factors(lu, self.n)
    }

    /// The layout's texels of the paper's switch method gathered from the contents of the two
    /// ping-pong textures (in [`PingPong::pair`]'s order) and of the L texture (I1, I3, I4)
    /// after the last pass, as [`Self::factors`] gathers them (for the `trace` command).
    pub fn gather(&self, pair: [&[f32]; 2], l: Option<&[f32]>) -> Vec<f32> {
        layout::merge(self.params, self.np, pair, self.first, &self.written, l)
    }

    /// The factored matrix in the layout's texels: the ping-pong's current texture, or, under
    /// the paper's switch method, each entry from the texture holding it ([`layout::merge`]).
    fn state(&self) -> Result<Vec<f32>, LuError> {
        if !self.params.gathered() {
            return Ok(self.pp.read()?);
        }
        let ([t0, t1], _) = self.pp.pair();
        let (t0, t1) = (t0.read()?, t1.read()?);
        let l = match &self.l_tex {
            Some(l) => Some(l.texture().read()?),
            None => None,
        };
        Ok(layout::merge(
            self.params,
            self.np,
            [&t0, &t1],
            self.first,
            &self.written,
            l.as_deref(),
        ))
    }

    /// One pass: draws (edge / rest / carried texels), then the ping-pong's copy or switch.
    fn run_pass(&mut self, pass: &PassPlan, carry: &[Rect]) -> Result<(), LuError> {
        let (w, h, _) = layout(self.params, self.np);
        let r = pass.rect;
        let mut draws = self.draws_of(pass);
        self.count(pass, &draws, carry);
        let is_i4 = self.params.variant == Variant::I4;
        let vector = self.params.variant.vector();
        let i = pass.step as i32;
        let start = pass.start as i32;
        let edge = pass.rect.x as i32;
        let set_uniforms = |p: &Program| {
            p.set_i32("u_i", i);
            if vector {
                p.set_i32("u_pb", i / 4);
                p.set_i32("u_c", i % 4);
                if is_i4 {
                    p.set_i32("u_edge", edge);
                    p.set_i32("u_start", start);
                }
            }
        };
        if is_i4 {
            // I4: a single draw over the whole rectangle; the shader finds the edge.
            draws.truncate(1);
            draws[0].1 = r;
        }
        let profile = self.params.profile;
        // The paper's switch method for I1, I3, I4: L passes draw into the L texture (and
        // switch nothing); U passes read it beside the last U output.
        let into_l = matches!(pass.kind, Kind::L) && self.l_tex.is_some();
        let l_input = match (&self.l_tex, pass.kind) {
            (Some(l), Kind::U) => Some(l.texture()),
            _ => None,
        };
        // C: bind the output, then per draw the program, texture, uniforms and vertices; G:
        // the draw call alone (glFinish on both sides when profiling).
        match &self.l_tex {
            Some(l) if into_l => l.bind(),
            _ => self.pp.bind_output(),
        }
        let input = self.pp.input();
        for (p, d, _) in &draws {
            p.bind_texture(0, "u_a", input);
            if let Some(l) = l_input {
                p.bind_texture(1, "u_l", l);
            }
            set_uniforms(p);
            self.batch.set(&[Quad::identity(*d)])?;
            timed(&self.gl, profile, &mut self.draws, || {
                self.batch.draw(p, w, h)
            })?;
            self.info.draws += 1;
        }
        if !carry.is_empty() {
            let quads: Vec<Quad> = carry.iter().map(|c| Quad::identity(*c)).collect();
            self.copy_prog.bind_texture(0, "u_a", input);
            self.carry.set(&quads)?;
            let (prog, batch) = (&self.copy_prog, &self.carry);
            timed(&self.gl, profile, &mut self.carries, || {
                batch.draw(prog, w, h)
            })?;
            self.info.draws += 1;
        }
        self.info.passes += 1;
        if into_l {
            return Ok(self.gl.check("LU L pass into the L texture")?);
        }
        if !matches!(pass.kind, Kind::L) {
            // The texture this step's U (I2: only) pass writes (a switch flips `pair().1`).
            self.written.push(1 - self.pp.pair().1);
        }
        // The copy method copies the step's active block (the paper's) or the rectangle drawn.
        let copied = match self.params.feed {
            Feed::Paper => pass.block,
            Feed::Alt => r,
        };
        self.pp.end_pass(copied)?;
        Ok(())
    }

    /// The computing draws of `pass`: (program, rect, channels updated per texel).
    fn draws_of(&self, pass: &PassPlan) -> Vec<(Rc<Program>, Rect, u64)> {
        let mut draws: Vec<(Rc<Program>, Rect, u64)> = vec![];
        let r = pass.rect;
        match (self.params.variant, pass.kind) {
            (Variant::I1, Kind::L) => draws.push((self.progs_l[0].clone(), r, 1)),
            (Variant::I1, _) => draws.push((self.progs_u[0].clone(), r, 1)),
            (Variant::I2, _) => draws.push((self.prog_onepass.clone().expect("I2 program"), r, 1)),
            (Variant::I3, k) => {
                let progs = if matches!(k, Kind::L) {
                    &self.progs_l
                } else {
                    &self.progs_u
                };
                let s = pass.start;
                if s == 0 {
                    draws.push((progs[0].clone(), r, 4));
                } else {
                    draws.push((
                        progs[s as usize].clone(),
                        Rect::new(r.x, r.y, 1, r.h),
                        4 - s as u64,
                    ));
                    if r.w > 1 {
                        draws.push((progs[0].clone(), Rect::new(r.x + 1, r.y, r.w - 1, r.h), 4));
                    }
                }
            }
            (Variant::I4, k) => {
                let p = if matches!(k, Kind::L) {
                    &self.progs_l[0]
                } else {
                    &self.progs_u[0]
                };
                // One draw; per-texel channel counts for the flop model.
                draws.push((
                    p.clone(),
                    Rect::new(r.x, r.y, 1, r.h),
                    4 - pass.start as u64,
                ));
                if r.w > 1 {
                    draws.push((p.clone(), Rect::new(r.x + 1, r.y, r.w - 1, r.h), 4));
                }
            }
        }
        draws
    }

    /// The pass's counts (Tables 1 and 2 as we perform them): fragments, bytes fetched,
    /// flops, carried fragments.
    fn count(&mut self, pass: &PassPlan, draws: &[(Rc<Program>, Rect, u64)], carry: &[Rect]) {
        let texel = self.pp.input().format().texel_bytes() as u64;
        let r = pass.rect;
        let fetches: u64 = match pass.kind {
            Kind::L => 2,
            Kind::U => 3,
            Kind::OnePass => 4,
        };
        for (_, d, ch) in draws {
            let area = d.area();
            self.info.fragments += area;
            self.info.fetched_bytes += area * fetches * texel;
            self.info.flops += area
                * ch
                * match (pass.kind, self.params.variant) {
                    (Kind::OnePass, _) => 0, // counted below per L / U texel
                    _ => 2,
                };
        }
        if matches!(pass.kind, Kind::OnePass) {
            // L column: a division (2); U block: division (2), multiply, subtract.
            self.info.flops += 2 * r.h as u64 + 4 * (r.w as u64 - 1) * r.h as u64;
        }
        for c in carry {
            self.info.carried_fragments += c.area();
        }
    }
}

/// Runs `f`, timed into `watch` between two `glFinish` calls when `on`.
fn timed(
    gl: &Gl,
    on: bool,
    watch: &mut Stopwatch,
    f: impl FnOnce() -> Result<(), GlError>,
) -> Result<(), GlError> {
    if on { watch.time(gl, f) } else { f() }
}
