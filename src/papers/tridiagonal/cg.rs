//! The paper's GPU baseline: conjugate gradient in fragment shaders (Krüger & Westermann
//! 2003, Bolz et al. 2003), as Table 1 lists its passes, per iteration:
//!
//! ```text
//! ρ = r·r            multiply pass + ⌈log₂⌉ 2×2 reduction passes   (Table 1: 1 + 4·N/3)
//! p = r + (ρ/ρ_old) p                                              (2)
//! q = M p            3-point stencil                               (6)
//! α = ρ / p·q        multiply pass + reduction passes              (1 + 4·N/3)
//! x = x + α p                                                      (2)
//! r = r − α q                                                      (2)
//! ```
//!
//! with `r = k − M x` (7) once before the loop. The batch of `batch` systems is treated as
//! one block-diagonal system of `n·batch` unknowns (one global dot product per reduction, as
//! the paper's CG on an `N×N` grid), so CG needs every system symmetric positive definite.
//! Scalars never leave the GPU: the reductions end in 1×1 textures that the next passes
//! fetch. Vectors are scalar R32F textures (`n × batch`) or RGBA-packed ones
//! (`⌈n/4⌉ × batch`, four consecutive unknowns per texel: [`Packing`]).

use std::rc::Rc;

pub use super::cg_model::{
    ITERATION_FLOPS, Packing, SETUP_FLOPS, cg_fixed_f64, cg_work, reduction_texels, static_fetches,
};
use super::cg_trace::{Step, pass_info};
use super::cr_trace::ABCK;
use super::{BatchSolver, TridiagonalError, check_systems, find_non_finite};
use crate::bench::Work;
use crate::gl::observe::{Observer, observed};
use crate::gl::{
    Buffer, Format, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture,
};
use crate::papers::lu::arith2005::Arith2005;

/// Options of [`FragmentCg`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CgParams {
    pub packing: Packing,
    /// Iterations run by a solve (a fixed count, as Fig. 11's "CG n = 1, 2, …").
    pub iterations: usize,
    /// `Some(tol)`: stop once `‖r‖₂ / ‖k‖₂ ≤ tol` (checked by reading ρ back every
    /// `check_every` iterations) and fail with [`TridiagonalError::NotConverged`] if
    /// `iterations` (then the cap) pass first. `None`: run exactly `iterations`.
    pub tolerance: Option<f64>,
    pub check_every: usize,
    /// Instrumented shaders that count texture fetches (Table 1, measured).
    pub count_fetches: bool,
    /// Read the result back and fail on non-finite values (on by default).
    pub check_finite: bool,
    /// Which operations of the shaders follow the 2005 arithmetic model (the `arith2005`
    /// table; the scalars α, β are formed in the shaders too); IEEE by default.
    pub arith: Arith2005,
}

impl CgParams {
    pub fn fixed(packing: Packing, iterations: usize) -> CgParams {
        CgParams {
            packing,
            iterations,
            tolerance: None,
            check_every: 8,
            count_fetches: false,
            check_finite: true,
            arith: Arith2005::IEEE,
        }
    }
    pub fn converge(packing: Packing, tolerance: f64, max_iterations: usize) -> CgParams {
        CgParams {
            tolerance: Some(tolerance),
            ..CgParams::fixed(packing, max_iterations)
        }
    }
}

/// What the last solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CgInfo {
    pub iterations: usize,
    /// `‖r‖₂/‖k‖₂` at the end (only measured when converging to a tolerance).
    pub residual: Option<f64>,
    /// Texel and float fetches of the set-up (`r = k − Mx`) and of all iterations
    /// (instrumented builds only).
    pub setup_fetches: [u64; 2],
    pub iteration_fetches: [u64; 2],
}

struct Programs {
    /// One per coefficient channel a, b, c, k.
    pack: Vec<Rc<Program>>,
    unpack: Rc<Program>,
    residual: Rc<Program>,
    matvec: Rc<Program>,
    square: Rc<Program>,
    mul: Rc<Program>,
    reduce: Rc<Program>,
    direction: Rc<Program>,
    add: Rc<Program>,
    sub: Rc<Program>,
}

/// CG on the GPU in fragment shaders (module docs).
pub struct FragmentCg {
    gl: Gl,
    n: usize,
    batch: usize,
    w: u32,
    params: CgParams,
    name: String,
    prog: Programs,
    /// a, b, c, k as scalar or packed textures.
    coef: [RenderTexture; 4],
    x: [RenderTexture; 2],
    r: [RenderTexture; 2],
    p: [RenderTexture; 2],
    q: RenderTexture,
    prod: RenderTexture,
    /// Reduction chain, ending in a 1×1 texture.
    chain: Vec<RenderTexture>,
    rho: [RenderTexture; 2],
    pq: RenderTexture,
    knorm: RenderTexture,
    out: RenderTexture,
    full: QuadBatch,
    chain_quads: Vec<QuadBatch>,
    out_quad: QuadBatch,
    counter: Option<Buffer<u32>>,
    info: CgInfo,
}

/// The quad of a 2×2 reduction pass onto an `nw × nh` target: output texel (x, y) reads
/// source texels (2x, 2y) + {0,1}², centre 2·(x+½) − ½.
fn chain_quad(nw: u32, nh: u32) -> Quad {
    Quad::mapped(
        Rect::full(nw, nh),
        [-0.5, -0.5, 2.0 * nw as f32 - 0.5, 2.0 * nh as f32 - 0.5],
    )
}

impl FragmentCg {
    /// CG with a fixed number of iterations.
    pub fn new(
        gl: &Gl,
        n: usize,
        batch: usize,
        packing: Packing,
        iterations: usize,
    ) -> Result<FragmentCg, TridiagonalError> {
        Self::with_params(gl, n, batch, CgParams::fixed(packing, iterations))
    }

    pub fn with_params(
        gl: &Gl,
        n: usize,
        batch: usize,
        params: CgParams,
    ) -> Result<FragmentCg, TridiagonalError> {
        if n == 0 || batch == 0 {
            return Err(TridiagonalError::Shape(format!(
                "{n} unknowns × {batch} systems: both must be at least 1"
            )));
        }
        let lanes = params.packing.lanes();
        let w = (n as u32).div_ceil(lanes);
        let b = batch as u32;
        let progs = super::programs::cg_programs(lanes, params.count_fetches, params.arith)
            .map(|(file, defs)| Program::fragment(gl, file, &defs));
        let [
            p0,
            p1,
            p2,
            p3,
            unpack,
            residual,
            matvec,
            square,
            mul,
            reduce,
            direction,
            add,
            sub,
        ] = progs;
        let prog = Programs {
            pack: vec![p0?, p1?, p2?, p3?],
            unpack: unpack?,
            residual: residual?,
            matvec: matvec?,
            square: square?,
            mul: mul?,
            reduce: reduce?,
            direction: direction?,
            add: add?,
            sub: sub?,
        };
        let fmt = params.packing.format();
        let vec = || RenderTexture::new(gl, TexTarget::Rect, fmt, w, b, None);
        let one = || RenderTexture::new(gl, TexTarget::Rect, fmt, 1, 1, None);
        let mut chain = vec![];
        let mut chain_quads = vec![];
        let (mut cw, mut ch) = (w, b);
        while cw > 1 || ch > 1 {
            let (nw, nh) = (cw.div_ceil(2), ch.div_ceil(2));
            chain.push(RenderTexture::new(gl, TexTarget::Rect, fmt, nw, nh, None)?);
            chain_quads.push(QuadBatch::new(gl, &[chain_quad(nw, nh)])?);
            (cw, ch) = (nw, nh);
        }
        let counter = if params.count_fetches {
            Some(Buffer::<u32>::zeroed(gl, 2)?)
        } else {
            None
        };
        let name = match params.tolerance {
            None => format!(
                "CG fragment {} n={}",
                params.packing.lanes_name(),
                params.iterations
            ),
            Some(_) => format!("CG fragment {} converged", params.packing.lanes_name()),
        };
        Ok(FragmentCg {
            gl: gl.clone(),
            n,
            batch,
            w,
            params,
            name,
            prog,
            coef: [vec()?, vec()?, vec()?, vec()?],
            x: [vec()?, vec()?],
            r: [vec()?, vec()?],
            p: [vec()?, vec()?],
            q: vec()?,
            prod: vec()?,
            chain,
            rho: [one()?, one()?],
            pq: one()?,
            knorm: one()?,
            out: RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n as u32, b, None)?,
            full: QuadBatch::new(gl, &[Quad::identity(Rect::full(w, b))])?,
            chain_quads,
            out_quad: QuadBatch::new(gl, &[Quad::identity(Rect::full(n as u32, b))])?,
            counter,
            info: CgInfo::default(),
        })
    }

    /// [`BatchSolver::solve`] with an observer called before and after every pass (the
    /// `trace` command; [`super::cg_trace`] says what each pass is). The GL work is the same.
    pub fn solve_observed(
        &mut self,
        systems: &Texture,
        obs: Observer<'_>,
    ) -> Result<&Texture, TridiagonalError> {
        check_systems(systems, self.n, self.batch)?;
        self.run(systems, obs)?;
        self.gl.check("conjugate gradient")?;
        if self.params.check_finite {
            find_non_finite(self.out.texture(), self.n)?;
        }
        Ok(self.out.texture())
    }

    pub fn info(&self) -> CgInfo {
        self.info
    }
    pub fn params(&self) -> &CgParams {
        &self.params
    }

    /// A full-size pass `step` of `prog` into `dst` (labelled for an observer) with
    /// `textures` (sampler, label, texture) bound in order.
    fn pass(
        &self,
        obs: &mut Observer<'_>,
        step: Step,
        prog: &Program,
        (dst, label): (&RenderTexture, &str),
        textures: &[(&str, String, &Texture)],
    ) -> Result<(), TridiagonalError> {
        let quad = Quad::identity(Rect::full(self.w, self.batch as u32));
        let info = || pass_info(&self.params, step, textures, (label, dst.texture()), quad);
        observed(obs, info, || {
            dst.bind();
            for (unit, (name, _, t)) in textures.iter().enumerate() {
                prog.bind_texture(unit as u32, name, t);
            }
            self.full.draw(prog, self.w, self.batch as u32)?;
            Ok(())
        })
    }

    /// `dst = u·u` per system: the squares into `prod`, then [`Self::reduce_into`].
    fn square_sum_into(
        &self,
        obs: &mut Observer<'_>,
        of: &'static str,
        (u, u_label): (&Texture, String),
        dst: (&RenderTexture, &str),
    ) -> Result<(), TridiagonalError> {
        let terms = format!("{u_label}·{u_label} terms");
        let src = [("u_u", u_label, u)];
        let step = Step::Square;
        self.pass(obs, step, &self.prog.square, (&self.prod, &terms), &src)?;
        self.reduce_into(obs, of, &terms, dst)
    }

    /// `dst = Σ prod` (labelled `terms`) through the reduction chain (the last step renders
    /// into `dst`); `of` names the dot product for an observer.
    fn reduce_into(
        &self,
        obs: &mut Observer<'_>,
        of: &'static str,
        terms: &str,
        (dst, dst_label): (&RenderTexture, &str),
    ) -> Result<(), TridiagonalError> {
        let mut src = self.prod.texture();
        let mut src_label = terms.to_string();
        let mut size = [self.w as f32, self.batch as f32];
        let levels = self.chain.len();
        for (i, (t, quad)) in self.chain.iter().zip(&self.chain_quads).enumerate() {
            let last = i + 1 == levels;
            let target = if last { dst } else { t };
            let label = if last {
                dst_label.to_string()
            } else {
                format!("{of}: level {}", i + 1)
            };
            let tw = t.texture().width();
            let th = t.texture().height();
            let step = Step::Reduce {
                of,
                level: i,
                levels,
            };
            let sources = [("u_src", src_label.clone(), src)];
            let q = chain_quad(tw, th);
            let info = || pass_info(&self.params, step, &sources, (&label, target.texture()), q);
            observed(obs, info, || {
                target.bind();
                self.prog.reduce.bind_texture(0, "u_src", src);
                self.prog.reduce.set_vec2("u_size", size);
                quad.draw(&self.prog.reduce, tw, th)?;
                Ok::<(), TridiagonalError>(())
            })?;
            src = target.texture();
            src_label = label;
            size = [tw as f32, th as f32];
        }
        if self.chain.is_empty() {
            // One texel in all: copy it.
            dst.bind();
            self.prog.reduce.bind_texture(0, "u_src", src);
            self.prog.reduce.set_vec2("u_size", size);
            QuadBatch::new(
                &self.gl,
                &[Quad::mapped(Rect::full(1, 1), [-0.5, -0.5, 1.5, 1.5])],
            )?
            .draw(&self.prog.reduce, 1, 1)?;
        }
        Ok(())
    }

    fn counted(&self, acc: &mut [u64; 2]) -> Result<(), TridiagonalError> {
        if let Some(c) = &self.counter {
            self.gl.storage_barrier();
            let v = c.read()?;
            acc[0] += v[0] as u64;
            acc[1] += v[1] as u64;
            c.upload(&[0, 0])?;
        }
        Ok(())
    }

    fn read_scalar(&self, t: &RenderTexture) -> Result<f64, TridiagonalError> {
        Ok(t.texture().read()?.iter().map(|&v| v as f64).sum())
    }

    fn run(&mut self, systems: &Texture, mut obs: Observer<'_>) -> Result<(), TridiagonalError> {
        let obs = &mut obs;
        let b = self.batch as u32;
        let mut info = CgInfo::default();
        if let Some(c) = &self.counter {
            c.upload(&[0, 0])?;
            c.bind(7);
        }
        // Set-up: coefficients into scalar/packed textures (not counted in Table 1).
        let sys = [("u_sys", "systems".to_string(), systems)];
        for (ch, (t, p)) in self.coef.iter().zip(&self.prog.pack).enumerate() {
            p.set_i32("u_n", self.n as i32);
            let name = ABCK[ch];
            self.pass(obs, Step::Pack(ch), p, (t, name), &sys)?;
        }
        for t in self.x.iter().chain(&self.p) {
            t.clear([0.0; 4]);
        }
        self.rho[1].clear([1.0, 0.0, 0.0, 0.0]); // ρ_old before the first iteration
        if self.counter.is_some() {
            self.counted(&mut [0, 0])?; // drop the set-up's fetches
        }
        let [ta, tb, tc, tk] = [0, 1, 2, 3].map(|i| self.coef[i].texture());
        let coef = |i: usize, t| (["u_a", "u_b", "u_c", "u_k"][i], ABCK[i].to_string(), t);
        let name = |v: &str, i: usize| format!("{v}{}", i + 1);
        // r = k − M x  (Table 1: 7 fetches)
        self.pass(
            obs,
            Step::Residual,
            &self.prog.residual,
            (&self.r[0], "r1"),
            &[
                ("u_v", name("x", 0), self.x[0].texture()),
                coef(0, ta),
                coef(1, tb),
                coef(2, tc),
                coef(3, tk),
            ],
        )?;
        self.counted(&mut info.setup_fetches)?;
        let knorm = if self.params.tolerance.is_some() {
            let k = (tk, "k".to_string());
            self.square_sum_into(obs, "k·k", k, (&self.knorm, "k·k"))?;
            self.read_scalar(&self.knorm)?.sqrt().max(f64::MIN_POSITIVE)
        } else {
            1.0
        };
        let (mut xi, mut ri, mut pi) = (0usize, 0usize, 0usize);
        let mut it = 0;
        while it < self.params.iterations {
            let (rho, rho_old) = (&self.rho[it % 2], &self.rho[(it + 1) % 2]);
            // ρ = r·r
            let r = (self.r[ri].texture(), name("r", ri));
            self.square_sum_into(obs, "ρ = r·r", r, (rho, "ρ"))?;
            if let Some(tol) = self.params.tolerance
                && it % self.params.check_every.max(1) == 0
            {
                let res = self.read_scalar(rho)?.sqrt() / knorm;
                info.residual = Some(res);
                if res <= tol {
                    break;
                }
            }
            // p = r + (ρ/ρ_old) p
            let rho_s = ("u_rho", "ρ".to_string(), rho.texture());
            self.pass(
                obs,
                Step::Direction,
                &self.prog.direction,
                (&self.p[1 - pi], &name("p", 1 - pi)),
                &[
                    ("u_r", name("r", ri), self.r[ri].texture()),
                    ("u_p", name("p", pi), self.p[pi].texture()),
                    rho_s.clone(),
                    ("u_rho_old", "ρ_old".into(), rho_old.texture()),
                ],
            )?;
            pi = 1 - pi;
            // q = M p
            let pt = self.p[pi].texture();
            let p_s = (name("p", pi), pt);
            let q = (&self.q, "q");
            let vec = |u, (l, t): &(String, _)| (u, l.clone(), *t);
            let abc = [coef(0, ta), coef(1, tb), coef(2, tc)];
            let mv = [&[vec("u_v", &p_s)][..], &abc].concat();
            self.pass(obs, Step::Matvec, &self.prog.matvec, q, &mv)?;
            // α = ρ / p·q
            let qt = ("q".to_string(), self.q.texture());
            let pq = [vec("u_u", &p_s), vec("u_v", &qt)];
            let terms = "p·q terms";
            self.pass(obs, Step::Mul, &self.prog.mul, (&self.prod, terms), &pq)?;
            self.reduce_into(obs, "p·q", terms, (&self.pq, "p·q"))?;
            let scal = [rho_s, ("u_pq", "p·q".into(), self.pq.texture())];
            // x = x + α p, r = r − α q
            let xs = [
                ("u_y", name("x", xi), self.x[xi].texture()),
                vec("u_z", &p_s),
                scal[0].clone(),
                scal[1].clone(),
            ];
            let x_new = (&self.x[1 - xi], name("x", 1 - xi));
            self.pass(obs, Step::Add, &self.prog.add, (x_new.0, &x_new.1), &xs)?;
            xi = 1 - xi;
            let rs = [
                ("u_y", name("r", ri), self.r[ri].texture()),
                vec("u_z", &qt),
                scal[0].clone(),
                scal[1].clone(),
            ];
            let r_new = (&self.r[1 - ri], name("r", 1 - ri));
            self.pass(obs, Step::Sub, &self.prog.sub, (r_new.0, &r_new.1), &rs)?;
            ri = 1 - ri;
            it += 1;
        }
        self.counted(&mut info.iteration_fetches)?;
        info.iterations = it;
        if let Some(tol) = self.params.tolerance {
            let rho = &self.rho[it % 2];
            let r = (self.r[ri].texture(), name("r", ri));
            self.square_sum_into(obs, "ρ = r·r", r, (rho, "ρ"))?;
            let res = self.read_scalar(rho)?.sqrt() / knorm;
            info.residual = Some(res);
            if res.is_nan() || res > tol {
                self.info = info;
                return Err(TridiagonalError::NotConverged {
                    iterations: it,
                    residual: res,
                });
            }
        }
        // x → the R32F result.
        let (out, unpack) = (&self.out, &self.prog.unpack);
        let src = [("u_x", name("x", xi), self.x[xi].texture())];
        let quad = Quad::identity(Rect::full(self.n as u32, b));
        let info_of = || {
            pass_info(
                &self.params,
                Step::Unpack,
                &src,
                ("x (result)", out.texture()),
                quad,
            )
        };
        observed(obs, info_of, || {
            out.bind();
            unpack.bind_texture(0, "u_x", src[0].2);
            self.out_quad.draw(unpack, self.n as u32, b)?;
            Ok::<(), TridiagonalError>(())
        })?;
        self.info = info;
        Ok(())
    }
}

impl Packing {
    fn lanes_name(self) -> &'static str {
        match self {
            Packing::Scalar => "scalar",
            Packing::Rgba => "RGBA",
        }
    }
}

impl BatchSolver for FragmentCg {
    fn name(&self) -> &str {
        &self.name
    }
    fn shape(&self) -> (usize, usize) {
        (self.n, self.batch)
    }
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        self.solve_observed(systems, None)
    }
    fn output(&self) -> &Texture {
        self.out.texture()
    }
    fn set_check_finite(&mut self, on: bool) {
        self.params.check_finite = on;
    }
    /// The last solve's work (its iteration count: run a solve first).
    fn work(&self) -> Option<Work> {
        let extra = if self.params.tolerance.is_some() {
            2 + usize::from(self.info.iterations < self.params.iterations)
        } else {
            0
        };
        Some(cg_work(
            self.params.packing,
            self.n,
            self.batch,
            self.info.iterations,
            extra,
        ))
    }
}
