//! The `DIR/REPORT.md` index and every paper's page, built from all the per-paper records
//! (`DIR/<paper>/paper.json`, [`super::record`]), so that running one paper keeps the
//! others' sections.

pub mod devices;
pub mod ledger;
mod page;
pub mod report;
pub mod targets;

pub use super::claim::FOREST_PNG;
pub use super::record::{PaperRecord, PlotRef, RUN_JSON, RunTimes, TableRef};
pub use devices::write_device_index;
pub use report::{rewrite_report, write_report};
