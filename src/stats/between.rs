//! The between-run term: what a second run of the same commit on the same device may show,
//! which one run's repetitions cannot.
//!
//! The repetitions of one row are taken within a second or so; their interval
//! ([`super::Estimate::of`]) describes the device's speed in that spell. A shared or software
//! device changes speed between minutes while its load counters stay at zero (llvmpipe on
//! two cores: the same row 2× apart in two runs back to back, each with a ±2 % interval). In
//! the terms of ISO 5725 the within-run interval is *repeatability*; a reproduction needs
//! *reproducibility*, the agreement of independent runs.
//!
//! The bench measures it. It makes every measurement once per pass, the passes minutes apart
//! ([`crate::bench`]); for every measurement with two passes or more, each pair of passes
//! gives `dᵢ = |ln(a / b)|`, a between-spell difference of one quantity. Their empirical 95th
//! percentile (the order statistic `d₍⌈0.95·n⌉₎`, no distribution assumed) is this device's
//! **reproducibility limit** `R`: two runs' values of one quantity differ by a factor of at
//! most `e^R` in 95 % of cases. One value's share of it is `h = R / √2`, in log units (ISO
//! 5725-6's reproducibility limit is `1.96·√2·σ_R ≈ 2.8·σ_R` for the difference of two
//! results; one result's 95 % share is `1.96·σ_R`). Every interval of a timed quantity then
//! combines the two parts in quadrature on the log scale (the GUM's root-sum-square of
//! independent components):
//!
//! ```text
//! lo′ = m · exp(−√(ln(m / lo)² + h²)),    hi′ = m · exp(+√(ln(hi / m)² + h²))
//! ```
//!
//! The term is the device's and the run's (it is set once, from the run's bench, before the
//! papers run: [`set_between_run`]); it applies to paired ratios too, because variants timed
//! in the same rounds do not move alike between spells on every device (llvmpipe's fragment
//! and compute paths do not). Where the bench's passes agree (a quiet dedicated GPU) `h` is
//! small and the intervals stay those of the repetitions.

use std::cell::Cell;

use serde::{Deserialize, Serialize};

/// The fewest pass pairs a term rests on; with fewer, no term is derived.
pub const MIN_PAIRS: usize = 10;

/// The quantile of the between-pass differences that is the reproducibility limit.
pub const LIMIT_QUANTILE: f64 = 0.95;

/// The between-run term of a device, from the bench's passes (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BetweenRun {
    /// `h`, added in quadrature to every timed interval's ends, in natural-log units.
    pub half_width: f64,
    /// `R`, the reproducibility limit: the 95th percentile of `|ln(a / b)|` over the pairs.
    pub limit: f64,
    /// How many pass pairs `R` rests on.
    pub pairs: usize,
}

impl BetweenRun {
    /// The term of the between-pass differences `d` (`|ln(a / b)|` of two passes of one
    /// quantity; non-finite ones ignored): `None` with fewer than [`MIN_PAIRS`].
    pub fn from_differences(d: &[f64]) -> Option<BetweenRun> {
        let mut d: Vec<f64> = d
            .iter()
            .map(|x| x.abs())
            .filter(|x| x.is_finite())
            .collect();
        if d.len() < MIN_PAIRS {
            return None;
        }
        d.sort_by(f64::total_cmp);
        let k = (LIMIT_QUANTILE * d.len() as f64).ceil() as usize; // 1-based
        let limit = d[k.clamp(1, d.len()) - 1];
        Some(BetweenRun {
            half_width: limit / std::f64::consts::SQRT_2,
            limit,
            pairs: d.len(),
        })
    }

    /// The differences of every pair among each quantity's passes (`passes[q]` holds one
    /// quantity's values, one per pass; non-positive values ignored).
    pub fn from_passes<'a>(passes: impl IntoIterator<Item = &'a [f64]>) -> Option<BetweenRun> {
        let mut d = Vec::new();
        for p in passes {
            let p: Vec<f64> = p.iter().copied().filter(|v| *v > 0.0).collect();
            for (i, a) in p.iter().enumerate() {
                d.extend(p[i + 1..].iter().map(|b| (a / b).ln().abs()));
            }
        }
        Self::from_differences(&d)
    }

    /// The half-width as a percentage of the median on the upper side (`e^h − 1`).
    pub fn percent(&self) -> f64 {
        100.0 * (self.half_width.exp() - 1.0)
    }

    /// One line for provenance and captions.
    pub fn describe(&self) -> String {
        format!(
            "between-run term ±{:.0} % (h = {:.3}: R/√2, R = {:.3} the 95th percentile of \
             |ln| between the bench's passes over {} pairs)",
            self.percent(),
            self.half_width,
            self.limit,
            self.pairs
        )
    }
}

thread_local! {
    static BETWEEN_RUN: Cell<f64> = const { Cell::new(0.0) };
}

/// Sets the between-run half-width (log units) that every timed interval made on this thread
/// from now on includes; 0 (the default) adds nothing. The runner sets it once per run, from
/// the run's bench, before the papers run (GL and its timing live on one thread).
pub fn set_between_run(h: f64) {
    BETWEEN_RUN.with(|c| c.set(if h.is_finite() && h > 0.0 { h } else { 0.0 }));
}

/// The half-width [`set_between_run`] set on this thread (0 when none).
pub fn between_run() -> f64 {
    BETWEEN_RUN.with(Cell::get)
}

/// `√(a² − h²)` clamped at 0: the within-run part of a combined log half-width `a`.
pub(super) fn remove_term(a: f64, h: f64) -> f64 {
    (a * a - h * h).max(0.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::super::Estimate;
    use super::*;

    #[test]
    fn the_limit_is_the_95th_percentile_order_statistic() {
        // 20 differences 0.01 … 0.20: ⌈0.95·20⌉ = 19th → 0.19.
        let d: Vec<f64> = (1..=20).map(|i| i as f64 / 100.0).collect();
        let b = BetweenRun::from_differences(&d).unwrap();
        assert!((b.limit - 0.19).abs() < 1e-12);
        assert!((b.half_width - 0.19 / 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(b.pairs, 20);
        // Signs do not matter; too few pairs give no term.
        let neg: Vec<f64> = d.iter().map(|x| -x).collect();
        assert_eq!(BetweenRun::from_differences(&neg), Some(b));
        assert_eq!(BetweenRun::from_differences(&d[..MIN_PAIRS - 1]), None);
    }

    #[test]
    fn passes_give_every_pair_of_each_quantity() {
        // Three passes of one quantity: 3 pairs; ln 2, ln 2, 0 …; two passes: 1 pair.
        let q: Vec<Vec<f64>> = (0..4)
            .map(|_| vec![1.0, 2.0, 1.0])
            .chain((0..3).map(|_| vec![5.0, 5.0]))
            .collect();
        let b = BetweenRun::from_passes(q.iter().map(Vec::as_slice)).unwrap();
        assert_eq!(b.pairs, 4 * 3 + 3);
        // 15 differences: 8 of ln 2, 7 of 0; the 15th (⌈14.25⌉) is ln 2.
        assert!((b.limit - 2f64.ln()).abs() < 1e-12);
        // One pass, or a failed (zero) value, gives no pair.
        let one = [vec![3.0], vec![0.0, 2.0]];
        assert_eq!(BetweenRun::from_passes(one.iter().map(Vec::as_slice)), None);
    }

    #[test]
    fn widening_adds_the_term_in_quadrature_on_the_log_scale() {
        // lo = m·e^−0.3, hi = m·e^0.4, h = 0.3.
        let e = Estimate::with_interval(10.0, 10.0 * (-0.3f64).exp(), 10.0 * 0.4f64.exp(), 0.96);
        let w = e.widen(0.3);
        assert!(((10.0 / w.lo).ln() - 0.18f64.sqrt()).abs() < 1e-12);
        assert!(((w.hi / 10.0).ln() - 0.5).abs() < 1e-12); // √(0.16 + 0.09)
        assert_eq!(w.median, 10.0);
        assert_eq!(w.between, 0.3);
        // Once only: a widened estimate is not widened again; 0 changes nothing.
        assert_eq!(w.widen(0.3), w);
        assert_eq!(e.widen(0.0), e);
        // The within-run part is recovered.
        assert!((w.within_rel_half_width() - (0.4f64.exp() - 1.0)).abs() < 1e-12);
        let back = w.within();
        assert!((back.lo - e.lo).abs() < 1e-12 && (back.hi - e.hi).abs() < 1e-12);
        assert_eq!(back.between, 0.0);
        // A point interval becomes ±h.
        let p = Estimate::with_interval(2.0, 2.0, 2.0, 0.96).widen(0.1);
        assert!(((p.hi / 2.0).ln() - 0.1).abs() < 1e-12 && ((2.0 / p.lo).ln() - 0.1).abs() < 1e-12);
    }

    #[test]
    fn an_unpaired_ratio_takes_both_terms_in_quadrature() {
        // a = 4 [2, 8] and b = 2 [1, 4] within; both widened by h = 0.3: the ratio's interval
        // is the within one, [2/4, 8/1] = [0.5, 8], widened by 0.3·√2.
        let a = Estimate::with_interval(4.0, 2.0, 8.0, 0.96).widen(0.3);
        let b = Estimate::with_interval(2.0, 1.0, 4.0, 0.96).widen(0.3);
        let r = Estimate::ratio_unpaired(&a, &b);
        let h = 0.3 * 2f64.sqrt();
        assert!((r.between - h).abs() < 1e-12);
        assert!(((2.0 / r.lo).ln() - (4f64.ln().powi(2) + h * h).sqrt()).abs() < 1e-12);
        assert!(((r.hi / 2.0).ln() - (4f64.ln().powi(2) + h * h).sqrt()).abs() < 1e-12);
        // Without terms: the plain conservative interval.
        let r0 = Estimate::ratio_unpaired(&a.within(), &b.within());
        assert!((r0.lo - 0.5).abs() < 1e-12 && (r0.hi - 8.0).abs() < 1e-12);
    }

    #[test]
    fn the_term_is_per_thread_and_off_by_default() {
        std::thread::spawn(|| {
            assert_eq!(between_run(), 0.0);
            set_between_run(0.2);
            assert_eq!(between_run(), 0.2);
            set_between_run(f64::NAN);
            assert_eq!(between_run(), 0.0);
        })
        .join()
        .unwrap();
        assert_eq!(between_run(), 0.0);
    }
}
