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
//! pass from state that lives in GL textures ([`half_step`]) and solved on the GPU by one of the
//! paper's [`BatchSolver`](super::BatchSolver)s ([`solver`]); the state is read back only to
//! write a PNG frame or to check it.
//!
//! Each simulation is an [`AdiSpec`] ([`HEAT`], [`POLLUTANT_STREAM`], [`POLLUTANT_VORTEX`],
//! [`SHALLOW_WATER`]); the registry lists them, with BioFET, as `gpgpu-repro sim`'s
//! simulations. They run in the generic layer of `crate::sim` (headless frames, the live
//! viewer); their figures (Fig. 13–19) are the paper's experiments
//! (`experiments/sims/`).

pub mod half_step;
pub mod heat;
pub mod pollutant;
pub mod scheme;
pub mod shallow_water;
mod size;
pub mod solver;
mod spec;

pub use size::{DEFAULT_SIZE, SIZE_RANGE, grid_of_size};
pub use spec::{AdiSpec, HEAT, POLLUTANT_STREAM, POLLUTANT_VORTEX, SHALLOW_WATER};
