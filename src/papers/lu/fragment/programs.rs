//! The programs of the fragment variants: the shader files and, per configuration, the
//! `#define` sets ([`ProgramSet`]) that [`super::solver::FragmentLu`] builds and
//! [`crate::papers::lu::program_variants`] lists.

use super::params::{I2Order, Variant};
use crate::gl::Define;
use crate::papers::lu::arith2005::Arith2005;

/// The shader files of the fragment variants.
pub const L_FRAG: &str = "lu/l.frag";
pub const U_FRAG: &str = "lu/u.frag";
pub const ONEPASS_FRAG: &str = "lu/onepass.frag";
pub const COPY_FRAG: &str = "lu/copy.frag";

/// The `#define` sets of one configuration's programs: L programs, U programs (scalar: one
/// each; I3: `START` = 0…3, indexed by the edge's first channel; I4: one with
/// `EDGE_BRANCH`), or the one-pass program of I2; with `separate_l` (the paper's switch
/// method, issue 38) the U programs read the L values from their own texture (`L_TEXTURE`).
/// The one place these are decided: the
/// decomposition builds exactly these, and [`crate::papers::lu::program_variants`] lists them all.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramSet {
    pub l: Vec<Vec<Define>>,
    pub u: Vec<Vec<Define>>,
    pub onepass: Option<Vec<Define>>,
}

impl ProgramSet {
    /// The programs of `variant`; `arith` routes the elimination's operations through the
    /// 2005 arithmetic model (`ARITH_2005`, none for IEEE); `i2` picks I2's update order
    /// (`I2_DIVIDE_FIRST` for the labelled one).
    pub fn of(
        variant: Variant,
        fetch_only: bool,
        arith: Arith2005,
        separate_l: bool,
        i2: I2Order,
    ) -> ProgramSet {
        let mut base = arith.defines();
        if variant.vector() {
            base.push(Define::flag("VEC4"));
        }
        if fetch_only {
            base.push(Define::flag("FETCH_ONLY"));
        }
        let with = |extra: Option<Define>| {
            let mut d = base.clone();
            d.extend(extra);
            d
        };
        let with_u = |extra: Option<Define>| {
            let mut d = with(extra);
            if separate_l {
                d.push(Define::flag("L_TEXTURE"));
            }
            d
        };
        match variant {
            Variant::I1 => ProgramSet {
                l: vec![with(None)],
                u: vec![with_u(None)],
                onepass: None,
            },
            // I2 has no fetch-only form: its one program is always the full one.
            Variant::I2 => ProgramSet {
                l: vec![],
                u: vec![],
                onepass: Some({
                    let mut d = arith.defines();
                    if i2 == I2Order::DivideFirst {
                        d.push(Define::flag("I2_DIVIDE_FIRST"));
                    }
                    d
                }),
            },
            Variant::I3 => {
                let start = |s| Some(Define::new("START", s));
                ProgramSet {
                    l: (0..4).map(|s| with(start(s))).collect(),
                    u: (0..4).map(|s| with_u(start(s))).collect(),
                    onepass: None,
                }
            }
            Variant::I4 => ProgramSet {
                l: vec![with(Some(Define::flag("EDGE_BRANCH")))],
                u: vec![with_u(Some(Define::flag("EDGE_BRANCH")))],
                onepass: None,
            },
        }
    }
}
