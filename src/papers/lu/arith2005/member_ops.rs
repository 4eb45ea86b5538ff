//! Multiplication and division under each member of the family (what [`Arith2005`] applies):
//! the primitives below the model's operations.
//!
//! [`Arith2005`]: super::model::Arith2005

use super::div::div_bits;
use super::member::Member;
use super::round::{Rule, ftz, round2005, scale, split_exp};

/// Multiplication under `member`: [`mul05`](super::ops::mul05), or the product chopped toward zero.
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
