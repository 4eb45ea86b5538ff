//! The matrix edge from which Algorithm 1's needed work groups are the printed full grid.

use crate::papers::matmul::gpu::Park2019Params;

/// The matrix edge one full dispatch covers (32 × 64 = 2048 in the paper): from a multiple
/// of it on, the needed groups are the printed full grid.
pub(super) fn full_edge() -> usize {
    let p = Park2019Params::default();
    (p.block * p.max_groups) as usize
}
