//! The paper's experiments, one file per table or figure: [`table1`] (Table 1 with the
//! variants beyond the paper in the same table), [`fig3`] (Fig. 3 from Table 1's rows) and
//! [`audit`] (the paper's own Table 1 recomputed with its eq. (1)/(2)).
//!
//! Everything an experiment needs is checked here before any work starts: the keys of
//! `experiments/matmul.toml` ([`Table1Config::validate`], `config.rs`) and the memory each
//! size needs against this device's SSBO and texture limits and the machine's memory
//! ([`Footprint`], `footprint.rs`). The paper's printed numbers are `published.rs`, the
//! kernels' names `kernels.rs`, reading a row back `cells.rs`, the run's order `paper.rs`.

pub mod audit;
mod cells;
mod config;
pub mod fig3;
pub mod findings;
mod footprint;
mod kernels;
mod paper;
mod published;
pub mod table1;
pub mod tune;

pub use cells::{at, at_est};
pub use config::{Config, Table1Config, TuneConfig};
pub use footprint::Footprint;
pub use kernels::KERNELS;
pub use paper::{Matmul, TABLES};
pub use published::{Printed, Published};
