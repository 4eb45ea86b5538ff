//! LU without pivoting in fragment-shader passes: the paper's implementations I1–I4 (§3.3–3.5)
//! under the copy and the switch method (§3.3), with the instrumentation of §4.1.
//!
//! # Layouts
//! - **Scalar** (I1, I2): an `N × N` rectangle texture, texel `(k, j)` holding `A_jk` in its
//!   red channel. The paper's textures were RGBA with one channel used (§3.6 counts 16 bytes
//!   per element); [`Params::scalar_format`] picks RGBA32F (the paper) or R32F.
//! - **Vector** (I3, I4, §3.5, Fig. 5(d)): an `N/4 × N` RGBA32F texture, texel `(b, k)`
//!   holding rows `4b … 4b+3` of column `k`. `N` that is not a multiple of 4 is padded to
//!   `N' = 4⌈N/4⌉` with an identity block (`diag(A, I)` factors as `diag(L, I)·diag(U, I)`).
//!
//! # Passes of step `i` (0-based; the paper numbers steps from 1)
//! - I1 (Fig. 3): L pass over column `i` below the pivot (`N−i−1` texels), then U pass over
//!   the trailing block (`(N−i−1)²` texels): two programs, chosen by the CPU.
//! - I2 (Fig. 4): one pass over the L column and the trailing block (`(N−i)(N−i−1)`
//!   texels); the fragment branches on `k == i`. Its update is `A_jk − A_ik·A_ji/A_ii` in
//!   the order Fig. 4 prints it (the product, then the division), so its factors need not
//!   equal I1's; [`I2Order::DivideFirst`] is the labelled I2 that does (issue 38).
//! - I3: I1 on the vector layout. The pass's left-edge texel column `b₀ = ⌊(i+1)/4⌋` holds
//!   rows `≤ i` in its first `s = (i+1) mod 4` channels, which must not change: the CPU draws
//!   the edge with one of four programs (RGBA, GBA, BA, A) and the rest with the RGBA one.
//! - I4: I3 with one program per pass that branches on the fragment's position instead.
//!
//! The last step (`i = N−1`) has nothing to update and issues no pass: we run `2(N−1)` passes
//! for I1, where the paper's Table 1 counts `2N` (its sums run over `i = 1 … N`).
//!
//! # The two methods as the paper ran them, and the labelled alternatives (issue 38)
//! [`Feed::Paper`] (the default) is the paper's; [`Feed::Alt`] keeps the forms this module
//! first built, labelled "copy (rendered only)" and "switch (carry)" ([`method_label`]).
//!
//! **Copy method (§3.3, Table 1).** Table 1's copied bytes are `32N(N²−1)/3` for I1 — at 16
//! bytes per element, *twice* the `S_L + S_U = N(N²−1)/3` elements the L and U passes render
//! (eqs. 1–2) — and `16N(N²−1)/3` for I2, exactly its region (eq. 3). Table 4 agrees: T(I1)
//! ≈ 2·T(I2) at every N ≥ 256. The paper's I1 therefore copies, after *each* of its two
//! passes, the step's whole active block (the bounding rectangle of the L column and the
//! trailing block, Fig. 5(c): `(N−i)(N−i−1)` elements at step `i`, 0-based), summing to
//! `2N(N²−1)/3` elements. We do that (the copy-method render buffer starts holding the matrix
//! too, so that step 0's L pass copies valid texels). For I3/I4 the same rule copies
//! `2·16·(ΣL_i + ΣU_i)` bytes (eqs. 4–5) `= 2N(4N²+3N−4)/3 + 4N(N+2)`, where the paper's
//! formula `2N(4N²+3N−4)/3 = 2·16·ΣU_i` leaves out the L row (`4N(N+2)` bytes, an `O(N²)`
//! term: 5 % at N = 32, 0.07 % at N = 2048) — the only disagreement between the formulas and
//! the rule; Table 4's T(I3) ≈ T(I1)/4 fits both. The alternative ("copy (rendered only)")
//! copies exactly each pass's own rectangle: half the bytes for I1, I3, I4; for I2 the two
//! are the same.
//!
//! **Switch method (§3.3).** The text: "one texture for input and one for output, their roles
//! switched at every draw", and Table 1: no copies. Under it a pass renders into the texture
//! written *two* passes ago; texels outside its rectangle are stale. I2 is not hurt: each pass
//! reads only texels the previous pass wrote (its rectangle is the previous one's minus a
//! row and a column), so its two textures suffice; each finished entry then stays in the
//! texture of the last pass that wrote it, and the readback gathers them (`layout::merge`;
//! upload and readback are outside A). I1, I3 and I4 are: step `i`'s U pass reads what
//! step `i`'s L pass wrote (the L column) *and* what step `i−1`'s U pass wrote (the trailing
//! block), and with two textures one of the two is its own render target (a feedback loop,
//! undefined in GL without GL 4.5's texture barrier). Two textures work only if each L pass
//! also redraws the previous trailing block — about `N³/3` texels over the run, what the copy
//! method copies — and the paper's times say it did not: G(switch) / G(copy) is 0.52 (I1)
//! and 0.55 (I2) at N = 2048, the same for the two-pass I1 as for I2, which carries nothing
//! (`experiments/lu.toml`, `table4.paper`), and G(I1 switch) < G(I2 switch) at every N ≥ 64;
//! with a carry I1-switch would draw about as many texels as the whole copy method moves.
//! The measurements and a correct result together need a third texture, which the text does
//! not mention: here the L passes write the L column into an L texture (reading the last U
//! output), the U passes read the last U output and the L texture (`L_TEXTURE` in
//! `u.frag`) and alternate between the two others; no texel is drawn twice, and the readback
//! gathers L from the L texture and each row of U from the texture its finishing pass wrote.
//! The alternative ("switch (carry)") has two textures: every pass also draws, through a
//! trivial program (`copy.frag`), the texels the previous pass computed and this one does not
//! (`carried` fragments, their own draw call, timed apart): two thin strips per step for I2,
//! the previous trailing block for each L pass of I1, I3, I4.
//!
//! Both methods compute every entry with the same operations in the same order under either
//! feed: the factors are bit-identical across the four forms.
//!
//! # Timing (§4.1, Table 4)
//! With [`Params::profile`] every draw call and every copy is bracketed by `glFinish`: `G` is
//! the time in the draw calls (`glDrawArrays`, with the one target-size uniform that
//! [`QuadBatch::draw`] sets just before it), `T` the time in `glCopyTexSubImage2D`, `A` the
//! whole decomposition (upload and readback excluded), and `C = A − G − T` everything else,
//! as the paper defines it: binding the output, program and texture binds, uniform and vertex
//! uploads, and the `glFinish` calls of the instrumentation. The carried texels' draws are
//! draw calls (in `G`) and are also reported on their own ([`LuInfo::g_carry_ms`]).
//!
//! # Zero pivots
//! Passes are not synchronised with the CPU, so a zero pivot is found after the last pass:
//! a zero pivot at step `i` leaves `U_ii = 0` and fills the rest with ±∞/NaN, so the first
//! zero or non-finite `U_ii` of the result names the step ([`super::cpu::first_bad_pivot`]).
//!
//! This file holds the decomposition ([`FragmentLu`]); what a run is in `params.rs`, what it
//! did in `info.rs`, the layouts and the passes' rectangles in `layout.rs`, the programs'
//! `#define` sets in `programs.rs`.

mod info;
mod layout;
mod lu_trace;
mod params;
mod programs;

use std::rc::Rc;
use std::time::Instant;

use crate::gl::timing::Stopwatch;
use crate::gl::{
    Define, Gl, GlError, PassObserver, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect,
    RenderTexture, TexTarget,
};

use super::LuError;
use layout::{Kind, PassPlan, layout, step_passes};

pub use info::LuInfo;
pub use layout::{pack, rect_minus, unpack};
pub use params::{Feed, I2Order, Params, Variant, method_label};

pub use programs::{COPY_FRAG, L_FRAG, ONEPASS_FRAG, ProgramSet, U_FRAG};

/// An LU factorization on the GPU with one of I1–I4 (see the module docs).
pub struct FragmentLu {
    gl: Gl,
    params: Params,
    n: usize,
    np: usize,
    pp: PingPong,
    /// The paper's switch method for I1, I3, I4: the texture the L passes write.
    l_tex: Option<RenderTexture>,
    /// The ping-pong texture the first pass reads, and the one each step's U pass (I2: its
    /// pass) wrote, for the gathering readback ([`layout::merge`]).
    first: usize,
    written: Vec<usize>,
    batch: QuadBatch,
    carry: QuadBatch,
    copy_prog: Rc<Program>,
    /// Scalar: [L, U, I2]; vector: L and U with START = 0..3 (I3) or EDGE_BRANCH (I4).
    progs_l: Vec<Rc<Program>>,
    progs_u: Vec<Rc<Program>>,
    prog_onepass: Option<Rc<Program>>,
    info: LuInfo,
    /// `glFinish`-bracketed time of the computing draw calls and of the carrying ones.
    draws: Stopwatch,
    carries: Stopwatch,
}

impl FragmentLu {
    /// Uploads the row-major `n × n` matrix `a` and compiles the programs.
    pub fn new(gl: &Gl, a: &[f32], n: usize, params: Params) -> Result<FragmentLu, LuError> {
        if n == 0 || a.len() != n * n {
            return Err(LuError::Size(format!(
                "{} values for an {n} × {n} matrix",
                a.len()
            )));
        }
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
        if a.len() != self.n * self.n {
            return Err(LuError::Size(format!(
                "{} values for an {} × {} matrix",
                a.len(),
                self.n,
                self.n
            )));
        }
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
        super::checked_factors(lu, self.n)
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
