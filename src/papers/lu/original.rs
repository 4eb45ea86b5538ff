//! The paper as the report cites it.

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: super::claims::CLAIMS,
    citation: "M. Matsui, F. Ino and K. Hagihara, \"Design and Implementation of LU Decomposition on the Programmable GPU\" (プログラマブルGPUにおけるLU分解の設計と実装), Information Processing Society of Japan (IPSJ), 2005.",
    setup: "Quadro FX 3400 (PCIe, Windows XP) and GeForce FX 5900 Ultra (AGP 8X, copy method only); C++, OpenGL, Cg; fp32, no pivoting",
    here: "GLSL fragment shaders for I1–I4 × copy/switch with render-to-texture, fp32, no pivoting; the 2005 division and rounding errors emulated in GLSL (`arith2005`); a GL 4.3 compute LU with pivoting beside (labelled +)",
    omitted: &[
        (
            "Fig. 1 (the GPU's pipeline architecture)",
            "a diagram of the 2005 hardware that §2 describes, not a result of the method",
        ),
        (
            "§6 finding 3's floating-point efficiency (the share of the GPU's peak)",
            "L3 judges only the cache-bound half (`sec4_3`); each kernel's share of this device's roofs is in `roofline`, but the flop efficiency is not judged",
        ),
        (
            "Table 3's second GPU, the GeForce FX 5900 Ultra",
            "a run measures one device; the paper's numbers for both GPUs stay beside ours",
        ),
        (
            "Fig. 5's draw regions (each pass's rectangles)",
            "`gpgpu-repro trace lu` draws them pass by pass; the report does not embed them",
        ),
        (
            "§5.1's GPU Paranoia measurement of the Quadro's own arithmetic",
            "today's devices round as IEEE 754 says; the Quadro's measured error intervals are emulated (`arith2005`), not measured",
        ),
    ],
};
