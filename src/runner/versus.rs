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
//! when that ratio's interval is a 95 % one (both sides timed at least
//! [`MIN_SAMPLES_FOR_CI`] times; else the row says `too few runs`), excludes 1, *and* the same
//! ratio formed from each half of the two sides' runs (first halves, then second halves, in
//! the order measured: the row replicated within the run) excludes 1 on the same side,
//! otherwise the row says `tie` (the word is read from the three intervals printed beside
//! it; `replicated`). The halves guard against the spells measured on llvmpipe's small
//! multi-pass grids, where one spell of a process separated two intervals that the next
//! process reversed. Every cell keeps its between-run term ([`Estimate::between`]), so that
//! what is said of the repetitions' width alone ([`Estimate::within`]) holds for these cells
//! too.
//!
//! [`RowBuilder::versus`]: crate::report::RowBuilder::versus

use serde::Serialize;

use super::error::RunError;
use super::session::handle::Session;
use super::session::writer::TableWriter;
use crate::bench::Kind;
use crate::report::{Attained, Column, RowBuilder};

use crate::report::table::versus::{
    COMPUTE_MS, FASTER, FEW_RUNS, HALF_1, HALF_2, LEGACY_MS, RATIO, TABLE, replicated,
};
use crate::stats::{Estimate, HALVES_MIN_SAMPLES, MIN_SAMPLES_FOR_CI};
use crate::work::TIED;

/// A side: the kernel, its time, its error against the CPU reference, its fraction of the
/// bound, where the row is, and its time in each half of its runs (where it has enough).
#[derive(Clone, Debug, Serialize)]
struct Side {
    kernel: String,
    time: Estimate,
    error: f64,
    of_bound: Option<f64>,
    row: String,
    halves: Option<[Estimate; 2]>,
}

/// The paper's figure of the table's ratios.
pub const FIGURE: &str = "versus.png";

#[derive(Serialize)]
struct Config<'a> {
    pairs: &'a [(String, String, Side, Side)],
}

/// The side that stands for a pipeline among its verified `sides` (not empty) on one input:
/// the one with the least median time, its kernel cell also naming, fastest median first,
/// every other variant whose interval does not separate from its own (the choice between
/// them is a tie, broken by the median).
fn stand_in(mut sides: Vec<Side>) -> Side {
    sides.sort_by(|a, b| a.time.median.total_cmp(&b.time.median));
    let mut best = sides[0].clone();
    let mut names: Vec<&str> = vec![&sides[0].kernel];
    for s in &sides[1..] {
        let apart = crate::stats::separated(best.time.interval(), s.time.interval()).is_some();
        if !apart && !names.contains(&s.kernel.as_str()) {
            names.push(&s.kernel);
        }
    }
    best.kernel = names.join(TIED);
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
        let side = Side {
            kernel: a.kernel.clone(),
            time: a.time_est(),
            error: *err,
            of_bound: a.fraction(),
            row: format!("{table} / {key}"),
            halves: a.halves_est(),
        };
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
        Column::ours(HALF_1).fixed(2),
        Column::ours(HALF_2).fixed(2),
        Column::ours(FASTER).text(),
    ]
}

/// The ratios legacy / compute of the sides' first halves and of their second halves
/// ([`Side::halves`]), each as the whole ratio is formed; `None` where a side has too few
/// runs to split.
fn half_ratios(l: &Side, c: &Side) -> Option<[Estimate; 2]> {
    let ([l1, l2], [c1, c2]) = (l.halves.as_ref()?, c.halves.as_ref()?);
    Some([
        Estimate::ratio_unpaired(l1, c1),
        Estimate::ratio_unpaired(l2, c2),
    ])
}

/// The row of one pair: both sides' cells, their ratio with its conservative interval, the
/// ratios of their halves, and the faster side (or `tie`).
fn versus_row(
    t: &TableWriter,
    key: String,
    (alg, input, l, c): (&String, &String, &Side, &Side),
) -> RowBuilder {
    let ratio = Estimate::ratio_unpaired(&l.time, &c.time);
    let halves = half_ratios(l, c);
    let word = replicated(&ratio, halves.as_ref());
    let [h1, h2] = halves.map_or([None, None], |h| h.map(Some));
    t.row(key)
        .text("algorithm", alg.clone())
        .text("input", input.clone())
        .text("legacy kernel", l.kernel.clone())
        .est(LEGACY_MS, l.time.clone())
        .num("legacy error", l.error)
        .opt("legacy of bound", l.of_bound)
        .text("compute kernel", c.kernel.clone())
        .est(COMPUTE_MS, c.time.clone())
        .num("compute error", c.error)
        .opt("compute of bound", c.of_bound)
        .est(RATIO, ratio.clone())
        .opt_est(HALF_1, h1)
        .opt_est(HALF_2, h2)
        .text(FASTER, word)
        .unchecked(format!(
            "both sides verified in their tables ({}; {})",
            l.row, c.row
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
        t.caption(format!(
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
             between-run terms in quadrature. The two halves' columns are the same ratio \
             of the sides' first halves of their runs (in the order measured) and of their \
             second halves, each half with its own interval and the same terms: the row \
             replicated within the run. `faster` names a pipeline only where the whole \
             ratio's interval excludes 1 and both halves' intervals exclude it on the same \
             side (split-half replication: on a device whose speed changes in spells, one \
             spell can separate what the next reverses); else `tie`. Where a side has too \
             few runs to split (fewer than {HALVES_MIN_SAMPLES}), the whole ratio decides alone \
             (—); where a side has fewer than {MIN_SAMPLES_FOR_CI} runs, the ratio has no 95 % \
             interval (`*`, or a bare ratio for one run each) and `faster` says `{FEW_RUNS}`: \
             no winner is named."
        ));
        for (alg, input, l, c) in &pairs {
            // Never taken over from an earlier run on `--resume`: a row is read from its two
            // sides' rows (themselves reused or measured) at no cost, so it is always formed
            // again by this build's rules, and a resumed run cannot keep an older build's
            // `faster` word beside a ratio that this build reads otherwise.
            let key = format!("{alg} @ {input}");
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
             right of 1: compute faster), with the ratio's 95 % interval as a whisker (a \
             hollow dot: too few runs for a 95 % interval), log scale, from the `versus` table.",
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::table::versus::{TIE, faster};

    /// A time of enough runs for a 95 % interval.
    fn est(median: f64, lo: f64, hi: f64) -> Estimate {
        Estimate {
            median,
            lo,
            hi,
            coverage: crate::stats::LEVEL,
            n: MIN_SAMPLES_FOR_CI,
            ..Estimate::exact(median)
        }
    }

    fn side(name: &str, median: f64, lo: f64, hi: f64) -> Side {
        Side {
            kernel: name.into(),
            time: est(median, lo, hi),
            error: 0.0,
            of_bound: None,
            row: String::new(),
            halves: None,
        }
    }

    #[test]
    fn faster_is_read_from_the_ratio_interval_printed_beside_it() {
        let r = |lo: f64, hi: f64| est(0.5 * (lo + hi), lo, hi);
        assert_eq!(faster(&r(0.38, 0.86)), "legacy");
        assert_eq!(faster(&r(1.11, 2.54)), "compute");
        assert_eq!(faster(&r(0.9, 1.1)), TIE);
    }

    #[test]
    fn a_side_of_too_few_runs_names_no_winner() {
        let of = |s: &[f64]| Estimate::of(s).unwrap();
        let six = of(&[520.0, 521.0, 522.0, 523.0, 524.0, 525.0]);
        let ratio = |l: &Estimate, c: &Estimate| faster(&Estimate::ratio_unpaired(l, c));
        // Six runs each, twice as fast: compute.
        let c6 = of(&[250.0, 251.0, 252.0, 253.0, 254.0, 255.0]);
        assert_eq!(ratio(&six, &c6), "compute");
        // One run each (lu/versus N = 1024 in the 2fc02dadec63 run: 521.3 / 245.0 read as
        // `compute`): a bare ratio, no interval at all.
        let (l1, c1) = (of(&[521.3]), of(&[245.0]));
        let bare = Estimate::ratio_unpaired(&l1, &c1);
        assert_eq!((bare.lo, bare.hi), (bare.median, bare.median));
        assert_eq!(ratio(&l1, &c1), FEW_RUNS);
        // Six runs against one (N = 2048 there: the ratio's interval, marked `*`, excluded 1):
        // an interval, but of less than 95 %.
        let few = Estimate::ratio_unpaired(&six, &c1);
        assert!(few.lo > 1.0 && !few.has_ci(), "{few:?}");
        assert_eq!(ratio(&six, &c1), FEW_RUNS);
        // Five runs are still too few; the halves cannot rescue a whole ratio without one.
        let c5 = of(&[250.0, 251.0, 252.0, 253.0, 254.0]);
        assert_eq!(ratio(&six, &c5), FEW_RUNS);
        let h = [est(2.0, 1.9, 2.1), est(2.0, 1.9, 2.1)];
        assert_eq!(
            replicated(&Estimate::ratio_unpaired(&six, &c5), Some(&h)),
            FEW_RUNS
        );
    }

    #[test]
    fn the_stand_in_names_the_variants_it_ties_with_fastest_first() {
        let s = stand_in(vec![
            side("copy", 2.0, 1.8, 2.2),
            side("switch", 1.9, 1.7, 2.1),
            side("slow", 5.0, 4.5, 5.5),
        ]);
        assert_eq!((s.kernel.as_str(), s.time.median), ("switch ≈ copy", 1.9));
        // Apart: the fastest alone; a name met twice (two tables) is named once.
        let s = stand_in(vec![
            side("copy", 2.0, 1.8, 2.2),
            side("switch", 1.0, 0.9, 1.1),
            side("switch", 1.05, 0.95, 1.15),
        ]);
        assert_eq!((s.kernel.as_str(), s.time.median), ("switch", 1.0));
    }

    #[test]
    fn a_winner_must_hold_in_both_halves_of_the_runs() {
        // Legacy 3.6 ms, compute 2.7 ms: the whole ratio 1.33 [1.07, 1.67] says compute.
        let mut l = side("CR (switch)", 3.6, 3.4, 3.8);
        let mut c = side("CR compute (passes)", 2.7, 2.55, 3.2);
        let whole = Estimate::ratio_unpaired(&l.time, &c.time);
        assert_eq!(faster(&whole), "compute");
        // Too few runs to split: the whole ratio decides alone.
        assert!(half_ratios(&l, &c).is_none());
        assert_eq!(replicated(&whole, None), "compute");
        // Both halves say compute too: compute.
        l.halves = Some([est(3.6, 3.5, 3.7), est(3.6, 3.4, 3.8)]);
        c.halves = Some([est(2.6, 2.5, 2.7), est(2.8, 2.6, 3.0)]);
        let h = half_ratios(&l, &c).unwrap();
        assert!((h[0].lo - 3.5 / 2.7).abs() < 1e-12 && (h[1].hi - 3.8 / 2.6).abs() < 1e-12);
        assert_eq!(replicated(&whole, Some(&h)), "compute");
        // The second halves of the compute side met a slow spell: their ratio straddles 1,
        // so the winner is not replicated and the row is a tie.
        c.halves = Some([est(2.6, 2.5, 2.7), est(3.3, 3.0, 4.0)]);
        let h = half_ratios(&l, &c).unwrap();
        assert_eq!(faster(&h[1]), TIE);
        assert_eq!(replicated(&whole, Some(&h)), TIE);
        // The halves disagree outright (compute, then legacy): a tie, not either winner.
        c.halves = Some([est(2.6, 2.5, 2.7), est(4.5, 4.2, 4.8)]);
        let h = half_ratios(&l, &c).unwrap();
        assert_eq!((faster(&h[0]), faster(&h[1])), ("compute", "legacy"));
        assert_eq!(replicated(&whole, Some(&h)), TIE);
        // A whole ratio that is a tie stays one whatever the halves say.
        let even = Estimate::ratio_unpaired(&l.time, &l.time);
        let h = [est(2.0, 1.5, 2.5), est(2.0, 1.5, 2.5)];
        assert_eq!(replicated(&even, Some(&h)), TIE);
    }
}
