//! The vector layout in texels: `W × H` R32F textures, the matrix's slots stacked below.

use crate::papers::bicg::error::GpuBicgError;

/// Column indices and row lengths are stored as f32: exact up to 2²⁴.
pub const MAX_EXACT: usize = 1 << 24;

/// The vector layout `(W, H)` for `n` rows with `m` slots on a device whose largest texture
/// is `max_size`, or why it does not fit (checked before anything is allocated).
pub fn layout(n: usize, m: usize, max_size: i32) -> Result<(u32, u32), GpuBicgError> {
    if n > MAX_EXACT {
        return Err(GpuBicgError::TooLarge {
            what: format!("{n} rows"),
            limit: format!(
                "the fragment build stores column indices as f32, exact up to {MAX_EXACT}"
            ),
        });
    }
    let max = max_size.max(1) as u64;
    let cap = 1u64 << (63 - max.leading_zeros());
    let mut w = 1u64;
    while w * w < n as u64 && w < cap {
        w *= 2;
    }
    let h = (n as u64).div_ceil(w).max(1);
    let slots = h * m.max(1) as u64;
    if slots > max {
        return Err(GpuBicgError::TooLarge {
            what: format!("{n} rows × {m} slots need a {w}×{slots} texture"),
            limit: format!("GL_MAX_TEXTURE_SIZE is {max_size}"),
        });
    }
    Ok((w as u32, h as u32))
}

/// `data` as f32, padded with `pad` to `w × h`.
pub(super) fn wrap(data: impl Iterator<Item = f32>, w: u32, h: u32, pad: f32) -> Vec<f32> {
    let mut v: Vec<f32> = data.collect();
    v.resize(w as usize * h as usize, pad);
    v
}
