//! The working-set sweep behind every bandwidth roof (BabelStream, the Empirical Roofline
//! Toolkit): each bandwidth kernel runs over arrays of `s₀, 4·s₀, 16·s₀, …` bytes, from
//! cache-resident sizes to far beyond the last cache, and its roof is read from the curve.
//!
//! # Where the sweep stops
//! The planned ladder ends at the first size at or past the mode's end, or at `cap` (the
//! device's buffer and texture limits): on a software renderer 16× the largest CPU cache the
//! OS reports (the CPU's caches are that device's caches; at most 64 MiB in quick mode), on
//! a GPU 256 MiB in either mode, past any L2 of today's GPUs 4× over
//! ([`super::Settings::ladder_end`]; not further: the bench's time on a GPU, issue 23). A sweep stops
//! earlier when its row's time share is spent ([`super::budget`]); the planned sizes it did
//! not reach are kept in its row, and its plateau is then a cache's, not the memory's.
//! The ladder does not depend on the curve, so every pass and every bench measures the same
//! sizes: a rule that stopped once the curve looked flat stopped a pass early in a slow
//! spell, where every size is slow alike, and passes with different ladders cannot be
//! combined size by size (issue 23).
//!
//! # Plateau and cache levels
//! With the sweep's rates `r₁ … r_k` by increasing size, the **plateau** is the longest run
//! `r_j … r_k` whose rates all lie within ±[`PLATEAU_TOL`] of `r_k`; the memory roof is the
//! lower median of its rates (robust to one noisy size). Sizes before the plateau whose rate
//! exceeds the roof by more than [`CACHE_RATIO`] are **cache levels**: consecutive such sizes
//! within ±[`PLATEAU_TOL`] of each other form one level, reported as its best rate and its
//! largest size. The **peak** is the best rate of any size: the rate of the fastest level,
//! which is what bounds a kernel whose counted bytes include cache hits ([`super::bound`]).

use serde::{Deserialize, Serialize};

/// Rates within this relative distance of the largest size's belong to its plateau.
pub const PLATEAU_TOL: f64 = 0.15;
/// A size before the plateau at more than this multiple of the roof is in a cache.
pub const CACHE_RATIO: f64 = 1.3;

/// One size of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// Bytes of the kernel's largest array (its source; a write kernel's target).
    pub bytes: f64,
    /// Best-of-runs rate, GB/s (`None`: the check failed).
    pub gbs: Option<f64>,
}

/// A level of the memory hierarchy the sweep shows above the plateau.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CacheLevel {
    /// The largest array size at this level's rate.
    pub up_to_bytes: f64,
    /// The level's best rate, GB/s.
    pub gbs: f64,
}

/// The plateau at the large sizes: the memory roof.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plateau {
    /// Lower median of the plateau's rates, GB/s.
    pub gbs: f64,
    /// The smallest size on the plateau.
    pub from_bytes: f64,
    /// How many sizes it spans.
    pub sizes: usize,
}

/// The verified points, by increasing size.
fn valid(points: &[SweepPoint]) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> = points
        .iter()
        .filter_map(|p| {
            p.gbs
                .filter(|g| g.is_finite() && *g > 0.0)
                .map(|g| (p.bytes, g))
        })
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v
}

/// The plateau of a sweep (module docs); `None` without a verified point.
pub fn plateau(points: &[SweepPoint]) -> Option<Plateau> {
    let v = valid(points);
    let &(_, last) = v.last()?;
    let j = v
        .iter()
        .rposition(|&(_, r)| (r - last).abs() > PLATEAU_TOL * last)
        .map_or(0, |i| i + 1);
    let mut rates: Vec<f64> = v[j..].iter().map(|p| p.1).collect();
    rates.sort_by(f64::total_cmp);
    Some(Plateau {
        gbs: rates[crate::stats::median_index(rates.len())],
        from_bytes: v[j].0,
        sizes: rates.len(),
    })
}

/// The cache levels before `plateau` (module docs), smallest first.
pub fn cache_levels(points: &[SweepPoint], plateau: &Plateau) -> Vec<CacheLevel> {
    let mut levels: Vec<CacheLevel> = Vec::new();
    let mut prev_in_level = false;
    for (bytes, r) in valid(points) {
        if bytes >= plateau.from_bytes {
            break;
        }
        if r <= CACHE_RATIO * plateau.gbs {
            prev_in_level = false;
            continue;
        }
        match levels.last_mut() {
            Some(l) if prev_in_level && (r - l.gbs).abs() <= PLATEAU_TOL * l.gbs.max(r) => {
                l.up_to_bytes = bytes;
                l.gbs = l.gbs.max(r);
            }
            _ => levels.push(CacheLevel {
                up_to_bytes: bytes,
                gbs: r,
            }),
        }
        prev_in_level = true;
    }
    levels
}

/// The best rate of any size.
pub fn peak(points: &[SweepPoint]) -> Option<f64> {
    valid(points).iter().map(|p| p.1).reduce(f64::max)
}

/// The largest CPU cache the OS reports (bytes), from
/// `/sys/devices/system/cpu/cpu0/cache/index*/size`; 0 when unknown.
pub fn largest_cpu_cache() -> usize {
    let Ok(dir) = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache") else {
        return 0;
    };
    dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("size")).ok())
        .filter_map(|s| {
            let s = s.trim();
            let (num, mul) = match s.chars().last()? {
                'K' => (&s[..s.len() - 1], 1 << 10),
                'M' => (&s[..s.len() - 1], 1 << 20),
                'G' => (&s[..s.len() - 1], 1 << 30),
                _ => (s, 1),
            };
            num.parse::<usize>().ok().map(|n| n * mul)
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(f64, f64)]) -> Vec<SweepPoint> {
        v.iter()
            .map(|&(b, g)| SweepPoint {
                bytes: b,
                gbs: Some(g),
            })
            .collect()
    }

    const MIB: f64 = (1 << 20) as f64;

    #[test]
    fn the_plateau_is_the_run_of_large_sizes_near_the_last_rate() {
        // L2 at 1 MiB (40), L3 at 4–16 MiB (20, 19), memory from 64 MiB (10, 9.5, 10.4).
        let p = pts(&[
            (MIB, 40.0),
            (4.0 * MIB, 20.0),
            (16.0 * MIB, 19.0),
            (64.0 * MIB, 10.0),
            (256.0 * MIB, 9.5),
            (1024.0 * MIB, 10.4),
        ]);
        let pl = plateau(&p).unwrap();
        assert_eq!(pl.sizes, 3);
        assert_eq!(pl.from_bytes, 64.0 * MIB);
        assert_eq!(pl.gbs, 10.0, "lower median of 9.5, 10, 10.4");
        let c = cache_levels(&p, &pl);
        assert_eq!(
            c,
            vec![
                CacheLevel {
                    up_to_bytes: MIB,
                    gbs: 40.0
                },
                CacheLevel {
                    up_to_bytes: 16.0 * MIB,
                    gbs: 20.0
                }
            ]
        );
        assert_eq!(peak(&p), Some(40.0));
    }

    #[test]
    fn a_flat_sweep_is_all_plateau_and_a_failed_point_is_skipped() {
        let mut p = pts(&[(MIB, 10.0), (4.0 * MIB, 11.0), (16.0 * MIB, 10.5)]);
        p.push(SweepPoint {
            bytes: 2.0 * MIB,
            gbs: None,
        });
        let pl = plateau(&p).unwrap();
        assert_eq!((pl.sizes, pl.from_bytes, pl.gbs), (3, MIB, 10.5));
        assert!(cache_levels(&p, &pl).is_empty());
        assert_eq!(plateau(&[]), None);
    }

    #[test]
    fn a_slower_small_size_is_not_a_cache() {
        // Fixed costs dominate the smallest size: below the plateau, not a level.
        let p = pts(&[
            (MIB, 3.0),
            (4.0 * MIB, 30.0),
            (16.0 * MIB, 10.0),
            (64.0 * MIB, 10.2),
        ]);
        let pl = plateau(&p).unwrap();
        assert_eq!(pl.gbs, 10.0);
        let c = cache_levels(&p, &pl);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].up_to_bytes, 4.0 * MIB);
    }
}
