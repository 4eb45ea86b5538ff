//! The multipass fragment kernel's shader and its `#define`s, which the kernel and the
//! trace of its passes both build from.

use crate::gl::Define;

/// The multipass fragment kernel's shader.
pub const MULTIPASS: &str = "matmul/multipass.frag";

/// The k per pass actually used for a requested `k_chunk`: rounded up to a multiple of 4,
/// at least 4.
pub fn chunk(k_chunk: u32) -> u32 {
    k_chunk.max(4).next_multiple_of(4)
}

/// The `#define`s of `multipass.frag` for a requested `k_chunk`.
pub fn defines(k_chunk: u32) -> Vec<Define> {
    vec![Define::new("K_CHUNK", chunk(k_chunk))]
}
