//! The fragment-shader cyclic-reduction solver ([`FragmentCr`]): its state, its
//! accessors and its [`BatchSolver`] face; building it is `build.rs`, a solve `run.rs`.

use std::rc::Rc;

use super::params::{CrParams, CrProfile, FetchCounts};
use super::work::cr_work;
use crate::bench::Work;
use crate::gl::{
    Buffer, Gl, PassObserver, PingPong, PingPongMethod, Program, QuadBatch, RenderTexture, Texture,
};
use crate::papers::tridiagonal::batch::{BatchSolver, check_systems, find_non_finite};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::layout::CrLayout;

/// One quad batch per pass of a solve, each quad repeated in every tile column.
pub(super) struct PassQuads {
    pub(super) pad: QuadBatch,
    pub(super) reduce: Vec<QuadBatch>,
    /// The switch method's gather (none under the copy method or with one level).
    pub(super) gather: Option<QuadBatch>,
    pub(super) fill: Vec<QuadBatch>,
    pub(super) collect: QuadBatch,
}

/// The fragment-shader cyclic-reduction solver (see the module docs).
pub struct FragmentCr {
    pub(super) gl: Gl,
    pub(super) layout: CrLayout,
    /// Tile columns side by side (1 for a plain batch; Fig. 9's tiling otherwise).
    pub(super) cols: u32,
    pub(super) params: CrParams,
    pub(super) name: String,
    pub(super) reduce: Rc<Program>,
    pub(super) fill: Rc<Program>,
    pub(super) copy_p: Rc<Program>,
    pub(super) copy_x: Rc<Program>,
    pub(super) p0: Option<RenderTexture>,
    pub(super) p: PingPong,
    pub(super) x: PingPong,
    pub(super) out: RenderTexture,
    pub(super) quads: PassQuads,
    pub(super) counter: Option<Buffer<u32>>,
    pub(super) fetches: FetchCounts,
    pub(super) profile: CrProfile,
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
    /// `trace` command; [`super::trace`] says what each pass is). The GL work is the same.
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
