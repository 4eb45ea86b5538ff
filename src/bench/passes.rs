//! The bench in passes: every measurement is made once per pass, the passes minutes apart,
//! and a row keeps the best of its passes.
//!
//! # Why
//! On a shared machine a kernel can run at a fraction of its speed for tens of seconds while
//! the machine's load counters show nothing, and some states last as long as the process
//! (issue 23). Repetitions inside one measurement all fall in the same spell; passes that
//! come back to the row a whole bench later, each in a process of its own
//! ([`super::passes_in_processes`]; the fixed costs stay in the process that runs the
//! tables), do not (BabelStream's best-of rule applied over time, and Hoefler & Belli's
//! advice to spread repetitions).
//!
//! # The rule
//! Pass `p` runs the measurements in order (`p` even) or in reverse (`p` odd), so each row's
//! neighbours in time change — except the fixed costs, which end every pass, in the process
//! that runs the papers' tables (`passes_in_children` in [`super`] says why). A row's result over passes ([`best_of`]):
//! - a failed check or missing feature in any pass makes the row failed (a wrong result is
//!   never hidden by a right one);
//! - a swept bandwidth keeps, at each size every pass reached, the best rate of any pass, and
//!   its plateau, peak and cache levels are read again from that curve ([`super::sweep`]).
//!   Every pass plans the same ladder ([`super::sweep`]); a size some pass did not reach
//!   (its time share was spent first, [`super::budget`], or an allocation failed) is left
//!   out, since its rate would stand against the others' best of all passes, and is listed
//!   with the row's sizes not reached ([`Measurement::unreached`]);
//! - any other row keeps its best pass (the highest rate; for a fixed cost, the least µs:
//!   the roof's definition; a median pass moved between benches as much, issue 23);
//! - [`Measurement::passes`] keeps each pass's value, so the spread is in the profile — for a
//!   swept row each pass's rate at the largest size every pass reached (under the time
//!   budget passes may end their sweeps at different sizes, and plateaus read at a cache's
//!   size and at the memory's are not one quantity);
//! - a fixed cost's extra pass in a process kept on one CPU ([`with_floor`], [`super::fixed`])
//!   is another configuration, not another spell: it stays out of `passes` (in
//!   [`Measurement::one_cpu`]), and the row keeps it where it is the better.

use super::ladder::read_curve;
use super::measurement::{Measurement, Unit};
use super::sweep::SweepPoint;

/// Whether `a` is a better value than `b` for a row of unit `u`.
fn better(u: Unit, a: f64, b: f64) -> bool {
    match u {
        Unit::Micros => a < b,
        Unit::GBs | Unit::Gflops => a > b,
    }
}

/// The passes of `m` whose differences are its between-run spread: all of them, less the one
/// farthest from their median (on the log scale) where there are three or more
/// ([`crate::stats::between`]'s "Which passes" says why).
pub fn spread_passes(m: &Measurement) -> Vec<f64> {
    let mut v = m.passes.clone();
    if v.len() >= 3 {
        let mut sorted = v.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        let off = |x: f64| (x / median).ln().abs();
        let far = (1..v.len()).fold(0, |f, i| if off(v[i]) > off(v[f]) { i } else { f });
        v.remove(far);
    }
    v
}

/// The passes' best curve: at each size that every pass reached, the best rate of any pass.
fn best_curve(ms: &[Measurement]) -> Vec<SweepPoint> {
    let mut out: Vec<(SweepPoint, usize)> = Vec::new();
    for p in ms.iter().flat_map(|m| &m.sweep) {
        match out.iter_mut().find(|(q, _)| q.bytes == p.bytes) {
            Some((q, n)) => {
                *n += 1;
                q.gbs = match (q.gbs, p.gbs) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                }
            }
            None => out.push((*p, 1)),
        }
    }
    let swept = ms.iter().filter(|m| !m.sweep.is_empty()).count();
    let mut out: Vec<SweepPoint> = out
        .into_iter()
        .filter(|&(_, n)| n == swept)
        .map(|(p, _)| p)
        .collect();
    out.sort_by(|a, b| a.bytes.total_cmp(&b.bytes));
    out
}

/// The pass a row keeps: its best.
fn kept(ms: Vec<Measurement>) -> Measurement {
    let unit = ms[0].unit;
    ms.into_iter()
        .reduce(|a, b| {
            if better(unit, b.value.unwrap_or(0.0), a.value.unwrap_or(0.0)) {
                b
            } else {
                a
            }
        })
        .expect("one pass at least")
}

/// One row from its passes (module docs). `ms` holds at least one measurement of one key.
pub fn best_of(ms: Vec<Measurement>) -> Measurement {
    let values: Vec<f64> = ms.iter().filter_map(|m| m.value).collect();
    if let Some(failed) = ms.iter().find(|m| m.value.is_none()) {
        let mut m = failed.clone();
        m.passes = values;
        return m;
    }
    let curve = best_curve(&ms);
    let values = curve
        .last()
        .and_then(|largest| rates_at(&ms, largest.bytes))
        .unwrap_or(values);
    let mut best = kept(ms);
    if !curve.is_empty() {
        read_curve(&mut best, curve);
    }
    if values.len() > 1 {
        best.passes = values;
    }
    best
}

/// Each pass's rate at the swept size `bytes`, where every pass measured one there.
///
/// These, not the passes' plateaus, are a swept row's [`Measurement::passes`] (what the
/// between-run term pairs): under the bench's time budget the passes of one row may end their
/// sweeps at different sizes, and each pass's plateau is read at its own last size — a
/// cache's in one pass, the memory's in another — so that the ratio of two plateaus would be
/// the memory hierarchy, not a slow spell. At the largest size every pass reached, the
/// passes measured the same quantity.
fn rates_at(ms: &[Measurement], bytes: f64) -> Option<Vec<f64>> {
    ms.iter()
        .map(|m| {
            m.sweep
                .iter()
                .find(|p| p.bytes == bytes)
                .and_then(|p| p.gbs)
        })
        .collect()
}

/// A row from all its measurements: [`best_of`] its passes, then [`with_floor`] its pass on
/// one CPU (the measurement with [`Measurement::one_cpu`] set), if it has one.
pub fn row_of(ms: Vec<Measurement>) -> Measurement {
    let (one, all): (Vec<_>, Vec<_>) = ms.into_iter().partition(|m| m.one_cpu.is_some());
    match (all.is_empty(), one.into_iter().next()) {
        (true, Some(floor)) => floor,
        (_, floor) => with_floor(best_of(all), floor),
    }
}

/// A row's passes (`best`, from [`best_of`]) joined by its pass on one CPU (`floor`, a fixed
/// cost's floor: [`super::fixed`]): the row keeps the better value and that pass's timing;
/// [`Measurement::one_cpu`] holds the floor, [`Measurement::passes`] the other passes (so
/// that the between-run term pairs only passes of one configuration). A failed row stays
/// failed.
pub fn with_floor(best: Measurement, floor: Option<Measurement>) -> Measurement {
    let Some((floor, v)) = floor.and_then(|f| f.value.map(|v| (f, v))) else {
        return best;
    };
    match best.value {
        Some(b) if better(best.unit, v, b) => Measurement {
            passes: if best.passes.is_empty() {
                vec![b]
            } else {
                best.passes
            },
            one_cpu: Some(v),
            ..floor
        },
        _ => Measurement {
            one_cpu: Some(v),
            ..best
        },
    }
}

/// The order of the measurements in pass `pass` of `n` whose `last` final ones (the fixed
/// costs) end every pass in their own order (module docs).
pub fn order(pass: u32, n: usize, last: usize) -> Vec<usize> {
    let k = n - last.min(n);
    let mut o: Vec<usize> = if pass.is_multiple_of(2) {
        (0..k).collect()
    } else {
        (0..k).rev().collect()
    };
    o.extend(k..n);
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::Timing;

    fn row(unit: Unit, value: Option<f64>, sweep: &[(f64, f64)]) -> Measurement {
        let mut m = Measurement::new(
            "k",
            "k".into(),
            unit,
            1.0,
            1,
            Timing::default(),
            Some((0.0, 0.0)),
        );
        m.value = value;
        m.sweep = sweep
            .iter()
            .map(|&(b, g)| SweepPoint {
                bytes: b,
                gbs: Some(g),
            })
            .collect();
        m
    }

    /// Passes whose sweeps ended at different sizes: the plateaus differ by the hierarchy
    /// (20 at 4 MiB in a short pass against 10 at 16 MiB), the rates at the largest size both
    /// reached (4 MiB: 19 and 20) by the spell; the passes kept are those rates.
    #[test]
    fn a_swept_row_pairs_its_passes_at_the_largest_size_all_reached() {
        let m = best_of(vec![
            row(
                Unit::GBs,
                Some(10.0),
                &[(1.0, 30.0), (4.0, 19.0), (16.0, 10.0)],
            ),
            row(Unit::GBs, Some(20.0), &[(1.0, 31.0), (4.0, 20.0)]),
        ]);
        assert_eq!(m.passes, [19.0, 20.0]);
        // Rows without a sweep keep their values.
        let m = best_of(vec![
            row(Unit::Gflops, Some(10.0), &[]),
            row(Unit::Gflops, Some(12.0), &[]),
        ]);
        assert_eq!(m.passes, [10.0, 12.0]);
    }

    #[test]
    fn a_fixed_cost_keeps_the_lesser_of_its_passes_and_its_floor_apart_from_the_passes() {
        let all = best_of(vec![
            row(Unit::Micros, Some(40.0), &[]),
            row(Unit::Micros, Some(10.0), &[]),
            row(Unit::Micros, Some(35.0), &[]),
        ]);
        let floor = row(Unit::Micros, Some(2.5), &[]);
        let m = with_floor(all.clone(), Some(floor.clone()));
        assert_eq!(m.value, Some(2.5));
        assert_eq!(m.one_cpu, Some(2.5));
        assert_eq!(
            m.passes,
            [40.0, 10.0, 35.0],
            "the floor is not one of the passes"
        );
        // A floor above the passes' best (a GPU whose driver gains from more CPUs): kept apart.
        let high = with_floor(all.clone(), Some(row(Unit::Micros, Some(12.0), &[])));
        assert_eq!((high.value, high.one_cpu), (Some(10.0), Some(12.0)));
        // One pass alone still lists its value beside the floor.
        let one = with_floor(row(Unit::Micros, Some(9.0), &[]), Some(floor.clone()));
        assert_eq!((one.value, one.passes.as_slice()), (Some(2.5), &[9.0][..]));
        // A failed row stays failed; no floor changes nothing.
        let failed = with_floor(row(Unit::Micros, None, &[]), Some(floor));
        assert_eq!((failed.value, failed.one_cpu), (None, Some(2.5)));
        assert_eq!(with_floor(all.clone(), None), all);
        // From a row's measurements: the one marked as made on one CPU is the floor.
        let mut marked = row(Unit::Micros, Some(2.5), &[]);
        marked.one_cpu = marked.value;
        let r = row_of(vec![
            row(Unit::Micros, Some(40.0), &[]),
            marked,
            row(Unit::Micros, Some(10.0), &[]),
        ]);
        assert_eq!((r.value, r.one_cpu), (Some(2.5), Some(2.5)));
        assert_eq!(r.passes, [40.0, 10.0]);
    }

    #[test]
    fn the_spread_leaves_out_the_pass_farthest_from_the_median_of_three() {
        let with = |passes: &[f64]| Measurement {
            passes: passes.to_vec(),
            ..row(Unit::GBs, Some(1.0), &[])
        };
        // A slow pass or a fast one (a size that sat in a cache in that pass) is left out;
        // two passes stay as they are.
        assert_eq!(spread_passes(&with(&[10.0, 4.0, 9.0])), [10.0, 9.0]);
        assert_eq!(spread_passes(&with(&[35.0, 17.0, 19.0])), [17.0, 19.0]);
        assert_eq!(spread_passes(&with(&[10.0, 4.0])), [10.0, 4.0]);
        // Passes spread evenly keep the closer pair: 8 is e^0.22 from 10, 12 e^0.18.
        assert_eq!(spread_passes(&with(&[8.0, 10.0, 12.0])), [10.0, 12.0]);
    }

    #[test]
    fn a_slow_spell_in_one_pass_does_not_lower_the_roof() {
        // Pass 2 slow at every size (the spell), pass 1 slow at one size only.
        let a = row(
            Unit::GBs,
            Some(10.0),
            &[(1.0, 50.0), (4.0, 10.0), (16.0, 10.4)],
        );
        let b = row(
            Unit::GBs,
            Some(3.4),
            &[(1.0, 20.0), (4.0, 3.5), (16.0, 3.4)],
        );
        let c = row(
            Unit::GBs,
            Some(9.0),
            &[(1.0, 52.0), (4.0, 6.0), (16.0, 9.9)],
        );
        let m = best_of(vec![a, b, c]);
        let rates: Vec<f64> = m.sweep.iter().map(|p| p.gbs.unwrap()).collect();
        assert_eq!(rates, vec![52.0, 10.0, 10.4]);
        assert_eq!(m.value, Some(10.0), "lower median of the plateau 10, 10.4");
        assert_eq!(m.peak, Some(52.0));
        // The passes as the between-run term pairs them: each pass's rate at the largest
        // size all reached (16), not its plateau.
        assert_eq!(m.passes, vec![10.4, 3.4, 9.9]);
    }

    #[test]
    fn a_size_one_pass_alone_reached_is_left_out() {
        // Pass 2's sweep ended at 16 (the 64 allocation failed); pass 1 read 6 at 64.
        let a = row(
            Unit::GBs,
            Some(6.0),
            &[(1.0, 50.0), (4.0, 10.0), (16.0, 7.0), (64.0, 6.0)],
        );
        let b = row(
            Unit::GBs,
            Some(9.8),
            &[(1.0, 48.0), (4.0, 9.6), (16.0, 9.8)],
        );
        let m = best_of(vec![a, b]);
        let sizes: Vec<f64> = m.sweep.iter().map(|p| p.bytes).collect();
        assert_eq!(sizes, vec![1.0, 4.0, 16.0]);
        assert_eq!(m.value, Some(9.8), "lower median of the plateau 10, 9.8");
    }

    #[test]
    fn a_fixed_cost_keeps_its_least_time_and_a_rate_its_highest() {
        let m = best_of(vec![
            row(Unit::Micros, Some(60.0), &[]),
            row(Unit::Micros, Some(19.0), &[]),
            row(Unit::Micros, Some(35.0), &[]),
        ]);
        assert_eq!(m.value, Some(19.0));
        assert_eq!(m.passes, vec![60.0, 19.0, 35.0]);
        let m = best_of(vec![
            row(Unit::Gflops, Some(88.0), &[]),
            row(Unit::Gflops, Some(90.0), &[]),
        ]);
        assert_eq!(m.value, Some(90.0));
    }

    #[test]
    fn a_failed_check_in_any_pass_fails_the_row() {
        let m = best_of(vec![
            row(Unit::GBs, Some(10.0), &[]),
            row(Unit::GBs, None, &[]),
        ]);
        assert_eq!(m.value, None);
        assert_eq!(m.passes, vec![10.0]);
    }

    #[test]
    fn passes_alternate_their_order() {
        assert_eq!(order(0, 3, 0), vec![0, 1, 2]);
        assert_eq!(order(1, 3, 0), vec![2, 1, 0]);
        assert_eq!(order(2, 3, 0), vec![0, 1, 2]);
        assert_eq!(
            order(1, 5, 2),
            vec![2, 1, 0, 3, 4],
            "the last two end every pass"
        );
        assert_eq!(order(1, 2, 3), vec![0, 1]);
    }
}
