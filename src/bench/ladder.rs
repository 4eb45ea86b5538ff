//! The sweep's driver: runs a bandwidth kernel over the ladder of sizes and returns its
//! largest size's [`Measurement`] carrying the curve ([`super::sweep`] reads the plateau,
//! the cache levels and the peak from it). Apart from the curve's analysis so that the
//! profile's types and the analysis do not import each other.

use super::profile::Measurement;
use super::sweep::{SweepPoint, cache_levels, peak, plateau};
use crate::gl::GlError;

/// Runs `at(bytes)` over the ladder `from, 4·from, …` up to the first size at or past `end`,
/// or `cap` ([`super::sweep`]: the same ladder in every pass);
/// returns the largest size's measurement carrying the sweep: its value is the plateau
/// (memory roof), `peak` the best rate, `cache` the levels. A size that fails after a first
/// success ends the sweep (e.g. out of memory); a failed check makes the result failed.
pub(super) fn sweep(
    from: usize,
    end: usize,
    cap: usize,
    mut at: impl FnMut(usize) -> Result<Measurement, GlError>,
) -> Result<Measurement, GlError> {
    let mut points = Vec::new();
    let mut last: Option<Measurement> = None;
    let mut bytes = from.max(1).min(cap.max(1));
    loop {
        let m = match at(bytes) {
            Ok(m) => m,
            Err(e) => match last {
                Some(_) => break,
                None => return Err(e),
            },
        };
        if m.value.is_none() {
            return Ok(m);
        }
        points.push(SweepPoint {
            bytes: bytes as f64,
            gbs: m.value,
        });
        last = Some(m);
        if bytes >= cap || bytes >= end {
            break;
        }
        bytes = bytes.saturating_mul(4).min(cap);
    }
    let mut m = last.expect("one size measured");
    read_curve(&mut m, points);
    Ok(m)
}

/// Gives `m` the curve `points` and what is read from it ([`super::sweep`]): its value the
/// plateau (the memory roof), its peak, its cache levels.
pub(super) fn read_curve(m: &mut Measurement, points: Vec<SweepPoint>) {
    let p = plateau(&points);
    m.value = p.map(|p| p.gbs);
    m.peak = peak(&points);
    m.cache = p.map(|p| cache_levels(&points, &p)).unwrap_or_default();
    m.plateau = p;
    m.sweep = points;
}
