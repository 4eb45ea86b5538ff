//! The CPU reference: preconditioned Bi-CG exactly as Numerical Recipes' `linbcg` (§2.7 of
//! the 2nd edition) in f64 — on one thread the paper's CPU side of Fig. 4, and on all of the
//! host's CPUs, untimed, the reference every GPU solve is checked against. Both give the
//! same bits ([`Threads`]).
//!
//! With the diagonal preconditioner Ã = diag(A) (`asolve`) and the shadow residual r̄₀ = r₀,
//! iteration k (k ≥ 1) is
//!
//! ```text
//!   z̄ = Ã⁻ᵀ r̄                       ρ = z·r̄           (breakdown if ρ = 0)
//!   p = z + (ρ/ρ_prev) p,  p̄ = z̄ + (ρ/ρ_prev) p̄      (p = z, p̄ = z̄ when k = 1)
//!   z = A p,  z̄ = Aᵀ p̄             α = ρ / (z·p̄)     (breakdown if z·p̄ = 0)
//!   x += α p,  r −= α z,  r̄ −= α z̄,  z = Ã⁻¹ r
//! ```
//!
//! and the stopping test is NR's `itol = 4`: the max-norm estimate of the relative error
//! err = ‖z‖∞/|‖z_prev‖∞ − ‖z‖∞| · |α|‖p‖∞ / ‖x‖∞ (falling back to ‖z‖∞/‖Ã⁻¹b‖∞), which is
//! why the paper profiles a `MaxreduceKernel` beside the dot-product `reduceKernel`.

use std::sync::OnceLock;

use rayon::prelude::*;

use super::ellpack::EllpackR;

/// Solver parameters.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BicgParams {
    /// Stop when NR's `itol = 4` error estimate falls to `tol`.
    pub tol: f64,
    /// Iteration cap: reaching it is [`Stop::IterationCap`], never a hang.
    pub max_iter: usize,
}

impl BicgParams {
    /// Exactly `k` iterations: tolerance 0, which no error estimate reaches (a fixed amount
    /// of work, to time).
    pub fn iterations(k: usize) -> Self {
        BicgParams {
            tol: 0.0,
            max_iter: k,
        }
    }
}

impl Default for BicgParams {
    fn default() -> Self {
        BicgParams {
            tol: 1e-10,
            max_iter: 10_000,
        }
    }
}

/// Why the iteration stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Stop {
    /// The error estimate reached the tolerance.
    Converged,
    /// `max_iter` iterations without converging.
    IterationCap,
    /// ρ = z·r̄ = 0: the Lanczos biorthogonalisation broke down.
    BreakdownRho,
    /// z·p̄ = 0: the step length is undefined.
    BreakdownAlpha,
    /// A NaN or infinity appeared in the scalars (overflow, or an fp32 build out of range).
    NonFinite,
}

impl Stop {
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Converged => "converged",
            Stop::IterationCap => "iteration cap reached",
            Stop::BreakdownRho => "breakdown: rho = z·r̄ = 0",
            Stop::BreakdownAlpha => "breakdown: z·p̄ = 0",
            Stop::NonFinite => "non-finite residual",
        }
    }
}

/// What a solve did: iterations, the final error estimate, the history of the estimate
/// (one entry per iteration) and why it stopped.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BicgInfo {
    pub iterations: usize,
    pub err: f64,
    pub history: Vec<f64>,
    pub stop: Stop,
}

/// A solve that did not converge: the iterate is still returned inside, for inspection.
#[derive(Debug, thiserror::Error)]
#[error("Bi-CG stopped after {} iterations with error estimate {:.3e}: {}", .info.iterations, .info.err, .info.stop.describe())]
pub struct BicgError {
    pub info: BicgInfo,
    pub x: Vec<f64>,
}

impl BicgInfo {
    /// `Ok` if converged, else the typed error carrying the iterate.
    pub fn into_result(self, x: Vec<f64>) -> Result<(Vec<f64>, BicgInfo), BicgError> {
        if self.stop == Stop::Converged {
            Ok((x, self))
        } else {
            Err(BicgError { info: self, x })
        }
    }
}

/// NR's machine-epsilon guard in the `itol = 4` estimate (`EPS` in `linbcg`).
pub const NR_EPS: f64 = 1e-14;

/// NR's `itol = 4` error estimate after an iteration: `(err, testable)`. When the
/// estimate is not usable NR falls back to ‖z‖∞/‖Ã⁻¹b‖∞ and `continue`s without testing
/// convergence (`testable = false`), which we keep.
pub fn nr_error_estimate(
    znrm: f64,
    zm1nrm: f64,
    ak: f64,
    pnrm: f64,
    xnrm: f64,
    bnrm: f64,
) -> (f64, bool) {
    if (zm1nrm - znrm).abs() > NR_EPS * znrm {
        let dxnrm = ak.abs() * pnrm;
        let err = znrm / (zm1nrm - znrm).abs() * dxnrm;
        if err <= 0.5 * xnrm {
            (err / xnrm, true)
        } else {
            (znrm / bnrm, false)
        }
    } else {
        (znrm / bnrm, false)
    }
}

/// Solves A x = b from `x` (initial guess, overwritten) with Aᵀ given by `at` (`None`: A is
/// symmetric), on one thread (the paper's CPU side). Returns the iterate and how the solve
/// went; see [`BicgInfo::into_result`].
pub fn solve(
    a: &EllpackR<f64>,
    at: Option<&EllpackR<f64>>,
    b: &[f64],
    x: &mut [f64],
    params: &BicgParams,
) -> Result<BicgInfo, super::ellpack::EllpackError> {
    solve_in(Threads::One.pool(), a, at, b, x, params)
}

/// How many threads a CPU solve runs on: one (the paper's CPU side, every timed CPU solve) or
/// all of the host's (an untimed reference a GPU solve is verified against). The solve is
/// the same arithmetic on either, bit for bit: every vector operation works on the same
/// [`CHUNK`]s of rows, a dot product sums each chunk in row order and then the chunks' sums
/// in chunk order, and the rest is row by row or a maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    One,
    All,
}

impl Threads {
    /// The pool a solve runs in ([`solve_in`]; made once per process).
    pub fn pool(self) -> &'static rayon::ThreadPool {
        static ONE: OnceLock<rayon::ThreadPool> = OnceLock::new();
        static ALL: OnceLock<rayon::ThreadPool> = OnceLock::new();
        let (cell, n) = match self {
            Threads::One => (&ONE, 1),
            Threads::All => (&ALL, 0),
        };
        cell.get_or_init(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .thread_name(|i| format!("bicg-cpu-{i}"))
                .build()
                .expect("a thread pool for the CPU Bi-CG")
        })
    }

    /// The threads this setting runs on here.
    pub fn count(self) -> usize {
        self.pool().current_num_threads()
    }
}

/// Rows per chunk of the CPU solver's vector operations (see [`Threads`]): 16 Ki rows, a
/// 128 KiB slice of f64, enough work per task that the pool's hand-offs do not show.
pub const CHUNK: usize = 1 << 14;

/// The sum of the chunks' partial sums, in chunk order (see [`Threads`]).
fn sum_chunks(partial: impl IndexedParallelIterator<Item = f64>) -> f64 {
    partial.collect::<Vec<f64>>().iter().sum()
}

/// The largest of the chunks' maxima and 0 (a maximum, so in any order).
fn max_chunks(partial: impl ParallelIterator<Item = f64>) -> f64 {
    partial.reduce(|| 0.0, f64::max)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn max_abs(a: &[f64]) -> f64 {
    a.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// z = Ã⁻¹ v on one chunk (`d`: its rows of diag A).
fn precondition(z: &mut [f64], v: &[f64], d: &[f64]) {
    for ((z, v), d) in z.iter_mut().zip(v).zip(d) {
        *z = v / d;
    }
}

/// [`solve`] in `pool`: [`Threads::pool`], the same bits on any.
pub fn solve_in(
    pool: &rayon::ThreadPool,
    a: &EllpackR<f64>,
    at: Option<&EllpackR<f64>>,
    b: &[f64],
    x: &mut [f64],
    params: &BicgParams,
) -> Result<BicgInfo, super::ellpack::EllpackError> {
    let diag = a.diagonal()?;
    let at = at.unwrap_or(a);
    Ok(pool.install(|| iterate(a, at, &diag, b, x, params)))
}

/// `linbcg`'s loop (the module docs), each step one pass over the chunks of rows.
fn iterate(
    a: &EllpackR<f64>,
    at: &EllpackR<f64>,
    diag: &[f64],
    b: &[f64],
    x: &mut [f64],
    params: &BicgParams,
) -> BicgInfo {
    let n = a.n;
    let c = CHUNK;
    // z = Ã⁻¹ v, returning ‖z‖∞.
    let asolve = |v: &[f64], z: &mut [f64]| {
        max_chunks(
            (z.par_chunks_mut(c), v.par_chunks(c), diag.par_chunks(c))
                .into_par_iter()
                .map(|(z, v, d)| {
                    precondition(z, v, d);
                    max_abs(z)
                }),
        )
    };
    // r = b − A x.
    let mut r = vec![0.0; n];
    (r.par_chunks_mut(c), b.par_chunks(c))
        .into_par_iter()
        .enumerate()
        .for_each(|(k, (r, b))| {
            a.spmv_rows(x, k * c, r);
            for (r, b) in r.iter_mut().zip(b) {
                *r = b - *r;
            }
        });
    let mut rr = r.clone();
    let mut z = vec![0.0; n];
    let mut zz = vec![0.0; n];
    let mut p = vec![0.0; n];
    let mut pp = vec![0.0; n];
    let bnrm = asolve(b, &mut z);
    let mut znrm = asolve(&r, &mut z);
    let mut bkden = 1.0;
    let mut history = Vec::new();
    let info = |iterations, err, history: Vec<f64>, stop| BicgInfo {
        iterations,
        err,
        history,
        stop,
    };
    if bnrm == 0.0 {
        // b = 0: x = 0 is the solution.
        x.iter_mut().for_each(|v| *v = 0.0);
        return info(0, 0.0, history, Stop::Converged);
    }
    let mut err = znrm / bnrm;
    for iter in 1..=params.max_iter {
        // z̄ = Ã⁻¹ r̄, ρ = z·r̄.
        let bknum = sum_chunks(
            (
                zz.par_chunks_mut(c),
                rr.par_chunks(c),
                z.par_chunks(c),
                diag.par_chunks(c),
            )
                .into_par_iter()
                .map(|(zz, rr, z, d)| {
                    precondition(zz, rr, d);
                    dot(z, rr)
                }),
        );
        if !bknum.is_finite() {
            return info(iter, err, history, Stop::NonFinite);
        }
        if bknum == 0.0 {
            return info(iter, err, history, Stop::BreakdownRho);
        }
        let beta = (iter > 1).then(|| bknum / bkden);
        (
            p.par_chunks_mut(c),
            pp.par_chunks_mut(c),
            z.par_chunks(c),
            zz.par_chunks(c),
        )
            .into_par_iter()
            .for_each(|(p, pp, z, zz)| directions(beta, (z, zz), (p, pp)));
        bkden = bknum;
        // z = A p, z·p̄.
        let akden = sum_chunks(
            (z.par_chunks_mut(c), pp.par_chunks(c))
                .into_par_iter()
                .enumerate()
                .map(|(k, (z, pp))| {
                    a.spmv_rows(&p, k * c, z);
                    dot(z, pp)
                }),
        );
        if akden == 0.0 {
            return info(iter, err, history, Stop::BreakdownAlpha);
        }
        let ak = bknum / akden;
        // z̄ = Aᵀ p̄, x += α p, r −= α z, r̄ −= α z̄, z = Ã⁻¹ r; ‖z‖∞, ‖p‖∞, ‖x‖∞.
        let [new_znrm, pnrm, xnrm] = (
            zz.par_chunks_mut(c),
            x.par_chunks_mut(c),
            r.par_chunks_mut(c),
            rr.par_chunks_mut(c),
            z.par_chunks_mut(c),
            p.par_chunks(c),
            diag.par_chunks(c),
        )
            .into_par_iter()
            .enumerate()
            .map(|(k, (zz, x, r, rr, z, p, d))| {
                at.spmv_rows(&pp, k * c, zz);
                for j in 0..x.len() {
                    x[j] += ak * p[j];
                    r[j] -= ak * z[j];
                    rr[j] -= ak * zz[j];
                    z[j] = r[j] / d[j];
                }
                [max_abs(z), max_abs(p), max_abs(x)]
            })
            .reduce(|| [0.0; 3], |u, v| [0, 1, 2].map(|i| u[i].max(v[i])));
        let zm1nrm = znrm;
        znrm = new_znrm;
        let testable;
        (err, testable) = nr_error_estimate(znrm, zm1nrm, ak, pnrm, xnrm, bnrm);
        history.push(err);
        if !err.is_finite() {
            return info(iter, err, history, Stop::NonFinite);
        }
        if testable && err <= params.tol {
            return info(iter, err, history, Stop::Converged);
        }
    }
    info(params.max_iter, err, history, Stop::IterationCap)
}

/// p = z, p̄ = z̄ (`beta = None`, the first iteration) or p = z + β p, p̄ = z̄ + β p̄.
fn directions(beta: Option<f64>, (z, zz): (&[f64], &[f64]), (p, pp): (&mut [f64], &mut [f64])) {
    match beta {
        None => {
            p.copy_from_slice(z);
            pp.copy_from_slice(zz);
        }
        Some(bk) => {
            for j in 0..p.len() {
                p[j] = z[j] + bk * p[j];
                pp[j] = zz[j] + bk * pp[j];
            }
        }
    }
}

/// ‖b − A x‖∞ / ‖b‖∞ in f64: the true residual every solve is reported with.
pub fn true_residual(a: &EllpackR<f64>, b: &[f64], x: &[f64]) -> f64 {
    let mut ax = vec![0.0; a.n];
    a.spmv(x, &mut ax);
    let r = ax
        .iter()
        .zip(b)
        .fold(0.0f64, |m, (p, q)| m.max((q - p).abs()));
    r / max_abs(b).max(f64::MIN_POSITIVE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::papers::bicg::poisson::{Mesh, fig4_problem};

    /// The one-thread solve and a three-thread one give the same bits (the chunked sums of
    /// [`Threads`]) on a mesh of four [`CHUNK`]s, and the solve converges to a true residual
    /// an f64 Bi-CG reaches (a wrong chunk offset in a product would not).
    #[test]
    fn a_solve_is_the_same_bits_on_one_thread_and_on_three() {
        let sys = fig4_problem(&Mesh::cube(40));
        let n = sys.mesh.nodes();
        assert!(
            n > 3 * CHUNK && !n.is_multiple_of(CHUNK),
            "{n} rows: four chunks, the last short"
        );
        let params = BicgParams::default();
        let mut one = vec![0.0; n];
        let i1 = solve(&sys.a, None, &sys.b, &mut one, &params).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut three = vec![0.0; n];
        let i3 = solve_in(&pool, &sys.a, None, &sys.b, &mut three, &params).unwrap();
        assert_eq!(i1.stop, Stop::Converged);
        assert_eq!(i1, i3);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&one), bits(&three));
        assert!(true_residual(&sys.a, &sys.b, &one) < 1e-8);
    }
}
