//! The CG solver ([`FragmentCg`]): its programs and textures, its accessors and its
//! [`BatchSolver`] face; building it is `build.rs`, its passes `passes.rs`, a solve `run.rs`.

use std::rc::Rc;

use super::params::{CgInfo, CgParams};
use crate::bench::Work;
use crate::gl::observe::Observer;
use crate::gl::{Buffer, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, Texture};
use crate::papers::tridiagonal::batch::{BatchSolver, check_systems, find_non_finite};
use crate::papers::tridiagonal::cg_model::{Packing, cg_work};
use crate::papers::tridiagonal::error::TridiagonalError;

pub(super) struct Programs {
    /// One per coefficient channel a, b, c, k.
    pub(super) pack: Vec<Rc<Program>>,
    pub(super) unpack: Rc<Program>,
    pub(super) residual: Rc<Program>,
    pub(super) matvec: Rc<Program>,
    pub(super) square: Rc<Program>,
    pub(super) mul: Rc<Program>,
    pub(super) reduce: Rc<Program>,
    pub(super) direction: Rc<Program>,
    pub(super) add: Rc<Program>,
    pub(super) sub: Rc<Program>,
}

/// CG on the GPU in fragment shaders (module docs).
pub struct FragmentCg {
    pub(super) gl: Gl,
    pub(super) n: usize,
    pub(super) batch: usize,
    pub(super) w: u32,
    pub(super) params: CgParams,
    pub(super) name: String,
    pub(super) prog: Programs,
    /// a, b, c, k as scalar or packed textures.
    pub(super) coef: [RenderTexture; 4],
    pub(super) x: [RenderTexture; 2],
    pub(super) r: [RenderTexture; 2],
    pub(super) p: [RenderTexture; 2],
    pub(super) q: RenderTexture,
    pub(super) prod: RenderTexture,
    /// Reduction chain, ending in a 1×1 texture.
    pub(super) chain: Vec<RenderTexture>,
    pub(super) rho: [RenderTexture; 2],
    pub(super) pq: RenderTexture,
    pub(super) knorm: RenderTexture,
    pub(super) out: RenderTexture,
    pub(super) full: QuadBatch,
    pub(super) chain_quads: Vec<QuadBatch>,
    pub(super) out_quad: QuadBatch,
    pub(super) counter: Option<Buffer<u32>>,
    pub(super) info: CgInfo,
}

/// The quad of a 2×2 reduction pass onto an `nw × nh` target: output texel (x, y) reads
/// source texels (2x, 2y) + {0,1}², centre 2·(x+½) − ½.
pub(super) fn chain_quad(nw: u32, nh: u32) -> Quad {
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
    /// `trace` command; [`super::trace`] says what each pass is). The GL work is the same.
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
    pub(super) fn lanes_name(self) -> &'static str {
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
