//! The BioFET electrolyte simulation (paper §V.1, eqs. 6–7): [`simulate`] runs it to the
//! steady state and returns a [`BiofetReport`] whose [`BiofetReport::checks`] compare it
//! with theory, each within a stated tolerance ([`Tolerances`]). The command line
//! (`gpgpu-repro sim biofet`) and the `bicg` paper's `biofet` table call it.
//!
//! Positive and negative monovalent ions in an electrolyte box of n_xy × n_xy × n nodes
//! (`--size` sets n, along z; default 8 × 8 × 21 over 10 Debye lengths) with blocking walls;
//! a step voltage V is applied at t = 0 to the electrode covering the face z = 0 against the
//! grounded electrode covering z = L (whole faces, so the steady state is one-dimensional
//! and has an analytic form). Poisson (eq. 6) is solved by the GL fp64 Bi-CG of [`super::gpu`]
//! every step (matrix on the device for the whole run, warm start from the last
//! potential); the ions follow the drift–diffusion continuity equations (eq. 7), alternated
//! with Poisson until the steady state, which is the electric double layer.
//!
//! Scaled variables: ψ̂ = qψ/kT, n̂± = n±/c₀, lengths in Debye lengths
//! λ_D = √(εkT / 2q²c₀), time in λ_D²/D (equal diffusivities D, Einstein μ = qD/kT):
//!
//! ```text
//!   −∇²ψ̂ = (n̂⁺ − n̂⁻) / 2                     (eq. 6 scaled)
//!   ∂n̂±/∂t = ∇·(∇n̂± ± n̂± ∇ψ̂)                  (eq. 7 scaled)
//! ```
//!
//! The fluxes are Scharfetter–Gummel (exact for the exponential profiles of a double layer,
//! zero at equilibrium to rounding, positive), explicit in time; the walls carry no flux,
//! so Σ n̂± is conserved to rounding. The checks: at steady state the potential along the
//! axis matches the linear Debye–Hückel solution of a symmetric blocking cell,
//! ψ̂(z) = V̂/2 + (V̂/2)·sinh((L/2 − z)) / sinh(L/2) (valid for V̂ ≲ 1: the default is
//! 10 mV, V̂ = 0.39), the screening length fitted from the profile is 1 λ_D, and the ion
//! counts are unchanged. The fit is the slope of ln(ψ̂ − ψ̂_mid) against z over the nodes
//! within [`FIT_SPAN`] λ_D of the driven electrode, so the mesh must put at least two nodes
//! there (h ≤ FIT_SPAN): [`BiofetParams::validate`] refuses coarser meshes before anything
//! is allocated.
//!
//! This file holds the parameters and the physics ([`Biofet`]); the run to the steady state,
//! its report and its figures are in `output.rs`.

mod output;

use std::path::PathBuf;

use super::cpu::{BicgParams, Stop};
use super::gpu::{GpuBicg, GpuBicgError, GpuOptions};
use super::poisson::{self, Mesh};
use crate::gl;
use crate::report::files::OutputError;
use crate::report::plot::PlotError;

pub use output::{BiofetOutput, BiofetReport, Check, Tolerances, simulate};

/// The screening-length fit uses the nodes within this many Debye lengths of the driven
/// electrode.
pub const FIT_SPAN: f64 = 1.5;

/// The largest accepted `n` (nodes along z): the explicit time step shrinks with h², so
/// larger boxes would not reach the steady state in any reasonable number of steps.
pub const MAX_NODES_Z: usize = 4096;

/// Errors of the BioFET simulation.
#[derive(Debug, thiserror::Error)]
pub enum BiofetError {
    /// A parameter out of its range (checked before anything is allocated).
    #[error("biofet: {0}")]
    Params(String),
    #[error(transparent)]
    Gpu(#[from] GpuBicgError),
    #[error("biofet: Poisson solve at step {step}: {why} after {iterations} iterations")]
    Poisson {
        step: usize,
        why: &'static str,
        iterations: usize,
    },
    /// The screening length cannot be fitted from this profile.
    #[error("biofet: no screening length: {0}")]
    Fit(String),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Plot(#[from] PlotError),
    #[error("biofet: encoding {}: {message}", path.display())]
    Image { path: PathBuf, message: String },
}

/// kT/q at 300 K, volts.
const THERMAL_VOLTAGE: f64 = 0.025_852;

/// One node of the axis profile: (z in λ_D, ψ̂, n̂⁺, n̂⁻).
pub type AxisPoint = (f64, f64, f64, f64);

/// The simulation's parameters.
#[derive(Clone, Debug)]
pub struct BiofetParams {
    /// Mesh nodes along z (electrode to electrode); the box is n_xy × n_xy × n.
    pub n: usize,
    /// Mesh nodes along x and y.
    pub n_xy: usize,
    /// Box length in Debye lengths.
    pub length: f64,
    /// Electrode step in volts.
    pub volts: f64,
    /// Time-step cap.
    pub max_steps: usize,
    /// Steady state: max |∂n̂/∂t| below this.
    pub steady_tol: f64,
    /// Poisson solver parameters per step.
    pub solver: BicgParams,
}

impl BiofetParams {
    /// Mesh spacing in Debye lengths.
    pub fn h(&self) -> f64 {
        self.length / (self.n.max(2) - 1) as f64
    }

    /// The smallest `n` that puts two nodes within [`FIT_SPAN`] of the electrode.
    pub fn min_nodes_z(&self) -> usize {
        (self.length / FIT_SPAN).ceil() as usize + 1
    }

    /// Every parameter in its range; the error says which and why.
    pub fn validate(&self) -> Result<(), BiofetError> {
        let bad = |m: String| Err(BiofetError::Params(m));
        if !(self.length.is_finite() && self.length > 0.0) {
            return bad(format!(
                "box length {} must be a finite number > 0",
                self.length
            ));
        }
        let min = self.min_nodes_z().max(4);
        if !(min..=MAX_NODES_Z).contains(&self.n) {
            return bad(format!(
                "{} nodes along z is outside {min}..={MAX_NODES_Z} (the screening-length fit \
                 needs two nodes within {FIT_SPAN} λ_D of the electrode: h = {:.3} λ_D must be \
                 ≤ {FIT_SPAN})",
                self.n,
                self.h()
            ));
        }
        if !(2..=64).contains(&self.n_xy) {
            return bad(format!(
                "{} nodes along x and y is outside 2..=64",
                self.n_xy
            ));
        }
        if !(self.volts.is_finite() && self.volts != 0.0) {
            return bad(format!(
                "electrode step {} V must be finite and non-zero",
                self.volts
            ));
        }
        if self.max_steps == 0 {
            return bad("the step cap must be at least 1".into());
        }
        if !(self.steady_tol.is_finite() && self.steady_tol > 0.0) {
            return bad(format!(
                "steady_tol {} must be a finite number > 0",
                self.steady_tol
            ));
        }
        if !(self.solver.tol.is_finite() && self.solver.tol > 0.0 && self.solver.max_iter > 0) {
            return bad(format!(
                "Poisson tolerance {} must be finite and > 0, with a cap ≥ 1",
                self.solver.tol
            ));
        }
        Ok(())
    }

    /// One line describing the run (mesh, box, step, time step).
    pub fn describe(&self) -> String {
        let h = self.h();
        format!(
            "biofet: {}×{}×{} nodes, box length {} λ_D (h = {h:.3} λ_D), step {} mV \
             (V̂ = {:.3}), dt = {:.4} λ_D²/D",
            self.n_xy,
            self.n_xy,
            self.n,
            self.length,
            self.volts * 1e3,
            self.volts / THERMAL_VOLTAGE,
            time_step(h)
        )
    }
}

/// Explicit SG stability: dt·Σ B / h² ≤ 1 with Σ B ≈ 6 near equilibrium; margin for the
/// fields of the double layer.
fn time_step(h: f64) -> f64 {
    0.12 * h * h
}

impl Default for BiofetParams {
    fn default() -> Self {
        BiofetParams {
            n: 21,
            n_xy: 8,
            length: 10.0,
            volts: 0.010,
            max_steps: 4000,
            steady_tol: 1e-4,
            solver: BicgParams {
                tol: 1e-9,
                max_iter: 2000,
            },
        }
    }
}

/// The state of the simulation.
pub struct Biofet {
    pub mesh: Mesh,
    pub h: f64,
    pub dt: f64,
    pub v_hat: f64,
    pub psi: Vec<f64>,
    pub np: Vec<f64>,
    pub nm: Vec<f64>,
    pub time: f64,
    pub steps: usize,
    /// Bi-CG iterations over all steps.
    pub poisson_iterations: usize,
    dirichlet: Vec<Option<f64>>,
    solver: GpuBicg<f64>,
    params: BiofetParams,
}

/// B(x) = x / (eˣ − 1), the Bernoulli function of the Scharfetter–Gummel flux.
fn bernoulli(x: f64) -> f64 {
    if x.abs() < 1e-6 {
        1.0 - 0.5 * x
    } else {
        x / x.exp_m1()
    }
}

impl Biofet {
    /// The box at rest (uniform ions, no field) with the step already applied.
    pub fn new(gl: &gl::Gl, params: BiofetParams) -> Result<Biofet, BiofetError> {
        params.validate()?;
        let n = params.n;
        let mesh = Mesh::new(params.n_xy, params.n_xy, n);
        let h = params.h();
        let v_hat = params.volts / THERMAL_VOLTAGE;
        let mut dirichlet = vec![None; mesh.nodes()];
        for y in 0..mesh.ny {
            for x in 0..mesh.nx {
                dirichlet[mesh.index(x, y, 0)] = Some(v_hat);
                dirichlet[mesh.index(x, y, n - 1)] = Some(0.0);
            }
        }
        let ones = vec![1.0; mesh.nodes()];
        let sys = poisson::assemble(&mesh, &ones, &vec![0.0; mesh.nodes()], &dirichlet);
        let solver = GpuBicg::<f64>::new(gl, &sys.a, true, GpuOptions::default())?;
        let dt = time_step(h);
        Ok(Biofet {
            mesh,
            h,
            dt,
            v_hat,
            psi: vec![0.0; mesh.nodes()],
            np: ones.clone(),
            nm: ones,
            time: 0.0,
            steps: 0,
            poisson_iterations: 0,
            dirichlet,
            solver,
            params,
        })
    }

    /// Solves Poisson for the current ions (GL Bi-CG, warm start).
    pub fn solve_poisson(&mut self) -> Result<(), BiofetError> {
        let h2 = self.h * self.h;
        // b = Dirichlet part (as assembled) + h²(n⁺ − n⁻)/2 on free nodes.
        let rhs: Vec<f64> = (0..self.mesh.nodes())
            .map(|i| {
                if self.dirichlet[i].is_some() {
                    0.0
                } else {
                    0.5 * h2 * (self.np[i] - self.nm[i])
                }
            })
            .collect();
        let sys = poisson::assemble(
            &self.mesh,
            &vec![1.0; self.mesh.nodes()],
            &rhs,
            &self.dirichlet,
        );
        let (x, info) = self.solver.solve(&sys.b, &self.psi, &self.params.solver)?;
        self.poisson_iterations += info.iterations;
        if info.stop != Stop::Converged {
            return Err(BiofetError::Poisson {
                step: self.steps,
                why: info.stop.describe(),
                iterations: info.iterations,
            });
        }
        self.psi = x;
        Ok(())
    }

    /// One continuity step (explicit, SG fluxes, blocking walls); returns max |∂n̂/∂t|.
    pub fn continuity_step(&mut self) -> f64 {
        let Mesh { nx, ny, nz } = self.mesh;
        let mut dnp = vec![0.0; self.mesh.nodes()];
        let mut dnm = vec![0.0; self.mesh.nodes()];
        let inv_h2 = 1.0 / (self.h * self.h);
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    let i = self.mesh.index(x, y, z);
                    // Each interior face once: to +x, +y, +z.
                    for (ok, j) in [
                        (x + 1 < nx, i + 1),
                        (y + 1 < ny, i + nx),
                        (z + 1 < nz, i + nx * ny),
                    ] {
                        if !ok {
                            continue;
                        }
                        let d = self.psi[j] - self.psi[i];
                        // Flux i → j of cations (charge +1) and anions (−1), per h².
                        let fp = bernoulli(d) * self.np[i] - bernoulli(-d) * self.np[j];
                        let fm = bernoulli(-d) * self.nm[i] - bernoulli(d) * self.nm[j];
                        dnp[i] -= fp * inv_h2;
                        dnp[j] += fp * inv_h2;
                        dnm[i] -= fm * inv_h2;
                        dnm[j] += fm * inv_h2;
                    }
                }
            }
        }
        let mut rate = 0.0f64;
        for i in 0..self.mesh.nodes() {
            self.np[i] += self.dt * dnp[i];
            self.nm[i] += self.dt * dnm[i];
            rate = rate.max(dnp[i].abs()).max(dnm[i].abs());
        }
        self.time += self.dt;
        self.steps += 1;
        rate
    }

    /// Σ n̂⁺ and Σ n̂⁻ over the nodes.
    pub fn totals(&self) -> (f64, f64) {
        (self.np.iter().sum(), self.nm.iter().sum())
    }

    /// (z in λ_D, ψ̂, n̂⁺, n̂⁻) along the box axis.
    pub fn axis_profile(&self) -> Vec<AxisPoint> {
        let (cx, cy) = (self.mesh.nx / 2, self.mesh.ny / 2);
        (0..self.mesh.nz)
            .map(|z| {
                let i = self.mesh.index(cx, cy, z);
                (z as f64 * self.h, self.psi[i], self.np[i], self.nm[i])
            })
            .collect()
    }

    /// The linear Debye–Hückel potential of the symmetric blocking cell (see module docs).
    pub fn analytic_potential(&self, z: f64) -> f64 {
        let l = self.params.length;
        0.5 * self.v_hat + 0.5 * self.v_hat * ((0.5 * l - z).sinh() / (0.5 * l).sinh())
    }

    /// The screening length fitted from the potential near the driven electrode: −1 / the
    /// slope of ln(ψ̂ − ψ̂_mid) over the nodes within [`FIT_SPAN`] λ_D; an error where fewer
    /// than two of them lie above the mid-box potential.
    pub fn fitted_debye_length(&self) -> Result<f64, BiofetError> {
        let prof = self.axis_profile();
        let mid = prof[prof.len() / 2].1;
        let pts: Vec<(f64, f64)> = prof
            .iter()
            .filter(|p| p.0 <= FIT_SPAN && p.1 - mid > 0.0)
            .map(|p| (p.0, (p.1 - mid).ln()))
            .collect();
        if pts.len() < 2 {
            return Err(BiofetError::Fit(format!(
                "{} node(s) within {FIT_SPAN} λ_D of the electrode lie above the mid-box \
                 potential (h = {:.3} λ_D); two are needed",
                pts.len(),
                self.h
            )));
        }
        let m = pts.len() as f64;
        let (sx, sy) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
        let (sxx, sxy) = pts
            .iter()
            .fold((0.0, 0.0), |a, p| (a.0 + p.0 * p.0, a.1 + p.0 * p.1));
        let slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
        if !(slope.is_finite() && slope < 0.0) {
            return Err(BiofetError::Fit(format!(
                "the potential does not decay from the electrode (slope {slope:.3e})"
            )));
        }
        Ok(-1.0 / slope)
    }
}
