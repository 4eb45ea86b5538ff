//! The simulations' part of `reproduce tridiagonal` (configuration: `experiments/sims.toml`,
//! [`config`]), one file per table or figure:
//! - `stability.rs`: the `stability` table (simulation 2's ADI scheme in the rotating flow,
//!   CPU f64 twin) and the simulations' reproduction notes;
//! - `fig14.rs`: Fig. 14 as two tables (`fig14_heat`, `fig14_all`) and one dot chart
//!   (`fig14.png`, drawn from the tables' rows: [`fig14_chart`]);
//! - `frames.rs`: the frame sequences of Figs. 13, 16, 18 and 19 as PNG montages;
//! - `simulations.rs` (the four, in the paper's order), `verify.rs` (a row's check against
//!   the CPU twin), `run.rs` (the order the tables run in).
//!
//! Every timed row is verified: a fresh simulation with the row's solver runs `verify_steps`
//! steps and is compared with the CPU f64 twin of the same scheme (max |Δ| over
//! max |reference|). Fixed-iteration CG does not solve the systems, so its rows show that
//! error without a verdict.

pub mod config;
mod fig14;
mod frames;
mod run;
mod simulations;
mod stability;
mod verify;

pub use fig14::{Fig14Bar, fig14_chart};
pub use run::{TABLES, run};
pub use simulations::{SIMULATIONS, simulation};
