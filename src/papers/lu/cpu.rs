//! CPU references: the paper's right-looking loop (Fig. 2), one generic loop run in `f32` and
//! `f64`; `faer`'s partially pivoted LU as today's tuned CPU anchor (one thread or all, chosen
//! explicitly); the test matrices and the verification tolerance.
//!
//! Matrices are row-major `N × N` slices: `a[j * n + k]` is `A_jk` (row `j`, column `k`).
//! A factorization is returned in place, as the GPU returns it: the strictly lower part holds
//! `L` (unit diagonal not stored), the upper part holds `U`.

use crate::float::Real;
use crate::util::{RngExt, rng};

use super::arith2005::Arith2005;
use super::error::LuError;

/// A random `n × n` matrix, entries uniform in `[-1, 1)`, whose diagonal is raised to
/// `1 + Σ_{i≠j} |a_ij|` over its column *and* its row: strictly diagonally dominant by rows and
/// columns, so LU without pivoting is stable (growth ≤ 2) and partial pivoting makes no swap
/// (every column's largest entry stays on the diagonal through elimination).
pub fn diag_dominant(n: usize, seed: u64) -> Vec<f32> {
    let mut r = rng(seed);
    let mut a: Vec<f32> = (0..n * n).map(|_| r.random_range(-1.0f32..1.0)).collect();
    make_dominant(&mut a, n);
    a
}

/// The test matrices of the §5.1 ablation over matrix classes (issue 38): what a verdict on
/// the arithmetic rests on besides the arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum MatrixClass {
    /// [`diag_dominant`]: tiny multipliers (max |l| ≈ 0.035 at N = 64).
    DiagDominant,
    /// The 5-point Laplacian on a grid `⌈√N⌉` nodes wide (diagonal 4, −1 to each grid
    /// neighbour among the `N` nodes): multipliers up to ½ in magnitude, exact integer entries.
    Laplacian2d,
    /// `L₀·U₀` with `L₀` unit lower triangular (entries uniform in `[−1, 1)`) and `U₀` upper
    /// triangular (diagonal ±`[1, 2)`, the rest `[−1, 1)`), formed in `f64` and rounded: its
    /// multipliers are `L₀`'s, O(1).
    L0U0,
    /// [`diag_dominant`] with integer entries in `−4 … 4` (the sums integers too): the
    /// matrices of §5.1's "equal up to N = 4" question, on which small factorizations are
    /// exact more often.
    SmallInt,
}

impl MatrixClass {
    pub const ALL: [MatrixClass; 4] = [
        MatrixClass::DiagDominant,
        MatrixClass::Laplacian2d,
        MatrixClass::L0U0,
        MatrixClass::SmallInt,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MatrixClass::DiagDominant => "diag. dominant",
            MatrixClass::Laplacian2d => "2D Laplacian",
            MatrixClass::L0U0 => "L₀U₀ (O(1) multipliers)",
            MatrixClass::SmallInt => "small integers",
        }
    }

    /// The class's order-`n` matrix (row-major) from `seed`.
    pub fn matrix(self, n: usize, seed: u64) -> Vec<f32> {
        match self {
            MatrixClass::DiagDominant => diag_dominant(n, seed),
            MatrixClass::Laplacian2d => laplacian_2d(n),
            MatrixClass::L0U0 => l0u0(n, seed),
            MatrixClass::SmallInt => {
                let mut r = rng(seed);
                let mut a: Vec<f32> = (0..n * n)
                    .map(|_| r.random_range(-4i32..=4) as f32)
                    .collect();
                make_dominant(&mut a, n);
                a
            }
        }
    }
}

/// Raises the diagonal of `a` to `1 + max(Σ|row|, Σ|column|)` off the diagonal.
fn make_dominant(a: &mut [f32], n: usize) {
    for j in 0..n {
        let row: f32 = (0..n).filter(|&k| k != j).map(|k| a[j * n + k].abs()).sum();
        let col: f32 = (0..n).filter(|&i| i != j).map(|i| a[i * n + j].abs()).sum();
        a[j * n + j] = 1.0 + row.max(col);
    }
}

/// The 5-point Laplacian of [`MatrixClass::Laplacian2d`].
fn laplacian_2d(n: usize) -> Vec<f32> {
    let w = (n as f64).sqrt().ceil() as usize;
    let mut a = vec![0.0f32; n * n];
    for i in 0..n {
        a[i * n + i] = 4.0;
        let mut link = |j: usize| a[i * n + j] = -1.0;
        if i % w != 0 {
            link(i - 1);
        }
        if (i + 1) % w != 0 && i + 1 < n {
            link(i + 1);
        }
        if i >= w {
            link(i - w);
        }
        if i + w < n {
            link(i + w);
        }
    }
    a
}

/// `L₀·U₀` of [`MatrixClass::L0U0`].
fn l0u0(n: usize, seed: u64) -> Vec<f32> {
    let mut r = rng(seed);
    let mut l = vec![0.0f64; n * n];
    let mut u = vec![0.0f64; n * n];
    for j in 0..n {
        for k in 0..n {
            if k < j {
                l[j * n + k] = r.random_range(-1.0..1.0);
            } else if k == j {
                l[j * n + k] = 1.0;
                let d: f64 = r.random_range(1.0..2.0);
                u[j * n + k] = if r.random() { d } else { -d };
            } else {
                u[j * n + k] = r.random_range(-1.0..1.0);
            }
        }
    }
    let mut a = vec![0.0f32; n * n];
    for j in 0..n {
        for k in 0..n {
            let s: f64 = (0..=j.min(k)).map(|i| l[j * n + i] * u[i * n + k]).sum();
            a[j * n + k] = s as f32;
        }
    }
    a
}

/// The paper's Fig. 2 loop: for each step `i`, `A_ji /= A_ii` then `A_jk -= A_ik · A_ji` for
/// `j, k > i`. The product is rounded before the subtraction (no fused multiply-add), as the
/// fitted 2005 model assumes (its fused member, [`super::arith2005::Member::fused_mad`], is
/// the alternative): Rust never contracts `x - u * l` into an FMA. In `f32` it is
/// the GPU's arithmetic on the CPU (§5.1); in `f64` the reference every factorization is
/// checked against. Fails on the first zero or non-finite pivot.
pub fn lu_in_place<T: Real>(a: &mut [T], n: usize) -> Result<(), LuError> {
    lu_steps(a, n, None, &Ieee, Update::Stored)
}

/// How the trailing update forms its term (§3.4, issue 38).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Update {
    /// `A_jk − A_ik · L_ji`, `L_ji` the stored quotient (Fig. 2 and 3: I1, I3, I4).
    #[default]
    Stored,
    /// `A_jk − A_ik · A_ji / A_ii` as Fig. 4 prints it for I2 (C's left-to-right order: the
    /// product of the two unscaled entries, then the division; each fragment recomputes it
    /// from the previous pass's texels).
    Printed,
}

/// [`lu_in_place`] in `f32` with the update `form` (the CPU twin of I2 in its printed order
/// is [`Update::Printed`]).
pub fn lu_f32_form(a: &mut [f32], n: usize, form: Update) -> Result<(), LuError> {
    lu_steps(a, n, None, &Ieee, form)
}

/// The arithmetic of the loop: IEEE operators, or [`Arith2005`] (the 2005 model, in `f32`).
trait LoopArith<T> {
    fn div(&self, a: T, b: T) -> T;
    fn mul(&self, a: T, b: T) -> T;
    fn sub(&self, a: T, b: T) -> T;
    /// The update `c − a·b` (a fused MAD under a member that fuses it).
    fn msub(&self, c: T, a: T, b: T) -> T {
        self.sub(c, self.mul(a, b))
    }
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
    fn msub(&self, c: f32, a: f32, b: f32) -> f32 {
        Arith2005::msub(*self, c, a, b)
    }
}

/// [`lu_in_place`] in `f32` with the operations of `model` following the 2005 arithmetic
/// model ([`super::arith2005`]): the CPU twin of the fragment programs built with
/// `ARITH_2005` (the same operations in the same order, so the same bits).
pub fn lu_f32_under(a: &mut [f32], n: usize, model: Arith2005) -> Result<(), LuError> {
    lu_steps(a, n, None, &model, Update::Stored)
}

/// [`lu_f32_under`] with the update `form`: the twin of any fragment configuration
/// (`form` = [`crate::papers::lu::fragment::Params::update`]).
pub fn lu_f32_twin(a: &mut [f32], n: usize, model: Arith2005, form: Update) -> Result<(), LuError> {
    lu_steps(a, n, None, &model, form)
}

/// [`lu_in_place`] with step `skip_u`'s trailing update left out: a deliberately corrupted
/// factorization, for tests that show verification catches one missing step.
pub fn lu_in_place_skipping_update<T: Real>(
    a: &mut [T],
    n: usize,
    skip_u: usize,
) -> Result<(), LuError> {
    lu_steps(a, n, Some(skip_u), &Ieee, Update::Stored)
}

fn lu_steps<T: Real>(
    a: &mut [T],
    n: usize,
    skip_u: Option<usize>,
    ar: &impl LoopArith<T>,
    form: Update,
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
            let aji = a[j * n + i];
            a[j * n + i] = ar.div(aji, p);
            if skip_u == Some(i) {
                continue;
            }
            let l = a[j * n + i];
            let (top, rest) = a.split_at_mut(j * n);
            let row_i = &top[i * n + i + 1..i * n + n];
            for (x, &u) in rest[i + 1..n].iter_mut().zip(row_i) {
                *x = match form {
                    Update::Stored => ar.msub(*x, u, l),
                    Update::Printed => ar.sub(*x, ar.div(ar.mul(u, aji), p)),
                };
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
    /// The same loop in `f32` with I2's printed update ([`Update::Printed`]).
    pub cpu_f32_printed: Vec<f32>,
    pub tol: f64,
}

impl Reference {
    /// The references of the order-`n` matrix `a`.
    pub fn of(a: Vec<f32>, n: usize) -> Result<Reference, LuError> {
        let f64 = lu_f64_of(&a, n)?;
        let mut cpu_f32 = a.clone();
        lu_f32(&mut cpu_f32, n)?;
        let tol = tolerance(crate::stats::max_rel_error(&cpu_f32, &f64));
        let mut cpu_f32_printed = a.clone();
        lu_f32_form(&mut cpu_f32_printed, n, Update::Printed)?;
        Ok(Reference {
            a,
            f64,
            cpu_f32,
            cpu_f32_printed,
            tol,
        })
    }

    /// The CPU `f32` factors of the update `form`: what a configuration equals bit for bit
    /// on a device that rounds correctly.
    pub fn cpu_f32_of(&self, form: Update) -> &[f32] {
        match form {
            Update::Stored => &self.cpu_f32,
            Update::Printed => &self.cpu_f32_printed,
        }
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

/// The packed factors `lu` (row-major `n × n`) of a GPU decomposition, or the first zero or
/// non-finite pivot in them ([`LuError::Pivot`]), or else the first non-finite entry
/// ([`LuError::NonFinite`]).
pub(crate) fn checked_factors(lu: Vec<f32>, n: usize) -> Result<Vec<f32>, LuError> {
    if let Some((step, value)) = first_bad_pivot(&lu, n) {
        return Err(LuError::Pivot {
            step,
            value: value as f64,
        });
    }
    if let Some(pos) = lu.iter().position(|x| !x.is_finite()) {
        return Err(LuError::NonFinite {
            row: pos / n,
            col: pos % n,
        });
    }
    Ok(lu)
}
