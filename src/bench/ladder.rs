//! The sweep's driver: runs a bandwidth kernel over the ladder of sizes and returns its
//! largest size's [`Measurement`] carrying the curve ([`super::sweep`] reads the plateau,
//! the cache levels and the peak from it). Apart from the curve's analysis so that the
//! profile's types and the analysis do not import each other.

use std::time::Instant;

use super::budget;
use super::measurement::Measurement;
use super::sweep::{SweepPoint, cache_levels, peak, plateau};
use crate::gl::GlError;

/// Each size of a sweep's ladder is this multiple of the one before.
pub(super) const FACTOR: usize = 4;

/// The planned ladder: `from, 4·from, …` up to the first size at or past `end`, within
/// `cap` ([`super::sweep`]: the same ladder in every pass).
pub(super) fn ladder(from: usize, end: usize, cap: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut bytes = from.max(1).min(cap.max(1));
    loop {
        out.push(bytes);
        if bytes >= cap || bytes >= end {
            return out;
        }
        bytes = bytes.saturating_mul(FACTOR).min(cap);
    }
}

/// Runs `at(bytes)` over the planned [`ladder`] while the row's time allows
/// ([`budget::may_grow`]); returns the largest size's measurement carrying the sweep: its
/// value is the plateau, `peak` the best rate, `cache` the levels, `unreached` the planned
/// sizes not measured, `sweep_end` the planned end. A size that fails after a first success
/// ends the sweep (e.g. out of memory); a failed check makes the result failed.
pub(super) fn sweep(
    from: usize,
    end: usize,
    cap: usize,
    mut at: impl FnMut(usize) -> Result<Measurement, GlError>,
) -> Result<Measurement, GlError> {
    let plan = ladder(from, end, cap);
    let mut points = Vec::new();
    let mut costs: Vec<f64> = Vec::new();
    let mut last: Option<Measurement> = None;
    for &bytes in &plan {
        if !costs.is_empty() && !budget::may_grow(&costs, FACTOR as f64) {
            break;
        }
        let t0 = Instant::now();
        let m = match at(bytes) {
            Ok(m) => m,
            Err(e) => match last {
                Some(_) => break,
                None => return Err(e),
            },
        };
        costs.push(t0.elapsed().as_secs_f64());
        if m.value.is_none() {
            return Ok(m);
        }
        points.push(SweepPoint {
            bytes: bytes as f64,
            gbs: m.value,
        });
        last = Some(m);
    }
    let mut m = last.expect("one size measured");
    m.sweep_end = plan.last().map(|&b| b as f64);
    read_curve(&mut m, points);
    Ok(m)
}

/// Gives `m` the curve `points` and what is read from it ([`super::sweep`]): its value the
/// plateau (the memory roof, or a cache's where the sweep stopped short of its end), its
/// peak, its cache levels, and the planned sizes it lacks (`m.sweep_end`'s ladder, read
/// from the curve's first size).
pub(super) fn read_curve(m: &mut Measurement, points: Vec<SweepPoint>) {
    let p = plateau(&points);
    m.value = p.map(|p| p.gbs);
    m.peak = peak(&points);
    m.cache = p.map(|p| cache_levels(&points, &p)).unwrap_or_default();
    m.plateau = p;
    m.unreached = match (points.first(), m.sweep_end) {
        (Some(first), Some(end)) => ladder(first.bytes as usize, end as usize, end as usize)
            .into_iter()
            .map(|b| b as f64)
            .filter(|b| !points.iter().any(|p| p.bytes == *b))
            .collect(),
        _ => vec![],
    };
    m.sweep = points;
}

/// Runs `at(n)` over `from, 4·from, …` up to `end`, growing while one call of the kernel
/// (`at`'s second result, ms) lasts less than `min_call_ms` and the next size is predicted
/// to fit what is left of the row's time ([`grow_fits`]): the last size's result and the
/// sizes it did not reach. `calls` is how many calls of the kernel one `at` makes. The FMA
/// rows size their invocations so (enough work to fill the device, no more than a slow
/// device can do within its share: [`super::flops`]).
pub(super) fn grow<T>(
    from: usize,
    end: usize,
    min_call_ms: f64,
    calls: f64,
    mut at: impl FnMut(usize) -> Result<(T, f64), GlError>,
) -> Result<(T, usize, Vec<f64>), GlError> {
    let plan = ladder(from, end, end);
    for (i, &n) in plan.iter().enumerate() {
        let t0 = Instant::now();
        let (r, call_ms) = at(n)?;
        let cost = t0.elapsed().as_secs_f64();
        let more = i + 1 < plan.len();
        if !more
            || call_ms >= min_call_ms
            || !grow_fits(budget::left(), cost, calls * call_ms * 1e-3)
        {
            let rest = plan[i + 1..].iter().map(|&b| b as f64).collect();
            return Ok((r, n, rest));
        }
    }
    unreachable!("the ladder is not empty")
}

/// Whether a [`grow`] step that cost `cost` s, of which `calls_s` in the kernel's calls,
/// may grow within `left`: the next size costs what this one did outside its calls (a
/// shader's compilation, the check) plus its calls at [`FACTOR`] times the work. (A
/// sweep's size is predicted from its whole cost instead, [`budget::predict_next`]: there
/// the arrays' preparation and check grow with the size too.)
pub(super) fn grow_fits(left: Option<std::time::Duration>, cost: f64, calls_s: f64) -> bool {
    let next = cost + (FACTOR as f64 - 1.0) * calls_s;
    left.is_none_or(|l| next <= l.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::measurement::Unit;
    use crate::gl::Timing;

    #[test]
    fn the_ladder_grows_by_four_to_the_first_size_past_its_end_within_the_cap() {
        const M: usize = 1 << 20;
        assert_eq!(ladder(M, 64 * M, 1 << 30), vec![M, 4 * M, 16 * M, 64 * M]);
        assert_eq!(ladder(M, 40 * M, 1 << 30), vec![M, 4 * M, 16 * M, 64 * M]);
        assert_eq!(
            ladder(M, 256 * M, 100 * M),
            vec![M, 4 * M, 16 * M, 64 * M, 100 * M]
        );
        assert_eq!(ladder(8 * M, M, 1 << 30), vec![8 * M]);
    }

    #[test]
    fn every_mode_ladder_on_a_gpu_ends_past_four_times_an_h200_l2() {
        // The H200's L2 is 60 MB; the quick ladder of the rule before ended at 64 MiB.
        for s in [
            crate::bench::settings::Settings::quick(),
            crate::bench::settings::Settings::full(),
        ] {
            let plan = ladder(s.sweep_from, s.buffer_bytes, s.sweep_cap);
            let last = *plan.last().unwrap() as f64;
            assert!(last >= 4.0 * 60e6, "{}: {last}", s.mode);
        }
    }

    fn at(bytes: usize, gbs: f64) -> Measurement {
        let mut m = Measurement::new(
            "k",
            "k".into(),
            Unit::GBs,
            1.0,
            1,
            Timing::default(),
            Some((0.0, 0.0)),
        );
        let _ = bytes;
        m.value = Some(gbs);
        m
    }

    #[test]
    fn a_sweep_out_of_time_reports_the_sizes_it_did_not_reach() {
        const M: usize = 1 << 20;
        // A row clock of 50 ms, each size costing 30 ms: one size, then the next (predicted
        // 4 × 30 ms) does not fit.
        budget::start_row(std::time::Duration::from_millis(50));
        let m = sweep(M, 64 * M, 1 << 30, |b| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            Ok(at(b, 10.0))
        })
        .unwrap();
        budget::end_row();
        assert_eq!(m.sweep.len(), 1);
        assert_eq!(
            m.unreached,
            vec![4.0 * M as f64, 16.0 * M as f64, 64.0 * M as f64]
        );
        assert_eq!(m.sweep_end, Some(64.0 * M as f64));
        assert!(!m.left_caches(), "the plateau is read short of the end");
        // No row clock: the whole ladder.
        let m = sweep(M, 64 * M, 1 << 30, |b| Ok(at(b, 10.0))).unwrap();
        assert_eq!(m.sweep.len(), 4);
        assert!(m.unreached.is_empty());
        assert!(m.left_caches());
    }

    #[test]
    fn grow_stops_at_the_first_call_long_enough_or_at_the_end() {
        // A call of n invocations lasts n / 1000 ms: 1 ms is first reached at 1024.
        let (r, n, rest) = grow(16, 4096, 1.0, 2.0, |n| Ok((n, n as f64 / 1000.0))).unwrap();
        assert_eq!((r, n), (1024, 1024));
        assert_eq!(rest, vec![4096.0]);
        // A fast device: the whole ladder.
        let (_, n, rest) = grow(16, 4096, 1.0, 2.0, |n| Ok((n, 1e-6))).unwrap();
        assert_eq!(n, 4096);
        assert!(rest.is_empty());
    }

    #[test]
    fn a_grow_step_is_predicted_from_its_calls_not_its_compilation() {
        let ms = |v: u64| Some(std::time::Duration::from_millis(v));
        // 300 ms, nearly all compilation, 2 ms in calls: next 300 + 3 × 2 = 306 ms.
        assert!(grow_fits(ms(306), 0.300, 0.002));
        assert!(!grow_fits(ms(305), 0.300, 0.002));
        // A slow device: 100 ms of which 80 in calls → 100 + 240 = 340 ms.
        assert!(!grow_fits(ms(339), 0.100, 0.080));
        assert!(grow_fits(None, 1e3, 1e3), "no row clock: no limit");
    }
}
