//! The four operations under the model (and under each member of the family).

use super::div::div_bits;
use super::member::Member;
use super::model::Arith2005;
use super::round::{Rule, ftz, round2005, scale, split_exp};

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
pub(super) fn mul05m(a: f32, b: f32, member: Member) -> f32 {
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
pub(super) fn div05m(a: f32, b: f32, member: Member) -> f32 {
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
/// operation with index `op` in [`crate::papers::lu::ulp::OPS`] order (see the module docs).
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

/// The four operations of Table 5 under the model, in [`crate::papers::lu::ulp::OPS`] order.
pub fn ops05(ab: [f32; 2]) -> [f32; 4] {
    let [a, b] = ab;
    [add05(a, b), sub05(a, b), mul05(a, b), div05(a, b)]
}
