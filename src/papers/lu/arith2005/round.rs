//! The rounding machinery of the model: where the exact value lies between two floats, and
//! the rule that picks one; the error-free transformations it rests on.

use super::member::Member;

/// The smallest normal `f32` magnitude, `2⁻¹²⁶`.
pub(super) const MIN_NORMAL: f32 = f32::MIN_POSITIVE;

/// Flushes a subnormal to zero of the same sign.
pub(super) fn ftz(x: f32) -> f32 {
    if x.abs() < MIN_NORMAL {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// The next float toward +∞ (finite `x`; `±0` → `2⁻¹⁴⁹`).
pub(super) fn succ(x: f32) -> f32 {
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
pub(super) fn pred(x: f32) -> f32 {
    -succ(-x)
}

/// How the rounding of a model picks between `l = RD(x)` and the next float up.
#[derive(Clone, Copy)]
pub(super) enum Rule {
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
pub(super) fn sum_rule(a: f32, b: f32, written_sub: bool, m: Member) -> Rule {
    let sub = if m.effective {
        (a.to_bits() ^ b.to_bits()) & 0x8000_0000 != 0
    } else {
        written_sub
    };
    if sub { Rule::GuardBit } else { Rule::Down }
}

/// Rounds the exact value `s + e` (`s = RN(s + e)`, `e` its exact error) by `rule`.
pub(super) fn round2005(s: f32, e: f32, rule: Rule) -> f32 {
    round2005x(s, e, 0.0, rule)
}

/// Rounds the exact value `x = s + e + e2` by `rule`, where `s` is a faithful rounding of
/// `x` (one of the two floats around it), `e = RN(e + e2)` and `e2` exact (the fused MAD's
/// three-term sum, [`mad`]; `e2 = 0` for the other operations). Every comparison of
/// `8(x − s)` with a float `g` reads `e` and, only on a tie `8e = g`, the sign of `e2`:
/// exact, since `RN` is monotone (`8e > g ⇒ 8(e + e2) ≥ g`, `8e < g ⇒ 8(e + e2) ≤ g`).
pub(super) fn round2005x(s: f32, e: f32, e2: f32, rule: Rule) -> f32 {
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
pub(super) fn two_sum(a: f32, b: f32) -> (f32, f32) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `x = m · 2^k` with `|m| ∈ [1, 2)` (normal, finite, nonzero `x`).
pub(super) fn split_exp(x: f32) -> (f32, i32) {
    let b = x.to_bits();
    let k = ((b >> 23) & 0xff) as i32 - 127;
    (f32::from_bits((b & 0x807f_ffff) | 0x3f80_0000), k)
}

/// `m · 2^k` for a normal `m`: flushed to signed zero below `2⁻¹²⁶`, `±∞` on overflow
/// (zero, `∞` and `NaN` unchanged).
pub(super) fn scale(m: f32, k: i32) -> f32 {
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
pub(super) const TINY: f32 = f32::from_bits(0x2180_0000); // 2⁻⁶⁰

/// `a + b` rounded by `rule` (subnormal operands flushed first, the result flushed after).
pub(super) fn sum2005(a: f32, b: f32, rule: Rule) -> f32 {
    let (a, b) = (ftz(a), ftz(b));
    if a.abs() < TINY && b.abs() < TINY {
        let k = 2f32.powi(64);
        let (s, e) = two_sum(a * k, b * k);
        return scale(round2005(s, e, rule), -64);
    }
    let (s, e) = two_sum(a, b);
    ftz(round2005(s, e, rule))
}
