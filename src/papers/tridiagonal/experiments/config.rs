//! `experiments/tridiagonal.toml` ([`Config`]): one section per table, every number checked
//! as it is loaded ([`super::keys`]) and every size against the device and the host before
//! any work starts.

use serde::{Deserialize, Serialize};

use super::limits::check_batch;
use super::{arith2005, fig9, fig11, passes, sweep, table1, tune};
use crate::gl::DeviceInfo;
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::runner::{Mode, RunError};

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub(super) table1: table1::Table1Config,
    pub(super) fig11: fig11::Fig11Config,
    pub(super) sweep: sweep::SweepConfig,
    pub(super) passes: passes::PassesConfig,
    pub(super) fig9: fig9::Fig9Config,
    pub(super) tune: tune::TuneConfig,
    pub(super) arith2005: arith2005::Arith2005Config,
}

/// Checked by the runner before any work starts: every size against the device and the host.
impl crate::runner::Experiments for Config {
    fn validate(&self, check: &crate::runner::Check) -> Result<(), String> {
        check_sizes(check.device, self, check.mode).map_err(|e| e.to_string())
    }
}

/// Every size of the run, checked before any table allocates or writes anything.
fn check_sizes(info: &DeviceInfo, cfg: &Config, mode: Mode) -> Result<(), RunError> {
    check_batch(info, "table1", cfg.table1.n, cfg.table1.batch)?;
    for (table, grids) in [
        ("fig11", &cfg.fig11.grids),
        ("sweep", &cfg.sweep.grids),
        ("passes", &cfg.passes.grids),
        ("arith2005", &cfg.arith2005.grids),
    ] {
        for &g in grids.pick(mode) {
            check_batch(info, table, g as usize - 1, g as usize)?;
        }
    }
    let g = *cfg.tune.grid.pick(mode) as usize;
    if g < 2 {
        return Err(RunError::algorithm(TridiagonalError::Shape(format!(
            "tune.grid {g}: a grid needs at least 2 points (1 unknown)"
        ))));
    }
    check_batch(info, "tune", g - 1, g)?;
    fig9::check(info, &cfg.fig9, mode)
}
