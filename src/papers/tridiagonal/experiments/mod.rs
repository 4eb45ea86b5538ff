//! The paper's experiments, one file per table or figure:
//! - `table1.rs`: Table 1, texture fetches per element (measured with instrumented shaders,
//!   against the static count and the paper's numbers), and the audit of its sums;
//! - `fig11.rs`: Fig. 11, solve times at the paper's grids (Thomas, CG n = 1, 2, 4, 8, CR),
//!   the paper's claims about them and the central claim "CR is considerably faster than
//!   Thomas" as findings;
//! - `sweep.rs`: Fig. 11 as a curve over grid sizes;
//! - `passes.rs`: where the fragment CR's time goes;
//! - `fig9.rs`: Fig. 9, 3D batches tiled into one 2D texture, timed in Fig. 11's style;
//! - `arith2005.rs`: beyond the paper, the fragment CR's and CG's errors under the 2005
//!   arithmetic model (issue 25);
//! - `notes.rs`: the reproduction notes (decisions, ambiguities);
//! - `sims/`: the ADI simulations' `stability` table, Fig. 14 and the frame sequences of
//!   Figs. 13, 16, 18, 19, configured by the paper's second file, `experiments/sims.toml`.
//!
//! Every GPU solve is read back and compared with a CPU reference in f64 (Thomas, or CG f64
//! for the same iteration count); the error is a column. Times are medians of
//! `glFinish`-bracketed repetitions (`gl::timing::repeat`) of `solve` on a systems texture
//! already on the GPU (the finite check is off while timing, on for the verified run).
//!
//! With `--resume` every table reuses the rows of an earlier run with the same configuration
//! on the same device: Table 1 per solve (a CR method's three rows, a CG packing's two),
//! Fig. 11, the sweep and Fig. 9 per row, a grid's GL rows only together with its CPU Thomas
//! row (their ratios' denominator), `passes` per row.
//!
//! Every number of the experiment file is checked when it is loaded (finite, positive where
//! it must be, counts at least 1), and every grid against the device's texture size and the
//! host's memory before anything is allocated or written.

mod arith2005;
mod config;
mod fig11;
mod fig9;
mod findings;
mod grid;
mod keys;
mod limits;
mod measure;
mod notes;
mod paper;
mod passes;
mod rows;
pub mod sims;
mod sweep;
mod table1;
mod tune;

pub use config::Config;
pub use findings::{Fig11Times, same_order};
pub use paper::{TABLES, Tridiagonal};
