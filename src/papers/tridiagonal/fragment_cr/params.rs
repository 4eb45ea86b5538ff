//! The options of a [`FragmentCr`](super::FragmentCr) and what its last solve counted and
//! timed.

use std::time::Duration;

use crate::gl::PingPongMethod;
use crate::papers::lu::arith2005::Arith2005;

/// Options of [`FragmentCr`](super::FragmentCr).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrParams {
    /// Ping-pong method of the P1/P2 and X1/X2 buffers.
    pub method: PingPongMethod,
    /// Read the result back after each solve and fail on a non-finite value (a zero pivot
    /// anywhere shows up as inf/NaN). On by default; turn off in timed loops.
    pub check_finite: bool,
    /// Instrumented shaders that count texture fetches (Table 1, measured).
    pub count_fetches: bool,
    /// `glFinish`-bracketed time of every pass group (which pass dominates).
    pub profile: bool,
    /// Which operations follow the 2005 arithmetic model (the `arith2005` table); IEEE by
    /// default.
    pub arith: Arith2005,
}

impl CrParams {
    pub fn new(method: PingPongMethod) -> CrParams {
        CrParams {
            method,
            check_finite: true,
            count_fetches: false,
            profile: false,
            arith: Arith2005::IEEE,
        }
    }
}

/// Texel and float fetch totals of the instrumented passes, per phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FetchCounts {
    /// `[texels, floats]` fetched by the reduction levels.
    pub reduce: [u64; 2],
    /// … by the gather pass (switch method only).
    pub gather: [u64; 2],
    /// … by the fill levels.
    pub fill: [u64; 2],
    /// … by the padding and collect passes.
    pub copy: [u64; 2],
}

/// Time per pass group of the last solve (with [`CrParams::profile`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrProfile {
    pub pad: Duration,
    pub reduce: Duration,
    pub gather: Duration,
    pub fill: Duration,
    pub collect: Duration,
}
