//! The errors of the GL Bi-CG solvers (compute and fragment) and of the loop they share
//! ([`super::linbcg`]): in a file of their own so that the shared loop does not import the
//! compute solver that drives it.

use super::cpu::BicgError;
use super::ellpack::EllpackError;
use crate::gl::GlError;

/// Errors of the GPU solver.
#[derive(Debug, thiserror::Error)]
pub enum GpuBicgError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error(transparent)]
    Matrix(#[from] EllpackError),
    #[error("local size {0} is not a power of two in 32..=1024 within the device limit {1}")]
    LocalSize(u32, u32),
    #[error("vector of length {got} for a matrix of order {n}")]
    Length { got: usize, n: usize },
    #[error(transparent)]
    NotConverged(#[from] BicgError),
    #[error("too large for this device: {what}, but {limit}")]
    TooLarge { what: String, limit: String },
}
