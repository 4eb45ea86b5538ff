//! Park, Woo & Kim, "CUDA-based Parallel Bi-CG Matrix Solver for BioFET Simulation",
//! IEIE 2011 — re-created on OpenGL 4.3 compute shaders in double precision.
//!
//! The paper solves the BioFET's Poisson equation ∇·ε(−∇ψ) = q(\[n⁺\] − \[n⁻\]) (eq. 6) on a
//! 3D finite-difference mesh with a preconditioned bi-conjugate gradient (§II.2) whose
//! matrix is kept in ELLPACK-R (§IV.1, Fig. 1, eq. 5) and whose dot products and max-norms
//! are two-stage shared-memory tree reductions (§IV.2, Fig. 2). Its kernel names (Table 2:
//! asolveKernel, MaxreduceKernel) are those of Numerical Recipes' `linbcg` with a diagonal
//! preconditioner and the max-norm stopping test, which is what we build:
//!
//! * [`ellpack`] — the ELLPACK-R format and its CPU SpMV;
//! * [`poisson`] — the 7-point operator with Fig. 3's Dirichlet electrodes;
//! * [`charged`] — the charged BioFET systems in SI units (Gummel's Poisson step with an
//!   oxide/electrolyte ε jump and the double layer's charge linearised; one implicit
//!   Scharfetter–Gummel step, non-symmetric) on which the precision question is asked;
//! * [`cpu`] — the single-threaded f64 Bi-CG (the paper's CPU side and our reference),
//!   with the `BicgParams` / `BicgInfo` / `BicgError` trio;
//! * [`gpu`] — the same iteration as one compute shader per kernel of Table 2, in f64 and
//!   in an f32 build;
//! * [`linbcg`] — NR's control flow once for both GL solvers, over their device steps;
//! * [`fragment`] — beyond the paper: the f32 iteration as render-to-texture fragment passes
//!   (the legacy pipeline, GL 3.3), the counterpart of the compute f32 build;
//! * [`anchor`] — `faer`'s sparse Cholesky on the same matrices (a modern direct solver),
//!   and its sparse LU for the non-symmetric step;
//! * [`experiments`] — one file per table or figure: Fig. 4, the per-iteration timing, SpMV
//!   bandwidth, Table 2, Fig. 6, the precision comparison, the faer anchor, the BioFET checks;
//! * [`biofet`] — the ion-transport simulation ([`biofet::simulate`], also `gpgpu-repro sim
//!   biofet`).
//!
//! Fig. 5 (one GPU behind two different CPUs) needs two host machines and is skipped.
//!
//! `gpgpu-repro trace bicg-reduce` runs the fragment solver's 2×2 reduction chain (a dot
//! product and a max-norm) pass by pass and draws every texture after each pass
//! ([`reduce_trace`] says what each pass is).

pub mod anchor;
pub mod biofet;
pub mod charged;
pub mod claims;
pub mod cpu;
pub mod ellpack;
pub mod error;
pub mod experiments;
pub mod fragment;
pub mod gpu;
pub mod linbcg;
pub mod original;
pub mod poisson;
pub mod reduce_trace;

pub use cpu::{BicgError, BicgInfo, BicgParams, Stop};
pub use ellpack::{EllpackError, EllpackR};
pub use gpu::{GpuBicg, GpuBicgError, GpuOptions, Kernel, Profile};
pub use original::ORIGINAL;
pub use poisson::{Mesh, PoissonSystem};
