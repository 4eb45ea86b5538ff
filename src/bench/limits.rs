//! The limits a bound uses ([`Limits`]), each the best verified measurement of its rows, and
//! the roofs of each access kind with their curve over the working set ([`AccessRoof`]).

use serde::{Deserialize, Serialize};

use super::measurement::Measurement;
use super::sweep::SweepPoint;
use crate::work::{Access, Kind, Work};

/// The roofs of one access kind ([`Access::keys`] names the bench rows that feed it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccessRoof {
    pub access: Access,
    /// The memory roof: the best plateau of its rows, GB/s.
    pub memory_gbs: Option<f64>,
    /// The best rate of its rows at any working-set size (a cache level), GB/s: the rate a
    /// bound uses ([`super::bound`]).
    pub peak_gbs: Option<f64>,
    /// No row of this kind left the caches (every sweep stopped short of its planned end,
    /// [`Measurement::left_caches`]): `memory_gbs` is then a cache's plateau, not the
    /// memory's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cache_only: bool,
    /// The kind's curve: at each swept size, the best rate of its rows (GB/s), by size; what
    /// a bound reads at a working set's size ([`Limits::rate_at`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curve: Vec<SweepPoint>,
}

/// The limits a bound uses, each the best verified measurement of its keys (`None`: none).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Best memory roof of a compute shader's accesses (SSBO, texture path), GB/s: the
    /// roofline's compute roof and the provenance line, not the bound.
    pub compute_gbs: Option<f64>,
    /// Best memory roof of a fragment shader's accesses (texture reads, target writes; not
    /// the copy path, which no shader reaches), GB/s.
    pub fragment_gbs: Option<f64>,
    /// The roofs of every access kind, in [`Access::ALL`] order.
    #[serde(default)]
    pub access: Vec<AccessRoof>,
    /// FMA peaks (`fma.compute.f32` …), GFLOPS.
    pub compute_fp32_gflops: Option<f64>,
    pub compute_fp64_gflops: Option<f64>,
    pub fragment_fp32_gflops: Option<f64>,
    pub fragment_fp64_gflops: Option<f64>,
    /// An empty draw with a framebuffer switch (`fixed.draw`), ms.
    pub draw_ms: Option<f64>,
    /// An empty dispatch with its barrier (`fixed.dispatch`), ms.
    pub dispatch_ms: Option<f64>,
    /// A `glFinish` round trip (`fixed.finish`), ms.
    pub finish_ms: Option<f64>,
    /// Best host → GL bandwidth (`upload.*`), GB/s.
    pub upload_gbs: Option<f64>,
    /// Best GL → host bandwidth (`readback.*`), GB/s.
    pub readback_gbs: Option<f64>,
}

impl Limits {
    /// The limits of a set of measurements.
    pub fn from_measurements(rows: &[Measurement]) -> Limits {
        let best = |prefixes: &[&str]| {
            rows.iter()
                .filter(|m| prefixes.iter().any(|p| m.key.starts_with(p)))
                .filter_map(|m| m.value)
                .fold(None, |acc: Option<f64>, v| {
                    Some(acc.map_or(v, |a| a.max(v)))
                })
        };
        let ms = |key: &str| best(&[key]).map(|us| us * 1e-3);
        let peak = |prefixes: &[&str]| {
            rows.iter()
                .filter(|m| prefixes.iter().any(|p| m.key.starts_with(p)))
                .filter(|m| m.value.is_some())
                .filter_map(|m| m.peak.or(m.value))
                .reduce(f64::max)
        };
        let of = |a: Access| {
            rows.iter()
                .filter(move |m| a.keys().iter().any(|p| m.key.starts_with(p)))
                .filter(|m| m.value.is_some())
        };
        let access: Vec<AccessRoof> = Access::ALL
            .iter()
            .map(|&a| {
                // The memory roof from the rows whose sweeps left the caches; where none
                // did, the best plateau, marked as a cache's.
                let left = of(a)
                    .filter(|m| m.left_caches())
                    .filter_map(|m| m.value)
                    .reduce(f64::max);
                AccessRoof {
                    access: a,
                    memory_gbs: left.or(best(a.keys())),
                    peak_gbs: peak(a.keys()),
                    cache_only: left.is_none() && of(a).next().is_some(),
                    curve: best_at_each_size(of(a).flat_map(|m| &m.sweep)),
                }
            })
            .collect();
        let pipeline = |kind: Kind| {
            access
                .iter()
                .filter(|r| r.access.kind() == kind && r.access != Access::Copy)
                .filter_map(|r| r.memory_gbs)
                .reduce(f64::max)
        };
        Limits {
            compute_gbs: pipeline(Kind::Compute),
            fragment_gbs: pipeline(Kind::Fragment),
            compute_fp32_gflops: best(&["fma.compute.f32"]),
            compute_fp64_gflops: best(&["fma.compute.f64"]),
            fragment_fp32_gflops: best(&["fma.fragment.f32"]),
            fragment_fp64_gflops: best(&["fma.fragment.f64"]),
            draw_ms: ms("fixed.draw"),
            dispatch_ms: ms("fixed.dispatch"),
            finish_ms: ms("fixed.finish"),
            upload_gbs: best(&["upload."]),
            readback_gbs: best(&["readback."]),
            access,
        }
    }

    /// The roofs of access kind `a`, when measured.
    pub fn roof(&self, a: Access) -> Option<&AccessRoof> {
        self.access.iter().find(|r| r.access == a)
    }
    /// The peak rate of access kind `a` (what a bound uses), GB/s.
    pub fn peak_gbs(&self, a: Access) -> Option<f64> {
        self.roof(a).and_then(|r| r.peak_gbs)
    }
    /// The access kind whose bytes take the longest at its peak (`B_a / BW_a`, the memory
    /// term of [`Limits::bound`]); `None` when no counted kind has a roof.
    pub fn dominant_access(&self, work: &Work) -> Option<Access> {
        Access::ALL
            .iter()
            .filter_map(|&a| {
                let b = work.bytes.get(a);
                let r = self.peak_gbs(a).filter(|r| *r > 0.0)?;
                (b > 0.0).then_some((a, b / r))
            })
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|x| x.0)
    }
    /// The fastest peak of a shader access of pipeline `kind` (not the copy path, which no
    /// shader reaches): bytes of no known kind are read against it.
    pub fn fastest_gbs(&self, kind: Kind) -> Option<f64> {
        self.access
            .iter()
            .filter(|r| r.access.kind() == kind && r.access != Access::Copy)
            .filter_map(|r| r.peak_gbs)
            .reduce(f64::max)
    }
}

/// At each size of `points`, the best verified rate, by size.
fn best_at_each_size<'a>(points: impl Iterator<Item = &'a SweepPoint>) -> Vec<SweepPoint> {
    let mut out: Vec<SweepPoint> = Vec::new();
    for p in points {
        let Some(g) = p.gbs.filter(|g| g.is_finite() && *g > 0.0) else {
            continue;
        };
        match out.iter_mut().find(|q| q.bytes == p.bytes) {
            Some(q) => q.gbs = q.gbs.map(|r| r.max(g)),
            None => out.push(SweepPoint {
                bytes: p.bytes,
                gbs: Some(g),
            }),
        }
    }
    out.sort_by(|a, b| a.bytes.total_cmp(&b.bytes));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dominant_access_is_the_longest_memory_term() {
        let l = Limits {
            access: vec![
                AccessRoof {
                    access: Access::TexRgba,
                    memory_gbs: Some(10.0),
                    peak_gbs: Some(100.0),
                    cache_only: false,
                    curve: vec![],
                },
                AccessRoof {
                    access: Access::Target,
                    memory_gbs: Some(5.0),
                    peak_gbs: Some(10.0),
                    cache_only: false,
                    curve: vec![],
                },
            ],
            ..Limits::default()
        };
        // 500 B at 100 GB/s against 100 B at 10 GB/s: the target write takes longer.
        let w = Work {
            bytes: crate::work::Bytes::of(&[(Access::TexRgba, 500.0), (Access::Target, 100.0)]),
            ..Work::default()
        };
        assert_eq!(l.dominant_access(&w), Some(Access::Target));
        // A kind without a roof is not counted; no counted kind: none.
        let w = Work {
            bytes: crate::work::Bytes::of(&[(Access::SsboRead, 1e9)]),
            ..Work::default()
        };
        assert_eq!(l.dominant_access(&w), None);
    }
}
