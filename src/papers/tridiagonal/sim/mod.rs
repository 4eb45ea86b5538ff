//! The paper's ADI simulations (Kim & Lee 2005 §2 and §4): [`heat`] (simulation 1),
//! [`pollutant`] (simulation 2, two scenarios) and [`shallow_water`] (simulation 3), each a
//! short description of its equations (a [`scheme::Scheme`]) run by one generic base
//! ([`scheme::AdiSim`] on the GPU, [`scheme::AdiCpu`] its f64 twin).
//!
//! # The math (§2)
//! An ADI time step splits the implicit 2D operator into two half-steps, each implicit along
//! one axis only (Peaceman–Rachford, eq. 3 and 8):
//!
//! ```text
//! (1 - r δ_x²) u* = (1 + r δ_y²) u^n        x sweep: one tridiagonal system per row
//! (1 - r δ_y²) u^{n+1} = (1 + r δ_x²) u*    y sweep: one per column,   r = c Δt / (2 Δh²)
//! ```
//!
//! for heat conduction (δ² the second difference along an axis); pollutant transport adds
//! the advection terms and shallow water Kass & Miller's depth-dependent coefficients, each
//! in its own module's equations. On an
//! `n × n` grid every half-step is a batch of `n` systems of `n` unknowns, built by a fragment
//! pass from state that lives in GL textures ([`adi`]) and solved on the GPU by one of the
//! paper's [`BatchSolver`](super::BatchSolver)s ([`solver`]); the state is read back only to
//! write a PNG frame or to check it.
//!
//! Each simulation is an [`AdiSpec`] ([`HEAT`], [`POLLUTANT_STREAM`], [`POLLUTANT_VORTEX`],
//! [`SHALLOW_WATER`]); the registry lists them, with BioFET, as `gpgpu-repro sim`'s
//! simulations. They run in the generic layer of `crate::sim` (headless frames, the live
//! viewer); their figures (Fig. 13–19) are the paper's experiments
//! (`experiments/sims/`).

pub mod adi;
pub mod heat;
pub mod pollutant;
pub mod scheme;
pub mod shallow_water;
pub mod solver;

use crate::gl::Gl;
use crate::sim::{SimError, Simulation};

use scheme::{AdiCpu, AdiSim, GRID_RANGE, Scheme};

/// One ADI simulation: its name and line (`sim --help`), its defaults, how to make it and its
/// CPU reference.
pub struct AdiSpec {
    /// The `gpgpu-repro sim` name.
    pub name: &'static str,
    /// A line about it.
    pub about: &'static str,
    /// Time steps of a `sim` run without `--steps`.
    pub default_steps: u32,
    /// The simulation on an `n × n` grid (n unknowns per line) with the solver called so.
    pub make: crate::sim::MakeSim,
    /// Its CPU f64 twin's state after `steps` steps on an `n × n` grid.
    pub reference: fn(u32, u32) -> Result<Vec<f64>, SimError>,
}

/// The grid of a `sim` run without `--size`: N′ = 256 (255 unknowns per line).
pub const DEFAULT_SIZE: u32 = 256;

fn boxed<S: Scheme + 'static>(
    gl: &Gl,
    s: S,
    solver: &str,
) -> Result<Box<dyn Simulation>, SimError> {
    Ok(Box::new(AdiSim::new(gl, s, solver)?))
}

/// The [`AdiSpec`] of a simulation: its name, its line, the steps of a run without
/// `--steps`, and the function giving its parameters on an `n × n` grid (the GPU simulation
/// and its CPU reference both start from them).
macro_rules! adi_spec {
    ($name:literal, $about:literal, $steps:literal, $params:path) => {
        AdiSpec {
            name: $name,
            about: $about,
            default_steps: $steps,
            make: |g, n, s| boxed(g, $params(n), s),
            reference: |n, k| AdiCpu::run($params(n), k),
        }
    };
}

pub static HEAT: AdiSpec = adi_spec!(
    "heat",
    "heat conduction, Peaceman–Rachford ADI, Neumann walls, two sources (Kim & Lee 2005 sim. 1)",
    200,
    heat::HeatParams::ours
);
pub static POLLUTANT_STREAM: AdiSpec = adi_spec!(
    "pollutant-stream",
    "pollutant advection–diffusion in a uniform stream, continuous source (sim. 2a)",
    200,
    pollutant::PollutantParams::stream_ours
);
pub static POLLUTANT_VORTEX: AdiSpec = adi_spec!(
    "pollutant-vortex",
    "pollutant advection–diffusion in a rotating flow, short release (sim. 2b)",
    250,
    pollutant::PollutantParams::vortex_ours
);
pub static SHALLOW_WATER: AdiSpec = adi_spec!(
    "shallow-water",
    "shallow water after Kass & Miller 1990, diagonal disturbance, 3D surface (sim. 3)",
    300,
    shallow_water::WaterParams::ours
);

/// The `--size` range: the grid N′ as the papers count it (their "1024 × 1024" is N′ =
/// 1024); an ADI simulation solves N′ - 1 unknowns per line (§3.1's N = N′ - 1), so this is
/// [`GRID_RANGE`] plus one.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> =
    *GRID_RANGE.start() + 1..=*GRID_RANGE.end() + 1;

/// The unknowns per line of `--size` N′ (see [`SIZE_RANGE`]), or the range message.
pub fn grid_of_size(size: u32) -> Result<u32, SimError> {
    if !SIZE_RANGE.contains(&size) {
        return Err(SimError::Params(format!(
            "--size {size}: must be {}..={} (the grid N′ as the paper counts it, e.g. 1024; \
             N′ - 1 unknowns per line are solved)",
            SIZE_RANGE.start(),
            SIZE_RANGE.end()
        )));
    }
    Ok(size - 1)
}
