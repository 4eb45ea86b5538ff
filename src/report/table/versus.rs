//! The `versus` table's id and the columns the report reads from it (see
//! `runner::versus`).

pub const TABLE: &str = "versus";
pub const LEGACY_MS: &str = "legacy (ms)";
pub const COMPUTE_MS: &str = "compute (ms)";
pub const RATIO: &str = "legacy / compute";
pub const FASTER: &str = "faster";

/// A row of the ratio chart: (label, ratio, interval low, interval high).
pub type Ratio = (String, f64, f64, f64);

/// The figure of legacy / compute ratios: one dot per `(label, ratio, lo, hi)` with its
/// 95 % interval as a whisker, on a log axis centred on 1.
pub fn chart(title: &str, rows: Vec<Ratio>) -> crate::report::plot::ratio::RatioChart {
    crate::report::plot::ratio::RatioChart {
        title: title.into(),
        x_label: "legacy / compute time (whiskers: 95 % interval)".into(),
        below: "legacy faster".into(),
        above: "compute faster".into(),
        rows,
    }
}

/// The chart's row of each row of a `versus` table: `label(row)`, the ratio and its
/// interval (the ratio itself where the cell has none).
pub fn ratios(t: &super::sheet::Table, label: impl Fn(&super::row::Row) -> String) -> Vec<Ratio> {
    t.rows
        .iter()
        .filter_map(|r| {
            let v = &r.values[t.col(RATIO)];
            let m = v.as_f64()?;
            let (lo, hi) = v.interval().unwrap_or((m, m));
            Some((label(r), m, lo, hi))
        })
        .collect()
}
