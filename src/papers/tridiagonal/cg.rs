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
//! The parts, in `cg/`: `params.rs` (the options and what a solve did), `solver.rs` (the
//! solver and its [`BatchSolver`](super::BatchSolver) face), `build.rs` (the programs,
//! textures and reduction chain), `passes.rs` (a full-size pass, a dot product through the
//! reduction chain), `run.rs` (one solve: the set-up, the iterations, the convergence check,
//! the result), `trace.rs` (what each pass is, for `gpgpu-repro trace`).

mod build;
mod params;
mod passes;
mod run;
mod solver;
pub mod trace;

pub use super::cg_model::{
    ITERATION_FLOPS, Packing, SETUP_FLOPS, cg_fixed_f64, cg_work, reduction_texels, static_fetches,
};
pub use params::{CgInfo, CgParams};
pub use solver::FragmentCg;
