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
pub mod experiments;
pub mod gpu;
pub mod multipass;
pub mod pack;

use crate::gl::GlError;

/// A dense row-major f32 matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f32>,
}

impl Matrix {
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// Uniform random entries in [-1, 1) from a fixed seed.
    pub fn random(rows: usize, cols: usize, seed: u64) -> Matrix {
        Matrix {
            rows,
            cols,
            data: crate::util::uniform_f32(seed, rows * cols, -1.0, 1.0),
        }
    }

    pub fn at(&self, i: usize, j: usize) -> f32 {
        self.data[i * self.cols + j]
    }
}

/// What can go wrong in a multiplication.
#[derive(Debug, thiserror::Error)]
pub enum MatmulError {
    #[error("shape mismatch: A is {0}×{1} but B is {2}×{3}")]
    Shape(usize, usize, usize, usize),
    #[error("empty matrix ({0}×{1})")]
    Empty(usize, usize),
    #[error(transparent)]
    Gl(#[from] GlError),
}

/// Checks that A·B is defined and non-empty; returns (m, n, l).
pub fn dims(a: &Matrix, b: &Matrix) -> Result<(usize, usize, usize), MatmulError> {
    if a.cols != b.rows {
        return Err(MatmulError::Shape(a.rows, a.cols, b.rows, b.cols));
    }
    for (r, c) in [(a.rows, a.cols), (b.rows, b.cols)] {
        if r == 0 || c == 0 {
            return Err(MatmulError::Empty(r, c));
        }
    }
    Ok((a.rows, a.cols, b.cols))
}

/// Eq. (1): GFLOPS of an m×n by n×l product that took `ms` milliseconds.
pub fn gflops(m: usize, n: usize, l: usize, ms: f64) -> f64 {
    2.0 * m as f64 * n as f64 * l as f64 / (1e6 * ms)
}

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: claims::CLAIMS,
    citation: "S. Park, \"Parallel Algorithm for Matrix-Matrix Multiplication on the GPU\" (GPU 기반 행렬 곱셈 병렬처리 알고리즘), Korea National University of Transportation, 2019.",
    setup: "Quadro 4000 (2 GB); an OpenGL 4.3 compute shader, 32×32 tiles in shared memory, SSBOs, fp32; the naive CPU loop (Algorithm 3)",
    here: "the same GL 4.3 compute shader (Algorithm 2) and CPU loop; beside them a blocked compute kernel (register blocks, shared-memory tiles) tuned on this device and a multipass fragment kernel (labelled +)",
    omitted: &[
        (
            "Fig. 1 (compute work groups and invocations)",
            "a diagram of OpenGL's dispatch model, not a result; Algorithm 2's work groups follow it as printed",
        ),
        (
            "Fig. 2's diagram of the shared-memory tiles As and Bs",
            "not drawn; Algorithm 2 loads and uses the tiles as printed (`glsl/matmul/park2019.comp`)",
        ),
    ],
};
