//! Today's anchor: the same symmetric Poisson matrices solved directly by `faer`'s sparse
//! Cholesky (supernodal, fill-reducing ordering), to put the 2011 iterative solver beside a
//! well-kept modern library and to check the Bi-CG solutions against a direct one; and
//! faer's sparse LU for the non-symmetric systems of [`super::charged`].

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
    #[error("sparse LU failed (matrix singular?): {0}")]
    Lu(String),
}

/// A in faer's compressed-column form.
fn to_faer(a: &EllpackR<f64>) -> Result<SparseColMat<usize, f64>, AnchorError> {
    let trips: Vec<Triplet<usize, usize, f64>> = (0..a.n)
        .flat_map(|i| a.row(i).map(move |(j, v)| Triplet::new(i, j, v)))
        .collect();
    SparseColMat::<usize, f64>::try_new_from_triplets(a.n, a.n, &trips)
        .map_err(|e| AnchorError::Create(format!("{e:?}")))
}

/// Solves A x = b with faer's sparse LU (any non-singular A).
pub fn lu_solve(a: &EllpackR<f64>, b: &[f64]) -> Result<Vec<f64>, AnchorError> {
    let lu = to_faer(a)?
        .sp_lu()
        .map_err(|e| AnchorError::Lu(format!("{e:?}")))?;
    let x = lu.solve(Mat::from_fn(a.n, 1, |i, _| b[i]));
    Ok((0..a.n).map(|i| x[(i, 0)]).collect())
}

/// Solves A x = b with faer's sparse LLᵀ (A must be symmetric positive definite).
pub fn cholesky_solve(a: &EllpackR<f64>, b: &[f64]) -> Result<Vec<f64>, AnchorError> {
    let n = a.n;
    let llt = to_faer(a)?
        .sp_cholesky(Side::Lower)
        .map_err(|e| AnchorError::Cholesky(format!("{e:?}")))?;
    let rhs = Mat::from_fn(n, 1, |i, _| b[i]);
    let x = llt.solve(&rhs);
    Ok((0..n).map(|i| x[(i, 0)]).collect())
}
