//! CPU references: the paper's right-looking loop (Fig. 2) in `f32` and `f64`, `faer`'s
//! partially pivoted LU as today's tuned CPU anchor, and the test matrices.
//!
//! Matrices are row-major `N × N` slices: `a[j * n + k]` is `A_jk` (row `j`, column `k`).
//! A factorization is returned in place, as the GPU returns it: the strictly lower part holds
//! `L` (unit diagonal not stored), the upper part holds `U`.

use crate::util::{RngExt, rng};

use super::LuError;

/// A random `n × n` matrix, entries uniform in `[-1, 1)`, whose diagonal is raised to
/// `1 + Σ_{i≠j} |a_ij|` over its column *and* its row: strictly diagonally dominant by rows and
/// columns, so LU without pivoting is stable (growth ≤ 2) and partial pivoting makes no swap
/// (every column's largest entry stays on the diagonal through elimination).
pub fn diag_dominant(n: usize, seed: u64) -> Vec<f32> {
    let mut r = rng(seed);
    let mut a: Vec<f32> = (0..n * n).map(|_| r.random_range(-1.0f32..1.0)).collect();
    for j in 0..n {
        let row: f32 = (0..n).filter(|&k| k != j).map(|k| a[j * n + k].abs()).sum();
        let col: f32 = (0..n).filter(|&i| i != j).map(|i| a[i * n + j].abs()).sum();
        a[j * n + j] = 1.0 + row.max(col);
    }
    a
}

/// The paper's Fig. 2 loop in `f32`: for each step `i`, `A_ji /= A_ii` then
/// `A_jk -= A_ik · A_ji` for `j, k > i`. The product is rounded before the subtraction (no
/// fused multiply-add), as the 2005 fragment processors did. Fails on the first zero or
/// non-finite pivot.
pub fn lu_f32(a: &mut [f32], n: usize) -> Result<(), LuError> {
    for i in 0..n {
        let p = a[i * n + i];
        if p == 0.0 || !p.is_finite() {
            return Err(LuError::Pivot {
                step: i,
                value: p as f64,
            });
        }
        for j in i + 1..n {
            a[j * n + i] /= p;
            let l = a[j * n + i];
            let (top, rest) = a.split_at_mut(j * n);
            let row_i = &top[i * n + i + 1..i * n + n];
            // Two roundings, like the GPU's MUL then ADD: Rust never contracts `x - u * l`
            // into a fused multiply-add.
            for (x, &u) in rest[i + 1..n].iter_mut().zip(row_i) {
                *x -= u * l;
            }
        }
    }
    Ok(())
}

/// The same loop in `f64`: the reference every GPU factorization is checked against.
pub fn lu_f64(a: &mut [f64], n: usize) -> Result<(), LuError> {
    for i in 0..n {
        let p = a[i * n + i];
        if p == 0.0 || !p.is_finite() {
            return Err(LuError::Pivot { step: i, value: p });
        }
        for j in i + 1..n {
            a[j * n + i] /= p;
            let l = a[j * n + i];
            let (top, rest) = a.split_at_mut(j * n);
            let row_i = &top[i * n + i + 1..i * n + n];
            for (x, &u) in rest[i + 1..n].iter_mut().zip(row_i) {
                *x -= u * l;
            }
        }
    }
    Ok(())
}

/// [`lu_f64`] of an `f32` matrix.
pub fn lu_f64_of(a: &[f32], n: usize) -> Result<Vec<f64>, LuError> {
    let mut d: Vec<f64> = a.iter().map(|&x| x as f64).collect();
    lu_f64(&mut d, n)?;
    Ok(d)
}

/// Right-looking LU with partial pivoting in `f64` (LAPACK's `getf2`): returns the packed
/// factors of `P·A` and the pivot row chosen at each step (`perm[i]` = row swapped with `i`).
pub fn lu_pivot_f64(a: &[f32], n: usize) -> Result<(Vec<f64>, Vec<usize>), LuError> {
    let mut a: Vec<f64> = a.iter().map(|&x| x as f64).collect();
    let mut piv = Vec::with_capacity(n);
    for i in 0..n {
        // The first index of the largest magnitude, as the GPU's argmax reduction picks it.
        let mut best = i;
        for j in i + 1..n {
            if a[j * n + i].abs() > a[best * n + i].abs() {
                best = j;
            }
        }
        piv.push(best);
        if best != i {
            for k in 0..n {
                a.swap(i * n + k, best * n + k);
            }
        }
        let p = a[i * n + i];
        if p == 0.0 || !p.is_finite() {
            return Err(LuError::Pivot { step: i, value: p });
        }
        for j in i + 1..n {
            a[j * n + i] /= p;
            let l = a[j * n + i];
            for k in i + 1..n {
                a[j * n + k] -= a[i * n + k] * l;
            }
        }
    }
    Ok((a, piv))
}

/// `faer`'s partially pivoted LU in `f32` (blocked, recursive, SIMD; single-threaded here):
/// today's tuned CPU anchor. Returns the packed factors of `P·A` (for the diagonally dominant
/// test matrices `P = I`, so they compare with the unpivoted factors) and whether `P = I`.
pub fn faer_lu_f32(a: &[f32], n: usize) -> (Vec<f32>, bool) {
    let m = faer::Mat::<f32>::from_fn(n, n, |j, k| a[j * n + k]);
    let lu = m.partial_piv_lu();
    let (l, u) = (lu.L(), lu.U());
    let mut out = vec![0f32; n * n];
    for j in 0..n {
        for k in 0..n {
            out[j * n + k] = if k < j { l[(j, k)] } else { u[(j, k)] };
        }
    }
    let identity = lu.P().arrays().0.iter().enumerate().all(|(i, &p)| i == p);
    (out, identity)
}

/// Only times `faer`'s factorization (no unpacking), for the benchmark.
pub fn faer_lu_f32_timed(m: &faer::Mat<f32>) -> usize {
    let lu = m.partial_piv_lu();
    std::hint::black_box(lu.U().nrows())
}

/// Normwise relative difference between packed factors, in the max norm:
/// `max |got − want| / max |want|` (see [`crate::util::max_rel_error`]).
pub fn factor_error(got: &[f32], want: &[f64]) -> f64 {
    crate::util::max_rel_error(got, want)
}

/// The first step whose pivot `U_ii` of packed factors is zero or not finite: where a
/// factorization without pivoting broke down (a zero pivot leaves `U_ii = 0` and turns
/// column `i` of `L` and everything after it into ±∞ or NaN).
pub fn first_bad_pivot(lu: &[f32], n: usize) -> Option<(usize, f32)> {
    (0..n)
        .map(|i| (i, lu[i * n + i]))
        .find(|&(_, p)| p == 0.0 || !p.is_finite())
}
