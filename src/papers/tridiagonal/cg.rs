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
//!
//! The parts, in `cg/`: `build.rs` (the programs, textures and reduction chain), `passes.rs`
//! (a full-size pass, a dot product through the reduction chain), `run.rs` (one solve: the
//! set-up, the iterations, the convergence check, the result).

use std::rc::Rc;

mod build;
mod passes;
mod run;

pub use super::cg_model::{
    ITERATION_FLOPS, Packing, SETUP_FLOPS, cg_fixed_f64, cg_work, reduction_texels, static_fetches,
};
use super::{BatchSolver, TridiagonalError, check_systems, find_non_finite};
use crate::bench::Work;
use crate::gl::observe::Observer;
use crate::gl::{Buffer, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, Texture};
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
