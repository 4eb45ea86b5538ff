//! CPU references: the paper's right-looking loop (Fig. 2), one generic loop run in `f32` and
//! `f64`; `faer`'s partially pivoted LU as today's tuned CPU anchor (one thread or all, chosen
//! explicitly); the test matrices and the verification tolerance.
//!
//! Matrices are row-major `N × N` slices: `a[j * n + k]` is `A_jk` (row `j`, column `k`).
//! A factorization is returned in place, as the GPU returns it: the strictly lower part holds
//! `L` (unit diagonal not stored), the upper part holds `U`.

use crate::float::Real;
use crate::util::{RngExt, rng};

use super::LuError;
use super::arith2005::Arith2005;

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

/// The paper's Fig. 2 loop: for each step `i`, `A_ji /= A_ii` then `A_jk -= A_ik · A_ji` for
/// `j, k > i`. The product is rounded before the subtraction (no fused multiply-add), as the
/// 2005 fragment processors did: Rust never contracts `x - u * l` into an FMA. In `f32` it is
/// the GPU's arithmetic on the CPU (§5.1); in `f64` the reference every factorization is
/// checked against. Fails on the first zero or non-finite pivot.
pub fn lu_in_place<T: Real>(a: &mut [T], n: usize) -> Result<(), LuError> {
    lu_steps(a, n, None, &Ieee)
}

/// The arithmetic of the loop: IEEE operators, or [`Arith2005`] (the 2005 model, in `f32`).
trait LoopArith<T> {
    fn div(&self, a: T, b: T) -> T;
    fn mul(&self, a: T, b: T) -> T;
    fn sub(&self, a: T, b: T) -> T;
}

/// The element type's own operators.
struct Ieee;

impl<T: Real> LoopArith<T> for Ieee {
    fn div(&self, mut a: T, b: T) -> T {
        a /= b;
        a
    }
    fn mul(&self, a: T, b: T) -> T {
        a * b
    }
    fn sub(&self, mut a: T, b: T) -> T {
        a -= b;
        a
    }
}

impl LoopArith<f32> for Arith2005 {
    fn div(&self, a: f32, b: f32) -> f32 {
        Arith2005::div(*self, a, b)
    }
    fn mul(&self, a: f32, b: f32) -> f32 {
        Arith2005::mul(*self, a, b)
    }
    fn sub(&self, a: f32, b: f32) -> f32 {
        Arith2005::sub(*self, a, b)
    }
}

/// [`lu_in_place`] in `f32` with the operations of `model` following the 2005 arithmetic
/// model ([`super::arith2005`]): the CPU twin of the fragment programs built with
/// `ARITH_2005` (the same operations in the same order, so the same bits).
pub fn lu_f32_under(a: &mut [f32], n: usize, model: Arith2005) -> Result<(), LuError> {
    lu_steps(a, n, None, &model)
}

/// [`lu_in_place`] with step `skip_u`'s trailing update left out: a deliberately corrupted
/// factorization, for tests that show verification catches one missing step.
pub fn lu_in_place_skipping_update<T: Real>(
    a: &mut [T],
    n: usize,
    skip_u: usize,
) -> Result<(), LuError> {
    lu_steps(a, n, Some(skip_u), &Ieee)
}

fn lu_steps<T: Real>(
    a: &mut [T],
    n: usize,
    skip_u: Option<usize>,
    ar: &impl LoopArith<T>,
) -> Result<(), LuError> {
    for i in 0..n {
        let p = a[i * n + i];
        if p == T::ZERO || !p.is_finite() {
            return Err(LuError::Pivot {
                step: i,
                value: p.into(),
            });
        }
        for j in i + 1..n {
            a[j * n + i] = ar.div(a[j * n + i], p);
            if skip_u == Some(i) {
                continue;
            }
            let l = a[j * n + i];
            let (top, rest) = a.split_at_mut(j * n);
            let row_i = &top[i * n + i + 1..i * n + n];
            for (x, &u) in rest[i + 1..n].iter_mut().zip(row_i) {
                *x = ar.sub(*x, ar.mul(u, l));
            }
        }
    }
    Ok(())
}

/// [`lu_in_place`] in `f32`: the GPU's arithmetic on the CPU.
pub fn lu_f32(a: &mut [f32], n: usize) -> Result<(), LuError> {
    lu_in_place(a, n)
}

/// [`lu_in_place`] in `f64` of an `f32` matrix: the reference.
pub fn lu_f64_of(a: &[f32], n: usize) -> Result<Vec<f64>, LuError> {
    let mut d: Vec<f64> = a.iter().map(|&x| x as f64).collect();
    lu_in_place(&mut d, n)?;
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

/// How many threads `faer` may use: one (`Par::Seq`) or all (its rayon pool).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    One,
    All,
}

impl Threads {
    fn par(self) -> faer::Par {
        match self {
            Threads::One => faer::Par::Seq,
            Threads::All => faer::Par::rayon(0),
        }
    }
    /// Threads this setting uses here.
    pub fn count(self) -> usize {
        match self.par() {
            faer::Par::Rayon(n) => n.get(),
            faer::Par::Seq => 1,
        }
    }
}

/// `faer`'s partially pivoted LU in `f32` (blocked, recursive, SIMD) of the column-major copy
/// `m`, in place, with the parallelism given explicitly (never faer's global default, which
/// is multithreaded): today's tuned CPU anchor. Returns whether the row permutation is the
/// identity.
pub fn faer_lu_f32_in_place(m: &mut faer::Mat<f32>, threads: Threads) -> bool {
    use faer::dyn_stack::{MemBuffer, MemStack};
    use faer::linalg::lu::partial_pivoting::factor::{lu_in_place, lu_in_place_scratch};
    let n = m.nrows();
    let par = threads.par();
    let mut perm = vec![0usize; n];
    let mut perm_inv = vec![0usize; n];
    let mut mem = MemBuffer::new(lu_in_place_scratch::<usize, f32>(
        n,
        n,
        par,
        Default::default(),
    ));
    let stack = MemStack::new(&mut mem);
    lu_in_place(
        m.as_mut(),
        &mut perm,
        &mut perm_inv,
        par,
        stack,
        Default::default(),
    );
    perm.iter().enumerate().all(|(i, &p)| i == p)
}

/// [`faer_lu_f32_in_place`] of a row-major matrix: the packed factors of `P·A` (for the
/// diagonally dominant test matrices `P = I`, so they compare with the unpivoted factors) and
/// whether `P = I`.
pub fn faer_lu_f32(a: &[f32], n: usize, threads: Threads) -> (Vec<f32>, bool) {
    let mut m = faer::Mat::<f32>::from_fn(n, n, |j, k| a[j * n + k]);
    let identity = faer_lu_f32_in_place(&mut m, threads);
    let mut out = vec![0f32; n * n];
    for j in 0..n {
        for k in 0..n {
            out[j * n + k] = m[(j, k)];
        }
    }
    (out, identity)
}

/// Verification tolerance of a factorization in `f32` of a test matrix, from the error of the
/// CPU `f32` loop on the same matrix (`cpu_f32_error` = `max_rel_error` of its factors against
/// the `f64` ones): four times it, and at least four `f32` ULPs. The same operations rounded
/// by a device that is off by up to ~1.4 ULP per operation (the paper's Quadro, Table 5) stay
/// within a small multiple of the loop's error; one skipped step's update does not
/// (`tests/lu.rs`). Where the device rounds correctly the fragment factors must moreover be
/// bit-identical to the loop's (§5.1).
pub fn tolerance(cpu_f32_error: f64) -> f64 {
    4.0 * cpu_f32_error.max(f32::EPSILON as f64)
}

/// What a matrix's factors are checked against: its `f64` factors (the reference), the CPU
/// `f32` loop's factors (what a correctly rounding device must equal bit for bit) and the
/// [`tolerance`] the loop's error sets.
pub struct Reference {
    /// The matrix (row-major, `n × n`).
    pub a: Vec<f32>,
    pub f64: Vec<f64>,
    pub cpu_f32: Vec<f32>,
    pub tol: f64,
}

impl Reference {
    /// The references of the order-`n` matrix `a`.
    pub fn of(a: Vec<f32>, n: usize) -> Result<Reference, LuError> {
        let f64 = lu_f64_of(&a, n)?;
        let mut cpu_f32 = a.clone();
        lu_f32(&mut cpu_f32, n)?;
        let tol = tolerance(crate::util::max_rel_error(&cpu_f32, &f64));
        Ok(Reference {
            a,
            f64,
            cpu_f32,
            tol,
        })
    }
}

/// The first step whose pivot `U_ii` of packed factors is zero or not finite: where a
/// factorization without pivoting broke down (a zero pivot leaves `U_ii = 0` and turns
/// column `i` of `L` and everything after it into ±∞ or NaN).
pub fn first_bad_pivot(lu: &[f32], n: usize) -> Option<(usize, f32)> {
    (0..n)
        .map(|i| (i, lu[i * n + i]))
        .find(|&(_, p)| p == 0.0 || !p.is_finite())
}
