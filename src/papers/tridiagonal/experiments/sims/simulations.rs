//! The paper's four simulations, in its order.

use crate::papers::tridiagonal::adi::{
    AdiSpec, HEAT, POLLUTANT_STREAM, POLLUTANT_VORTEX, SHALLOW_WATER,
};

/// The paper's four simulations (§4), in its order: what `fig14_all` runs and what
/// `paper_fps` may name.
pub const SIMULATIONS: [&AdiSpec; 4] =
    [&HEAT, &POLLUTANT_STREAM, &POLLUTANT_VORTEX, &SHALLOW_WATER];

/// The simulation of [`SIMULATIONS`] called `name`.
pub fn simulation(name: &str) -> Option<&'static AdiSpec> {
    SIMULATIONS.into_iter().find(|s| s.name == name)
}
