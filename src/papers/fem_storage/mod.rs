//! Boo & Kim 2012, "Two dimensional variable-length vector storage format for efficient
//! storage of sparse matrix in the finite element method" (J. KSCI 17(9)).
//!
//! Steady heat conduction χ∇²T + Q = 0 (eq. 1), discretized by Galerkin finite elements
//! into \[K\]{Φ} = {F} (eq. 2) with K symmetric positive definite. The paper compares ways to
//! store K:
//!
//! * dense N×N; skyline (eq. 3: columns of the upper triangle from the first non-zero to the
//!   diagonal, with a pointer array); CSR (eq. 4, Table 1);
//! * the proposed **two-dimensional variable-length vector** (§III, Fig. 2): per node (row) a
//!   growable vector of (column, value) holding only the row's upper-triangular non-zeros,
//!   found-or-pushed during element assembly — at most 5 per node on a 2D grid, 14 in 3D.
//!
//! and solves with Jacobi iteration x⁽ᵏ⁺¹⁾ = D⁻¹(b − R x⁽ᵏ⁾) (eq. 5) on the GPU, after
//! appending each row's lower entries and flattening to index/value arrays with prefix sums
//! of the row lengths (`accmSize`, Fig. 4–5), stopping at ‖x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾‖/‖x⁽ᵏ⁺¹⁾‖ ≤ 1e-8.
//! Table 2 counts stored values on 2D grids; Fig. 3 plots skyline/proposed; Table 4 times
//! the GPU Jacobi against MATLAB's `A\b`.
//!
//! Modules: [`mesh`] (grids), [`element`] (element matrices), [`formats`] (the four storage
//! formats behind one sink), [`assembly`] (the element loop, loads, boundary conditions),
//! [`flat`] (the GPU layout), [`jacobi`] (the stopping loop and the CPU Jacobi), [`gpu`] (the
//! GL compute Jacobi, its inputs read through buffer textures as the paper's `tex1Dfetch`, or
//! from SSBOs), [`fragment`] (the same Jacobi as a render-to-texture fragment pass, GL
//! 3.3), [`direct`] (sparse Cholesky), [`experiments`] (one file per table or figure: Table 2,
//! Fig. 3, Table 4, the sweep benchmark, fragment vs compute and the audit). Every GL program
//! the paper builds is listed in [`gpu::programs`] (compute) and [`fragment::programs`].

pub mod assembly;
pub mod claims;
pub mod direct;
pub mod element;
pub mod experiments;
pub mod flat;
pub mod formats;
pub mod fragment;
pub mod gpu;
pub mod jacobi;
pub mod mesh;

pub use assembly::{Problem, System};
pub use flat::FlatMatrix;
pub use formats::{Csr, Dense, MatrixSink, Skyline, VarVec};
pub use fragment::FragmentJacobi;
pub use gpu::GpuJacobi;
pub use jacobi::{CpuJacobi, JacobiInfo, JacobiParams, JacobiSweeps, Stop};
pub use mesh::Grid;

use crate::gl::GlError;

/// Errors of the FEM pipeline.
#[derive(Debug, thiserror::Error)]
pub enum FemError {
    #[error("invalid grid: {0}")]
    InvalidGrid(String),
    #[error("invalid problem: {0}")]
    InvalidProblem(String),
    #[error("row {0} does not start with its diagonal (the layout of Fig. 4 needs it first)")]
    Layout(usize),
    #[error("zero diagonal in row {0}: Jacobi cannot divide by it")]
    ZeroDiagonal(usize),
    #[error("Jacobi diverged at iteration {iteration}: relative change {rel_change:e}")]
    Diverged { iteration: usize, rel_change: f64 },
    #[error("direct solve failed: {0}")]
    Direct(String),
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A stop request (Ctrl-C or SIGTERM) came before one round of the timed variants ended.
    #[error(transparent)]
    Stopped(#[from] crate::gl::timing::Stopped),
}

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: claims::CLAIMS,
    citation: "H.-H. Boo and S.-H. Kim, \"Two dimensional variable-length vector storage format for efficient storage of sparse matrix in the finite element method\" (유한요소법에서 희소행렬의 효율적인 저장을 위한 2차원 가변길이 벡터 저장구조), Journal of the Korea Society of Computer and Information (KSCI), 2012.",
    setup: "CUDA Jacobi on a Tesla C1060 reading with `tex1Dfetch`; MATLAB `x = A\\b` (sparse Cholesky) on the CPU",
    here: "the storage formats and their counts on the CPU; the Jacobi sweep as a GL 4.3 compute shader reading SSBOs and, as the paper did, buffer textures; faer's sparse Cholesky in MATLAB's role; a fragment-pass Jacobi beside (labelled +)",
    omitted: &[
        (
            "MATLAB's `A\\b`",
            "not available here; faer's sparse Cholesky on the same matrices takes its place",
        ),
        (
            "Fig. 1's per-node picture of the variable-length vectors",
            "not drawn; `table2` counts the same storage node by node",
        ),
        (
            "Fig. 5's in-place update (x written while other threads read it)",
            "the Jacobi here ping-pongs two buffers, so every sweep is a true Jacobi sweep and its result deterministic; the in-place race is not reproduced",
        ),
        (
            "Table 3 (sequential complexity of six solvers)",
            "textbook operation counts the paper quotes, not a result; only Jacobi and a direct sparse Cholesky run here (`table4`)",
        ),
        (
            "§IV–V's bound on the off-diagonal entries a Jacobi row loops over (2D and 3D)",
            "counted by `FlatMatrix::max_off_diagonal` and checked in tests/fem_storage.rs, but no table of the report shows it",
        ),
        (
            "the meshes behind Table 4's sizes",
            "the paper names neither them nor the iteration counts; meshes of the nearest sizes are built and both are reported",
        ),
    ],
};
