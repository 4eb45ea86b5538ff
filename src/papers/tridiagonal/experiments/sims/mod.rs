//! The simulations' part of `reproduce tridiagonal` (configuration: `experiments/sims.toml`,
//! [`config`]), one file per table or figure:
//! - `stability.rs`: the `stability` table (simulation 2's ADI scheme in the rotating flow,
//!   CPU f64 twin) and the simulations' reproduction notes;
//! - `fig14.rs`: Fig. 14 as two tables (`fig14_heat`, `fig14_all`) and one dot chart
//!   (`fig14.png`, drawn from the tables' rows: [`fig14_chart`]);
//! - `frames.rs`: the frame sequences of Figs. 13, 16, 18 and 19 as PNG montages.
//!
//! Every timed row is verified: a fresh simulation with the row's solver runs `verify_steps`
//! steps and is compared with the CPU f64 twin of the same scheme (max |Δ| over
//! max |reference|). Fixed-iteration CG does not solve the systems, so its rows show that
//! error without a verdict.

pub mod config;
mod fig14;
mod frames;
mod stability;

use crate::gl::{Gl, Need};
use crate::runner::{RunError, Session, TableSpec};
use crate::util::max_rel_error;

use crate::papers::tridiagonal::sim::{
    AdiSpec, HEAT, POLLUTANT_STREAM, POLLUTANT_VORTEX, SHALLOW_WATER,
};

pub use fig14::{Fig14Bar, fig14_chart};

/// The paper's four simulations (§4), in its order: what `fig14_all` runs and what
/// `paper_fps` may name.
pub const SIMULATIONS: [&AdiSpec; 4] =
    [&HEAT, &POLLUTANT_STREAM, &POLLUTANT_VORTEX, &SHALLOW_WATER];

/// The simulation of [`SIMULATIONS`] called `name`.
pub fn simulation(name: &str) -> Option<&'static AdiSpec> {
    SIMULATIONS.into_iter().find(|s| s.name == name)
}

// f32 GPU against f64 CPU over a few steps: as in tests/sims.rs (1e-4 over 100 steps), with
// the same margin for the largest grids (more unknowns per line, same contraction).
const TOL: f64 = 1e-4;

/// max |gpu - cpu| / max |cpu| after `steps` steps of `spec` with `solver` on `n × n`.
fn verify(gl: &Gl, spec: &AdiSpec, n: u32, solver: &str, steps: u32) -> Result<f64, RunError> {
    let mut sim = (spec.make)(gl, n, solver).map_err(RunError::algorithm)?;
    for _ in 0..steps {
        sim.step().map_err(RunError::algorithm)?;
    }
    let gpu = sim.read().map_err(RunError::algorithm)?;
    let cpu = (spec.reference)(n, steps).map_err(RunError::algorithm)?;
    Ok(max_rel_error(&gpu, &cpu))
}

/// Everything of the simulations in `reproduce tridiagonal`: the `stability` table and the
/// notes, Fig. 14's tables and chart, then the frame figures.
pub fn run(s: &Session) -> Result<(), RunError> {
    let cfg = config::config(s)?;
    stability::table(s, &cfg.stability)?;
    stability::notes(s, &cfg.stability)?;
    fig14::fig14(s, cfg)?;
    frames::frame_figures(s, &cfg.frames)
}

/// The simulations' tables in `reproduce tridiagonal`: they run on GL 3.3 (the paper's
/// fragment CR); the heat table's compute-shader solvers are skipped where compute is lacking.
pub const TABLES: &[TableSpec] = &[
    TableSpec::any("fig14_heat").rows_need(&[Need::Compute]),
    TableSpec::any("fig14_all"),
    TableSpec::any("stability"),
];
