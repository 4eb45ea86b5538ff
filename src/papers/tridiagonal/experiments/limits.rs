//! What a grid needs of the device and the host, refused before anything is allocated.

use crate::gl::DeviceInfo;
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::layout::levels_for;
use crate::runner::RunError;

/// Bytes per unknown a table needs at most at once: the systems on the host (16) and in a
/// texture (16), the f64 references (8 + 32 for CG's vectors), one solver's buffers (the
/// fragment CG's thirteen vector textures, 52; CR's P0, P1, P2, X1, X2, x: 64), with room.
pub(super) const BYTES_PER_UNKNOWN: u64 = 256;

/// Refuses grid `g` of `table` where the device or the host cannot hold it, naming the
/// limit: the widest texture (`width` texels: X buffers are `2^q + 3` per system), `height`
/// rows, and the memory for `unknowns` (MemAvailable, where the OS tells).
pub(super) fn check_size(
    info: &DeviceInfo,
    table: &str,
    g: usize,
    width: u64,
    height: u64,
    unknowns: u64,
) -> Result<(), RunError> {
    let refuse = |why: String| {
        Err(RunError::algorithm(TridiagonalError::Unsupported(format!(
            "[{table}] grid {g}: {why}"
        ))))
    };
    let max = info.max_rectangle_texture_size.max(0) as u64;
    if width > max || height > max {
        return refuse(format!(
            "the solvers need a {width}×{height} texture; this device's largest rectangle \
             texture is {max}×{max}"
        ));
    }
    let need = unknowns.saturating_mul(BYTES_PER_UNKNOWN);
    if let Some(avail) = crate::util::available_memory()
        && need > avail
    {
        return refuse(format!(
            "needs about {} MiB ({BYTES_PER_UNKNOWN} bytes per unknown); {} MiB available",
            need >> 20,
            avail >> 20
        ));
    }
    Ok(())
}

/// [`check_size`] for `batch` systems of `n` unknowns side by side in one texture.
pub(super) fn check_batch(
    info: &DeviceInfo,
    table: &str,
    n: usize,
    batch: usize,
) -> Result<(), RunError> {
    let width = (1u64 << levels_for(n)) + 3;
    check_size(info, table, n + 1, width, batch as u64, (n * batch) as u64)
}
