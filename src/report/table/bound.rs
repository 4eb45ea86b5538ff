//! What a timed GPU row attained against the device's limits ([`Attained`]) and the three
//! bound columns it fills.

use serde::{Deserialize, Serialize};

use super::value::{Column, Fmt};

/// What a timed GPU row did and how long it took; the runner fills `bound` from the device's
/// profile (`device.json`) when the row is added, and the bound columns with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attained {
    /// The kernel, as its point on the roofline is labelled (one point per kernel: its row
    /// with the most work).
    pub kernel: String,
    pub work: crate::work::Work,
    /// The measured time the work took (ms): the median of the timed runs.
    pub ms: f64,
    /// The 95 % interval of that median (ms), when the row kept its runs
    /// ([`RowBuilder::work_timed`](super::row::RowBuilder::work_timed)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_ms: Option<(f64, f64)>,
    /// The between-run term that interval includes (log units, [`crate::stats::between`]).
    #[serde(default, skip_serializing_if = "crate::stats::is_zero")]
    pub between: f64,
    /// How many timed runs that interval rests on: with fewer than a 95 % interval needs
    /// ([`crate::stats::MIN_SAMPLES_FOR_CI`]) it is `[min, max]`, of its lower coverage, and
    /// every estimate read from it (the time, the fraction of the bound, a ratio in `versus`)
    /// is marked as such. `None` in records older than the field (read as a 95 % interval).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<usize>,
    /// The first and the second half of the timed runs, in the order measured, each as
    /// `[median, lo, hi]` (ms; its 95 % interval with the same between-run term): the row
    /// replicated within the run ([`crate::stats::Estimate::halves`]), which the `versus`
    /// table's winners must hold in too. `None` with too few runs to split, and in records
    /// older than the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halves_ms: Option<[[f64; 3]; 2]>,
    /// The bound on this device, when its limits are known.
    #[serde(default)]
    pub bound: Option<crate::work::Bound>,
    /// The algorithm and input this row solves, where the paper (or a variant) solves the
    /// same with the other pipeline: rows with equal `(algorithm, input)` and different
    /// pipelines meet in the legacy-vs-compute table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus: Option<(String, String)>,
    /// A tuning candidate that was not chosen: its kernel's point on the roofline is the
    /// chosen candidate's (or another row's), not this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_chosen: bool,
}

impl Attained {
    /// `bound / measured` (1 = at the device's limit).
    pub fn fraction(&self) -> Option<f64> {
        self.bound.and_then(|b| b.fraction(self.ms))
    }

    /// The measured time as an estimate: its median, its interval (resting on the row's
    /// [`runs`](Self::runs), with their coverage) and the between-run term that interval
    /// includes; exact without an interval.
    pub fn time_est(&self) -> crate::stats::Estimate {
        let (lo, hi) = self.interval_ms.unwrap_or((self.ms, self.ms));
        self.est_of(self.ms, lo, hi, self.runs)
    }

    /// The two halves of the timed runs as estimates ([`Attained::halves_ms`]), each read as
    /// [`time_est`](Self::time_est) reads the whole.
    pub fn halves_est(&self) -> Option<[crate::stats::Estimate; 2]> {
        self.halves_ms
            .map(|h| h.map(|[m, lo, hi]| self.est_of(m, lo, hi, self.runs.map(|n| n / 2))))
    }

    /// Keeps `halves` ([`crate::stats::Estimate::halves`]) as [`Attained::halves_ms`].
    pub fn set_halves(&mut self, halves: Option<[crate::stats::Estimate; 2]>) {
        self.halves_ms = halves.map(|h| h.map(|e| [e.median, e.lo, e.hi]));
    }

    /// A median `m` with the interval `[lo, hi]` (reaching `m`) of `runs` timed runs and this
    /// row's between-run term; exact where the interval is a point.
    fn est_of(&self, m: f64, lo: f64, hi: f64, runs: Option<usize>) -> crate::stats::Estimate {
        use crate::stats::Estimate;
        let (lo, hi) = (lo.min(m), hi.max(m));
        if hi > lo {
            Estimate {
                between: self.between,
                n: runs.unwrap_or(2),
                ..Estimate::with_interval(m, lo, hi, coverage(runs))
            }
        } else {
            Estimate::exact(m)
        }
    }

    /// The fraction with its interval, when the time has one: `bound / [hi, lo]` of the
    /// time's repetitions' interval, widened by the between-run term twice in quadrature
    /// (`√2·h`, [`crate::stats::Estimate::widen`]). The bound is read from roofs the bench
    /// measured apart from the row, and the roofs move between runs as the row's time does
    /// (the term is measured on the bench's own rows), so a fraction is a ratio of two
    /// independently measured quantities, like an unpaired ratio.
    ///
    /// Where the bound's fixed costs are known only as a range ([`crate::work::Bound::ms_met`]),
    /// the interval's upper end is the fraction of the larger bound: the median is read
    /// against the least costs seen (a bound), the interval spans the costs the row's table
    /// met as well.
    pub fn fraction_est(&self) -> Option<crate::stats::Estimate> {
        use crate::stats::{Estimate, LEVEL};
        let f = self.fraction()?;
        let b = self.bound?;
        let upper = b.ms_met.filter(|&m| m > b.ms).unwrap_or(b.ms);
        Some(match self.interval_ms {
            Some((lo, hi)) if lo > 0.0 && hi > 0.0 => {
                let t = self.time_est().within();
                let e = Estimate {
                    n: t.n,
                    ..Estimate::with_interval(f, b.ms / t.hi, b.ms / t.lo, t.coverage)
                }
                .widen(self.between * std::f64::consts::SQRT_2);
                Estimate {
                    hi: e.hi * upper / b.ms,
                    ..e
                }
            }
            _ if upper > b.ms => Estimate::with_interval(f, f, f * upper / b.ms, LEVEL),
            _ => Estimate::exact(f),
        })
    }
}

/// The columns a timed GPU row's bound fills: the least time this device's measured limits
/// allow for the row's work (ms), which limit sets it, and the fraction of it attained.
pub const BOUND: &str = "bound";
pub const LIMITER: &str = "limiter";
pub const OF_BOUND: &str = "of bound";
/// How `of bound` prints, in the tables and wherever a fraction of a bound is quoted:
/// significant digits, so that a kernel at 0.0025 of its bound does not read "0.00".
pub const OF_BOUND_FMT: Fmt = Fmt::Sig(2);

/// A timed table's columns: `columns`, then the three bound columns (every timed table ends
/// with them, in this order).
pub fn with_bound_columns(mut columns: Vec<Column>) -> Vec<Column> {
    columns.extend([
        Column::ours(BOUND).unit("ms").fmt(Fmt::Sig(3)),
        Column::ours(LIMITER).text(),
        Column::ours(OF_BOUND).fmt(OF_BOUND_FMT),
    ]);
    columns
}

/// The coverage of an interval of `runs` timed runs' order statistics
/// ([`crate::stats::median_ci_indices`]); 95 % where a record has no count.
fn coverage(runs: Option<usize>) -> f64 {
    use crate::stats::{LEVEL, median_ci_indices};
    runs.map_or(LEVEL, |n| median_ci_indices(n, LEVEL).2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Estimate;
    use crate::work::{Bound, Limiter, Work};

    fn attained(interval: (f64, f64), between: f64) -> Attained {
        Attained {
            kernel: "k".into(),
            work: Work::default(),
            ms: 10.0,
            interval_ms: Some(interval),
            between,
            runs: None,
            halves_ms: None,
            bound: Some(Bound {
                ms: 5.0,
                limiter: Limiter::Bandwidth,
                close: None,
                ms_met: None,
            }),
            versus: None,
            not_chosen: false,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn a_fraction_carries_the_term_of_both_bound_and_time() {
        // Without a term: bound / [hi, lo] of the time's interval.
        let f = attained((8.0, 12.5), 0.0).fraction_est().unwrap();
        assert_eq!((f.median, f.lo, f.hi, f.between), (0.5, 0.4, 0.625, 0.0));
        // The time's interval [9, 11] widened by h = 0.3: the fraction's repetitions' part
        // is 5 / [11, 9], and its term √2·h, in quadrature on the log scale.
        let h = 0.3;
        let t = Estimate::with_interval(10.0, 9.0, 11.0, crate::stats::LEVEL).widen(h);
        let f = attained((t.lo, t.hi), h).fraction_est().unwrap();
        let h2 = h * std::f64::consts::SQRT_2;
        assert!(close(f.between, h2));
        assert!(close(f.lo, 0.5 * (-(11f64 / 10.0).ln().hypot(h2)).exp()));
        assert!(close(f.hi, 0.5 * (10f64 / 9.0).ln().hypot(h2).exp()));
        assert!(
            f.lo < 0.5 * (-(11f64 / 10.0).ln().hypot(h)).exp(),
            "wider than one term"
        );
    }

    /// A row timed fewer times than a 95 % interval needs keeps that through every estimate
    /// read from it: its time, its fraction of the bound (the table's `*`), its halves; a
    /// record without the count reads as before, a 95 % interval.
    #[test]
    fn few_runs_stay_few_in_the_time_and_the_fraction() {
        let mut a = attained((8.0, 12.5), 0.0);
        assert!(a.time_est().has_ci() && a.fraction_est().unwrap().has_ci());
        a.runs = Some(3);
        let (t, f) = (a.time_est(), a.fraction_est().unwrap());
        assert!(!t.has_ci() && !f.has_ci(), "3 runs: [min, max]");
        assert_eq!((t.n, f.n), (3, 3));
        assert_eq!(
            t.coverage,
            crate::stats::median_ci_indices(3, crate::stats::LEVEL).2
        );
        a.runs = Some(10);
        assert!(a.time_est().has_ci() && a.fraction_est().unwrap().has_ci());
        // halves of 12 runs rest on 6 each, still a 95 % interval; of 10 on 5, not
        a.halves_ms = Some([[9.0, 8.0, 10.0], [11.0, 10.0, 12.0]]);
        assert!(
            a.halves_est()
                .unwrap()
                .iter()
                .all(|h| !h.has_ci() && h.n == 5)
        );
        a.runs = Some(12);
        assert!(
            a.halves_est()
                .unwrap()
                .iter()
                .all(|h| h.has_ci() && h.n == 6)
        );
    }

    #[test]
    fn a_row_trades_the_default_term_for_its_limiters() {
        use crate::report::table::{row::Row, value::Value};
        // A time 10 [9, 11] carried the default term 0.3; its limiter's term is 0.05.
        let within = Estimate::with_interval(10.0, 9.0, 11.0, crate::stats::LEVEL);
        let t = within.widen(0.3);
        let rate = t.map(|ms| 100.0 / ms); // a GFLOPS cell of the same time
        let unpaired = within.widen(0.3 * std::f64::consts::SQRT_2); // a ratio of two rows
        let paired = Estimate::with_interval(1.5, 1.4, 1.6, crate::stats::LEVEL);
        let mut row = Row::new("k");
        row.values = vec![
            Value::Est(t.clone()),
            Value::Est(rate),
            Value::Est(unpaired.clone()),
            Value::Est(paired.clone()),
            Value::Num(3.0),
        ];
        row.attained = Some(attained((t.lo, t.hi), 0.3));
        row.carry_term(0.05);
        let e = |i: usize| row.values[i].estimate().unwrap().clone();
        // The time: the repetitions' [9, 11] and 0.05 in quadrature.
        assert!(close(
            e(0).lo,
            10.0 * (-(10f64 / 9.0).ln().hypot(0.05)).exp()
        ));
        assert!(close(e(0).hi, 10.0 * (11f64 / 10.0).ln().hypot(0.05).exp()));
        assert_eq!(e(0).between, 0.05);
        // The rate: 100 / the time's new interval, ends swapped.
        assert!(close(e(1).lo, 100.0 / e(0).hi) && close(e(1).hi, 100.0 / e(0).lo));
        assert_eq!(e(1).between, 0.05);
        // Other terms and none: untouched.
        assert_eq!(e(2), unpaired);
        assert_eq!(e(3), paired);
        let a = row.attained.clone().unwrap();
        assert_eq!(a.between, 0.05);
        let (lo, hi) = a.interval_ms.unwrap();
        assert!(close(lo, e(0).lo) && close(hi, e(0).hi));
        // Again with the same term: nothing changes; to 0: the repetitions' interval alone.
        let before = row.clone();
        row.carry_term(0.05);
        assert_eq!(row, before);
        row.carry_term(0.0);
        assert!(close(row.values[0].estimate().unwrap().lo, 9.0));
        assert_eq!(row.values[0].estimate().unwrap().between, 0.0);
    }

    #[test]
    fn the_halves_trade_their_term_as_the_whole_time_does() {
        use crate::report::table::{row::Row, value::Value};
        let t = Estimate::with_interval(10.0, 9.0, 11.0, crate::stats::LEVEL).widen(0.3);
        let half = Estimate::with_interval(8.0, 6.0, 9.0, crate::stats::LEVEL).widen(0.3);
        let mut row = Row::new("k");
        row.values = vec![Value::Est(t.clone())];
        let mut a = attained((t.lo, t.hi), 0.3);
        a.halves_ms = Some([[half.median, half.lo, half.hi]; 2]);
        row.attained = Some(a);
        row.carry_term(0.05);
        let [h1, h2] = row.attained.as_ref().unwrap().halves_est().unwrap();
        // Each half: its repetitions' [6, 9] and the new term in quadrature.
        assert!(close(h1.lo, 8.0 * (-(8f64 / 6.0).ln().hypot(0.05)).exp()));
        assert!(close(h1.hi, 8.0 * (9f64 / 8.0).ln().hypot(0.05).exp()));
        assert_eq!((h1.median, h1.between), (8.0, 0.05));
        assert_eq!(h1, h2);
        // A row without halves keeps none.
        let mut row = Row::new("k");
        row.values = vec![Value::Est(t.clone())];
        row.attained = Some(attained((t.lo, t.hi), 0.3));
        row.carry_term(0.05);
        assert!(row.attained.unwrap().halves_est().is_none());
    }

    #[test]
    fn a_fixed_cost_known_as_a_range_reaches_the_fractions_upper_end() {
        let mut a = attained((8.0, 12.5), 0.0);
        a.bound = a.bound.map(|b| Bound {
            ms_met: Some(10.0),
            ..b
        });
        // The median against the least bound (5), the upper end against the met one (10).
        let f = a.fraction_est().unwrap();
        assert_eq!((f.median, f.lo, f.hi), (0.5, 0.4, 1.25));
        // Without the time's interval: from the least to the met bound's fraction.
        a.interval_ms = None;
        let f = a.fraction_est().unwrap();
        assert_eq!((f.median, f.lo, f.hi), (0.5, 0.5, 1.0));
        // A met bound below the least one is no range.
        a.bound = a.bound.map(|b| Bound {
            ms_met: Some(4.0),
            ..b
        });
        let f = a.fraction_est().unwrap();
        assert_eq!((f.median, f.lo, f.hi), (0.5, 0.5, 0.5));
    }
}
