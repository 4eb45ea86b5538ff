//! ELLPACK-R storage of a sparse matrix (paper §IV.1, Fig. 1, eq. 5; Vázquez et al. 2009).
//!
//! An N × N matrix with at most m = max_i rl\[i\] non-zeros per row (eq. 5) is kept as
//!
//! * `val[k·N + i]` — the k-th non-zero of row i (k < rl\[i\]), zero padding after it,
//! * `col[k·N + i]` — its column index (padding: i itself, a harmless in-range read),
//! * `rl[i]` — the number of non-zeros of row i.
//!
//! The slot-major layout (`k·N + i`, not `i·m + k`) is the point of the format: invocation i
//! of the SpMV kernel reads `val[k·N + i]`, so neighbouring invocations read neighbouring
//! memory at every step k (coalesced on the paper's GTX 285; contiguous SIMD lanes on
//! llvmpipe). `rl` lets each row stop at its own length instead of the padded m (the "-R").

use bytemuck::Pod;

/// A sparse matrix in ELLPACK-R form with values of type `T` (`f64`, or `f32` for the
/// single-precision build).
#[derive(Clone, Debug, PartialEq)]
pub struct EllpackR<T> {
    /// Rows (and columns): the matrix is square.
    pub n: usize,
    /// Slots per row, m = max rl\[i\] (eq. 5).
    pub m: usize,
    /// Values, slot-major: `val[k * n + i]`.
    pub val: Vec<T>,
    /// Column indices, slot-major like `val`.
    pub col: Vec<u32>,
    /// Non-zeros per row.
    pub rl: Vec<u32>,
}

/// Invalid input to [`EllpackR::from_rows`].
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum EllpackError {
    #[error("row {row} has column index {col} outside 0..{n}")]
    ColumnOutOfRange { row: usize, col: usize, n: usize },
    #[error("matrix of {n} rows does not fit 32-bit indices")]
    TooLarge { n: usize },
    #[error("row {row} has no diagonal entry (the diagonal preconditioner needs one)")]
    NoDiagonal { row: usize },
    #[error("row {row} has a zero diagonal entry (the diagonal preconditioner divides by it)")]
    ZeroDiagonal { row: usize },
}

impl<T: Pod + Copy + Default + Into<f64>> EllpackR<T> {
    /// Builds the format from rows given as `(column, value)` lists (in any column order).
    pub fn from_rows(rows: &[Vec<(usize, T)>]) -> Result<EllpackR<T>, EllpackError> {
        let n = rows.len();
        if n > u32::MAX as usize / 8 {
            return Err(EllpackError::TooLarge { n });
        }
        let m = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut val = vec![T::default(); n * m];
        let mut col: Vec<u32> = (0..m).flat_map(|_| 0..n as u32).collect();
        let mut rl = vec![0u32; n];
        for (i, row) in rows.iter().enumerate() {
            rl[i] = row.len() as u32;
            for (k, &(c, v)) in row.iter().enumerate() {
                if c >= n {
                    return Err(EllpackError::ColumnOutOfRange { row: i, col: c, n });
                }
                val[k * n + i] = v;
                col[k * n + i] = c as u32;
            }
        }
        Ok(EllpackR { n, m, val, col, rl })
    }

    /// The non-zeros of row `i` as `(column, value)`.
    pub fn row(&self, i: usize) -> impl Iterator<Item = (usize, T)> + '_ {
        (0..self.rl[i] as usize)
            .map(move |k| (self.col[k * self.n + i] as usize, self.val[k * self.n + i]))
    }

    /// Stored non-zeros Σ rl\[i\].
    pub fn nnz(&self) -> usize {
        self.rl.iter().map(|&r| r as usize).sum()
    }

    /// The diagonal, checked to be present and non-zero (what `asolve` divides by).
    pub fn diagonal(&self) -> Result<Vec<f64>, EllpackError> {
        (0..self.n)
            .map(|i| {
                let d = self
                    .row(i)
                    .find(|&(c, _)| c == i)
                    .ok_or(EllpackError::NoDiagonal { row: i })?
                    .1
                    .into();
                if d == 0.0 {
                    Err(EllpackError::ZeroDiagonal { row: i })
                } else {
                    Ok(d)
                }
            })
            .collect()
    }

    /// Aᵀ in ELLPACK-R form (the Bi-CG's second product `atimes(…, itrnsp = 1)`).
    pub fn transpose(&self) -> EllpackR<T> {
        let mut rows: Vec<Vec<(usize, T)>> = vec![Vec::new(); self.n];
        for i in 0..self.n {
            for (c, v) in self.row(i) {
                rows[c].push((i, v));
            }
        }
        EllpackR::from_rows(&rows).expect("the transpose of a valid matrix is valid")
    }

    /// The same matrix with values converted (f64 → f32 for the single-precision build).
    pub fn map<U: Pod + Copy + Default + Into<f64>>(&self, f: impl Fn(T) -> U) -> EllpackR<U> {
        EllpackR {
            n: self.n,
            m: self.m,
            val: self.val.iter().map(|&v| f(v)).collect(),
            col: self.col.clone(),
            rl: self.rl.clone(),
        }
    }

    /// Bytes the GPU SpMV moves per product: values, indices and row lengths read once, the
    /// gathered x entries (one per non-zero, an upper bound on DRAM traffic), y written.
    pub fn spmv_bytes(&self) -> usize {
        let t = std::mem::size_of::<T>();
        let nnz = self.nnz();
        nnz * (t + 4) + self.n * 4 + nnz * t + self.n * t
    }
}

impl EllpackR<f64> {
    /// CPU reference of the SpMV kernel: y = A x, summing each row in slot order exactly as
    /// `glsl/bicg/spmv.comp` does (so f64 results agree bit for bit when FMA contraction
    /// does not intervene).
    pub fn spmv(&self, x: &[f64], y: &mut [f64]) {
        self.spmv_rows(x, 0, y);
    }

    /// [`EllpackR::spmv`] for the rows `first ..first + y.len()` only, into `y`: what each
    /// thread of the CPU solver computes ([`super::cpu`]), each row the same sum.
    pub fn spmv_rows(&self, x: &[f64], first: usize, y: &mut [f64]) {
        let n = self.n;
        for (i, yi) in (first..n).zip(y.iter_mut()) {
            let mut s = 0.0;
            for k in 0..self.rl[i] as usize {
                s += self.val[k * n + i] * x[self.col[k * n + i] as usize];
            }
            *yi = s;
        }
    }
}
