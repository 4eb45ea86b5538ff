//! Matsui, Ino & Hagihara, "Design and Implementation of LU Decomposition on the Programmable
//! GPU", IPSJ 2005: right-looking LU without pivoting in fragment-shader passes.
//!
//! # The math (§3.1, Fig. 2)
//! For `i = 0 … N−1`: `A_ji ← A_ji / A_ii` for `j > i` (a column of `L`), then
//! `A_jk ← A_jk − A_ik · A_ji` for `j, k > i` (the trailing block, a rank-1 update).
//! `A = L·U` with `L` unit lower triangular (stored below the diagonal) and `U` upper
//! triangular, in place. `2N(N²−1)/3` flops with a division counted as 2 (§3.6).
//!
//! # What the paper built (§3.3–3.5) and where it lives here
//! - [`fragment`]: I1 (L and U passes, CPU branching), I2 (one pass, GPU branching), I3 (I1
//!   on four rows per RGBA texel, four edge programs), I4 (I3 with a GPU branch at the edge),
//!   each under the copy and the switch method (the toolkit's [`crate::gl::PingPong`]) as the
//!   paper ran them (§3.3, Table 1: the copy of the step's whole active block; a switch that
//!   draws no texel twice, with a third texture for I1, I3, I4) and in the labelled forms
//!   first built ("copy (rendered only)", "switch (carry)"; [`fragment::Feed`]), with the
//!   counts of Tables 1–2 and the A/G/C/T times of Table 4.
//! - [`theory`]: the paper's formulas for Tables 1 and 2.
//! - [`cpu`]: the same loop in `f32` and `f64`, partial pivoting in `f64`, `faer`'s LU.
//! - [`ulp`]: Table 5, the ULP error of `+ − × ÷` in fragment and compute shaders.
//! - [`compute`]: beyond the paper — a compute-shader LU, with partial pivoting on the GPU
//!   (argmax reduction and row swap: the paper's §5.3 open problem).
//! - [`experiments`]: the tables and figures of `gpgpu-repro reproduce lu`.
//!
//! # Watch it run: `gpgpu-repro trace`
//! `gpgpu-repro trace lu-i3-switch` (and `lu-i1-copy` … `lu-i4-switch`, `--size 8` by
//! default) runs [`fragment::FragmentLu`] pass by pass on a small matrix and draws every
//! texture after each pass — the quads of Fig. 3–5, I3's four rows per texel, the switch
//! method's L texture — with a `trace.md` narrating each pass
//! (`fragment/lu_trace.rs` says what each pass is).

pub mod arith2005;
pub mod claims;
pub mod compute;
pub mod cpu;
pub mod experiments;
pub mod fragment;
pub mod theory;
pub mod ulp;

pub use fragment::{Feed, FragmentLu, I2Order, LuInfo, Params, Variant, method_label};

use crate::gl::{Define, GlError};
use arith2005::Arith2005;

/// Why a factorization could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LuError {
    /// The pivot of step `step` (0-based) is zero or not finite: LU without pivoting breaks
    /// down there (use the pivoting variant).
    #[error(
        "zero or non-finite pivot {value} at step {step} (0-based): LU without pivoting breaks down"
    )]
    Pivot { step: usize, value: f64 },
    /// The factors hold a non-finite value although every pivot is finite (overflow).
    #[error("non-finite factor entry at row {row}, column {col}")]
    NonFinite { row: usize, col: usize },
    #[error("unsupported size: {0}")]
    Size(String),
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A stop request (Ctrl-C or SIGTERM) came before one round of the timed variants ended.
    #[error(transparent)]
    Stopped(#[from] crate::gl::timing::Stopped),
}

/// The packed factors `lu` (row-major `n × n`) of a GPU decomposition, or the first zero or
/// non-finite pivot in them ([`LuError::Pivot`]), or else the first non-finite entry
/// ([`LuError::NonFinite`]).
fn checked_factors(lu: Vec<f32>, n: usize) -> Result<Vec<f32>, LuError> {
    if let Some((step, value)) = cpu::first_bad_pivot(&lu, n) {
        return Err(LuError::Pivot {
            step,
            value: value as f64,
        });
    }
    if let Some(pos) = lu.iter().position(|x| !x.is_finite()) {
        return Err(LuError::NonFinite {
            row: pos / n,
            col: pos % n,
        });
    }
    Ok(lu)
}

/// How a program is built: fragment (behind `common/quad.vert`) or compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Fragment,
    Compute,
}

/// Every program this paper builds — each shader file with each set of `#define`s the code
/// asks for — for a compute panel width `block` (each candidate of the experiment file's `compute.blocks`).
/// Built from the same functions the implementations use ([`fragment::ProgramSet`],
/// [`compute::program_defines`]), so a test that compiles this list compiles every variant a
/// run can build.
pub fn program_variants(block: u32) -> Vec<(Stage, &'static str, Vec<Define>)> {
    let mut out = vec![];
    let mut push = |stage, file, d: Vec<Define>| {
        if !out
            .iter()
            .any(|(s, f, x)| *s == stage && *f == file && *x == d)
        {
            out.push((stage, file, d));
        }
    };
    // Every variant in IEEE arithmetic (with the §4.3 fetch-only form) and under the whole
    // 2005 model; the ablation's single-operation models on the configuration §5.1 runs them.
    let mut runs = vec![];
    for v in Variant::ALL {
        runs.push((v, false, Arith2005::IEEE));
        runs.push((v, true, Arith2005::IEEE));
        runs.push((v, false, Arith2005::ALL));
    }
    for m in Arith2005::ABLATION {
        runs.push((experiments::ABLATION_VARIANT, false, m));
    }
    // The model family (issue 38): the whole model and the ablation per member.
    for member in arith2005::Member::FAMILY {
        runs.push((
            experiments::ABLATION_VARIANT,
            false,
            Arith2005::ALL.with(member),
        ));
        for m in Arith2005::ablation(member) {
            runs.push((experiments::ABLATION_VARIANT, false, m));
        }
    }
    for (v, fetch_only, arith) in runs {
        // The separate L texture: the paper's switch method for I1, I3, I4 (issue 38).
        for (separate_l, i2) in [
            (false, I2Order::Printed),
            (v != Variant::I2, I2Order::Printed),
            (false, I2Order::DivideFirst),
        ] {
            let set = fragment::ProgramSet::of(v, fetch_only, arith, separate_l, i2);
            for d in set.l {
                push(Stage::Fragment, fragment::L_FRAG, d);
            }
            for d in set.u {
                push(Stage::Fragment, fragment::U_FRAG, d);
            }
            if let Some(d) = set.onepass {
                push(Stage::Fragment, fragment::ONEPASS_FRAG, d);
            }
        }
    }
    push(Stage::Fragment, fragment::COPY_FRAG, vec![]);
    for (file, d) in compute::program_defines(block) {
        push(Stage::Compute, file, d);
    }
    push(Stage::Fragment, ulp::ULP_FRAG, vec![]);
    for member in arith2005::Member::FAMILY {
        push(
            Stage::Fragment,
            ulp::ULP_FRAG,
            Arith2005::ALL.with(member).defines(),
        );
    }
    push(Stage::Compute, ulp::ULP_COMP, vec![]);
    out
}

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: claims::CLAIMS,
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
