//! The matrices every multiplication takes ([`Matrix`]), the shape check of a product
//! ([`dims`]) and eq. (1)'s GFLOPS ([`gflops`]).

use super::error::MatmulError;

/// A dense row-major f32 matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f32>,
}

impl Matrix {
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// Uniform random entries in [-1, 1) from a fixed seed.
    pub fn random(rows: usize, cols: usize, seed: u64) -> Matrix {
        Matrix {
            rows,
            cols,
            data: crate::util::uniform_f32(seed, rows * cols, -1.0, 1.0),
        }
    }

    pub fn at(&self, i: usize, j: usize) -> f32 {
        self.data[i * self.cols + j]
    }
}

/// Checks that A·B is defined and non-empty; returns (m, n, l).
pub fn dims(a: &Matrix, b: &Matrix) -> Result<(usize, usize, usize), MatmulError> {
    if a.cols != b.rows {
        return Err(MatmulError::Shape(a.rows, a.cols, b.rows, b.cols));
    }
    for (r, c) in [(a.rows, a.cols), (b.rows, b.cols)] {
        if r == 0 || c == 0 {
            return Err(MatmulError::Empty(r, c));
        }
    }
    Ok((a.rows, a.cols, b.cols))
}

/// Eq. (1): GFLOPS of an m×n by n×l product that took `ms` milliseconds.
pub fn gflops(m: usize, n: usize, l: usize, ms: f64) -> f64 {
    2.0 * m as f64 * n as f64 * l as f64 / (1e6 * ms)
}
