//! CPU sides: the paper's Algorithm 3, today's tuned SGEMM, and the f64 reference.

use std::ops::Range;

use super::Matrix;

/// Algorithm 3: the naive i-j-k loop in f32, single-threaded, over all rows.
pub fn naive(a: &Matrix, b: &Matrix) -> Matrix {
    let mut r = Matrix::zeros(a.rows, b.cols);
    naive_rows(a, b, 0..a.rows, &mut r.data);
    r
}

/// Algorithm 3 restricted to rows `rows` of R (written to `out[i * l + j]`). Every row of
/// R costs the same (n·l multiply-adds over the same walk through B), which lets the
/// experiment time a subset of rows at the largest sizes and scale by the row count.
pub fn naive_rows(a: &Matrix, b: &Matrix, rows: Range<usize>, out: &mut [f32]) {
    let (n, l) = (a.cols, b.cols);
    for i in rows {
        let arow = &a.data[i * n..(i + 1) * n];
        for j in 0..l {
            let mut sum = 0.0f32;
            for (k, &aik) in arow.iter().enumerate() {
                sum += aik * b.data[k * l + j];
            }
            out[i * l + j] = sum;
        }
    }
}

/// Today's CPU anchor: `matrixmultiply::sgemm` (packed, register-blocked, SIMD; one thread).
pub fn sgemm(a: &Matrix, b: &Matrix) -> Matrix {
    let (m, n, l) = (a.rows, a.cols, b.cols);
    let mut r = Matrix::zeros(m, l);
    // SAFETY: the pointers and strides describe the row-major m×n, n×l and m×l arrays.
    unsafe {
        matrixmultiply::sgemm(
            m,
            n,
            l,
            1.0,
            a.data.as_ptr(),
            n as isize,
            1,
            b.data.as_ptr(),
            l as isize,
            1,
            0.0,
            r.data.as_mut_ptr(),
            l as isize,
            1,
        );
    }
    r
}

/// The f64 reference R = A·B of the f32 inputs (`matrixmultiply::dgemm`), row-major m×l.
pub fn reference_f64(a: &Matrix, b: &Matrix) -> Vec<f64> {
    let (m, n, l) = (a.rows, a.cols, b.cols);
    let a64: Vec<f64> = a.data.iter().map(|&x| x as f64).collect();
    let b64: Vec<f64> = b.data.iter().map(|&x| x as f64).collect();
    let mut r = vec![0f64; m * l];
    // SAFETY: as in `sgemm`.
    unsafe {
        matrixmultiply::dgemm(
            m,
            n,
            l,
            1.0,
            a64.as_ptr(),
            n as isize,
            1,
            b64.as_ptr(),
            l as isize,
            1,
            0.0,
            r.as_mut_ptr(),
            l as isize,
            1,
        );
    }
    r
}

/// Normwise relative error of rows `rows` of `got` against the f64 reference:
/// max |got − ref| / max |ref| over those rows.
pub fn rows_error(got: &[f32], reference: &[f64], l: usize, rows: Range<usize>) -> f64 {
    let span = rows.start * l..rows.end * l;
    crate::util::max_rel_error(&got[span.clone()], &reference[span])
}
