//! The fused MAD of the 2005 model family (issue 38; [`Member::fused_mad`]): `c − a·b` as
//! the Cg fp30/fp40 profiles emitted it, one `MAD` whose exact result is rounded once by the
//! model's rule for the effective `±` (no rounding of the product). `msub05` in
//! `glsl/common/arith2005.glsl` is its shader side, step for step.
//!
//! # The exact three-term sum
//! With `a = m_a·2^k_a`, `b = m_b·2^k_b`, `c = m_c·2^k_c` (`|m| ∈ [1, 2)`) and
//! `K = max(k_a + k_b, k_c)`, everything is formed scaled by `2^−K`:
//! `−m_a·m_b = p_h + p_l` exactly (TwoProduct: Dekker's split in the shader, `f32::mul_add`
//! here, the same two floats), both scaled by `2^(k_a+k_b−K)`, and `m_c` by `2^(k_c−K)`. Then
//! four TwoSums, each exact:
//! `(t_h, t_l) = c + p_h`, `(v, v_e) = t_l + p_l`, `(s, w) = t_h + v`, `(e, e_2) = w + v_e`,
//! so `x = s + e + e_2` exactly with `e = RN(e + e_2)`, and the rounding
//! (`round2005x` in [`super`]) needs only that `s` is a *faithful* rounding of `x` (one of the
//! two floats around it). It is:
//! - if `c` and `p_h` have opposite signs and `|p_h|/2 ≤ |c| ≤ 2|p_h|`, `c + p_h` is exact
//!   (Sterbenz), so `t_l = 0`, `v = p_l`, `v_e = 0` and `s = RN(x)`;
//! - otherwise `|t_h| ≥ |p_h|/2`, so `|t_l| ≤ 2⁻²⁴|t_h|`, `|p_l| ≤ 2⁻²⁴|p_h| ≤ 2⁻²³|t_h|`,
//!   `|v| < 2⁻²²|t_h|` and `|v_e| ≤ 2⁻²⁴|v| < 2⁻⁴⁶|t_h|`; `t_h + v` is within half a gap of
//!   `s = RN(t_h + v)`, and `v_e` is far below half a gap (`≥ 2⁻²⁵|t_h|`), so `x` stays
//!   strictly between `s`'s neighbours.
//!
//! # Scaling, no subnormals
//! When the exponents differ by more than [`GAP`] the smaller term (below `2⁻⁴⁹`, the larger
//! being at least 1 and a multiple of `2⁻⁴⁶`) is replaced by a proxy `±2⁻⁶⁰` of its sign: `x`
//! and the proxied sum lie in the same open interval between two multiples of `2⁻⁴⁶`, which
//! holds no float and no eighth of the spacing near `x` (`|x| > ½`), so the rounding, its
//! eighth `q` and its exactness are the same. Otherwise every term is a multiple of `2⁻⁹⁶`
//! below 8, so every nonzero intermediate is a normal float (a device that flushes
//! subnormals computes the same bits). Operands are flushed first, the result is scaled back
//! by `2^K` and flushed below `2⁻¹²⁶` (`±∞` on overflow), as [`super::ops::mul05`]. A zero
//! product or a `NaN`/`∞` operand gives IEEE's unfused `c − a·b`.

use super::member::Member;
use super::round::{Rule, ftz, round2005x, scale, split_exp, two_sum};

/// The exponent gap beyond which the smaller term of `c − a·b` becomes a proxy of its sign.
pub const GAP: i32 = 50;

/// `2^j` for `−126 ≤ j ≤ 127`.
fn pow2(j: i32) -> f32 {
    f32::from_bits(((127 + j) as u32) << 23)
}

/// `c − a·b` under a member with a fused MAD: the exact value rounded once by the `±` rule of
/// `member` (the written subtraction's guard bit, or by the effective operation: chopping
/// when `c` and `−a·b` have the same sign). See the module docs.
pub fn msub05m(c: f32, a: f32, b: f32, member: Member) -> f32 {
    let (a, b, c) = (ftz(a), ftz(b), ftz(c));
    if a == 0.0 || b == 0.0 || !a.is_finite() || !b.is_finite() || !c.is_finite() {
        return c - a * b;
    }
    let sign = |x: f32| x.to_bits() & 0x8000_0000;
    let neg_p = sign(a) ^ sign(b) ^ 0x8000_0000;
    let rule = if !member.effective || sign(c) != neg_p {
        Rule::GuardBit
    } else {
        Rule::Down
    };
    let ((ma, ka), (mb, kb)) = (split_exp(a), split_exp(b));
    let p = ma * mb;
    let pe = ma.mul_add(mb, -p);
    let kp = ka + kb;
    let (mc, kc) = if c == 0.0 { (c, kp) } else { split_exp(c) };
    let k = kp.max(kc);
    let proxy = |x: f32| f32::from_bits(pow2(-60).to_bits() | sign(x));
    let (ph, pl) = if k - kp > GAP {
        (proxy(-p), 0.0)
    } else {
        (-p * pow2(kp - k), -pe * pow2(kp - k))
    };
    let mc = if k - kc > GAP {
        proxy(mc)
    } else {
        mc * pow2(kc - k)
    };
    let (th, tl) = two_sum(mc, ph);
    let (v, ve) = two_sum(tl, pl);
    let (s, w) = two_sum(th, v);
    let (e, e2) = two_sum(w, ve);
    scale(round2005x(s, e, e2, rule), k)
}
