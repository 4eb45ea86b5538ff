//! The programs of the fragment variants: the shader files and, per configuration, the
//! `#define` sets ([`ProgramSet`]) that [`super::FragmentLu`] builds and
//! [`crate::papers::lu::program_variants`] lists.

use super::Variant;
use crate::gl::Define;
use crate::papers::lu::arith2005::Arith2005;

/// The shader files of the fragment variants.
pub const L_FRAG: &str = "lu/l.frag";
pub const U_FRAG: &str = "lu/u.frag";
pub const ONEPASS_FRAG: &str = "lu/onepass.frag";
pub const COPY_FRAG: &str = "lu/copy.frag";

/// The `#define` sets of one configuration's programs: L programs, U programs (scalar: one
/// each; I3: `START` = 0…3, indexed by the edge's first channel; I4: one with
/// `EDGE_BRANCH`), or the one-pass program of I2. The one place these are decided: the
/// decomposition builds exactly these, and [`crate::papers::lu::program_variants`] lists them all.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramSet {
    pub l: Vec<Vec<Define>>,
    pub u: Vec<Vec<Define>>,
    pub onepass: Option<Vec<Define>>,
}

impl ProgramSet {
    /// The programs of `variant`; `arith` routes the elimination's operations through the
    /// 2005 arithmetic model (`ARITH_2005`, none for IEEE).
    pub fn of(variant: Variant, fetch_only: bool, arith: Arith2005) -> ProgramSet {
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
        match variant {
            Variant::I1 => ProgramSet {
                l: vec![with(None)],
                u: vec![with(None)],
                onepass: None,
            },
            // I2 has no fetch-only form: its one program is always the full one.
            Variant::I2 => ProgramSet {
                l: vec![],
                u: vec![],
                onepass: Some(arith.defines()),
            },
            Variant::I3 => {
                let sets: Vec<Vec<Define>> = (0..4)
                    .map(|s| with(Some(Define::new("START", s))))
                    .collect();
                ProgramSet {
                    l: sets.clone(),
                    u: sets,
                    onepass: None,
                }
            }
            Variant::I4 => ProgramSet {
                l: vec![with(Some(Define::flag("EDGE_BRANCH")))],
                u: vec![with(Some(Define::flag("EDGE_BRANCH")))],
                onepass: None,
            },
        }
    }
}
