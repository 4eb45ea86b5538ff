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
//!
//! The parts, in `fragment_cr/`: `build.rs` (the shape checks, textures and quads), `run.rs`
//! (one solve, pass group by pass group), `work.rs` (the fetches, flops and bytes of a solve).

mod build;
mod run;
mod work;

pub use work::{
    FILL_FLOPS, FILL_P_TEXELS, FILL_X_VALUES, REDUCE_FLOPS, REDUCE_TEXELS, cr_work, static_fetches,
};

use std::time::Duration;

use super::layout::CrLayout;
use super::{BatchSolver, TridiagonalError, check_systems, find_non_finite};
use crate::bench::Work;
use crate::gl::{
    Buffer, Gl, PassObserver, PingPong, PingPongMethod, Program, QuadBatch, RenderTexture, Texture,
};
use crate::papers::lu::arith2005::Arith2005;
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

/// One quad batch per pass of a solve, each quad repeated in every tile column.
struct PassQuads {
    pad: QuadBatch,
    reduce: Vec<QuadBatch>,
    /// The switch method's gather (none under the copy method or with one level).
    gather: Option<QuadBatch>,
    fill: Vec<QuadBatch>,
    collect: QuadBatch,
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
    quads: PassQuads,
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
