//! How a compute solver launches: where it keeps its working arrays ([`Memory`]), its
//! work-group size, and the checks before anything is built.

use crate::gl::Gl;
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::layout::levels_for;

/// Where a compute solver keeps its working arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// `shared` arrays (the fast path).
    Shared,
    /// A scratch SSBO (systems too big for shared memory).
    Global,
}

/// Default invocations per work group (CR, PCR), for the simulations' solvers. The paper's
/// experiments do not use it: they tune the size on the device that runs them (the
/// tridiagonal `tuning` table), since the best size differs between a CPU rasterizer
/// (llvmpipe runs a group's invocations as SIMD lanes and switches coroutines at every
/// barrier, so small groups pay less) and a GPU (see [`ComputeCr::with_options`](super::ComputeCr::with_options)).
pub const DEFAULT_LOCAL: [usize; 2] = [8, 32];

/// The invocations per work group a solver of `n` unknowns runs with when asked for
/// `local`: CR clamped to half the padded length `2^q / 2` (the most equations a reduction
/// level updates), PCR to the padded length `2^⌈log₂ n⌉` (one invocation per equation).
pub fn clamped_local(n: usize, pcr: bool, local: usize) -> usize {
    if pcr {
        local.min(n.next_power_of_two())
    } else {
        local.min((1usize << levels_for(n)) / 2).max(1)
    }
}

/// Refuses a work-group size the device cannot launch and an empty batch, before anything is
/// built.
pub(super) fn check_launch(
    gl: &Gl,
    n: usize,
    batch: usize,
    local: usize,
) -> Result<(), TridiagonalError> {
    let max_local = gl.info().max_work_group_invocations as usize;
    if local == 0 || local > max_local {
        return Err(TridiagonalError::Unsupported(format!(
            "work-group size {local}: must be 1..={max_local}"
        )));
    }
    if n == 0 || batch == 0 {
        return Err(TridiagonalError::Shape(format!(
            "{n} unknowns × {batch} systems: both must be at least 1"
        )));
    }
    Ok(())
}
