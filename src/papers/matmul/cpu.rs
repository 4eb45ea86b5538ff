//! CPU sides: the paper's Algorithm 3, today's tuned SGEMM, and the f64 reference.

use std::ops::Range;

use super::matrix::Matrix;

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

/// The shape `(m, n, l)` of the product of the m×n `a` and the n×l `b`. The raw-pointer
/// GEMMs below are sound only for conforming shapes and arrays that hold them, so a
/// mismatch stops here (every caller builds conforming squares: a mismatch is a bug).
fn product_shape(a: &Matrix, b: &Matrix) -> (usize, usize, usize) {
    let (m, n, l) = (a.rows, a.cols, b.cols);
    assert!(
        b.rows == n && a.data.len() == m * n && b.data.len() == n * l,
        "matmul: {m}×{n} (len {}) times {}×{l} (len {}) does not conform",
        a.data.len(),
        b.rows,
        b.data.len()
    );
    (m, n, l)
}

/// Today's CPU anchor: `matrixmultiply::sgemm` (packed, register-blocked, SIMD; one thread).
pub fn sgemm(a: &Matrix, b: &Matrix) -> Matrix {
    let (m, n, l) = product_shape(a, b);
    let mut r = Matrix::zeros(m, l);
    // SAFETY: `product_shape` checked that the pointers and strides describe the row-major
    // m×n, n×l arrays; `r` is m×l.
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
    let (m, n, l) = product_shape(a, b);
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
    crate::stats::max_rel_error(&got[span.clone()], &reference[span])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gemms_agree_on_a_rectangular_product_and_refuse_a_non_conforming_one() {
        let a = Matrix {
            rows: 2,
            cols: 3,
            data: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        };
        let b = Matrix {
            rows: 3,
            cols: 1,
            data: vec![1.0, -1.0, 2.0],
        };
        assert_eq!(sgemm(&a, &b).data, vec![5.0, 11.0]);
        assert_eq!(reference_f64(&a, &b), vec![5.0, 11.0]);
        assert_eq!(naive(&a, &b).data, vec![5.0, 11.0]);
        // B with 2 rows for A's 3 columns: refused before any pointer is read.
        let short = Matrix {
            rows: 2,
            cols: 1,
            data: vec![1.0, -1.0],
        };
        let refused = std::panic::catch_unwind(|| sgemm(&a, &short));
        assert!(refused.is_err());
        let refused = std::panic::catch_unwind(|| reference_f64(&a, &short));
        assert!(refused.is_err());
    }
}
