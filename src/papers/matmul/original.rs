//! The paper as the report cites it ([`ORIGINAL`]).

use super::claims;

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: claims::CLAIMS,
    citation: "S. Park, \"Parallel Algorithm for Matrix-Matrix Multiplication on the GPU\" (GPU 기반 행렬 곱셈 병렬처리 알고리즘), Korea National University of Transportation, 2019.",
    setup: "Quadro 4000 (2 GB); an OpenGL 4.3 compute shader, 32×32 tiles in shared memory, SSBOs, fp32; the naive CPU loop (Algorithm 3)",
    here: "the same GL 4.3 compute shader (Algorithm 2) and CPU loop; beside them a blocked compute kernel (register blocks, shared-memory tiles) tuned on this device and a multipass fragment kernel (labelled +)",
    omitted: &[
        (
            "Fig. 1 (compute work groups and invocations)",
            "a diagram of OpenGL's dispatch model, not a result; Algorithm 2's work groups follow it as printed",
        ),
        (
            "Fig. 2's diagram of the shared-memory tiles As and Bs",
            "not drawn; Algorithm 2 loads and uses the tiles as printed (`glsl/matmul/park2019.comp`)",
        ),
    ],
};
