//! The paper's experiments, one file per table or figure: [`table2`] (stored values),
//! [`fig3`] (skyline / proposed, in values and in bytes), [`audit`] (the paper's Table 2 and
//! claims recomputed), [`table4`] (GPU Jacobi against a direct solve), [`perf`] (the
//! Jacobi sweep, GL against CPU, on the same arrays) and [`legacy`] (the sweep as a
//! render-to-texture fragment pass against the compute shader, on the same matrix; runs on
//! GL 3.3 with its compute rows skipped).
//!
//! Everything is checked before any work starts: every key of `experiments/fem-storage.toml`
//! ([`Config::validate`]) and what each size needs — host memory for assembly, SSBO bytes
//! for the GPU Jacobi ([`need`]) — against this machine and device.
//!
//! With `--resume` every measuring table reuses the rows of an earlier run with the same
//! configuration on the same device ([`table2`] and [`table4`] per row, [`perf`] per size);
//! `fig3_bytes` measures nothing of its own: it is recomputed from Table 2's counts (instant).

pub mod audit;
pub mod config;
pub mod fig3;
pub mod legacy;
pub mod paper;
pub mod perf;
pub mod storage_claims;
pub mod table2;
pub mod table4;
pub mod threads;
pub mod validate;

pub use config::{Config, PaperTable2Row, PerfConfig, Table2Config, Table4Config};
pub use paper::{FemStorage, TABLES};
pub use table2::{Counts, count_formats, stencil_counts};
pub use threads::threads;
pub use validate::{need, need_host_bytes, need_ssbo_bytes};
