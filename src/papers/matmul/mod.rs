//! Park 2019, "Parallel Algorithm for Matrix-Matrix Multiplication on the GPU": a tiled
//! matrix multiply in an OpenGL 4.3 compute shader.
//!
//! R = A·B with A m×n, B n×l, single precision, row-major.
//!
//! - **Algorithm 2** (GPU, [`gpu::Park2019`], `glsl/matmul/park2019.comp`): work groups of
//!   32×32 invocations; each loops over the inner dimension in 32-wide tiles, loading a tile
//!   of A and of B into shared arrays `As`, `Bs` (0.0 outside the matrices: the bounds
//!   checks), `memoryBarrierShared(); barrier();`, 32 multiply-adds, barrier again, store.
//! - **Algorithm 1** (host): uploads A and B into SSBOs 0 and 1, allocates R at 2, dispatches
//!   at most 64×64 work groups at a time (to stay below Windows' TDR timeout), looping over
//!   sub-matrix origins (x0, y0) that are passed as uniforms, then reads R back.
//! - **Algorithm 3** (CPU baseline, [`cpu::naive`]): the i-j-k triple loop, one thread.
//! - **Eq. (1)**: GFLOPS = 2·m·n·l / (10⁹ · seconds); eq. (2) the same for N×N in ms,
//!   2N³ / (10⁶ · ms); the paper reports the mean of 10 runs (§4).
//! - **The grid** (§2.2, §3.1): the work groups the matrix needs (N / 32 per axis), at most
//!   64×64 per dispatch; Algorithm 1 *as printed* launches 64×64 every time, a labelled
//!   variant ([`gpu::Park2019Params::full_grid`]).
//!
//! Beyond the paper, in the same table (experiments in [`experiments`], one file per table
//! or figure; every program variant listed in [`gpu::programs`]): a blocked compute kernel
//! ([`gpu::Blocked`]), a multipass fragment-shader matmul on RGBA32F textures in the style
//! of 2001–2004 ([`multipass::Multipass`]), and a tuned single-threaded CPU SGEMM
//! (`matrixmultiply`) as today's CPU anchor.
//!
//! `gpgpu-repro trace matmul-multipass` (`--size 12` by default) runs the multipass fragment
//! kernel pass by pass on small N×N matrices, 4 k per pass, and draws A, B and the R1/R2
//! ping-pong pair after each pass ([`multipass::trace`] says what each pass is).

pub mod claims;
pub mod cpu;
mod error;
pub mod experiments;
pub mod gpu;
mod matrix;
pub mod multipass;
mod original;
pub mod pack;

pub use error::MatmulError;
pub use matrix::{Matrix, dims, gflops};
pub use original::ORIGINAL;
