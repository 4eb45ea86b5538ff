//! Cyclic reduction in fragment shaders, as §3.2 built it (Fig. 2–4, 7/8).
//!
//! - `P0`: the original system, one RGBA32F texel `P = (a, b, c, k)` per equation, one
//!   system per row (Fig. 7: every row of the batch is computed by the same quad). When `n`
//!   is not `2^q - 1`, `P0` is a padded copy whose extra equations are identity rows
//!   `(0, 1, 0, 0)`: their unknowns are 0, so the first `n` unknowns are unchanged.
//! - Reduction: level `s = 1 … q-1` is one quad over its run `[PS_s, PS_s + PC_s)` of the
//!   P1/P2 ping-pong ([`PingPong`](crate::gl::PingPong), copy or switch method), reading level `s-1` (or `P0`).
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
//! precomputed in [`CrLayout`](super::layout::CrLayout) (see [`super::layout`] for the exact half-texel convention).
//!
//! The parts, in `fragment_cr/`: `params.rs` (the options, the fetch counts and pass-group
//! times), `solver.rs` (the solver and its [`BatchSolver`](super::BatchSolver) face),
//! `build.rs` (the shape checks, textures and quads), `run.rs` (one solve, pass group by pass
//! group), `work.rs` (the fetches, flops and bytes of a solve), `trace.rs` (what each pass
//! is, for `gpgpu-repro trace`).

mod build;
mod params;
mod run;
mod solver;
pub mod trace;
mod work;

pub use params::{CrParams, CrProfile, FetchCounts};
pub use solver::FragmentCr;
pub use work::{
    FILL_FLOPS, FILL_P_TEXELS, FILL_X_VALUES, REDUCE_FLOPS, REDUCE_TEXELS, cr_work, static_fetches,
};
