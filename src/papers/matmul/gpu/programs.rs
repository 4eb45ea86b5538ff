//! Every program variant the paper's code builds, in one place.

use super::blocked::{BLOCKED, BlockedParams};
use super::park2019::{PARK2019, Park2019Params};
use crate::gl::Define;
use crate::papers::matmul::multipass::{MULTIPASS, Multipass};

/// Every program the paper's code builds, in one place: (shader file, `#define`s) for the
/// paper's kernel at the paper's tile, and the two variants with given parameters (each
/// candidate of `[table1.tune]` in `experiments/matmul.toml`). A `.comp` file is a compute
/// program, a `.frag` file a fragment program over `common/quad.vert`.
pub fn programs(blocked: BlockedParams, k_chunk: u32) -> Vec<(&'static str, Vec<Define>)> {
    vec![
        (PARK2019, Park2019Params::default().defines()),
        (BLOCKED, blocked.defines()),
        (MULTIPASS, Multipass::defines(k_chunk)),
    ]
}
