//! The GPU solver: the preconditioned Bi-CG of [`super::cpu`] as GL 4.3 compute shaders,
//! one shader per kernel the paper's profile names (Table 2): `spmv.comp` (SpMV),
//! `v_plus_bu.comp` (V_plus_bU), `v_mul_u.comp` (V_mul_U), `asolve.comp` (asolveKernel),
//! `copy.comp` (Copy), `sub.comp` (Sub), and the two reduction stages profiled as
//! reduceKernel6/5 (with `OP_MAX`, MaxreduceKernel6/5): `reduce_grid_stride.comp`, a
//! grid-stride reduction (Harris's #7, multiple elements per thread, without the warp
//! unrolling of his #5/#6 that GLSL cannot express), and `reduce_partials.comp`, one work group
//! folding the partials (Harris's #4, the first combine during the load). The paper's "6"
//! and "5" are the CUDA SDK kernel numbers it used; ours keep the names in the profile only.
//! [`build_variants`] lists every shader with its switches in one place ([`kernels`]); the
//! solver's state and iteration are in `solver.rs`, the passes that bind and dispatch them in
//! `passes.rs`, its build options in `options.rs`.
//!
//! As in the paper (§III.1) the matrix and vectors live on the device for the whole solve;
//! per iteration only scalars cross the bus: the three reductions' results are read back
//! (ρ; z·p̄; ‖z‖∞, ‖p‖∞, ‖x‖∞ — the paper's memcpyDtoH) and the host computes β and α in
//! f64 and writes them into a small coefficient buffer (memcpyHtoD) that `v_plus_bu` reads.
//! A dot product is V_mul_U into a scratch vector, then the two reduction stages, which is
//! what the paper's profile implies (as many V_mul_U calls as reduceKernel calls).
//!
//! `Real` picks the precision: `f64` (the paper) or `f32` (the single-precision build that
//! the paper says fails to converge on this problem).

pub mod kernels;
mod passes;
pub mod work;

mod options;
mod solver;

pub use super::error::GpuBicgError;
pub use kernels::{
    Kernel, LOCAL_SIZES, Profile, build_variants, check_fits, check_fits_on, device_bytes,
    program_variants,
};
pub use options::GpuOptions;
pub use solver::GpuBicg;
