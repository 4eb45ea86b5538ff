//! The legacy pipeline against compute on the same algorithm and input: the `versus` table.
//!
//! Rows that name the algorithm and input they solve ([`RowBuilder::versus`]) meet here: for
//! each `(algorithm, input)` that both a fragment-pass (legacy) row and a compute row solve,
//! the fastest *verified* row of each pipeline stands for it (each side as well as this run
//! implements it; its kernel cell also names the variants its interval does not separate
//! from, `A ≈ B`, since the choice between them is a tie: `stand_in`), with both times,
//! both errors, both fractions of their bound and the time
//! ratio legacy / compute (> 1: compute is faster). `REPORT.md` gathers every paper's table
//! into one section and one figure.
//!
//! The two sides were timed in their own tables, not in the same rounds, so the ratio's
//! interval is that of two independent estimates ([`Estimate::ratio_unpaired`]): the
//! conservative `[legacy.lo / compute.hi, legacy.hi / compute.lo]` of their repetitions'
//! intervals, widened by their between-run terms in quadrature; a side is called faster only
//! when that ratio's interval excludes 1, otherwise the row says `tie` (the word is read
//! from the interval printed beside it). Every cell keeps its between-run term ([`Estimate::between`]), so that what is
//! said of the repetitions' width alone ([`Estimate::within`]) holds for these cells too.
//!
//! [`RowBuilder::versus`]: crate::report::RowBuilder::versus

use serde::Serialize;

use super::error::RunError;
use super::session::handle::Session;
use super::session::writer::TableWriter;
use crate::bench::Kind;
use crate::report::{Attained, Column, RowBuilder};

use crate::report::table::versus::{COMPUTE_MS, FASTER, LEGACY_MS, RATIO, TABLE};
use crate::stats::Estimate;
use crate::work::TIED;

/// A side: the kernel, its time, its error against the CPU reference, its fraction of the
/// bound, where the row is.
type Side = (String, Estimate, f64, Option<f64>, String);

/// The paper's figure of the table's ratios.
pub const FIGURE: &str = "versus.png";

/// The `faster` cell of a row whose intervals overlap.
pub const TIE: &str = "tie";

#[derive(Serialize)]
struct Config<'a> {
    pairs: &'a [(String, String, Side, Side)],
}

/// The side that stands for a pipeline among its verified `sides` (not empty) on one input:
/// the one with the least median time, its kernel cell also naming, fastest median first,
/// every other variant whose interval does not separate from its own (the choice between
/// them is a tie, broken by the median).
fn stand_in(mut sides: Vec<Side>) -> Side {
    sides.sort_by(|a, b| a.1.median.total_cmp(&b.1.median));
    let mut best = sides[0].clone();
    let mut names: Vec<&str> = vec![&sides[0].0];
    for s in &sides[1..] {
        let apart = crate::stats::separated((best.1.lo, best.1.hi), (s.1.lo, s.1.hi)).is_some();
        if !apart && !names.contains(&s.0.as_str()) {
            names.push(&s.0);
        }
    }
    best.0 = names.join(TIED);
    best
}

/// The side that stands for `kind` for each `(algorithm, input)` ([`stand_in`]).
fn fastest(
    rows: &[(String, String, Attained, Option<f64>)],
    kind: Kind,
) -> Vec<((String, String), Side)> {
    let mut all: Vec<((String, String), Vec<Side>)> = Vec::new();
    for (table, key, a, error) in rows {
        let (Some(v), Some(err)) = (&a.versus, error) else {
            continue;
        };
        if a.work.kind != kind || a.ms.is_nan() || a.ms <= 0.0 {
            continue;
        }
        let side = (
            a.kernel.clone(),
            a.time_est(),
            *err,
            a.fraction(),
            format!("{table} / {key}"),
        );
        match all.iter_mut().find(|(k, _)| k == v) {
            Some((_, sides)) => sides.push(side),
            None => all.push((v.clone(), vec![side])),
        }
    }
    all.into_iter()
        .map(|(k, sides)| (k, stand_in(sides)))
        .collect()
}

/// The `versus` table's columns: algorithm and input, then each side's kernel, time, error
/// and fraction of its bound, the ratio and which side is faster.
fn versus_columns() -> Vec<Column> {
    vec![
        Column::key("algorithm"),
        Column::key("input"),
        Column::ours("legacy kernel").text(),
        Column::ours(LEGACY_MS),
        Column::ours("legacy error").sci(1),
        Column::ours("legacy of bound").fixed(2),
        Column::ours("compute kernel").text(),
        Column::ours(COMPUTE_MS),
        Column::ours("compute error").sci(1),
        Column::ours("compute of bound").fixed(2),
        Column::ours(RATIO).fixed(2),
        Column::ours(FASTER).text(),
    ]
}

/// The faster side, read from the printed ratio legacy / compute: `compute` where its
/// whole interval is above 1, `legacy` where wholly below, else `tie` (so that the word and
/// the interval beside it never disagree).
fn faster(ratio: &Estimate) -> &'static str {
    if ratio.lo > 1.0 {
        "compute"
    } else if ratio.hi < 1.0 {
        "legacy"
    } else {
        TIE
    }
}

/// The row of one pair: both sides' cells, their ratio with its conservative interval, and
/// the faster side (or `tie`).
fn versus_row(
    t: &TableWriter,
    key: String,
    (alg, input, l, c): (&String, &String, &Side, &Side),
) -> RowBuilder {
    let ratio = Estimate::ratio_unpaired(&l.1, &c.1);
    t.row(key)
        .text("algorithm", alg.clone())
        .text("input", input.clone())
        .text("legacy kernel", l.0.clone())
        .est(LEGACY_MS, l.1.clone())
        .num("legacy error", l.2)
        .opt("legacy of bound", l.3)
        .text("compute kernel", c.0.clone())
        .est(COMPUTE_MS, c.1.clone())
        .num("compute error", c.2)
        .opt("compute of bound", c.3)
        .est(RATIO, ratio.clone())
        .text(FASTER, faster(&ratio))
        .unchecked(format!(
            "both sides verified in their tables ({}; {})",
            l.4, c.4
        ))
}

impl Session {
    /// Writes the paper's `versus` table when some algorithm and input were solved by both
    /// pipelines (and verified); nothing otherwise.
    pub(crate) fn versus(&self) -> Result<(), RunError> {
        let rows = self.attained();
        let compute = fastest(&rows, Kind::Compute);
        let pairs: Vec<(String, String, Side, Side)> = fastest(&rows, Kind::Fragment)
            .into_iter()
            .filter_map(|(k, legacy)| {
                let c = compute.iter().find(|(kc, _)| *kc == k)?;
                Some((k.0, k.1, legacy, c.1.clone()))
            })
            .collect();
        if pairs.is_empty() {
            return Ok(());
        }
        let columns = versus_columns();
        let mut t = self.table(
            TABLE,
            "Legacy (fragment passes) vs compute shaders: the same algorithm on the same input",
            columns,
            &Config { pairs: &pairs },
        )?;
        t.caption(
            "Per algorithm and input, the fastest verified row of each pipeline in this run \
             (kernel names say which variant; where another variant of the same pipeline is \
             not separated from it — their intervals overlap — the cell names both, fastest \
             median first, `A ≈ B`: which of them stands for the pipeline is a tie, broken by \
             the median); errors against the CPU f64 reference as in \
             their tables; 'of bound' = the device's bound for the row's work / its time; \
             legacy / compute > 1 means compute is faster. Times read `median [lo, hi]` \
             (95 % intervals, each row's limiter's between-run term included); the two sides were timed \
             in their own tables, so the ratio's interval is [legacy lo / compute hi, legacy \
             hi / compute lo] of the repetitions' intervals, widened by the two sides' \
             between-run terms in quadrature, and `faster` names a pipeline only where that \
             ratio's interval excludes 1 (else `tie`).",
        );
        for (alg, input, l, c) in &pairs {
            let key = format!("{alg} @ {input}");
            if t.reuse(&key)?.is_some() {
                continue;
            }
            let row = versus_row(&t, key, (alg, input, l, c));
            t.push(row)?;
        }
        let ratios = crate::report::table::versus::ratios(t.table(), |r| r.key.clone());
        t.finish()?;
        let chart = crate::report::table::versus::chart(
            &format!("{}: legacy (fragment) vs compute", self.paper.key),
            ratios,
        );
        chart.save(&self.dir().join(FIGURE))?;
        self.add_plot(
            FIGURE,
            "Legacy vs compute: legacy time / compute time per algorithm and input (a dot; \
             right of 1: compute faster), with the ratio's 95 % interval as a whisker, log \
             scale, from the `versus` table.",
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(name: &str, median: f64, lo: f64, hi: f64) -> Side {
        let e = Estimate {
            median,
            lo,
            hi,
            ..Estimate::exact(median)
        };
        (name.into(), e, 0.0, None, String::new())
    }

    #[test]
    fn faster_is_read_from_the_ratio_interval_printed_beside_it() {
        let r = |lo: f64, hi: f64| Estimate {
            lo,
            hi,
            ..Estimate::exact(0.5 * (lo + hi))
        };
        assert_eq!(faster(&r(0.38, 0.86)), "legacy");
        assert_eq!(faster(&r(1.11, 2.54)), "compute");
        assert_eq!(faster(&r(0.9, 1.1)), TIE);
    }

    #[test]
    fn the_stand_in_names_the_variants_it_ties_with_fastest_first() {
        let s = stand_in(vec![
            side("copy", 2.0, 1.8, 2.2),
            side("switch", 1.9, 1.7, 2.1),
            side("slow", 5.0, 4.5, 5.5),
        ]);
        assert_eq!((s.0.as_str(), s.1.median), ("switch ≈ copy", 1.9));
        // Apart: the fastest alone; a name met twice (two tables) is named once.
        let s = stand_in(vec![
            side("copy", 2.0, 1.8, 2.2),
            side("switch", 1.0, 0.9, 1.1),
            side("switch", 1.05, 0.95, 1.15),
        ]);
        assert_eq!((s.0.as_str(), s.1.median), ("switch", 1.0));
    }
}
