//! What a fragment LU run is: the variant (I1–I4), the ping-pong method and its form (the
//! paper's or the labelled alternative), I2's order, and the arithmetic.

use crate::gl::{Format, PingPongMethod};

use crate::papers::lu::arith2005::Arith2005;
use crate::papers::lu::cpu::Update;

/// Which form of a method a run uses (issue 38; the module docs say why).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Feed {
    /// The paper's (§3.3, Table 1): the copy method copies the step's whole active block
    /// after each pass; the switch method draws nothing twice (I1, I3, I4: a third texture
    /// holds the L values).
    Paper,
    /// The labelled alternatives: "copy (rendered only)" copies each pass's own rectangle;
    /// "switch (carry)" has two textures and carries the previous pass's texels.
    Alt,
}

impl Feed {
    pub const ALL: [Feed; 2] = [Feed::Paper, Feed::Alt];
}

/// The name of a method in a form: `copy`, `switch` (the paper's) or `copy (rendered
/// only)`, `switch (carry)`.
pub fn method_label(m: PingPongMethod, f: Feed) -> &'static str {
    match (m, f) {
        (PingPongMethod::Copy, Feed::Paper) => "copy",
        (PingPongMethod::Switch, Feed::Paper) => "switch",
        (PingPongMethod::Copy, Feed::Alt) => "copy (rendered only)",
        (PingPongMethod::Switch, Feed::Alt) => "switch (carry)",
    }
}

/// I2's trailing update (issue 38): the order Fig. 4 prints (the paper's I2) or the
/// labelled one that divides first.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum I2Order {
    /// `A_jk − A_ik·A_ji/A_ii`: the product, then the division (Fig. 4, C's order).
    #[default]
    Printed,
    /// `A_jk − A_ik·(A_ji/A_ii)`: the L value as I1 stores it, so I2's factors equal I1's
    /// bit for bit (labelled "I2 (÷ first)").
    DivideFirst,
}

/// The paper's four implementations (Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    I1,
    I2,
    I3,
    I4,
}

impl Variant {
    pub const ALL: [Variant; 4] = [Variant::I1, Variant::I2, Variant::I3, Variant::I4];
    pub fn name(self) -> &'static str {
        match self {
            Variant::I1 => "I1",
            Variant::I2 => "I2",
            Variant::I3 => "I3",
            Variant::I4 => "I4",
        }
    }
    /// Whether the matrix is packed four rows per RGBA texel (I3, I4).
    pub fn vector(self) -> bool {
        matches!(self, Variant::I3 | Variant::I4)
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How to run one decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub variant: Variant,
    pub method: PingPongMethod,
    /// Texel format of the scalar layout (I1/I2): `RGBA32F` as the paper, or `R32F`.
    pub scalar_format: Format,
    /// §4.3: the U passes fetch as usual but do no arithmetic (the result is garbage).
    pub fetch_only: bool,
    /// `glFinish` around every draw and copy, to measure G and T (Table 4).
    pub profile: bool,
    /// Which operations of the elimination follow the 2005 arithmetic model (issue 25;
    /// [`crate::papers::lu::arith2005`]); IEEE by default.
    pub arith: Arith2005,
    /// The paper's form of the method (default) or the labelled alternative (issue 38).
    pub feed: Feed,
    /// I2's update order (the printed one by default; issue 38). Ignored by I1, I3, I4.
    pub i2: I2Order,
}

impl Params {
    /// Whether the U passes read the L values from a third texture: the paper's switch
    /// method for the two-pass variants (I1, I3, I4).
    pub fn separate_l(&self) -> bool {
        self.method == PingPongMethod::Switch
            && self.feed == Feed::Paper
            && self.variant != Variant::I2
    }

    /// Whether the finished entries are spread over the textures (the paper's switch method:
    /// no carried texels) and the readback gathers them.
    pub(super) fn gathered(&self) -> bool {
        self.method == PingPongMethod::Switch && self.feed == Feed::Paper
    }

    /// The update form the CPU twin runs to equal this configuration bit for bit.
    pub fn update(&self) -> Update {
        if self.variant == Variant::I2 && self.i2 == I2Order::Printed {
            Update::Printed
        } else {
            Update::Stored
        }
    }

    /// The method's name in this form ([`method_label`]).
    pub fn method_label(&self) -> &'static str {
        method_label(self.method, self.feed)
    }
}

impl Params {
    pub fn new(variant: Variant, method: PingPongMethod) -> Params {
        Params {
            variant,
            method,
            scalar_format: Format::RGBA32F,
            fetch_only: false,
            profile: false,
            arith: Arith2005::IEEE,
            feed: Feed::Paper,
            i2: I2Order::Printed,
        }
    }
}
