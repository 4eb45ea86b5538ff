//! The median of sorted samples and its distribution-free order-statistic interval.

/// The confidence level of every interval the project prints.
pub const LEVEL: f64 = 0.95;

/// The fewest samples whose order-statistic interval reaches [`LEVEL`] (n = 6: 96.9 %).
pub const MIN_SAMPLES_FOR_CI: usize = 6;

/// The index of the median in `n ≥ 1` sorted samples: `(n − 1) / 2`, the lower median.
pub fn median_index(n: usize) -> usize {
    n.saturating_sub(1) / 2
}

/// `P(X ≤ k)` for `X ~ Binomial(n, ½)`, summed in logs (no overflow for any `n`).
pub(super) fn binom_half_cdf(n: usize, k: usize) -> f64 {
    if k >= n {
        return 1.0;
    }
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_c = 0.0; // ln C(n, 0)
    let mut sum = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        sum += (ln_c + ln_half_n).exp();
    }
    sum.min(1.0)
}

/// The 0-based indices `(lo, hi)` into `n` sorted samples of the order-statistic interval of
/// the median at `level`, and its exact coverage. Fewer than [`MIN_SAMPLES_FOR_CI`] samples
/// (at 95 %) give `(0, n − 1)` with the coverage of [min, max].
pub fn median_ci_indices(n: usize, level: f64) -> (usize, usize, f64) {
    if n == 0 {
        return (0, 0, 0.0);
    }
    let alpha = 1.0 - level;
    // j (1-based) = the largest j ≥ 1 with 2·P(X ≤ j−1) ≤ α; the interval [x₍ⱼ₎, x₍ₙ₋ⱼ₊₁₎].
    let mut j = 0;
    while j < n / 2 && 2.0 * binom_half_cdf(n, j) <= alpha {
        j += 1;
    }
    if j == 0 {
        let cover = 1.0 - 2.0 * 0.5f64.powi(n as i32);
        return (0, n - 1, cover.max(0.0));
    }
    let cover = 1.0 - 2.0 * binom_half_cdf(n, j - 1);
    (j - 1, n - j, cover)
}
