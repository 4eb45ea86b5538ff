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
pub mod error;
pub mod experiments;
pub mod flat;
pub mod formats;
pub mod fragment;
pub mod gpu;
pub mod jacobi;
pub mod mesh;
pub mod original;

pub use assembly::{Problem, System};
pub use error::FemError;
pub use flat::FlatMatrix;
pub use formats::{Csr, Dense, MatrixSink, Skyline, VarVec};
pub use fragment::FragmentJacobi;
pub use gpu::GpuJacobi;
pub use jacobi::{CpuJacobi, JacobiInfo, JacobiParams, JacobiSweeps, Stop};
pub use mesh::Grid;
pub use original::ORIGINAL;
