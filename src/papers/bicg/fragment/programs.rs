//! The shaders of the fragment build and their `#define`s.

use std::rc::Rc;

use crate::gl::{Define, Program};
use crate::papers::bicg::reduce_trace::{REDUCE, reduce_defines};

/// The shaders of the fragment build.
pub const SPMV: &str = "bicg/frag_spmv.frag";
pub const AXPY: &str = "bicg/frag_axpy.frag";
pub const ASOLVE: &str = "bicg/frag_asolve.frag";

/// The SpMV's `#define`s for a layout `w` (a power of two) texels wide.
pub(super) fn spmv_defines(w: u32) -> Vec<Define> {
    vec![
        Define::new("W", w),
        Define::new("LOG_W", w.trailing_zeros()),
    ]
}

/// Every program the fragment build compiles (the SpMV at one width): what the shader test
/// compiles.
pub fn programs() -> Vec<(&'static str, Vec<Define>)> {
    let mut v = vec![(SPMV, spmv_defines(1024)), (AXPY, vec![]), (ASOLVE, vec![])];
    for (max, first) in [(false, true), (false, false), (true, true), (true, false)] {
        v.push((REDUCE, reduce_defines(max, first)));
    }
    v
}

/// The programs of one build.
pub(super) struct Programs {
    pub(super) spmv: Rc<Program>,
    pub(super) axpy: Rc<Program>,
    pub(super) asolve: Rc<Program>,
    /// `[sum first, sum, max first, max]`.
    pub(super) reduce: [Rc<Program>; 4],
}
