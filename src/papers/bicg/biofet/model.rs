//! The state of the simulation and its time steps: Scharfetter–Gummel fluxes and a Poisson
//! solve per step.

use super::error::BiofetError;
use super::params::{AxisPoint, BiofetParams, FIT_SPAN, THERMAL_VOLTAGE, time_step};
use crate::gl;
use crate::papers::bicg::cpu::Stop;
use crate::papers::bicg::gpu::{GpuBicg, GpuOptions};
use crate::papers::bicg::poisson::{self, Mesh};

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
    pub(super) dirichlet: Vec<Option<f64>>,
    pub(super) solver: GpuBicg<f64>,
    pub(super) params: BiofetParams,
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
