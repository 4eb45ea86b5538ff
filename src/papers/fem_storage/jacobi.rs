//! Jacobi iteration x⁽ᵏ⁺¹⁾ = D⁻¹(b − R x⁽ᵏ⁾) (eq. 5) on the flattened layout of Fig. 4, with the
//! paper's stopping test ‖x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾‖₂ / ‖x⁽ᵏ⁺¹⁾‖₂ ≤ tol (Fig. 4, tol = 1e-8).
//!
//! [`drive`] is the loop shared by the GPU ([`super::gpu::GpuJacobi`]) and CPU
//! ([`CpuJacobi`]) solvers: it never hangs (iteration cap, optional time budget) and stops
//! with [`FemError::Diverged`] when the relative change is not finite or grows a million-fold
//! over its smallest value.
//!
//! **Convergence on the FEM matrix.** Interior rows of the bilinear (2D) matrix have diagonal
//! 8χ/3 and eight off-diagonals of −χ/3 (trilinear 3D: diagonal 8χh/3, twelve −χh/6, eight
//! −χh/12 and six exact zeros): the matrix is only weakly diagonally dominant, irreducibly so
//! with the Dirichlet rows, hence Jacobi converges, but slowly. The Jacobi symbol of the
//! stencil is μ(θ) = ¼(cₓ + c_y) + ½cₓc_y in 2D and ¼(cₓc_y + cₓc_z + c_yc_z) + ¼cₓc_yc_z in
//! 3D (c = cos θ), so with Dirichlet faces at x = 0 and x = 1 the spectral radius is
//! ρ ≈ 1 − (3/8)π²h²: the iterations to a given accuracy grow like h⁻², i.e. like N in 2D.
//! The relative change shrinks by about ρ per iteration, so from a change δ_k reaching 1e-8
//! takes about ln(1e-8/δ_k) / ln ρ more iterations — see [`JacobiInfo::extrapolate`].

use std::time::{Duration, Instant};

use super::error::FemError;
use super::flat::FlatMatrix;
use crate::gl::Gl;

/// Stopping rules.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JacobiParams {
    /// Relative-change tolerance (the paper: 1e-8).
    pub tol: f64,
    /// Iteration cap (the paper's `iterMax`).
    pub max_iterations: usize,
    /// Stop after this much time, if given (reported as [`Stop::TimeBudget`]).
    pub budget: Option<Duration>,
    /// Evaluate the stopping test every this many iterations (the paper: every iteration).
    pub check_every: usize,
}

impl Default for JacobiParams {
    fn default() -> Self {
        JacobiParams {
            tol: 1e-8,
            max_iterations: 100_000,
            budget: None,
            check_every: 1,
        }
    }
}

/// Why the iteration stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Stop {
    Converged,
    IterationCap,
    TimeBudget,
}

impl Stop {
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Converged => "converged",
            Stop::IterationCap => "iteration cap",
            Stop::TimeBudget => "time budget",
        }
    }
}

/// What a Jacobi solve did.
#[derive(Clone, Debug, PartialEq)]
pub struct JacobiInfo {
    pub iterations: usize,
    /// The last relative change ‖x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾‖₂ / ‖x⁽ᵏ⁺¹⁾‖₂.
    pub rel_change: f64,
    pub stop: Stop,
    /// Wall time of the whole loop (including every stopping test).
    pub seconds: f64,
    /// (iteration, relative change) at every stopping test.
    pub history: Vec<(usize, f64)>,
}

/// An extrapolation of a stopped Jacobi run to the tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extrapolation {
    /// Observed contraction factor of the relative change per iteration.
    pub rho: f64,
    /// Iterations still needed from the last one to reach the tolerance.
    pub more_iterations: f64,
}

impl JacobiInfo {
    /// Time per iteration in milliseconds.
    pub fn ms_per_iteration(&self) -> f64 {
        1e3 * self.seconds / self.iterations.max(1) as f64
    }

    /// Extrapolates the iterations still needed to reach `tol` from the last relative change
    /// δ_k, assuming it shrinks by the factor `rho` per iteration: ln(tol/δ_k) / ln ρ.
    pub fn extrapolate_with(&self, tol: f64, rho: f64) -> Option<Extrapolation> {
        if self.stop == Stop::Converged || !(0.0..1.0).contains(&rho) || rho == 0.0 {
            return None;
        }
        Some(Extrapolation {
            rho,
            more_iterations: ((tol / self.rel_change).ln() / rho.ln()).max(0.0),
        })
    }

    /// Fits ρ to the relative change over the second half of the run,
    /// ρ = (δ_k / δ_{k/2})^{1/(k − k/2)}, and extrapolates the iterations still needed to
    /// reach `tol` (ln(tol/δ_k) / ln ρ). `None` when the run converged or ρ ≥ 1.
    pub fn extrapolate(&self, tol: f64) -> Option<Extrapolation> {
        if self.stop == Stop::Converged || self.history.len() < 4 {
            return None;
        }
        let &(k1, d1) = self.history.last()?;
        let &(k0, d0) = self
            .history
            .iter()
            .find(|(k, _)| *k >= k1 / 2)
            .filter(|(k, _)| *k < k1)?;
        let rho = (d1 / d0).powf(1.0 / (k1 - k0) as f64);
        if rho.is_nan() || rho <= 0.0 || rho >= 1.0 {
            return None;
        }
        Some(Extrapolation {
            rho,
            more_iterations: ((tol / d1).ln() / rho.ln()).max(0.0),
        })
    }
}

/// A GPU Jacobi solver (the compute [`super::gpu::GpuJacobi`], the fragment
/// [`super::fragment::FragmentJacobi`]): one sweep, and the two loops every solver runs on it, written
/// once.
pub trait JacobiSweeps {
    /// One sweep; with `check`, the squared norms (‖x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾‖², ‖x⁽ᵏ⁺¹⁾‖²) for [`drive`].
    fn sweep(&mut self, check: bool) -> Result<Option<(f64, f64)>, FemError>;

    /// The context the sweeps run on.
    fn gl(&self) -> &Gl;

    /// Iterates until [`drive`] stops (one loop and stopping rule for every solver).
    fn solve(&mut self, params: &JacobiParams) -> Result<JacobiInfo, FemError> {
        drive(params, |check| self.sweep(check))
    }

    /// Runs `iterations` sweeps without stopping tests, then waits for the GPU (for timing).
    fn run_fixed(&mut self, iterations: usize) -> Result<(), FemError> {
        for _ in 0..iterations {
            self.sweep(false)?;
        }
        self.gl().finish();
        Ok(())
    }
}

/// The Jacobi loop. `step(check)` performs one iteration and, when `check` is true, returns
/// the squared norms (‖x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾‖², ‖x⁽ᵏ⁺¹⁾‖²).
pub fn drive(
    params: &JacobiParams,
    mut step: impl FnMut(bool) -> Result<Option<(f64, f64)>, FemError>,
) -> Result<JacobiInfo, FemError> {
    let every = params.check_every.max(1);
    let started = Instant::now();
    let mut history = Vec::new();
    let mut min_change = f64::INFINITY;
    let mut rel_change = f64::INFINITY;
    let mut k = 0;
    let stop = loop {
        if k >= params.max_iterations {
            break Stop::IterationCap;
        }
        k += 1;
        let check = k % every == 0 || k == params.max_iterations;
        if let Some((d2, x2)) = step(check)? {
            rel_change = (d2 / x2).sqrt();
            if x2 == 0.0 && d2 == 0.0 {
                rel_change = 0.0; // x = 0 is a fixed point (b = 0)
            }
            history.push((k, rel_change));
            if !rel_change.is_finite() || rel_change > 1e6 * min_change {
                return Err(FemError::Diverged {
                    iteration: k,
                    rel_change,
                });
            }
            min_change = min_change.min(rel_change);
            if rel_change <= params.tol {
                break Stop::Converged;
            }
            if params.budget.is_some_and(|b| started.elapsed() >= b) {
                break Stop::TimeBudget;
            }
        }
    };
    Ok(JacobiInfo {
        iterations: k,
        rel_change,
        stop,
        seconds: started.elapsed().as_secs_f64(),
        history,
    })
}

/// One Jacobi sweep on the CPU over the rows `rows` of `m`, writing `x_new[rows]`, in f32 with
/// the shader's order of operations; returns the two squared norms (accumulated in f64).
fn sweep_rows(
    m: &FlatMatrix,
    rows: std::ops::Range<usize>,
    x_old: &[f32],
    x_new: &mut [f32],
) -> (f64, f64) {
    let (mut d2, mut x2) = (0.0f64, 0.0f64);
    for (i, out) in rows.zip(x_new.iter_mut()) {
        let r = m.row(i);
        let mut sum = 0.0f32;
        for k in r.start + 1..r.end {
            sum += m.val[k] * x_old[m.idx[k] as usize];
        }
        let xi = (m.rhs[i] - sum) / m.val[r.start];
        *out = xi;
        let d = (xi - x_old[i]) as f64;
        d2 += d * d;
        x2 += xi as f64 * xi as f64;
    }
    (d2, x2)
}

/// One sweep x_new = D⁻¹(b − R x_old) on `threads` CPU threads; returns the squared norms.
pub fn sweep_cpu(m: &FlatMatrix, x_old: &[f32], x_new: &mut [f32], threads: usize) -> (f64, f64) {
    let n = m.n();
    let threads = threads.clamp(1, n.max(1));
    if threads == 1 {
        return sweep_rows(m, 0..n, x_old, x_new);
    }
    let chunk = n.div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = x_new
            .chunks_mut(chunk)
            .enumerate()
            .map(|(t, out)| {
                let rows = t * chunk..t * chunk + out.len();
                s.spawn(move || sweep_rows(m, rows, x_old, out))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a Jacobi thread panicked"))
            .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1))
    })
}

/// The CPU Jacobi on the same flattened arrays as the GPU kernel (two x vectors swapped
/// every iteration), multithreaded over rows.
pub struct CpuJacobi<'a> {
    pub m: &'a FlatMatrix,
    pub threads: usize,
    x: [Vec<f32>; 2],
    cur: usize,
}

impl<'a> CpuJacobi<'a> {
    /// Starts from x⁽⁰⁾ = 0 (as the GPU solver).
    pub fn new(m: &'a FlatMatrix, threads: usize) -> CpuJacobi<'a> {
        CpuJacobi {
            m,
            threads,
            x: [vec![0.0; m.n()], vec![0.0; m.n()]],
            cur: 0,
        }
    }
    pub fn set_x(&mut self, x: &[f32]) {
        self.x[self.cur].copy_from_slice(x);
    }
    pub fn x(&self) -> &[f32] {
        &self.x[self.cur]
    }
    /// One iteration; returns the squared norms.
    pub fn step(&mut self) -> (f64, f64) {
        let (a, b) = self.x.split_at_mut(1);
        let (old, new) = if self.cur == 0 {
            (&a[0], &mut b[0])
        } else {
            (&b[0], &mut a[0])
        };
        let norms = sweep_cpu(self.m, old, new, self.threads);
        self.cur = 1 - self.cur;
        norms
    }
    /// Iterates until [`drive`] stops.
    pub fn solve(&mut self, params: &JacobiParams) -> Result<JacobiInfo, FemError> {
        drive(params, |_| Ok(Some(self.step())))
    }
}

/// `sweeps` Jacobi sweeps from `x0` on the CPU in f64 (the f32 arrays of `m` widened): the
/// reference the f32 GPU sweeps are measured against (the difference is their rounding).
pub fn sweeps_f64(m: &FlatMatrix, x0: &[f64], sweeps: usize) -> Vec<f64> {
    let n = m.n();
    let mut x = x0.to_vec();
    let mut next = vec![0.0f64; n];
    for _ in 0..sweeps {
        for (i, out) in next.iter_mut().enumerate() {
            let r = m.row(i);
            let sum: f64 = (r.start + 1..r.end)
                .map(|k| m.val[k] as f64 * x[m.idx[k] as usize])
                .sum();
            *out = (m.rhs[i] as f64 - sum) / m.val[r.start] as f64;
        }
        std::mem::swap(&mut x, &mut next);
    }
    x
}
