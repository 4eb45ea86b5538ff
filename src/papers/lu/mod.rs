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
pub mod error;
pub mod experiments;
pub mod fragment;
pub mod original;
pub mod programs;
pub mod theory;
pub mod ulp;

pub use error::LuError;
pub use fragment::{Feed, FragmentLu, I2Order, LuInfo, Params, Variant, method_label};
pub use original::ORIGINAL;
pub use programs::{Stage, program_variants};
