//! The options of a [`FragmentCg`](super::FragmentCg) and what its last solve did.

use crate::papers::lu::arith2005::Arith2005;
use crate::papers::tridiagonal::cg_model::Packing;

/// Options of [`FragmentCg`](super::FragmentCg).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CgParams {
    pub packing: Packing,
    /// Iterations run by a solve (a fixed count, as Fig. 11's "CG n = 1, 2, …").
    pub iterations: usize,
    /// `Some(tol)`: stop once `‖r‖₂ / ‖k‖₂ ≤ tol` (checked by reading ρ back every
    /// `check_every` iterations) and fail with [`TridiagonalError::NotConverged`](crate::papers::tridiagonal::TridiagonalError::NotConverged) if
    /// `iterations` (then the cap) pass first. `None`: run exactly `iterations`.
    pub tolerance: Option<f64>,
    pub check_every: usize,
    /// Instrumented shaders that count texture fetches (Table 1, measured).
    pub count_fetches: bool,
    /// Read the result back and fail on non-finite values (on by default).
    pub check_finite: bool,
    /// Which operations of the shaders follow the 2005 arithmetic model (the `arith2005`
    /// table; the scalars α, β are formed in the shaders too); IEEE by default.
    pub arith: Arith2005,
}

impl CgParams {
    pub fn fixed(packing: Packing, iterations: usize) -> CgParams {
        CgParams {
            packing,
            iterations,
            tolerance: None,
            check_every: 8,
            count_fetches: false,
            check_finite: true,
            arith: Arith2005::IEEE,
        }
    }
    pub fn converge(packing: Packing, tolerance: f64, max_iterations: usize) -> CgParams {
        CgParams {
            tolerance: Some(tolerance),
            ..CgParams::fixed(packing, max_iterations)
        }
    }
}

/// What the last solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CgInfo {
    pub iterations: usize,
    /// `‖r‖₂/‖k‖₂` at the end (only measured when converging to a tolerance).
    pub residual: Option<f64>,
    /// Texel and float fetches of the set-up (`r = k − Mx`) and of all iterations
    /// (instrumented builds only).
    pub setup_fetches: [u64; 2],
    pub iteration_fetches: [u64; 2],
}
