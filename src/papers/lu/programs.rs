//! Every program this paper builds, for the test that compiles them all.

use super::arith2005::{self, Arith2005};
use super::experiments::ABLATION_VARIANT;
use super::fragment::{self, I2Order, Variant};
use super::{compute, ulp};
use crate::gl::Define;

/// How a program is built: fragment (behind `common/quad.vert`) or compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Fragment,
    Compute,
}

/// Every program this paper builds — each shader file with each set of `#define`s the code
/// asks for — for a compute panel width `block` (each candidate of the experiment file's `compute.blocks`).
/// Built from the same functions the implementations use ([`fragment::ProgramSet`],
/// [`compute::program_defines`]), so a test that compiles this list compiles every variant a
/// run can build.
pub fn program_variants(block: u32) -> Vec<(Stage, &'static str, Vec<Define>)> {
    let mut out = vec![];
    let mut push = |stage, file, d: Vec<Define>| {
        if !out
            .iter()
            .any(|(s, f, x)| *s == stage && *f == file && *x == d)
        {
            out.push((stage, file, d));
        }
    };
    // Every variant in IEEE arithmetic (with the §4.3 fetch-only form) and under the whole
    // 2005 model; the ablation's single-operation models on the configuration §5.1 runs them.
    let mut runs = vec![];
    for v in Variant::ALL {
        runs.push((v, false, Arith2005::IEEE));
        runs.push((v, true, Arith2005::IEEE));
        runs.push((v, false, Arith2005::ALL));
    }
    for m in Arith2005::ABLATION {
        runs.push((ABLATION_VARIANT, false, m));
    }
    // The model family (issue 38): the whole model and the ablation per member.
    for member in arith2005::Member::FAMILY {
        runs.push((ABLATION_VARIANT, false, Arith2005::ALL.with(member)));
        for m in Arith2005::ablation(member) {
            runs.push((ABLATION_VARIANT, false, m));
        }
    }
    for (v, fetch_only, arith) in runs {
        // The separate L texture: the paper's switch method for I1, I3, I4 (issue 38).
        for (separate_l, i2) in [
            (false, I2Order::Printed),
            (v != Variant::I2, I2Order::Printed),
            (false, I2Order::DivideFirst),
        ] {
            let set = fragment::ProgramSet::of(v, fetch_only, arith, separate_l, i2);
            for d in set.l {
                push(Stage::Fragment, fragment::L_FRAG, d);
            }
            for d in set.u {
                push(Stage::Fragment, fragment::U_FRAG, d);
            }
            if let Some(d) = set.onepass {
                push(Stage::Fragment, fragment::ONEPASS_FRAG, d);
            }
        }
    }
    push(Stage::Fragment, fragment::COPY_FRAG, vec![]);
    for (file, d) in compute::program_defines(block) {
        push(Stage::Compute, file, d);
    }
    push(Stage::Fragment, ulp::ULP_FRAG, vec![]);
    for member in arith2005::Member::FAMILY {
        push(
            Stage::Fragment,
            ulp::ULP_FRAG,
            Arith2005::ALL.with(member).defines(),
        );
    }
    push(Stage::Compute, ulp::ULP_COMP, vec![]);
    out
}
