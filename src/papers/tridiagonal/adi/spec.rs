//! The four ADI simulations as the registry lists them: one [`AdiSpec`] each, the GPU
//! simulation ([`AdiSim`]) and its CPU f64 twin ([`AdiCpu`]) made from the same parameters.

use super::scheme::{AdiCpu, AdiSim, Scheme};
use super::{heat, pollutant, shallow_water};
use crate::gl::Gl;
use crate::sim::{SimError, Simulation};

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
    /// Whether `--solver fused-thomas` runs it on an `n × n` grid ([`super::solver::FUSED`]:
    /// not for a scheme that reads a previous state, which the fused dispatch would
    /// overwrite), asked of the scheme ([`Scheme::uses_previous`]).
    pub fused: fn(u32) -> bool,
}

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
            fused: |n| !$params(n).uses_previous(),
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
