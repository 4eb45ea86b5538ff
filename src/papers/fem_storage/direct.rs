//! The direct solve in the role of MATLAB's `x = A\b` (Table 4): for a symmetric positive
//! definite A, MATLAB's backslash uses a sparse Cholesky factorization (CHOLMOD); here faer's
//! sparse Cholesky (AMD ordering, supernodal or simplicial as faer decides), in f64.

use faer::Side;
use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};

use super::error::FemError;
use super::formats::VarVec;

/// Solves K x = f with K given by its upper triangle in the proposed format.
pub fn cholesky_solve(k: &VarVec, f: &[f64]) -> Result<Vec<f64>, FemError> {
    let n = k.n();
    let mut triplets = Vec::with_capacity(k.stored_values());
    for (i, (cols, vals)) in k.idx.iter().zip(&k.val).enumerate() {
        for (&j, &v) in cols.iter().zip(vals) {
            // Upper entry (i, j) is lower entry (j, i): faer reads the lower side only.
            if v != 0.0 || j as usize == i {
                triplets.push(Triplet::new(j as usize, i, v));
            }
        }
    }
    let a = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &triplets)
        .map_err(|e| FemError::Direct(format!("building the sparse matrix: {e:?}")))?;
    let llt = a
        .sp_cholesky(Side::Lower)
        .map_err(|e| FemError::Direct(format!("Cholesky factorization: {e:?}")))?;
    let rhs = faer::Col::<f64>::from_fn(n, |i| f[i]);
    let x = llt.solve(&rhs);
    Ok((0..n).map(|i| x[i]).collect())
}
