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
/// [`Arith2005::bits`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Arith2005 {
    pub add: bool,
    pub mul: bool,
    pub div: bool,
    /// Which member of the model family the emulated operations follow (issue 38).
    pub member: Member,
}

impl Arith2005 {
    /// Every operation IEEE.
    pub const IEEE: Arith2005 = Arith2005 {
        add: false,
        mul: false,
        div: false,
        member: Member::FITTED,
    };
    /// Every operation emulated.
    pub const ALL: Arith2005 = Arith2005 {
        add: true,
        mul: true,
        div: true,
        member: Member::FITTED,
    };
    /// Only division emulated.
    pub const DIV: Arith2005 = Arith2005 {
        add: false,
        mul: false,
        div: true,
        member: Member::FITTED,
    };
    /// Only addition and subtraction emulated.
    pub const ADD: Arith2005 = Arith2005 {
        add: true,
        mul: false,
        div: false,
        member: Member::FITTED,
    };
    /// Only multiplication emulated.
    pub const MUL: Arith2005 = Arith2005 {
        add: false,
        mul: true,
        div: false,
        member: Member::FITTED,
    };

    /// The ablation of §5.1 under the model: one operation emulated at a time.
    pub const ABLATION: [Arith2005; 3] = [Self::DIV, Self::ADD, Self::MUL];

    /// This model under `member`.
    pub fn with(self, member: Member) -> Arith2005 {
        Arith2005 { member, ..self }
    }

    /// The ablation under `member`.
    pub fn ablation(member: Member) -> [Arith2005; 3] {
        Self::ABLATION.map(|m| m.with(member))
    }

    /// Whether no operation is emulated.
    pub fn is_ieee(self) -> bool {
        !(self.add || self.mul || self.div)
    }

    /// The value of the shaders' `ARITH_2005` define: 1 add/subtract, 2 multiply, 4 divide,
    /// and the member's bits ([`Member::bits`]).
    pub fn bits(self) -> u32 {
        self.add as u32 | (self.mul as u32) << 1 | (self.div as u32) << 2 | self.member.bits()
    }

    /// The shader defines of this model: `ARITH_2005` = [`Arith2005::bits`], none for IEEE
    /// (so that the IEEE programs are the ones built without the model).
    pub fn defines(self) -> Vec<crate::gl::Define> {
        if self.is_ieee() {
            vec![]
        } else {
            vec![crate::gl::Define::new("ARITH_2005", self.bits())]
        }
    }

    /// A short name: `IEEE`, `all`, or the emulated operations joined by `+`.
    pub fn name(self) -> String {
        if self.is_ieee() {
            return "IEEE".into();
        }
        if self.member != Member::FITTED {
            return format!(
                "{} [{}]",
                self.with(Member::FITTED).name(),
                self.member.name()
            );
        }
        if self == Self::ALL {
            return "all".into();
        }
        let mut v = vec![];
        if self.add {
            v.push("add/sub");
        }
        if self.mul {
            v.push("mul");
        }
        if self.div {
            v.push("div");
        }
        v.join("+")
    }

    pub fn add(self, a: f32, b: f32) -> f32 {
        if self.add {
            sum2005(a, b, sum_rule(a, b, false, self.member))
        } else {
            a + b
        }
    }
    pub fn sub(self, a: f32, b: f32) -> f32 {
        if self.add {
            sum2005(a, -b, sum_rule(a, -b, true, self.member))
        } else {
            a - b
        }
    }
    pub fn mul(self, a: f32, b: f32) -> f32 {
        if self.mul {
            mul05m(a, b, self.member)
        } else {
            a * b
        }
    }
    pub fn div(self, a: f32, b: f32) -> f32 {
        if self.div {
            div05m(a, b, self.member)
        } else {
            a / b
        }
    }

    /// The update `c − a·b`: under a member with a fused MAD one operation, rounded once by
    /// the model when `±` is emulated ([`mad`]) and IEEE's unfused `c − a·b` when not (the
    /// MAD has no rounded product, so emulating `×` alone leaves it IEEE); under the others
    /// the product, then the difference, each as this model says.
    pub fn msub(self, c: f32, a: f32, b: f32) -> f32 {
        match (self.member.fused_mad, self.add) {
            (true, true) => mad::msub05m(c, a, b, self.member),
            (true, false) => c - a * b,
            (false, _) => self.sub(c, self.mul(a, b)),
        }
    }

    /// The four operations of Table 5 under this model, in [`super::ulp::OPS`] order.
    pub fn ops(self, [a, b]: [f32; 2]) -> [f32; 4] {
        [
            self.add(a, b),
            self.sub(a, b),
            self.mul(a, b),
            self.div(a, b),
        ]
    }
}

/// The smallest normal `f32` magnitude, `2⁻¹²⁶`.
const MIN_NORMAL: f32 = f32::MIN_POSITIVE;

/// Flushes a subnormal to zero of the same sign.
fn ftz(x: f32) -> f32 {
    if x.abs() < MIN_NORMAL {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// The next float toward +∞ (finite `x`; `±0` → `2⁻¹⁴⁹`).
fn succ(x: f32) -> f32 {
    let b = x.to_bits();
    if x == 0.0 {
        f32::from_bits(1)
    } else if x > 0.0 {
        f32::from_bits(b + 1)
    } else {
        f32::from_bits(b - 1)
    }
}

/// The next float toward −∞ (finite `x`; `±0` → `−2⁻¹⁴⁹`).
fn pred(x: f32) -> f32 {
    -succ(-x)
}

/// How the rounding of a model picks between `l = RD(x)` and the next float up.
#[derive(Clone, Copy)]
enum Rule {
    /// Toward −∞ (addition's chopping).
    Down,
    /// Nearest on the half-ULP grid (ties to even), then nearest-even (one guard bit).
    GuardBit,
    /// Toward −∞ on the eighth-ULP grid, then [`Rule::GuardBit`] (the truncated product).
    TruncatedGuardBit,
    /// Toward zero (a chopped product, [`Member::chopped_product`]).
    TowardZero,
}

/// The rule of a sum `a + b` (`b` already negated for a subtraction): the written
/// operator's (addition chops, subtraction has a guard bit) or, for a member that picks by
/// the effective operation, the operands' signs (differing signs subtract magnitudes).
fn sum_rule(a: f32, b: f32, written_sub: bool, m: Member) -> Rule {
    let sub = if m.effective {
        (a.to_bits() ^ b.to_bits()) & 0x8000_0000 != 0
    } else {
        written_sub
    };
    if sub { Rule::GuardBit } else { Rule::Down }
}

/// Rounds the exact value `s + e` (`s = RN(s + e)`, `e` its exact error) by `rule`.
fn round2005(s: f32, e: f32, rule: Rule) -> f32 {
    round2005x(s, e, 0.0, rule)
}

/// Rounds the exact value `x = s + e + e2` by `rule`, where `s` is a faithful rounding of
/// `x` (one of the two floats around it), `e = RN(e + e2)` and `e2` exact (the fused MAD's
/// three-term sum, [`mad`]; `e2 = 0` for the other operations). Every comparison of
/// `8(x − s)` with a float `g` reads `e` and, only on a tie `8e = g`, the sign of `e2`:
/// exact, since `RN` is monotone (`8e > g ⇒ 8(e + e2) ≥ g`, `8e < g ⇒ 8(e + e2) ≤ g`).
fn round2005x(s: f32, e: f32, e2: f32, rule: Rule) -> f32 {
    if e == 0.0 || !s.is_finite() || s.abs() == f32::MAX {
        return s;
    }
    let below = e < 0.0;
    let l = if below { pred(s) } else { s };
    match rule {
        Rule::Down => return l,
        // x > 0: RD(x) = l; x < 0: RU(x), s itself when x < s, else the float above.
        Rule::TowardZero => {
            return if s > 0.0 {
                l
            } else if below {
                s
            } else {
                succ(s)
            };
        }
        _ => {}
    }
    let u = succ(l) - l;
    // f = x − l = e (+ u when e < 0). 8f ≥ k·u  ⇔  8e ≥ (k − 8·below)·u: exact comparisons.
    let off = if below { 8.0 } else { 0.0 };
    let e8 = 8.0 * e;
    let at_least = |g: f32| e8 > g || (e8 == g && e2 >= 0.0);
    let q = (1..8).filter(|&k| at_least((k as f32 - off) * u)).count() as i32;
    let on_grid = e8 == (q as f32 - off) * u && e2 == 0.0;
    // h: 0 → l, 2 → succ(l), 1 → the midpoint, a tie broken to even.
    let h = match rule {
        Rule::Down | Rule::TowardZero => unreachable!(),
        // Nearest on the half grid: f < u/4 → l; f = u/4 → tie → l (even on the half grid);
        // u/4 < f < 3u/4 → the midpoint; f ≥ 3u/4 → succ(l) (3u/4: a tie, succ(l) even).
        Rule::GuardBit => {
            if q < 2 || (q == 2 && on_grid) {
                0
            } else if q >= 6 {
                2
            } else {
                1
            }
        }
        // t = q/8 chopped; then nearest on the half grid: q ≤ 2 → l (q = 2 a tie to l),
        // 3 ≤ q ≤ 5 → midpoint, q ≥ 6 → succ(l) (q = 6 a tie to succ(l)).
        Rule::TruncatedGuardBit => {
            if q <= 2 {
                0
            } else if q <= 5 {
                1
            } else {
                2
            }
        }
    };
    let odd = l.to_bits() & 1 == 1;
    if h == 2 || (h == 1 && odd) {
        succ(l)
    } else {
        l
    }
}

/// Knuth's TwoSum: `(s, e)` with `s = RN(a + b)` and `s + e = a + b` exactly.
fn two_sum(a: f32, b: f32) -> (f32, f32) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `x = m · 2^k` with `|m| ∈ [1, 2)` (normal, finite, nonzero `x`).
fn split_exp(x: f32) -> (f32, i32) {
    let b = x.to_bits();
    let k = ((b >> 23) & 0xff) as i32 - 127;
    (f32::from_bits((b & 0x807f_ffff) | 0x3f80_0000), k)
}

/// `m · 2^k` for a normal `m`: flushed to signed zero below `2⁻¹²⁶`, `±∞` on overflow
/// (zero, `∞` and `NaN` unchanged).
fn scale(m: f32, k: i32) -> f32 {
    if m == 0.0 || !m.is_finite() {
        return m;
    }
    let b = m.to_bits();
    let e = ((b >> 23) & 0xff) as i32 + k;
    let sign = b & 0x8000_0000;
    if e <= 0 {
        f32::from_bits(sign)
    } else if e >= 255 {
        f32::from_bits(sign | 0x7f80_0000)
    } else {
        f32::from_bits((b & 0x807f_ffff) | (e as u32) << 23)
    }
}

/// Below this magnitude both operands of a sum are scaled by `2⁶⁴` first, so that no
/// intermediate (the spacing `u`, the error `e`) is subnormal: a device that flushes
/// subnormals in its arithmetic (llvmpipe does) computes the same bits as the CPU.
const TINY: f32 = f32::from_bits(0x2180_0000); // 2⁻⁶⁰

/// `a + b` rounded by `rule` (subnormal operands flushed first, the result flushed after).
fn sum2005(a: f32, b: f32, rule: Rule) -> f32 {
    let (a, b) = (ftz(a), ftz(b));
    if a.abs() < TINY && b.abs() < TINY {
        let k = 2f32.powi(64);
        let (s, e) = two_sum(a * k, b * k);
        return scale(round2005(s, e, rule), -64);
    }
    let (s, e) = two_sum(a, b);
    ftz(round2005(s, e, rule))
}

/// Addition, 2005 model: the exact sum chopped toward −∞; no subnormals.
pub fn add05(a: f32, b: f32) -> f32 {
    Arith2005::ALL.add(a, b)
}

/// Subtraction, 2005 model: the exact difference rounded through one guard bit; no
/// subnormals.
pub fn sub05(a: f32, b: f32) -> f32 {
    Arith2005::ALL.sub(a, b)
}

/// Multiplication, 2005 model: the truncated product rounded through one guard bit; no
/// subnormals.
pub fn mul05(a: f32, b: f32) -> f32 {
    mul05m(a, b, Member::FITTED)
}

/// Multiplication under `member`: [`mul05`], or the product chopped toward zero.
fn mul05m(a: f32, b: f32, member: Member) -> f32 {
    let (a, b) = (ftz(a), ftz(b));
    if a == 0.0 || b == 0.0 || !a.is_finite() || !b.is_finite() {
        return a * b;
    }
    let ((ma, ka), (mb, kb)) = (split_exp(a), split_exp(b));
    let s = ma * mb;
    let e = ma.mul_add(mb, -s);
    let rule = if member.chopped_product {
        Rule::TowardZero
    } else {
        Rule::TruncatedGuardBit
    };
    scale(round2005(s, e, rule), ka + kb)
}

/// Division, 2005 model: `a` times the correctly rounded reciprocal of `b`, rounded to
/// nearest; no subnormals.
pub fn div05(a: f32, b: f32) -> f32 {
    div05m(a, b, Member::FITTED)
}

/// Division under `member`: the reciprocal correctly rounded or chopped, the product IEEE's
/// or the member's own multiply.
fn div05m(a: f32, b: f32, member: Member) -> f32 {
    let (a, b) = (ftz(a), ftz(b));
    if a == 0.0 || b == 0.0 || !a.is_finite() || !b.is_finite() {
        return a / b;
    }
    let ((ma, ka), (mb, kb)) = (split_exp(a), split_exp(b));
    let r = div_bits(1.0, mb, !member.chopped_reciprocal);
    let p = if member.div_model_product {
        mul05m(ma, r, member)
    } else {
        ma * r
    };
    scale(p, ka - kb)
}

/// Why the model's range under Table 5's harness cannot reach GP²'s at one end, for the
/// operation with index `op` in [`super::ulp::OPS`] order (see the module docs).
pub fn why_end_differs(op: usize) -> &'static str {
    match op {
        3 => {
            "division is a·RN(1/b) rounded to nearest (the reciprocal-then-multiply of §5.1): both roundings are IEEE's and sign-symmetric, so under the harness's random signs its range is symmetric (up to about ±1.5 ULP), while GP²'s range, measured on its own operand set, is not; no sign-symmetric rule reaches both of GP²'s ends."
        }
        _ => {
            "the model's rule is fitted to GP²'s range as a supremum over uniformly random operands; GP² measured its own operand set, whose extremes need not be the supremum."
        }
    }
}

/// The four operations of Table 5 under the model, in [`super::ulp::OPS`] order.
pub fn ops05(ab: [f32; 2]) -> [f32; 4] {
    let [a, b] = ab;
    [add05(a, b), sub05(a, b), mul05(a, b), div05(a, b)]
}

#[path = "arith2005_div.rs"]
mod div;
#[path = "arith2005_mad.rs"]
pub mod mad;
#[path = "arith2005_member.rs"]
mod member;
#[path = "arith2005_operands.rs"]
mod operands;
#[cfg(test)]
#[path = "arith2005_tests.rs"]
mod tests;

pub use div::{div_bits, div_rn_bits};
pub use member::Member;
pub use operands::{same_bits, test_operands, test_triples};
