//! The CPU reference: preconditioned Bi-CG exactly as Numerical Recipes' `linbcg` (§2.7 of
//! the 2nd edition), single-threaded f64 — the paper's CPU side of Fig. 4 and the reference
//! every GPU solve is checked against.
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

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn max_abs(a: &[f64]) -> f64 {
    a.iter().fold(0.0f64, |m, v| m.max(v.abs()))
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
/// symmetric). Returns the iterate and how the solve went; see [`BicgInfo::into_result`].
pub fn solve(
    a: &EllpackR<f64>,
    at: Option<&EllpackR<f64>>,
    b: &[f64],
    x: &mut [f64],
    params: &BicgParams,
) -> Result<BicgInfo, super::ellpack::EllpackError> {
    let n = a.n;
    let at = at.unwrap_or(a);
    let diag = a.diagonal()?;
    let asolve = |r: &[f64], z: &mut [f64]| {
        for i in 0..n {
            z[i] = r[i] / diag[i];
        }
    };
    let mut r = residual(a, b, x);
    let mut rr = r.clone();
    let mut z = vec![0.0; n];
    let mut zz = vec![0.0; n];
    let mut p = vec![0.0; n];
    let mut pp = vec![0.0; n];
    asolve(b, &mut z);
    let bnrm = max_abs(&z);
    asolve(&r, &mut z);
    let mut znrm = max_abs(&z);
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
        return Ok(info(0, 0.0, history, Stop::Converged));
    }
    let mut err = znrm / bnrm;
    for iter in 1..=params.max_iter {
        asolve(&rr, &mut zz);
        let bknum = dot(&z, &rr);
        if !bknum.is_finite() {
            return Ok(info(iter, err, history, Stop::NonFinite));
        }
        if bknum == 0.0 {
            return Ok(info(iter, err, history, Stop::BreakdownRho));
        }
        let beta = (iter > 1).then(|| bknum / bkden);
        directions(beta, (&z, &zz), (&mut p, &mut pp));
        bkden = bknum;
        a.spmv(&p, &mut z);
        let akden = dot(&z, &pp);
        if akden == 0.0 {
            return Ok(info(iter, err, history, Stop::BreakdownAlpha));
        }
        let ak = bknum / akden;
        at.spmv(&pp, &mut zz);
        for j in 0..n {
            x[j] += ak * p[j];
            r[j] -= ak * z[j];
            rr[j] -= ak * zz[j];
        }
        asolve(&r, &mut z);
        let zm1nrm = znrm;
        znrm = max_abs(&z);
        let testable;
        (err, testable) = nr_error_estimate(znrm, zm1nrm, ak, max_abs(&p), max_abs(x), bnrm);
        history.push(err);
        if !err.is_finite() {
            return Ok(info(iter, err, history, Stop::NonFinite));
        }
        if testable && err <= params.tol {
            return Ok(info(iter, err, history, Stop::Converged));
        }
    }
    Ok(info(params.max_iter, err, history, Stop::IterationCap))
}

/// r = b − A x.
fn residual(a: &EllpackR<f64>, b: &[f64], x: &[f64]) -> Vec<f64> {
    let mut r = vec![0.0; a.n];
    a.spmv(x, &mut r);
    for i in 0..a.n {
        r[i] = b[i] - r[i];
    }
    r
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
