//! The paper as the report cites it.

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: super::claims::CLAIMS,
    citation: "H.-H. Boo and S.-H. Kim, \"Two dimensional variable-length vector storage format for efficient storage of sparse matrix in the finite element method\" (유한요소법에서 희소행렬의 효율적인 저장을 위한 2차원 가변길이 벡터 저장구조), Journal of the Korea Society of Computer and Information (KSCI), 2012.",
    setup: "CUDA Jacobi on a Tesla C1060 reading with `tex1Dfetch`; MATLAB `x = A\\b` (sparse Cholesky) on the CPU",
    here: "the storage formats and their counts on the CPU; the Jacobi sweep as a GL 4.3 compute shader reading SSBOs and, as the paper did, buffer textures; faer's sparse Cholesky in MATLAB's role; a fragment-pass Jacobi beside (labelled +)",
    omitted: &[
        (
            "MATLAB's `A\\b`",
            "not available here; faer's sparse Cholesky on the same matrices takes its place",
        ),
        (
            "Fig. 1's per-node picture of the variable-length vectors",
            "not drawn; `table2` counts the same storage node by node",
        ),
        (
            "Fig. 5's in-place update (x written while other threads read it)",
            "the Jacobi here ping-pongs two buffers, so every sweep is a true Jacobi sweep and its result deterministic; the in-place race is not reproduced",
        ),
        (
            "Table 3 (sequential complexity of six solvers)",
            "textbook operation counts the paper quotes, not a result; only Jacobi and a direct sparse Cholesky run here (`table4`)",
        ),
        (
            "§IV–V's bound on the off-diagonal entries a Jacobi row loops over (2D and 3D)",
            "counted by `FlatMatrix::max_off_diagonal` and checked in tests/fem_storage.rs, but no table of the report shows it",
        ),
        (
            "the meshes behind Table 4's sizes",
            "the paper names neither them nor the iteration counts; meshes of the nearest sizes are built and both are reported",
        ),
    ],
};
