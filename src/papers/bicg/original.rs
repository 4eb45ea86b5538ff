//! The paper as the report cites it.

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: super::claims::CLAIMS,
    citation: "T. Park, J.-M. Woo and C.-H. Kim, \"CUDA-based Parallel Bi-Conjugate Gradient Matrix Solver for BioFET Simulation\" (BioFET 시뮬레이션을 위한 CUDA 기반 병렬 Bi-CG 행렬 해법), Journal of the Institute of Electronics Engineers of Korea (IEIE) CI, paper 2011-48CI-1-12, 2011.",
    setup: "CUDA on a GeForce GTX 285 (1 GB) with a Core i7 902 and a Core 2 Duo 6600 host; ELLPACK-R, shared-memory tree reductions, fp64",
    here: "one GL 4.3 compute shader per CUDA kernel of Table 2, fp64 (`GL_ARB_gpu_shader_fp64`), ELLPACK-R in SSBOs; two-stage shared-memory reductions (see what is not reproduced); fp32 compute and fragment Bi-CG beside (+); fp32 against fp64 on Fig. 4's and the BioFET systems; CPU `linbcg` in f64",
    omitted: &[
        (
            "Fig. 5 (one GPU behind two different host CPUs)",
            "needs two host machines",
        ),
        (
            "Fig. 2's reductions: Harris's kernels #5 and #6 as written",
            "warp-synchronous unrolling has no GLSL equivalent; instead a grid-stride stage like Harris's #7 without unrolling, every tree level behind barrier(), then a #4-like stage",
        ),
        (
            "Fig. 3's simulator window (its GUI and cross-section plane)",
            "no GUI is built; Fig. 3's electrodes are the Dirichlet nodes of Fig. 4's problem, and the BioFET run draws its fields on a mid-plane (`biofet_potential_slice`)",
        ),
        (
            "§VI's cost of fp64 against fp32 on the GTX 285",
            "a property of that GPU's fp64 units; the `precision` table compares the two builds' convergence, not their speed",
        ),
    ],
};
