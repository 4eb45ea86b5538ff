//! The experiment runner behind `gpgpu-repro reproduce`.
//!
//! It is handed the papers' entries ([`PaperEntry`], in [`paper`], listed by the registry
//! above it). Before any work starts it reads every experiment file of the selected papers
//! (`--experiments DIR` or the built-in copies) and checks each completely: syntax, finite
//! numbers, the typed configuration and the paper's own [`Experiments::validate`] (see
//! [`entry`]). Then, paper by paper, it hands the paper a [`Session`] (the GL context, the
//! mode, table writers, notes, audits, plots), and after the paper's experiments rewrites the
//! paper's record and `REPORT.md`. Rows are saved as they finish (atomically), `--resume`
//! reuses rows measured with the same configuration on the same device, a row whose
//! verification failed is marked FAILED and makes the run end with an error after all the
//! other rows ran. Ctrl-C and SIGTERM finish (or abandon) the current row, write the
//! records and end the run with [`RunError::Interrupted`].
//!
//! Before anything is written the machine's load is sampled ([`crate::report::load`]): a full
//! run on a busy machine waits for quiet and then refuses ([`RunError::Noisy`]) unless told
//! to go on; a quick run warns. Each paper's provenance records the load before and during
//! its run, and each table the load over its own span.

pub mod cap;
pub mod config;
pub mod device;
pub mod drift;
pub mod entry;
pub mod error;
pub mod interrupt;
pub mod options;
pub mod paper;
pub mod paper_runner;
pub mod previous;
pub mod reproduce;
pub mod roofline;
pub mod session;
pub mod tuning;
pub mod versus;

pub use crate::mode::Mode;
pub use crate::report::files::DEVICE_JSON;
pub use config::{PerMode, Repeat, Sizes};
pub use device::{FIGURES, device_folder};
pub use entry::{Check, ExperimentFile, Experiments, LoadedFile, PaperInfo, TableSpec, parse};
pub use error::RunError;
pub use interrupt::{STOP_GRACE, interrupt_flag};
pub use options::Options;
pub use paper::{Paper, PaperEntry, run_paper};
pub use reproduce::{check_all, reproduce, reproduce_with, select};
pub use session::{Session, TableWriter};
