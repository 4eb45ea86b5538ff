//! The paper as the runner runs it ([`Matmul`]): its tables and the order they run in.

use super::config::Config;
use super::{audit, table1, tune};
use crate::gl::Need;
use crate::runner::{RunError, Session, TableSpec};

/// The paper's table: a 2019 compute-shader paper, so Table 1 (and Fig. 3 from its rows)
/// needs compute shaders; the audit of the paper's own numbers runs anywhere.
pub const TABLES: &[TableSpec] = &[
    TableSpec::needs("table1", &[Need::Compute]),
    TableSpec::needs("table1_kernels", &[Need::Compute]),
    TableSpec::needs("tuning", &[Need::Compute]),
];

/// The paper: runs its experiments once the runner has checked its file ([`Config`]) and
/// every size of this mode.
pub struct Matmul;

impl crate::runner::Paper for Matmul {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        audit::run(s, &cfg.table1.published);
        if s.runs("table1") && s.runs("tuning") {
            let tuned = tune::run(s, &cfg.table1)?;
            table1::run(s, &cfg.table1, tuned)?;
        }
        Ok(())
    }
}
