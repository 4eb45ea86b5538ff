//! The paper's experiments, one file per table or figure: [`fig4`] (GPU vs CPU solve time per
//! mesh), [`periter`] (a fixed number of iterations at the largest mesh), [`spmv`] (SpMV
//! bandwidth), [`table2`] (share of time per kernel), [`fig6`] (time vs threads per block),
//! [`precision`] (fp32 vs fp64), [`precision_charged`] (the same on the charged BioFET
//! systems), [`anchor`] (faer's sparse Cholesky), [`biofet`] (the
//! BioFET double layer against Debye–Hückel) and, beyond the paper, [`legacy`] (the fp32
//! iteration as fragment passes beside the compute build). Fig. 5 is skipped (two host CPUs).
//!
//! Every GPU solution is verified against the CPU f64 `linbcg` of [`super::cpu`] with
//! [`crate::stats::max_rel_error`]; both stop when NR's estimate of the relative error
//! reaches `tol`, from slightly different rounding (reduction order), so they agree to a
//! small multiple of `tol` ([`solution_tolerance`]).
//!
//! With `--resume` every table reuses the rows of an earlier run with the same configuration
//! on the same device, and the notes that go with them are written again from their cells:
//! per row ([`fig4`], [`periter`], [`spmv`], [`fig6`], [`anchor`]), or all rows of one
//! measurement together ([`table2`], [`precision`], [`biofet`]).

pub mod anchor;
pub mod biofet;
pub mod config;
pub mod fig4;
mod fig4_speed;
pub mod fig6;
pub mod legacy;
pub mod paper;
pub mod periter;
pub mod precision;
pub mod precision_charged;
pub mod solve;
pub mod spmv;
pub mod table2;
pub mod table2_blocks;

pub use config::{Config, MeshSpec};
pub use paper::{Bicg, GL_FP64, TABLES};
pub use solve::solution_tolerance;
