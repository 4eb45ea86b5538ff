//! The GPU layout of §IV (Fig. 4, Fig. 5): the proposed rows with their lower-triangular
//! entries appended, flattened into one index array, one value array and the prefix sums of
//! the row lengths (`accmSize`).
//!
//! Row r occupies positions `accmSize[r-1] .. accmSize[r]` (`0 .. accmSize[0]` for r = 0);
//! its first entry is the diagonal, then its upper entries in assembly order, then the lower
//! entries (the transposes of the rows above that reference column r), by row. A Jacobi thread
//! therefore loops over at most 8 (2D) or 26 (3D) off-diagonal entries (§IV).
//!
//! Differences from the paper's arrays: indices are 0-based (Fig. 5 subtracts 1 from
//! `texIdx`), and the right-hand side is stored with the matrix as `rhs`.

use super::error::FemError;
use super::formats::VarVec;

/// The flattened matrix and right-hand side in f32, as the paper's kernel reads them.
#[derive(Clone, Debug, PartialEq)]
pub struct FlatMatrix {
    /// Column index of every stored entry (the paper's `dL_idx1D`).
    pub idx: Vec<u32>,
    /// Value of every stored entry (the paper's `dL_numEleNode1D`).
    pub val: Vec<f32>,
    /// Inclusive prefix sums of the row lengths (the paper's `dL_accmSize`).
    pub accm_size: Vec<u32>,
    /// The right-hand side (the paper's `dL_R`).
    pub rhs: Vec<f32>,
}

impl FlatMatrix {
    /// Appends the lower entries to each row of `k` and flattens (f64 → f32).
    pub fn from_varvec(k: &VarVec, rhs: &[f64]) -> Result<FlatMatrix, FemError> {
        let n = k.n();
        let mut lower: Vec<u32> = vec![0; n];
        for (i, cols) in k.idx.iter().enumerate() {
            match cols.first() {
                Some(&c) if c as usize == i => {}
                _ => return Err(FemError::Layout(i)),
            }
            for &j in &cols[1..] {
                lower[j as usize] += 1;
            }
        }
        let mut accm_size = Vec::with_capacity(n);
        let mut total = 0u64;
        for (cols, &low) in k.idx.iter().zip(&lower) {
            total += cols.len() as u64 + low as u64;
            accm_size.push(u32::try_from(total).map_err(|_| {
                FemError::InvalidGrid(format!("{total} entries exceed 32-bit offsets"))
            })?);
        }
        let total = total as usize;
        let mut idx = vec![0u32; total];
        let mut val = vec![0f32; total];
        // Cursor of the next lower entry of each row: after its upper part.
        let mut cursor: Vec<usize> = (0..n)
            .map(|i| start(&accm_size, i) + k.idx[i].len())
            .collect();
        for i in 0..n {
            let s = start(&accm_size, i);
            for (t, (&j, &v)) in k.idx[i].iter().zip(&k.val[i]).enumerate() {
                idx[s + t] = j;
                val[s + t] = v as f32;
                if j as usize != i {
                    let c = &mut cursor[j as usize];
                    idx[*c] = i as u32;
                    val[*c] = v as f32;
                    *c += 1;
                }
            }
            if val[s] == 0.0 {
                return Err(FemError::ZeroDiagonal(i));
            }
        }
        Ok(FlatMatrix {
            idx,
            val,
            accm_size,
            rhs: rhs.iter().map(|&v| v as f32).collect(),
        })
    }

    pub fn n(&self) -> usize {
        self.accm_size.len()
    }
    /// Stored entries of the full (both-triangle) matrix.
    pub fn entries(&self) -> usize {
        self.idx.len()
    }
    /// The range of row `i` in `idx`/`val`.
    pub fn row(&self, i: usize) -> std::ops::Range<usize> {
        start(&self.accm_size, i)..self.accm_size[i] as usize
    }
    /// The most off-diagonal entries of a row (the paper's 8 in 2D, 26 in 3D).
    pub fn max_off_diagonal(&self) -> usize {
        (0..self.n())
            .map(|i| self.row(i).len() - 1)
            .max()
            .unwrap_or(0)
    }
    /// Bytes a Jacobi sweep must move at least once: idx, val, accmSize, rhs, x_old, x_new.
    pub fn sweep_bytes(&self) -> usize {
        8 * self.entries() + 4 * 4 * self.n()
    }
}

fn start(accm: &[u32], i: usize) -> usize {
    if i == 0 { 0 } else { accm[i - 1] as usize }
}
