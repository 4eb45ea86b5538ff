//! The paper as the runner runs it ([`Tridiagonal`]): its tables and the order they run in.

use super::config::Config;
use super::{arith2005, fig9, fig11, notes, passes, sims, sweep, table1, tune};
use crate::gl::Need;
use crate::runner::{RunError, Session, TableSpec};

/// The paper's tables and what they need: the fetch counts of Table 1 use an SSBO counter in
/// the fragment shaders (GL 4.3); Fig. 11 and its sweep add the compute-shader CR and PCR
/// beside the paper's fragment solvers; the rest runs on GL 3.3 core.
pub const TABLES: &[TableSpec] = &[
    TableSpec::needs("table1", &[Need::FragmentSsbo]),
    TableSpec::needs("tuning", &[Need::Compute]),
    TableSpec::any("fig11").rows_need(&[Need::Compute]),
    TableSpec::any("sweep").rows_need(&[Need::Compute]),
    TableSpec::any("passes"),
    TableSpec::any("fig9"),
    TableSpec::any("arith2005"),
];

/// The paper (its file is [`Config`]; checked by the runner before any work starts).
pub struct Tridiagonal;

impl crate::runner::Paper for Tridiagonal {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        if s.runs("table1") {
            table1::run(s, &cfg.table1)?;
        }
        // The compute solvers' work-group sizes, tuned on this device (defaults without compute:
        // their rows are skipped then).
        let local = if s.runs("tuning") {
            tune::run(s, &cfg.tune)?
        } else {
            tune::UNTUNED
        };
        let fig11 = fig11::run(s, &cfg.fig11, local)?;
        sweep::run(s, &cfg.sweep, local)?;
        passes::run(s, &cfg.passes)?;
        fig9::run(s, &cfg.fig9)?;
        arith2005::run(s, &cfg.arith2005)?;
        notes::notes(s, fig11.iter().map(|t| t.grid).max());
        // The simulations' tables and figures, from the paper's second file (`sims.toml`).
        sims::run(s)
    }
}
