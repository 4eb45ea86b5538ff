//! A median with its interval, spread and samples ([`Estimate`]).

use serde::{Deserialize, Serialize};

use super::between;

use super::median::{LEVEL, MIN_SAMPLES_FOR_CI, median_ci_indices, median_index};

/// The fewest samples [`Estimate::half_shift`] compares: two halves of [`MIN_SAMPLES_FOR_CI`],
/// each half a median with a 95 % interval.
pub const HALVES_MIN_SAMPLES: usize = 2 * MIN_SAMPLES_FOR_CI;

/// A median with its confidence interval, the spread and the samples it comes from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The lower median ([`median_index`]).
    pub median: f64,
    /// The interval's ends ([`median_ci_indices`] at [`LEVEL`]).
    pub lo: f64,
    pub hi: f64,
    /// How much the interval covers (≥ [`LEVEL`] from [`MIN_SAMPLES_FOR_CI`] samples on).
    pub coverage: f64,
    /// Coefficient of variation, standard deviation / mean (0 for one sample).
    pub cv: f64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    /// Every sample, in the order measured (empty for an estimate derived by [`Estimate::map`]
    /// from another one, which keeps its own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<f64>,
    /// How many samples the estimate rests on.
    pub n: usize,
    /// The between-run half-width (log units) the interval includes ([`between`]); 0 when
    /// the interval is the repetitions' alone.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub between: f64,
}

/// Whether `v` is 0 (serde's `skip_serializing_if` for a term that is absent).
pub fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

impl Estimate {
    /// The estimate of `samples` (non-finite samples are ignored); `None` when none is left.
    pub fn of(samples: &[f64]) -> Option<Estimate> {
        let mut s: Vec<f64> = samples.iter().copied().filter(|v| v.is_finite()).collect();
        if s.is_empty() {
            return None;
        }
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let (l, h, coverage) = median_ci_indices(n, LEVEL);
        let mean = s.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            s.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Estimate {
            median: s[median_index(n)],
            lo: s[l],
            hi: s[h],
            coverage,
            cv: if mean != 0.0 {
                var.sqrt() / mean.abs()
            } else {
                0.0
            },
            min: s[0],
            max: s[n - 1],
            mean,
            samples: samples.to_vec(),
            n,
            between: 0.0,
        })
    }

    /// A single value with no spread (a count, a value measured once).
    pub fn exact(v: f64) -> Estimate {
        Estimate {
            median: v,
            lo: v,
            hi: v,
            coverage: 0.0,
            cv: 0.0,
            min: v,
            max: v,
            mean: v,
            samples: vec![],
            n: 1,
            between: 0.0,
        }
    }

    /// A derived value `v` with an interval `[lo, hi]` of the given coverage but no samples of
    /// its own (a fraction of a bound, a ratio of two independently timed rows): printed with
    /// its interval, counted as more than one run.
    pub fn with_interval(v: f64, lo: f64, hi: f64, coverage: f64) -> Estimate {
        Estimate {
            lo,
            hi,
            min: lo,
            max: hi,
            coverage,
            n: 2,
            ..Estimate::exact(v)
        }
    }

    /// `a / b` of two estimates measured independently (not in the same rounds): the
    /// conservative interval `[a.lo / b.hi, a.hi / b.lo]` of their repetitions' intervals, as
    /// sure as the less sure of the two and resting on the fewer runs of the two (of those
    /// with more than one: an exact operand, a count, has none to add), then widened by their between-run
    /// terms in quadrature (two runs' spells, independent); the bare ratio of the medians
    /// where `b`'s interval is not positive or the interval is a point.
    pub fn ratio_unpaired(a: &Estimate, b: &Estimate) -> Estimate {
        let v = a.median / b.median;
        let (aw, bw) = (a.within(), b.within());
        if bw.lo > 0.0 && bw.hi > 0.0 {
            let (lo, hi) = (aw.lo / bw.hi, aw.hi / bw.lo);
            if hi > lo {
                let runs = [a, b].iter().map(|e| e.n).filter(|&n| n > 1).min();
                return Estimate {
                    n: runs.unwrap_or(2),
                    ..Estimate::with_interval(v, lo, hi, a.coverage.min(b.coverage))
                }
                .widen(a.between.hypot(b.between));
            }
        }
        Estimate::exact(v)
    }

    /// The interval's half-width relative to the median: `max(hi − m, m − lo) / |m|`.
    pub fn rel_half_width(&self) -> f64 {
        if self.median == 0.0 {
            return if self.hi == self.lo {
                0.0
            } else {
                f64::INFINITY
            };
        }
        (self.hi - self.median).max(self.median - self.lo) / self.median.abs()
    }

    /// The interval with the between-run half-width `h` (log units) added in quadrature to
    /// both ends ([`between`]); unchanged where `h` is 0, where the estimate already includes
    /// a term, or where median or ends are not positive (a log scale needs them positive).
    pub fn widen(&self, h: f64) -> Estimate {
        if h.is_nan()
            || h <= 0.0
            || self.between > 0.0
            || !(self.median > 0.0 && self.lo > 0.0 && self.hi > 0.0)
        {
            return self.clone();
        }
        let down = (self.median / self.lo).ln().max(0.0);
        let up = (self.hi / self.median).ln().max(0.0);
        Estimate {
            lo: self.median * (-down.hypot(h)).exp(),
            hi: self.median * up.hypot(h).exp(),
            between: h,
            ..self.clone()
        }
    }

    /// The repetitions' interval alone: the between-run term taken out of both ends (the
    /// same estimate where there is none).
    pub fn within(&self) -> Estimate {
        if self.between == 0.0 || !(self.median > 0.0 && self.lo > 0.0 && self.hi > 0.0) {
            return self.clone();
        }
        let down = between::remove_term((self.median / self.lo).ln(), self.between);
        let up = between::remove_term((self.hi / self.median).ln(), self.between);
        Estimate {
            lo: self.median * (-down).exp(),
            hi: self.median * up.exp(),
            between: 0.0,
            ..self.clone()
        }
    }

    /// [`Estimate::rel_half_width`] of the repetitions' interval alone ([`Estimate::within`]).
    pub fn within_rel_half_width(&self) -> f64 {
        self.within().rel_half_width()
    }

    /// Whether the interval reaches [`LEVEL`] (enough samples).
    pub fn has_ci(&self) -> bool {
        self.coverage >= LEVEL
    }

    /// The estimate of `f(x)` for a monotone `f` (increasing or decreasing): median and ends
    /// mapped, the ends reordered; the spread and the samples are not carried (a derived
    /// number such as GFLOPS = flops / time keeps the interval of its time).
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Estimate {
        let (a, b) = (f(self.lo), f(self.hi));
        let (x, y) = (f(self.min), f(self.max));
        Estimate {
            median: f(self.median),
            lo: a.min(b),
            hi: a.max(b),
            coverage: self.coverage,
            cv: self.cv,
            min: x.min(y),
            max: x.max(y),
            mean: f(self.mean),
            samples: vec![],
            n: self.n,
            between: self.between,
        }
    }

    /// `[lo, hi]`.
    pub fn interval(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    /// The estimates of the first and the second half of its samples in the order measured
    /// (the first half the shorter where their count is odd), each with its own 95 %
    /// interval, widened by this estimate's between-run term as its own interval is: the two
    /// halves of one row are a replication of it within the run, spells apart. `None` with
    /// fewer than [`HALVES_MIN_SAMPLES`] finite samples (a derived estimate keeps none).
    pub fn halves(&self) -> Option<[Estimate; 2]> {
        let s: Vec<f64> = self
            .samples
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .collect();
        if s.len() < HALVES_MIN_SAMPLES {
            return None;
        }
        let (a, b) = s.split_at(s.len() / 2);
        Some([
            Estimate::of(a)?.widen(self.between),
            Estimate::of(b)?.widen(self.between),
        ])
    }

    /// How far the device's speed moved while this estimate's runs were taken: `|ln(m₂ /
    /// m₁)|`, with `m₁` and `m₂` the lower medians of its two [`halves`](Self::halves).
    /// `None` where it has no halves, or where a half's median is not positive. Pooled over a
    /// run's values (the 95th percentile, as the bench's between-pass differences are pooled:
    /// [`between::BetweenRun`]) it measures the spells of the run itself, seconds apart, in
    /// the papers' own kernels.
    pub fn half_shift(&self) -> Option<f64> {
        let [a, b] = self.halves()?;
        (a.median > 0.0 && b.median > 0.0).then(|| (b.median / a.median).ln().abs())
    }
}
