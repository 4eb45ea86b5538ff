//! The paper's analytic counts (§3.6, Tables 1 and 2), evaluated for a given `N`.
//!
//! - Table 1: passes (I1 `2N`, I2 `N`, I3 `8N` and I4 `4N`, the last two "weighted 1/4"),
//!   VRAM copies under the copy method (I1 `2N`, I2 `N`, I3/I4 `2N`) and copied bytes
//!   (I1 `32N(N²−1)/3`, I2 `16N(N²−1)/3`, I3/I4 `2N(4N²+3N−4)/3`); the switch method copies
//!   nothing.
//! - Table 2: flops (I1 `2N(N²−1)/3`, I2 `4N(N²−1)/3`, I3/I4 `2N(N²−1)/3`; a division counts
//!   as 2, eqs. 1–3, 6–7) and VRAM bytes referenced (I1 `8N(2N²−N−1)`, I2 `64N(N²−1)/3`,
//!   I3/I4 `N(4N²+7N+4)`), at 16 bytes per element.

use super::fragment::Variant;

/// The paper's Table 1 row for `variant` at order `n`: (passes, weight, copies, copied bytes)
/// under the copy method.
pub fn table1(variant: Variant, n: f64) -> (f64, f64, f64, f64) {
    match variant {
        Variant::I1 => (2.0 * n, 1.0, 2.0 * n, 32.0 * n * (n * n - 1.0) / 3.0),
        Variant::I2 => (n, 1.0, n, 16.0 * n * (n * n - 1.0) / 3.0),
        Variant::I3 => (
            8.0 * n,
            0.25,
            2.0 * n,
            2.0 * n * (4.0 * n * n + 3.0 * n - 4.0) / 3.0,
        ),
        Variant::I4 => (
            4.0 * n,
            0.25,
            2.0 * n,
            2.0 * n * (4.0 * n * n + 3.0 * n - 4.0) / 3.0,
        ),
    }
}

/// The paper's Table 2 row: (flops, VRAM bytes referenced).
pub fn table2(variant: Variant, n: f64) -> (f64, f64) {
    match variant {
        Variant::I1 => (
            2.0 * n * (n * n - 1.0) / 3.0,
            8.0 * n * (2.0 * n * n - n - 1.0),
        ),
        Variant::I2 => (
            4.0 * n * (n * n - 1.0) / 3.0,
            64.0 * n * (n * n - 1.0) / 3.0,
        ),
        Variant::I3 | Variant::I4 => (
            2.0 * n * (n * n - 1.0) / 3.0,
            n * (4.0 * n * n + 7.0 * n + 4.0),
        ),
    }
}

/// The flops of LU itself, `2N(N²−1)/3` (= Table 2's I1): the numerator of every GFLOPS.
pub fn lu_flops(n: f64) -> f64 {
    2.0 * n * (n * n - 1.0) / 3.0
}
