//! What can go wrong in a multiplication.

use crate::gl::GlError;

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
