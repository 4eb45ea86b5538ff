//! This run's results that the findings read, and how a ratio is shown in their text.

use std::collections::HashMap;

use crate::papers::lu::experiments::cpu::FaerTimes;
use crate::papers::lu::experiments::family;
use crate::papers::lu::experiments::measured::{ComputeTimes, Measured};
use crate::papers::lu::experiments::sec4_3::Bandwidth;
use crate::papers::lu::experiments::sec5_1_2005::ModelResults;
use crate::papers::lu::experiments::table5::Ulps;
use crate::stats::Estimate;

/// This run's results that the findings read.
pub(in crate::papers::lu::experiments) struct Results<'a> {
    pub sizes: &'a [u32],
    pub measured: &'a HashMap<String, Measured>,
    pub cpu: &'a FaerTimes,
    pub compute: &'a ComputeTimes,
    pub bw: Option<Bandwidth>,
    pub ulps: &'a Ulps,
    pub first_diff: Option<usize>,
    pub model: &'a ModelResults,
    pub family: &'a [family::Cell],
}

/// `median [lo, hi]` of a ratio, for the findings' text.
pub(super) fn show(e: &Estimate) -> String {
    if e.hi > e.lo {
        format!("{:.2} [{:.2}, {:.2}]", e.median, e.lo, e.hi)
    } else {
        format!("{:.2}", e.median)
    }
}
