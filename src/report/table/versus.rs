//! The `versus` table's id and the columns the report reads from it (see
//! `runner::versus`), and the rule that names a row's faster side.

use crate::stats::Estimate;

pub const TABLE: &str = "versus";
pub const LEGACY_MS: &str = "legacy (ms)";
pub const COMPUTE_MS: &str = "compute (ms)";
pub const RATIO: &str = "legacy / compute";
pub const FASTER: &str = "faster";
/// The `faster` cell of a row whose ratio has no 95 % interval (a side timed fewer than
/// [`crate::stats::MIN_SAMPLES_FOR_CI`] times): not a winner, and not a tie either.
pub const FEW_RUNS: &str = "too few runs";
/// The `faster` cell of a row whose intervals overlap.
pub const TIE: &str = "tie";
/// The ratio of the two sides' first halves of their runs, and of their second halves.
pub const HALF_1: &str = "legacy / compute, 1st halves";
pub const HALF_2: &str = "legacy / compute, 2nd halves";

/// The faster side, read from the printed ratio legacy / compute: `too few runs` where the
/// ratio has no 95 % interval (a side timed fewer than [`crate::stats::MIN_SAMPLES_FOR_CI`]
/// times: its interval, if any, is `[min, max]`, marked `*`, and a single run each gives a
/// bare ratio), else `compute` where its whole interval is above 1, `legacy` where wholly
/// below, and `tie` otherwise (so that the word and the interval beside it never disagree).
pub fn faster(ratio: &Estimate) -> &'static str {
    if !ratio.has_ci() {
        FEW_RUNS
    } else if ratio.lo > 1.0 {
        "compute"
    } else if ratio.hi < 1.0 {
        "legacy"
    } else {
        TIE
    }
}

/// The faster side, replicated: the word [`faster`] reads from the whole ratio, where each
/// half's ratio reads the same word too; else `tie`. A winner must hold in the first half of
/// both sides' runs and in the second (split-half replication): the two sides were timed
/// apart, and on a device whose speed changes in spells (llvmpipe's small multi-pass grids,
/// a GPU between clocks) one spell can separate two intervals that the next one reverses.
/// Where a side has too few runs to split, the whole ratio decides alone; where the whole
/// ratio has too few runs for a 95 % interval, that is the word whatever the halves say.
pub fn replicated(ratio: &Estimate, halves: Option<&[Estimate; 2]>) -> &'static str {
    let word = faster(ratio);
    match halves {
        Some([a, b]) if word != FEW_RUNS && (faster(a) != word || faster(b) != word) => TIE,
        _ => word,
    }
}

/// The word [`replicated`] reads from a recorded row's own ratio cells (the halves where the
/// record has them): what this build would say of the row, to set beside the word that the
/// build which ran it wrote. `None` for a row without an estimated ratio.
pub fn reread(t: &super::sheet::Table, row: &super::row::Row) -> Option<&'static str> {
    let est = |c: &str| {
        t.find_col(c)
            .and_then(|i| row.values[i].estimate().cloned())
    };
    let ratio = est(RATIO)?;
    let halves = est(HALF_1).zip(est(HALF_2)).map(|(a, b)| [a, b]);
    Some(replicated(&ratio, halves.as_ref()))
}

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

#[cfg(test)]
mod tests {
    use super::super::row::Row;
    use super::super::sheet::Table;
    use super::super::value::Column;
    use super::*;

    /// A `versus` table of one row: its ratio cell `ratio`, with halves where given.
    fn table(ratio: Estimate, halves: Option<[Estimate; 2]>) -> Table {
        let mut cols = vec![Column::key("algorithm"), Column::ours(RATIO)];
        let mut r = Row::new("cr @ 256").text("cr").est(ratio);
        if let Some([a, b]) = halves {
            cols.extend([Column::ours(HALF_1), Column::ours(HALF_2)]);
            r = r.est(a).est(b);
        }
        let mut t = Table::new(TABLE, "Versus", cols);
        t.rows.push(r);
        t
    }

    #[test]
    fn a_recorded_row_is_read_again_by_this_builds_rule() {
        let of = |s: &[f64]| Estimate::of(s).unwrap();
        let six = of(&[520.0, 521.0, 522.0, 523.0, 524.0, 525.0]);
        let c6 = of(&[250.0, 251.0, 252.0, 253.0, 254.0, 255.0]);
        let whole = Estimate::ratio_unpaired(&six, &c6);
        let t = table(whole.clone(), None);
        assert_eq!(reread(&t, &t.rows[0]), Some("compute"));
        // One run each (what an older build wrote `compute` for): no 95 % interval.
        let bare = Estimate::ratio_unpaired(&of(&[521.3]), &of(&[245.0]));
        let t = table(bare, None);
        assert_eq!(reread(&t, &t.rows[0]), Some(FEW_RUNS));
        // Halves that disagree make the whole ratio's winner a tie.
        let h = [
            Estimate::ratio_unpaired(&six, &c6),
            Estimate::ratio_unpaired(&c6, &six),
        ];
        let t = table(whole, Some(h));
        assert_eq!(reread(&t, &t.rows[0]), Some(TIE));
        // A ratio without an estimate (a plain number) is not read.
        let mut t = Table::new(TABLE, "Versus", vec![Column::ours(RATIO)]);
        t.rows.push(Row::new("k").num(1.5));
        assert_eq!(reread(&t, &t.rows[0]), None);
    }
}
