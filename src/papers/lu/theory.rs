//! The paper's analytic counts (§3.6, Tables 1 and 2), evaluated for a given `N`.
//!
//! - Table 1: passes (I1 `2N`, I2 `N`, I3 `8N` and I4 `4N`, the last two "weighted 1/4"),
//!   VRAM copies under the copy method (I1 `2N`, I2 `N`, I3/I4 `2N`) and copied bytes
//!   (I1 `32N(N²−1)/3`, I2 `16N(N²−1)/3`, I3/I4 `2N(4N²+3N−4)/3`); the switch method copies
//!   nothing.
//! - Table 2: flops (I1 `2N(N²−1)/3`, I2 `4N(N²−1)/3`, I3/I4 `2N(N²−1)/3`; a division counts
//!   as 2, eqs. 1–3, 6–7) and VRAM bytes referenced (I1 `8N(2N²−N−1)`, I2 `64N(N²−1)/3`,
//!   I3/I4 `N(4N²+7N+4)`), at 16 bytes per element.

use super::fragment::{Feed, Variant};

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

/// The copied bytes our copy-method run of order `n` moves, in closed form (issue 38; checked
/// against the counted bytes in the tests and in Table 1). `n`: the order factored (I3/I4:
/// padded to a multiple of 4); `texel`: bytes per texel (16 for RGBA32F). With `S_L + S_U =
/// N(N²−1)/3` (eqs. 1–2, over our `N−1` steps) and, for the vector layout, `ΣL_i = N(N+2)/8`,
/// `ΣU_i = N(4N²+3N−4)/48` texels (eqs. 4–5):
///
/// - [`Feed::Paper`], the step's active block after each pass: I1 `2(S_L+S_U)` texels
///   (= Table 1's `32N(N²−1)/3` bytes at 16 per texel), I2 `N(N²−1)/3` (= Table 1),
///   I3/I4 `2(ΣL_i+ΣU_i)` texels = `2N(4N²+3N−4)/3 + 4N(N+2)` bytes (Table 1's formula is
///   `2·16·ΣU_i`: it leaves out the L row's `4N(N+2)`).
/// - [`Feed::Alt`], each pass's own rectangle: `S_L+S_U` (I1, I2), `ΣL_i+ΣU_i` (I3/I4).
pub fn copied_bytes(variant: Variant, feed: Feed, n: u64, texel: u64) -> u64 {
    let twice = match (variant, feed) {
        (Variant::I2, _) | (_, Feed::Alt) => 1,
        _ => 2,
    };
    let texels = if variant.vector() {
        // 48 (ΣL_i + ΣU_i) = 6N(N+2) + N(4N²+3N−4), exact for N a multiple of 4.
        (6 * n * (n + 2) + n * (4 * n * n + 3 * n - 4)) / 48
    } else {
        n * (n * n - 1) / 3
    };
    twice * texels * texel
}

/// The passes our run of order `n` issues (I1, I3, I4: an L and a U pass for each of the
/// `N−1` steps that update anything; I2: one), and the copies of the copy method (one per
/// pass; 0 for the switch method).
pub fn passes(variant: Variant, n: u64) -> u64 {
    let per_step = if variant == Variant::I2 { 1 } else { 2 };
    per_step * n.saturating_sub(1)
}
