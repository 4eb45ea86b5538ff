//! Matrices four columns to a texel or vec4 (the blocked and the multipass kernels'
//! storage): packing, unpacking, and the RGBA32F rectangle texture.

use super::error::MatmulError;
use super::matrix::Matrix;
use crate::gl::{Format, Gl, TexTarget, Texture};

/// Rows of `cols` floats → rows of ⌈cols/4⌉ vec4s, zero-padded.
pub(super) fn pack4(data: &[f32], rows: usize, cols: usize) -> Vec<[f32; 4]> {
    let c4 = cols.div_ceil(4);
    let mut out = vec![[0f32; 4]; rows * c4];
    for i in 0..rows {
        for j in 0..cols {
            out[i * c4 + j / 4][j % 4] = data[i * cols + j];
        }
    }
    out
}

/// A matrix as an RGBA32F rectangle texture, four columns per texel (`⌈cols/4⌉` wide), `height`
/// rows: rows and columns beyond the matrix read zeros.
pub(super) fn rgba_rect(gl: &Gl, mat: &Matrix, height: usize) -> Result<Texture, MatmulError> {
    let c4 = mat.cols.div_ceil(4);
    let mut flat: Vec<f32> = pack4(&mat.data, mat.rows, mat.cols)
        .into_iter()
        .flatten()
        .collect();
    flat.resize(4 * c4 * height, 0.0);
    let (w, h) = (c4 as u32, height as u32);
    Ok(Texture::new(
        gl,
        TexTarget::Rect,
        Format::RGBA32F,
        w,
        h,
        Some(&flat),
    )?)
}

/// Rows of ⌈cols/4⌉ vec4s → rows of `cols` floats (the padding dropped).
pub fn unpack4(data: &[[f32; 4]], rows: usize, cols: usize) -> Vec<f32> {
    let c4 = cols.div_ceil(4);
    (0..rows)
        .flat_map(|i| (0..cols).map(move |j| data[i * c4 + j / 4][j % 4]))
        .collect()
}
