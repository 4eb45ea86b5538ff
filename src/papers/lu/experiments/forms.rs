//! The configurations the tables run and their row keys: the paper's eight (I1–I4 × copy /
//! switch) and the labelled alternatives (issue 38).

use crate::gl::PingPongMethod;
use crate::papers::lu::fragment::{Feed, Variant, method_label};

/// The configuration (with the copy method) that §5.1's ablation under the 2005 arithmetic
/// model runs with one operation emulated at a time.
pub const ABLATION_VARIANT: Variant = Variant::I1;

/// The eight configurations, copy method first.
pub(super) fn configs() -> Vec<(Variant, PingPongMethod)> {
    let mut v = vec![];
    for m in PingPongMethod::ALL {
        for var in Variant::ALL {
            v.push((var, m));
        }
    }
    v
}

pub(super) fn key(n: u32, v: Variant, m: PingPongMethod) -> String {
    format!("N={n} {v} {m}")
}

/// A configuration with its form of the method (issue 38): the paper's ([`configs`], keyed
/// by [`key`]) or a labelled alternative ([`labelled_configs`]).
pub(super) type Form = (Variant, PingPongMethod, Feed);

/// The labelled alternatives that differ from the paper's form: "copy (rendered only)" for
/// I1, I3, I4 (I2 copies its rectangle either way), "switch (carry)" for all four.
pub(super) fn labelled_configs() -> Vec<Form> {
    let mut v = vec![];
    for m in PingPongMethod::ALL {
        for var in Variant::ALL {
            if !(m == PingPongMethod::Copy && var == Variant::I2) {
                v.push((var, m, Feed::Alt));
            }
        }
    }
    v
}

/// The row key of a configuration in a form: [`key`] for the paper's, `N=64 I1 switch (carry)`
/// for an alternative.
pub(super) fn form_key(n: u32, (v, m, f): Form) -> String {
    match f {
        Feed::Paper => key(n, v, m),
        Feed::Alt => format!("N={n} {v} {}", method_label(m, f)),
    }
}
