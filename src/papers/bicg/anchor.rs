//! Today's anchor: the same symmetric Poisson matrices solved directly by `faer`'s sparse
//! Cholesky (supernodal, fill-reducing ordering), to put the 2011 iterative solver beside a
//! well-kept modern library and to check the Bi-CG solutions against a direct one.

use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};

use super::ellpack::EllpackR;

/// Errors of the direct solve.
#[derive(Debug, thiserror::Error)]
pub enum AnchorError {
    #[error("building the sparse matrix: {0}")]
    Create(String),
    #[error("sparse Cholesky failed (matrix not symmetric positive definite?): {0}")]
    Cholesky(String),
}

/// Solves A x = b with faer's sparse LLᵀ (A must be symmetric positive definite).
pub fn cholesky_solve(a: &EllpackR<f64>, b: &[f64]) -> Result<Vec<f64>, AnchorError> {
    let n = a.n;
    let trips: Vec<Triplet<usize, usize, f64>> = (0..n)
        .flat_map(|i| a.row(i).map(move |(j, v)| Triplet::new(i, j, v)))
        .collect();
    let m = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &trips)
        .map_err(|e| AnchorError::Create(format!("{e:?}")))?;
    let llt = m
        .sp_cholesky(Side::Lower)
        .map_err(|e| AnchorError::Cholesky(format!("{e:?}")))?;
    let rhs = Mat::from_fn(n, 1, |i, _| b[i]);
    let x = llt.solve(&rhs);
    Ok((0..n).map(|i| x[(i, 0)]).collect())
}
