//! CPU side: batched systems, the Thomas algorithm (f32 and f64) and a CPU cyclic reduction
//! that follows the GPU's eq. (15)/(16) step by step (the reference the GPU passes mirror).
//!
//! A batch holds `batch` independent systems of `n` unknowns, row-major with one RGBA texel
//! per equation: `(a_i, b_i, c_i, k_i)` with `a_i x_{i-1} + b_i x_i + c_i x_{i+1} = k_i`
//! (`a_1` and `c_n` multiply the zero boundary values `x_0 = x_{n+1} = 0`).

use super::error::TridiagonalError;
use crate::float::Real;
use crate::util::{RngExt, rng};

/// `batch` tridiagonal systems of `n` unknowns, stored as the GPU stores them: texel
/// `(i, j)` = `[a, b, c, k]` of equation `i` of system `j`, `data[4 * (j * n + i) ..]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Systems {
    pub n: usize,
    pub batch: usize,
    pub data: Vec<f32>,
}

impl Systems {
    /// Random strictly diagonally dominant systems (`|b| ≥ |a| + |c| + 1`), fixed seed.
    /// With `symmetric`, `a_{i+1} = c_i` and `b > 0`, so every system is SPD (the CG
    /// baseline needs that); otherwise the off-diagonals are independent and `b` has a random sign.
    pub fn random(n: usize, batch: usize, symmetric: bool, seed: u64) -> Systems {
        let mut r = rng(seed);
        let mut data = vec![0f32; 4 * n * batch];
        for j in 0..batch {
            let mut prev_c = 0f32;
            for i in 0..n {
                let a = if i == 0 {
                    0.0
                } else if symmetric {
                    prev_c
                } else {
                    r.random_range(-1.0f32..1.0)
                };
                let c = if i + 1 == n {
                    0.0
                } else {
                    r.random_range(-1.0f32..1.0)
                };
                let mut b = a.abs() + c.abs() + r.random_range(1.0f32..2.0);
                if !symmetric && r.random_range(0.0f32..1.0) < 0.5 {
                    b = -b;
                }
                let k = r.random_range(-1.0f32..1.0);
                prev_c = c;
                data[4 * (j * n + i)..4 * (j * n + i) + 4].copy_from_slice(&[a, b, c, k]);
            }
        }
        Systems { n, batch, data }
    }

    /// The ADI system of one heat-equation half-step (Kim & Lee eq. (3)/(4)):
    /// `-r x_{i-1} + (1 + 2r) x_i - r x_{i+1} = k_i` with random right-hand sides.
    pub fn heat(n: usize, batch: usize, r_coef: f32, seed: u64) -> Systems {
        let k = crate::util::uniform_f32(seed, n * batch, 0.0, 1.0);
        let mut data = Vec::with_capacity(4 * n * batch);
        for j in 0..batch {
            for i in 0..n {
                let a = if i == 0 { 0.0 } else { -r_coef };
                let c = if i + 1 == n { 0.0 } else { -r_coef };
                data.extend_from_slice(&[a, 1.0 + 2.0 * r_coef, c, k[j * n + i]]);
            }
        }
        Systems { n, batch, data }
    }

    /// Equation `i` of system `j`.
    pub fn eq(&self, j: usize, i: usize) -> [f32; 4] {
        let o = 4 * (j * self.n + i);
        [
            self.data[o],
            self.data[o + 1],
            self.data[o + 2],
            self.data[o + 3],
        ]
    }

    /// `max |A x - k| / max |k|` over the whole batch, in f64.
    pub fn residual(&self, x: &[f32]) -> f64 {
        let (n, mut num, mut den) = (self.n, 0f64, f64::MIN_POSITIVE);
        for j in 0..self.batch {
            for i in 0..n {
                let [a, b, c, k] = self.eq(j, i).map(f64::from);
                let xm = if i > 0 { x[j * n + i - 1] as f64 } else { 0.0 };
                let xp = if i + 1 < n {
                    x[j * n + i + 1] as f64
                } else {
                    0.0
                };
                let r = a * xm + b * x[j * n + i] as f64 + c * xp - k;
                num = num.max(r.abs());
                den = den.max(k.abs());
            }
        }
        num / den
    }
}

/// The Thomas algorithm (Gaussian elimination without pivoting on a tridiagonal matrix) for
/// one system of `n` unknowns whose equation `i` is `eq(i) = [a, b, c, k]`, in `T`:
///
/// ```text
/// c'_i = c_i / (b_i - a_i c'_{i-1}),  k'_i = (k_i - a_i k'_{i-1}) / (b_i - a_i c'_{i-1})
/// x_{n-1} = k'_{n-1},  x_i = k'_i - c'_i x_{i+1}
/// ```
///
/// (one reciprocal per row, multiplied twice). `x` (`n`) receives the solution, `cp` (`n`)
/// is scratch: no allocation, so it can run in a timed loop. `Err(row)` at the first zero or
/// non-finite pivot.
pub fn thomas<T: Real>(
    n: usize,
    eq: impl Fn(usize) -> [T; 4],
    x: &mut [T],
    cp: &mut [T],
) -> Result<(), usize> {
    let (mut cprev, mut kprev) = (T::ZERO, T::ZERO);
    for i in 0..n {
        let [a, b, c, k] = eq(i);
        let piv = b - a * cprev;
        if piv == T::ZERO || !piv.is_finite() {
            return Err(i);
        }
        let inv = T::ONE / piv;
        cprev = c * inv;
        kprev = (k - a * kprev) * inv;
        cp[i] = cprev;
        x[i] = kprev;
    }
    let mut next = T::ZERO;
    for i in (0..n).rev() {
        next = x[i] - cp[i] * next;
        x[i] = next;
    }
    Ok(())
}

/// [`thomas`] in `T` over the whole batch (single thread) into `x` (`n × batch`).
pub fn thomas_batch<T: Real>(sys: &Systems, x: &mut [T]) -> Result<(), TridiagonalError> {
    let n = sys.n;
    if n == 0 {
        return Ok(());
    }
    let mut cp = vec![T::ZERO; n];
    for (j, xj) in x.chunks_exact_mut(n).take(sys.batch).enumerate() {
        let row = &sys.data[4 * n * j..4 * n * (j + 1)];
        thomas(
            n,
            |i| std::array::from_fn(|c| T::of(row[4 * i + c])),
            xj,
            &mut cp,
        )
        .map_err(|row| TridiagonalError::ZeroPivot { system: j, row })?;
    }
    Ok(())
}

/// Thomas in `f32` over the whole batch (the paper's CPU baseline), `x` of `n × batch`.
pub fn thomas_batch_f32(sys: &Systems, x: &mut [f32]) -> Result<(), TridiagonalError> {
    thomas_batch(sys, x)
}

/// Thomas in `f64` over the whole batch: the reference every GPU result is checked against.
pub fn thomas_batch_f64(sys: &Systems) -> Result<Vec<f64>, TridiagonalError> {
    let mut x = vec![0f64; sys.n * sys.batch];
    thomas_batch(sys, &mut x)?;
    Ok(x)
}

/// Serial cyclic reduction of one system exactly as eq. (15) (reduction) and eq. (16)
/// (filling, with the corrected loop `i = 2^{s-1}, 3·2^{s-1}, …`) print it, in `f64`, with
/// `n` padded to `N = 2^q - 1` by identity rows. The CPU twin of the fragment passes.
pub fn cyclic_reduction_f64(sys: &Systems, j: usize) -> Result<Vec<f64>, TridiagonalError> {
    let q = super::layout::levels_for(sys.n);
    let np = 1usize << q; // N'
    // p[s][i] for i = 0..=N' (0 and N' are the boundary, never read as equations).
    let mut p = vec![vec![[0f64, 1.0, 0.0, 0.0]; np + 1]; q];
    for (i, eq) in p[0][1..=sys.n].iter_mut().enumerate() {
        *eq = sys.eq(j, i).map(f64::from);
    }
    for s in 1..q {
        let d = 1 << (s - 1);
        for i in (1 << s..np).step_by(1 << s) {
            let [a, b, c, k] = p[s - 1][i];
            let [al, bl, cl, kl] = p[s - 1][i - d];
            let [ar, br, cr, kr] = p[s - 1][i + d];
            let alpha = -a / bl;
            let gamma = -c / br;
            p[s][i] = [
                alpha * al,
                b + alpha * cl + gamma * ar,
                gamma * cr,
                k + alpha * kl + gamma * kr,
            ];
        }
    }
    let mut x = vec![0f64; np + 1];
    for s in (1..=q).rev() {
        let d = 1 << (s - 1);
        for i in (d..np).step_by(2 * d) {
            let [a, b, c, k] = p[s - 1][i];
            if b == 0.0 || !b.is_finite() {
                return Err(TridiagonalError::ZeroPivot {
                    system: j,
                    row: i - 1,
                });
            }
            x[i] = (k - a * x[i - d] - c * x[i + d]) / b;
        }
    }
    Ok(x[1..=sys.n].to_vec())
}
