//! The `versus` table's id and the columns the report reads from it (see
//! `runner::versus`).

pub const TABLE: &str = "versus";
pub const LEGACY_MS: &str = "legacy (ms)";
pub const COMPUTE_MS: &str = "compute (ms)";
pub const RATIO: &str = "legacy / compute";
pub const FASTER: &str = "faster";
/// The `faster` cell of a row whose ratio has no 95 % interval (a side timed fewer than
/// [`crate::stats::MIN_SAMPLES_FOR_CI`] times): not a winner, and not a tie either.
pub const FEW_RUNS: &str = "too few runs";

/// A row of the ratio chart.
pub type Ratio = crate::report::plot::ratio::RatioRow;

/// The figure of legacy / compute ratios: one dot per row with its interval as a whisker, on
/// a log axis centred on 1 (a hollow dot where the interval is not a 95 % one).
pub fn chart(title: &str, rows: Vec<Ratio>) -> crate::report::plot::ratio::RatioChart {
    crate::report::plot::ratio::RatioChart {
        title: title.into(),
        x_label: "legacy / compute time (whiskers: 95 % interval; hollow: too few runs for one)"
            .into(),
        below: "legacy faster".into(),
        above: "compute faster".into(),
        rows,
    }
}

/// The chart's row of each row of a `versus` table: `label(row)`, the ratio and its
/// interval (the ratio itself where the cell has none), and whether that interval is a 95 %
/// one.
pub fn ratios(t: &super::sheet::Table, label: impl Fn(&super::row::Row) -> String) -> Vec<Ratio> {
    t.rows
        .iter()
        .filter_map(|r| ratio_of(&r.values[t.col(RATIO)], label(r)))
        .collect()
}

/// The chart's row of one ratio cell `v`, labelled `label`; `None` for a cell without a number.
pub fn ratio_of(v: &super::value::Value, label: String) -> Option<Ratio> {
    let ratio = v.as_f64()?;
    let (lo, hi) = v.interval().unwrap_or((ratio, ratio));
    let covered = matches!(v, super::value::Value::Est(e) if e.has_ci());
    Some(Ratio {
        label,
        ratio,
        lo,
        hi,
        covered,
    })
}
