//! The members of the 2005 model family (issue 38; [`super`] says what the fitted model is).

/// A member of the 2005 model family (issue 38): the fitted model (all `false`, the rules of
/// the module docs) or one of its alternatives, each as plausible from what is known of the
/// hardware, none measured on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Member {
    /// `±` rounded by the rule of the *effective* operation (the operands' signs): one adder
    /// with a negate modifier, `a + (−b)` ≡ `a − b`; the fitted model picks by the written
    /// operator.
    pub effective: bool,
    /// The product chopped toward zero, as pre-Fermi NVIDIA MAD truncated it (then the
    /// subtraction's rule: an unfused MAD with a truncated product); the fitted model's
    /// product is the truncated-guard-bit rule.
    pub chopped_product: bool,
    /// The division's product by the model's own multiply; the fitted model's is IEEE's.
    pub div_model_product: bool,
    /// The division's reciprocal chopped toward zero (faithful, within 1 ULP); the fitted
    /// model's is correctly rounded.
    pub chopped_reciprocal: bool,
    /// The update `c − a·b` as one fused MAD (the Cg fp30/fp40 profiles' `MAD`): the exact
    /// value rounded once by the `±` rule ([`super::mad`]), the product not rounded; the
    /// fitted model's MAD is unfused (the model's product, then its subtraction). It follows
    /// the model when `±` is emulated; with `±` left IEEE it is IEEE's unfused `c − a·b`, so
    /// in the ablation `×` alone no longer touches the update (a quotient's product still
    /// follows the member, and I2's printed update, a product then a quotient, has no MAD).
    pub fused_mad: bool,
}

impl Member {
    /// The fitted model (the module docs).
    pub const FITTED: Member = Member {
        effective: false,
        chopped_product: false,
        div_model_product: false,
        chopped_reciprocal: false,
        fused_mad: false,
    };
    /// The family the §5.1 ablation runs over, the fitted model first. The first four are a
    /// chain, each adding one alternative to the one before; the fifth branches from the
    /// second: `±` by the effective operation and the update's MAD fused (one adder with a
    /// negate modifier, `MAD r, −a, b, c`, as the Cg profiles emitted it).
    pub const FAMILY: [Member; 5] = [
        Self::FITTED,
        Member {
            effective: true,
            ..Self::FITTED
        },
        Member {
            effective: true,
            div_model_product: true,
            ..Self::FITTED
        },
        Member {
            effective: true,
            div_model_product: true,
            chopped_reciprocal: true,
            chopped_product: true,
            fused_mad: false,
        },
        Member {
            effective: true,
            fused_mad: true,
            ..Self::FITTED
        },
    ];

    /// A short name: `fitted`, or its alternatives joined by `, `.
    pub fn name(self) -> String {
        let v: Vec<&str> = [
            (self.effective, "± by effective op"),
            (self.chopped_product, "× chopped"),
            (self.div_model_product, "÷ = 1/b ×₀₅"),
            (self.chopped_reciprocal, "1/b chopped"),
            (self.fused_mad, "MAD fused"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        if v.is_empty() {
            "fitted".into()
        } else {
            v.join(", ")
        }
    }

    /// The member's bits of the shaders' `ARITH_2005` mask: 8 effective, 16 chopped
    /// product, 32 division's model product, 64 chopped reciprocal, 128 fused MAD.
    pub fn bits(self) -> u32 {
        (self.effective as u32) << 3
            | (self.chopped_product as u32) << 4
            | (self.div_model_product as u32) << 5
            | (self.chopped_reciprocal as u32) << 6
            | (self.fused_mad as u32) << 7
    }
}
