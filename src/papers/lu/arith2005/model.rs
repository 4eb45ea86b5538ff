//! Which operations of a computation follow the 2005 model, and the model's `#define`s.

use super::mad;
use super::member::Member;
use super::member_ops::{div05m, mul05m};
use super::round::{sum_rule, sum2005};

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
        [(self.add, "add/sub"), (self.mul, "mul"), (self.div, "div")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect::<Vec<_>>()
            .join("+")
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

    /// The four operations of Table 5 under this model, in [`crate::papers::lu::ulp::OPS`] order.
    pub fn ops(self, [a, b]: [f32; 2]) -> [f32; 4] {
        [
            self.add(a, b),
            self.sub(a, b),
            self.mul(a, b),
            self.div(a, b),
        ]
    }
}
