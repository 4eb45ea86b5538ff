//! A traced technique: its name, defaults, input check and run ([`Technique`]).

use crate::gl::context::Gl;

use super::error::TraceError;
use super::input::Input;
use super::run::Trace;

/// A traced technique (one file per paper technique under `src/trace/`).
#[derive(Clone, Copy)]
pub struct Technique {
    pub name: &'static str,
    /// One line: paper, figure, what is traced.
    pub about: &'static str,
    pub default_size: usize,
    pub default_batch: usize,
    /// Checks an input before anything runs (a clear error, nothing written).
    pub check: fn(&Input) -> Result<(), String>,
    /// Runs the technique traced, and untraced for the bit-for-bit comparison.
    pub run: fn(&Gl, &Input) -> Result<Trace, TraceError>,
}
