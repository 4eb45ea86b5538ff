//! Reading a number back from a row of Table 1 by size and column.

use crate::report::Table;

/// The number in column `col` of the row for size `n`.
pub fn at(t: &Table, n: u32, col: &str) -> Option<f64> {
    t.rows
        .iter()
        .find(|r| r.key == n.to_string())
        .and_then(|r| r.values[t.col(col)].as_f64())
}

/// The estimate (median and 95 % interval) in column `col` of the row for size `n`; a plain
/// number as an exact one.
pub fn at_est(t: &Table, n: u32, col: &str) -> Option<crate::stats::Estimate> {
    let r = t.rows.iter().find(|r| r.key == n.to_string())?;
    let v = &r.values[t.col(col)];
    v.estimate()
        .cloned()
        .or_else(|| v.as_f64().map(crate::stats::Estimate::exact))
}
