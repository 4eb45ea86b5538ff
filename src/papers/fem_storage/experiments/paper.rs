//! The paper as the runner runs it: its tables and what they need.

use super::config::Config;
use super::{audit, fig3, legacy, perf, storage_claims, table2, table4};
use crate::gl::Need;
use crate::runner::{RunError, Session, TableSpec};

/// Runs every experiment of the paper (its configuration checked by the runner on load).
/// The tables and what they need: the storage counts (Table 2, Fig. 3) are computed on the
/// CPU and run anywhere; the Jacobi solver of a 2012 CUDA paper is a compute shader; the
/// `legacy` table's fragment rows run anywhere, its compute rows need compute shaders.
pub const TABLES: &[TableSpec] = &[
    TableSpec::any("table2"),
    TableSpec::any("fig3_bytes"),
    TableSpec::needs("table4", &[Need::Compute]),
    TableSpec::needs("perf", &[Need::Compute]),
    TableSpec::any("legacy").rows_need(&[Need::Compute]),
];

pub struct FemStorage;

impl crate::runner::Paper for FemStorage {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        let counts = table2::run(s, cfg)?;
        storage_claims::run(s, &counts, &cfg.table2.paper);
        fig3::run(s, &counts, &cfg.table2)?;
        audit::run(s, &cfg.table2);
        s.check_interrupt()?;
        if s.runs("table4") {
            table4::run(s, cfg)?;
        }
        s.check_interrupt()?;
        if s.runs("perf") {
            perf::run(s, cfg)?;
        }
        s.check_interrupt()?;
        if s.runs("legacy") {
            legacy::run(s, cfg)?;
        }
        Ok(())
    }
}
