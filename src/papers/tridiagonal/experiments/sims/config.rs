//! `experiments/sims.toml`: what the simulations' tables and figures run ([`super`]),
//! parsed and checked value by value by the runner's loader, as every experiment file
//! ([`crate::runner::entry::load`]): every error names the file and the key.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::runner::config::positive;
use crate::runner::{PerMode, Repeat, RunError, Sizes};

use super::simulations::{SIMULATIONS, simulation};
use crate::papers::tridiagonal::adi::scheme::GRID_RANGE;
use crate::papers::tridiagonal::adi::solver;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub fig14_heat: HeatFps,
    pub fig14_all: AllFps,
    pub frames: Frames,
    pub stability: Stability,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HeatFps {
    pub sizes: Sizes,
    pub solvers: Vec<String>,
    pub verify_steps: u32,
    pub repeat: PerMode<Repeat>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AllFps {
    pub size: Sizes,
    pub solver: String,
    pub view: [u32; 2],
    pub verify_steps: u32,
    pub repeat: PerMode<Repeat>,
    pub paper_fps: BTreeMap<String, f64>,
    /// The paper's grid N' for these rates.
    pub paper_grid: u32,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Frames {
    pub size: Sizes,
    pub solver: String,
    pub fig13: Vec<u64>,
    pub fig16: Vec<u64>,
    pub fig18: Vec<u64>,
    pub fig19: Vec<u64>,
}

impl Frames {
    /// The steps of the figure `id` (`fig13`, `fig16`, `fig18`, `fig19`).
    pub fn steps(&self, id: &str) -> &[u64] {
        match id {
            "fig13" => &self.fig13,
            "fig16" => &self.fig16,
            "fig18" => &self.fig18,
            "fig19" => &self.fig19,
            _ => &[],
        }
    }
}

/// The note on eq. 8's stability in the rotating flow, measured with the CPU twin.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Stability {
    pub n: u32,
    pub steps: u32,
    pub omega: f64,
    pub diffusion: f64,
    /// Δt as multiples of the explicit scheme's limit.
    pub multiples: Vec<f64>,
}

fn bad(key: &str, why: impl std::fmt::Display) -> String {
    format!("{key}: {why}")
}

fn check_sizes(key: &str, s: &Sizes) -> Result<(), String> {
    for (mode, v) in s.each() {
        if v.is_empty() {
            return Err(bad(&format!("{key}.{mode}"), "needs at least one size"));
        }
        if let Some(n) = v.iter().find(|n| !GRID_RANGE.contains(*n)) {
            return Err(bad(
                &format!("{key}.{mode}"),
                format!(
                    "{n} unknowns per line: must be {}..={}",
                    GRID_RANGE.start(),
                    GRID_RANGE.end()
                ),
            ));
        }
    }
    Ok(())
}

fn check_solver(key: &str, name: &str) -> Result<(), String> {
    solver::check_name(name).map_err(|e| bad(key, e))
}

/// Checked by the runner before any work starts.
impl crate::runner::Experiments for Config {
    fn validate(&self, _check: &crate::runner::Check) -> Result<(), String> {
        validate(self)
    }
}

/// Every value of the file in range (sizes in range, solvers known, counts positive,
/// numbers finite), naming the key of the first bad one.
fn validate(c: &Config) -> Result<(), String> {
    let h = &c.fig14_heat;
    check_sizes("fig14_heat.sizes", &h.sizes)?;
    for s in &h.solvers {
        check_solver("fig14_heat.solvers", s)?;
    }
    let a = &c.fig14_all;
    check_sizes("fig14_all.size", &a.size)?;
    check_solver("fig14_all.solver", &a.solver)?;
    check_sizes("frames.size", &c.frames.size)?;
    check_solver("frames.solver", &c.frames.solver)?;
    for (key, v) in [
        ("fig14_heat", h.verify_steps),
        ("fig14_all", a.verify_steps),
    ] {
        if !(1..=10_000).contains(&v) {
            return Err(bad(
                &format!("{key}.verify_steps"),
                format!("{v}: must be 1..=10000"),
            ));
        }
    }
    if a.view.iter().any(|&v| !(1..=16384).contains(&v)) {
        return Err(bad(
            "fig14_all.view",
            format!("{:?}: each must be 1..=16384", a.view),
        ));
    }
    for (name, v) in &a.paper_fps {
        if simulation(name).is_none() {
            return Err(bad(
                "fig14_all.paper_fps",
                format!(
                    "unknown simulation `{name}`; the simulations are: {}",
                    SIMULATIONS.map(|s| s.name).join(", ")
                ),
            ));
        }
        positive(&format!("fig14_all.paper_fps.{name}"), *v)?;
    }
    let st = &c.stability;
    if !(GRID_RANGE.contains(&st.n) && st.n <= 1023) {
        return Err(bad(
            "stability.n",
            format!("{}: must be {}..=1023", st.n, GRID_RANGE.start()),
        ));
    }
    if !(1..=10_000).contains(&st.steps) {
        return Err(bad(
            "stability.steps",
            format!("{}: must be 1..=10000", st.steps),
        ));
    }
    for (key, v) in [
        ("stability.omega", st.omega),
        ("stability.diffusion", st.diffusion),
    ] {
        positive(key, v)?;
    }
    if st.multiples.is_empty() || st.multiples.iter().any(|m| !(m.is_finite() && *m > 0.0)) {
        return Err(bad("stability.multiples", "must be positive numbers"));
    }
    Ok(())
}

/// The run's `sims.toml` as the runner parsed and checked it at load (`Repeat`
/// checks its own ranges there): that value itself, neither parsed nor checked again.
pub fn config(s: &crate::runner::Session) -> Result<&Config, RunError> {
    s.config_ref("sims")
}
