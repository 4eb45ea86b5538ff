//! The five papers, one folder each: the GPU implementations, the CPU references they are
//! checked against, and the paper's experiments (`<paper>/experiments/`, one file per table
//! or figure).
//!
//! A paper imports the runner (its [`crate::runner::Session`], rows, timing) and the GL
//! toolkit, never the registry or the command line: the registry
//! ([`crate::registry`]) lists the papers and says what each one's run composes.

pub mod bicg;
pub(crate) mod bounds;
pub mod fem_storage;
pub mod lu;
pub mod matmul;
pub mod tridiagonal;
