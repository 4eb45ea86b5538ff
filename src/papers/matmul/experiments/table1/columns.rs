//! Table 1's columns and those of `table1_kernels` (every GPU kernel of a row against the
//! device's limits), and the latter's row keys.

use super::super::kernels::KERNELS;
use crate::report::{Column, with_bound_columns};

pub(super) fn cols() -> Vec<Column> {
    with_bound_columns(vec![
        Column::key("N").int(),
        Column::ours("CPU").unit("ms"),
        Column::ours("CPU rows timed").int(),
        Column::ours("CPU runs").int(),
        Column::ours("CPU GFLOPS").fixed(2),
        Column::ours("GPU").unit("ms"),
        Column::ours("GPU mean").unit("ms"),
        Column::ours("GPU GFLOPS").fixed(2),
        Column::ours("speed-up").fixed(2),
        Column::ours("GPU error").sci(1),
        Column::ours("work groups").int(),
        Column::paper("Table 1 CPU").unit("ms"),
        Column::paper("Table 1 CPU GFLOPS").fixed(2),
        Column::paper("Table 1 GPU").unit("ms"),
        Column::paper("Table 1 GPU GFLOPS").fixed(2),
        Column::paper("Table 1 speed-up").int(),
        Column::audit("speed-up from times").fixed(1),
        Column::ours("as printed GFLOPS").fixed(2),
        Column::ours("as printed work groups").int(),
        Column::beyond("blocked GFLOPS").fixed(2),
        Column::beyond("blocked / paper kernel").fixed(1),
        Column::beyond("fragment GFLOPS").fixed(2),
        Column::beyond("SGEMM GFLOPS").fixed(2),
        Column::beyond("SGEMM runs").int(),
        Column::beyond("best GPU / SGEMM").fixed(2),
        Column::beyond("variants error").sci(1),
    ])
}

/// Every GPU kernel of a Table 1 row against the device's limits (Table 1 itself can carry
/// one kernel's bound: the paper's).
pub(super) fn kernel_cols() -> Vec<Column> {
    with_bound_columns(vec![
        Column::key("N").int(),
        Column::key("kernel").text(),
        Column::ours("time").unit("ms"),
        Column::ours("GFLOPS").fixed(2),
        Column::ours("error").sci(1),
    ])
}

pub(super) fn kernel_keys(n: u32) -> Vec<String> {
    KERNELS.iter().map(|k| format!("{n} {k}")).collect()
}
