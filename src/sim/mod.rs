//! Simulations built on the papers' solvers (`gpgpu-repro sim NAME`), and their registry.

use std::path::PathBuf;

use crate::gl::DeviceSelector;

/// The command-line options every simulation takes.
#[derive(Clone, Debug)]
pub struct SimArgs {
    /// Grid size (N × N, or N³ for 3D simulations); `None`: the simulation's default.
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

/// One simulation: its name, a line about it, and its entry point.
pub struct SimEntry {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&SimArgs) -> anyhow::Result<()>,
}

/// Every simulation the `sim` command knows.
pub static SIMS: &[&SimEntry] = &[&BIOFET];

/// The BioFET ion simulation of the `bicg` paper.
pub static BIOFET: SimEntry = SimEntry {
    name: "biofet",
    about: "ions + Poisson (GL fp64 Bi-CG) after a step voltage, to the double-layer steady state",
    run: crate::papers::bicg::biofet::run_sim,
};

/// The simulation with this name.
pub fn find(name: &str) -> Option<&'static SimEntry> {
    SIMS.iter().copied().find(|s| s.name == name)
}
