//! The simulations' part of `reproduce tridiagonal`: its tables and the order they run in.

use super::{config, fig14, frames, stability};
use crate::gl::Need;
use crate::runner::{RunError, Session, TableSpec};

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
