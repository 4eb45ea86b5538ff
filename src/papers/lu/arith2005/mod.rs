//! A model of the Quadro FX 3400's fp32 arithmetic (2005), and its bit-exact CPU twin.
//!
//! The paper's §5.1 says GPU and CPU factors never matched for `N > 4`, "mainly" because the
//! GPU's division is a reciprocal followed by a multiplication, and its Table 5 (measured with
//! Hillesland & Lastra's *GPU Floating-Point Paranoia*, GP² 2004, the paper's ref. 21) gives
//! the Quadro's error ranges: add `[−1, 0]`, subtract `[−0.75, 0.75]`, multiply
//! `[−0.78125, 0.625]`, divide `[−1.19902, 1.37442]` ULP. Today's devices round `+ − ×`
//! correctly (GLSL requires it); their `/` need not (GLSL allows 2.5 ULP: llvmpipe's rounds
//! correctly, an H200's does not), so the claim is tested by emulating the 2005 rounding:
//! `glsl/common/arith2005.glsl` does it in the shaders, this module on the CPU, bit for bit.
//!
//! # How an operation is emulated
//! Each operation first computes the exact result `x` as an unevaluated pair `x = s + e`,
//! `s = RN(x)` the correctly rounded `f32` result of today's device and `e` the rounding error,
//! itself an `f32` (error-free transformations: Knuth's TwoSum for `±`; Dekker's TwoProduct
//! for `×`, by Veltkamp's split — not `e = fma(a, b, −s)`: GLSL does not promise that `fma`
//! rounds once, and on llvmpipe it does not, for about one product in ten; the `fma` form is
//! opt-in with `ARITH_2005_FMA`). From `s` and `e`
//! comes the position of `x` between its two neighbouring floats: `l = RD(x)` (the float at or
//! below `x`), the spacing `u` above `l`, and `f = x − l ∈ [0, u)` classified in eighths of
//! `u` (`q = ⌊8f/u⌋` and whether `f = q·u/8` exactly) — all by exact comparisons
//! (`8e` against `k·u`, no rounding anywhere). The 2005 rounding is a rule on `(q, exact)`
//! that picks `l` or the next float up; ties to even look at the last significand bit of `l`.
//!
//! # The model (a guess fitted to Table 5; what is known and what is not)
//! GP² reports one error range per operation on its own operand set; the hardware's rounding
//! logic is not documented. Our harness (Table 5: random signs, significands uniform in
//! `[1, 2)`) measures the supremum of the error, so each rule below is the simplest one we found
//! whose supremum under that harness reaches the published ends:
//! - **add** ([`add05`]): chopping of the two's-complement sum — round toward −∞, `l`. Error
//!   `(−1, 0]` for either sign: exactly GP²'s one-sided `[−1, 0]`. (Chopping the magnitude,
//!   toward zero, would give `[−1, 0]` for positive sums and `[0, 1]` for negative ones.)
//! - **subtract** ([`sub05`]): one guard bit — the exact difference rounded to nearest on the
//!   grid of half an ULP (one bit more than `f32`), then to nearest-even `f32`: a double
//!   rounding whose error reaches `±0.75` ULP (`x` a hair beyond a midpoint, first rounded onto
//!   the midpoint, then away by ties-to-even).
//! - **multiply** ([`mul05`]): a truncated product — the exact product chopped toward −∞ three
//!   bits below the last place, then rounded through one guard bit as the subtraction. The
//!   error lies in `(−0.75, 0.625]`: the upper end is GP²'s `0.625` exactly (`x = m − u/8`
//!   below a midpoint `m`, carried onto `m` and up by ties-to-even); the lower end is `0.03`
//!   ULP short of GP²'s `−0.78125`. The three truncated bits and the sign behaviour are fitted,
//!   not known.
//! - **divide** ([`div05`]): a reciprocal and a multiplication, as §5.1 (after GP²) says the
//!   hardware did: `a · RN(1/b)` rounded to nearest. Both roundings are IEEE's, so the error is
//!   sign-symmetric, about `±1.5` ULP at most (the reciprocal's half ULP, magnified up to
//!   twice by the significand of `a`, plus the product's half ULP); GP²'s range is asymmetric
//!   (`−1.2 … 1.37`), which no sign-symmetric rule can give under random signs — Table 5's
//!   note says which end is matched.
//! - **No subnormals**: operands and results below `2⁻¹²⁶` in magnitude are flushed to zero
//!   (signed), as fp32 GPUs of the time did (an assumption: GP² does not test it). Products and
//!   quotients are formed on the significands in `[1, 2)` and the exponent added afterwards, and
//!   sums of two operands below `2⁻⁶⁰` are scaled by `2⁶⁴` first, so no intermediate of the
//!   error-free transformations is subnormal (llvmpipe flushes subnormals in its arithmetic;
//!   the CPU does not); overflow gives `±∞`. `NaN`, `∞` and zero operands give IEEE's result.
//!
//! # The family (issue 38)
//! The rules above are one guess, so finding 4 is judged over a family of members
//! ([`Member::FAMILY`], [`Member`] says each): the fitted model; `±` ruled by the *effective*
//! operation (the operands' signs) rather than the written one; the quotient formed with the
//! model's own multiply; a chopped reciprocal and a product chopped toward zero (pre-Fermi
//! NVIDIA's truncated MAD product, unfused); and the update `c − a·b` as one *fused* MAD
//! ([`mad`]: the exact value rounded once by the `±` rule, the product not rounded).
//!
//! # Where it is used
//! The LU programs built with `ARITH_2005` (§5.1 and finding 4 under the model, the
//! `sec5_1_2005` table; [`super::cpu::lu_f32_under`] is their CPU twin), Table 5's 'emulated
//! 2005' columns (the model measured by the paper's own instrument), and the tridiagonal
//! paper's fragment CR and CG (its `arith2005` table).
//!
//! The CPU twin runs the same steps on `f32` with Rust's IEEE `f32` arithmetic, the product's
//! error from `f32::mul_add` (a correctly rounded fused multiply-add: the exact error, as
//! Dekker's is), so it equals the shader bit for bit on any device whose `+ − ×` round
//! correctly, as GLSL requires. The shaders never use the device's `/`: wherever the twin
//! divides (the model's reciprocal, the IEEE division of the ablation's programs) they divide
//! by integer long division ([`div_rn_bits`] is its mirror), exact on every driver. Only the
//! programs built without the model use the device's `/` — what finding 4 measures. The test
//! `tests/inexact_division.rs` makes llvmpipe's `/` inexact (`GPGPU_REPRO_INEXACT_DIV`) and
//! checks that the model still equals its twin.

/// Which operations of a computation follow the 2005 model; the others are IEEE `f32`.
/// `add` covers both addition and subtraction. The GLSL's `ARITH_2005` define is
mod div;
pub mod mad;
mod member;
mod member_ops;
mod model;
mod operands;
mod ops;
mod round;
#[cfg(test)]
mod tests;

pub use div::{div_bits, div_rn_bits};
pub use member::Member;
pub use model::Arith2005;
pub use operands::{same_bits, test_operands, test_triples};
pub use ops::{add05, div05, mul05, ops05, sub05, why_end_differs};
