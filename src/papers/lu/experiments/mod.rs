//! The paper's tables and figures, regenerated, one file each: Tables 1 and 2
//! (`tables_1_2.rs`), Table 4 (`table4.rs`), Table 5 (`table5.rs`), Fig. 6 (`fig6.rs`), §4.3
//! (`sec4_3.rs`), §5.1 (`sec5_1.rs`), the audit of the paper's own numbers (`audits.rs`), the
//! four findings re-tested (`findings/`), the CPU baselines (`cpu.rs`) and the compute-shader
//! LU beyond the paper (`compute.rs`).
//!
//! # Verification
//! Every factorization is compared with the `f64` factors of the same loop
//! (`max_rel_error`, the max-norm difference over the packed factors relative to the largest
//! `f64` entry) within [`super::cpu::tolerance`], four times the error of the CPU `f32` loop
//! on the same matrix. Where this device's fragment arithmetic rounds `+ − × ÷` correctly
//! (Table 5, measured first) the fragment factors must moreover be bit-identical to that
//! loop's (§5.1: same operations, same order, same rounding).
//!
//! # `--resume`
//! Every measuring table reuses the rows of an earlier run with the same configuration on the
//! same device: Table 5 all four or none (their statistics decide how the factorizations are
//! verified), Table 4 per configuration (with one untimed factorization for the counts and
//! factors the later tables need), `compute` and `cpu` per row, §4.3 where Table 4's row it
//! compares with was reused; table4 and `compute` all rows of an order or none (they are
//! timed in the same rounds). Tables 1 and 2 and §5.1 measure nothing of their own: they are
//! recomputed from Table 4's counts and factors (instant).

mod audits;
mod compute;
mod config;
mod cpu;
mod family;
mod fig6;
mod findings;
mod forms;
mod measured;
mod paper;
mod sec4_3;
mod sec5_1;
mod sec5_1_2005;
mod table4;
mod table5;
mod table5_family;
mod tables_1_2;

pub use config::{Config, host_bytes};
pub use forms::ABLATION_VARIANT;
pub use paper::{Lu, TABLES};
