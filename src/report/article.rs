//! A device run as a reproduction article: `DIR/REPORT.md` in the form of a ReScience C
//! replication (Rougier et al. 2017) — summary, method, threats to validity, what was not
//! reproduced, references — generated from the papers' records, each number read from them.
//! Everything detailed (tables, plots, findings in full, notes, audits) is on the papers' own
//! pages, `DIR/<paper>/README.md` ([`super::index`]), one click away.
//!
//! What is static — each paper's citation, its original setup and how it maps to this
//! project, and the parts of it not reproduced with why — is the paper's [`Original`],
//! declared in its folder (`papers/<paper>/mod.rs`) and handed over by the runner.

mod bands;
pub mod meta;
mod records;
mod summary;
mod threats;
pub mod write;

pub use meta::{Original, PaperMeta};
pub use write::article;
