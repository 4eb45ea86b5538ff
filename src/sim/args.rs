//! The command-line options every simulation takes ([`SimArgs`]).

use std::path::PathBuf;

use crate::gl::egl::DeviceSelector;

/// The command-line options every simulation takes.
#[derive(Clone, Debug)]
pub struct SimArgs {
    /// Grid size as the papers count it (N′ = 2^q points per line for the paper's "1024 ×
    /// 1024"; an ADI simulation solves N′ - 1 unknowns per line); `None`: the default.
    pub size: Option<u32>,
    /// Time steps to run; `None`: the simulation's default.
    pub steps: Option<u32>,
    /// Tridiagonal / linear solver by name (`cr`, `cg`, `thomas`, …); `None`: the default.
    pub solver: Option<String>,
    /// Write a PNG frame every `every` steps into this folder.
    pub frames: Option<PathBuf>,
    /// Steps between frames.
    pub every: u32,
    /// Open a live viewer instead of running headless.
    pub window: bool,
    /// The EGL device for headless runs.
    pub device: DeviceSelector,
}
