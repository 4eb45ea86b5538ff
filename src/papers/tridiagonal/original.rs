//! The paper as the report cites it ([`ORIGINAL`]).

use super::claims;

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: claims::CLAIMS,
    citation: "Y. Kim and S. Lee, \"Fast GPU Implementation for the Solution of Tridiagonal Matrix Systems\" (삼중대각행렬 시스템 풀이의 빠른 GPU 구현), Journal of KIISE, 2005.",
    setup: "GeForce 6800 (256 MB, PCIe) against a Pentium IV 3.0 GHz; OpenGL with Cg fragment programs, pbuffers with several colour surfaces, fp32",
    here: "GLSL fragment shaders rendering into framebuffer objects (core GL has no pbuffers), the paper's copy and switch ping-pong, fp32; CPU Thomas single-threaded; GL 4.3 compute variants beside (labelled +)",
    omitted: &[
        (
            "§3.2's choice of a 2D texture over a cube map for 3D batches",
            "no cube-map layout is built: 3D batches are tiled into one 2D texture as the paper does, so the two are not compared",
        ),
        (
            "Figs. 1–4, 7 and 8: the diagrams of the reduction and fill passes, their texture-coordinate mapping and their 2D batches (§3.2)",
            "`gpgpu-repro trace tridiagonal` draws every pass of a solve (its rectangles, sources and values) but the report embeds none of them",
        ),
        (
            "serial CR against PCR on operation count",
            "PCR runs beside as a labelled compute variant and is timed (`tuning`, `fig11`); its operation count against CR's is not judged",
        ),
        (
            "Figs. 12, 15 and 17: the simulations' set-ups (grid, time step, sources)",
            "the paper shows pictures, not parameters; `experiments/sims.toml` holds ours",
        ),
    ],
};
