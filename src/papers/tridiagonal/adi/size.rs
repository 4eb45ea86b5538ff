//! The grid of `gpgpu-repro sim --size`: its default and its range, as the paper counts it.

use super::scheme::GRID_RANGE;
use crate::sim::SimError;

/// The grid of a `sim` run without `--size`: N′ = 256 (255 unknowns per line).
pub const DEFAULT_SIZE: u32 = 256;

/// The `--size` range: the grid N′ as the papers count it (their "1024 × 1024" is N′ =
/// 1024); an ADI simulation solves N′ - 1 unknowns per line (§3.1's N = N′ - 1), so this is
/// [`GRID_RANGE`] plus one.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> =
    *GRID_RANGE.start() + 1..=*GRID_RANGE.end() + 1;

/// The unknowns per line of `--size` N′ (see [`SIZE_RANGE`]), or the range message.
pub fn grid_of_size(size: u32) -> Result<u32, SimError> {
    if !SIZE_RANGE.contains(&size) {
        return Err(SimError::Params(format!(
            "--size {size}: must be {}..={} (the grid N′ as the paper counts it, e.g. 1024; \
             N′ - 1 unknowns per line are solved)",
            SIZE_RANGE.start(),
            SIZE_RANGE.end()
        )));
    }
    Ok(size - 1)
}
