//! The four operations under the model (its fitted member); the primitives each member
//! applies are `member_ops.rs`.

use super::member::Member;
use super::member_ops::{div05m, mul05m};
use super::model::Arith2005;

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

/// Division, 2005 model: `a` times the correctly rounded reciprocal of `b`, rounded to
/// nearest; no subnormals.
pub fn div05(a: f32, b: f32) -> f32 {
    div05m(a, b, Member::FITTED)
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
