//! The BioFET electrolyte simulation (paper §V.1, eqs. 6–7): `gpgpu-repro sim biofet`.
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
//! counts are unchanged.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};

use super::cpu::{BicgParams, Stop};
use super::gpu::{GpuBicg, GpuOptions};
use super::poisson::{self, Mesh};
use crate::gl;
use crate::report::{LineChart, Series};
use crate::sim::SimArgs;

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
    pub fn new(gl: &gl::Gl, params: BiofetParams) -> anyhow::Result<Biofet> {
        let n = params.n;
        if n < 4 {
            bail!("biofet needs at least 4 nodes per side (got {n})");
        }
        let mesh = Mesh::new(params.n_xy.max(2), params.n_xy.max(2), n);
        let h = params.length / (n - 1) as f64;
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
        // Explicit SG stability: dt·Σ B / h² ≤ 1 with Σ B ≈ 6 near equilibrium; margin for
        // the fields of the double layer.
        let dt = 0.12 * h * h;
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
    pub fn solve_poisson(&mut self) -> anyhow::Result<()> {
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
            bail!(
                "Poisson solve at step {}: {} after {} iterations",
                self.steps,
                info.stop.describe(),
                info.iterations
            );
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

    /// The screening length fitted from the potential near the driven electrode: the slope
    /// of ln(ψ̂ − ψ̂_mid) over the first λ_D.
    pub fn fitted_debye_length(&self) -> f64 {
        let prof = self.axis_profile();
        let mid = prof[prof.len() / 2].1;
        let pts: Vec<(f64, f64)> = prof
            .iter()
            .filter(|p| p.0 <= 1.5 && p.1 - mid > 0.0)
            .map(|p| (p.0, (p.1 - mid).ln()))
            .collect();
        let m = pts.len() as f64;
        let (sx, sy) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
        let (sxx, sxy) = pts
            .iter()
            .fold((0.0, 0.0), |a, p| (a.0 + p.0 * p.0, a.1 + p.0 * p.1));
        let slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
        -1.0 / slope
    }

    /// A y–z slice through the middle of x of a field, as an RGB image (blue–white–red).
    pub fn slice_png(&self, field: &[f64], lo: f64, hi: f64, path: &Path) -> anyhow::Result<()> {
        let Mesh { nx, ny, nz } = self.mesh;
        let scale = (384 / ny.max(nz)).max(1) as u32;
        let mut img = image::RgbImage::new(ny as u32 * scale, nz as u32 * scale);
        for (px, py, p) in img.enumerate_pixels_mut() {
            let y = (px / scale) as usize;
            let z = nz - 1 - (py / scale) as usize;
            let v = field[self.mesh.index(nx / 2, y, z)];
            let t = ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
            let (r, g, b) = if t < 0.5 {
                let s = t / 0.5;
                (s, s, 1.0)
            } else {
                let s = (1.0 - t) / 0.5;
                (1.0, s, s)
            };
            *p = image::Rgb([(r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8]);
        }
        img.save(path)
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }
}

/// `gpgpu-repro sim biofet`: runs to steady state, writes frames (with `--frames`) and the
/// double-layer figure into `figures/bicg/`, prints the physics checks.
pub fn run_sim(args: &SimArgs) -> anyhow::Result<()> {
    if args.window {
        bail!(
            "biofet has no live window view; run it headless and look at the PNG slices \
             (--frames DIR) and figures/bicg/biofet_double_layer.png"
        );
    }
    if let Some(s) = &args.solver
        && s != "bicg"
    {
        bail!("biofet solves Poisson with its GL Bi-CG only (--solver bicg), not `{s}`");
    }
    let mut params = BiofetParams::default();
    if let Some(n) = args.size {
        params.n = n as usize;
    }
    if let Some(s) = args.steps {
        params.max_steps = s as usize;
    }
    let gl = gl::headless(&args.device)?;
    let out = PathBuf::from("figures/bicg");
    std::fs::create_dir_all(&out)?;
    if let Some(f) = &args.frames {
        std::fs::create_dir_all(f)?;
    }
    let mut sim = Biofet::new(&gl, params.clone())?;
    let (p0, m0) = sim.totals();
    eprintln!(
        "biofet: {} nodes, box length {} λ_D (h = {:.3} λ_D), step {} mV (V̂ = {:.3}), dt = {:.4} λ_D²/D",
        sim.mesh.label(),
        params.length,
        sim.h,
        params.volts * 1e3,
        sim.v_hat,
        sim.dt
    );
    let started = Instant::now();
    let mut snapshots: Vec<(f64, Vec<AxisPoint>)> = Vec::new();
    let snap_times = [0.5, 2.0, 8.0];
    let mut rate = f64::INFINITY;
    let every = args.every.max(1) as usize;
    while sim.steps < params.max_steps {
        sim.solve_poisson()?;
        if let Some(&t) = snap_times.get(snapshots.len())
            && sim.time >= t
        {
            snapshots.push((sim.time, sim.axis_profile()));
        }
        if let Some(f) = &args.frames
            && sim.steps % every == 0
        {
            write_frames(&sim, f, sim.steps)?;
        }
        rate = sim.continuity_step();
        if rate < params.steady_tol {
            break;
        }
    }
    sim.solve_poisson()?;
    let secs = started.elapsed().as_secs_f64();
    let (p1, m1) = sim.totals();
    let steady = rate < params.steady_tol;
    println!(
        "biofet: {} steps, t = {:.2} λ_D²/D, {} (max |dn/dt| = {rate:.2e}), {:.1} s, {:.1} steps/s, {} Bi-CG iterations ({:.1} per step)",
        sim.steps,
        sim.time,
        if steady {
            "steady state reached"
        } else {
            "step cap reached before steady state"
        },
        secs,
        sim.steps as f64 / secs,
        sim.poisson_iterations,
        sim.poisson_iterations as f64 / (sim.steps + 1) as f64
    );
    let cons = ((p1 - p0) / p0).abs().max(((m1 - m0) / m0).abs());
    println!(
        "conservation: Σn⁺ {p0:.6} → {p1:.6}, Σn⁻ {m0:.6} → {m1:.6}, max relative change {cons:.2e}"
    );
    let prof = sim.axis_profile();
    let dh_err = prof
        .iter()
        .map(|p| (p.1 - sim.analytic_potential(p.0)).abs())
        .fold(0.0f64, f64::max)
        / sim.v_hat;
    let lambda = sim.fitted_debye_length();
    println!(
        "Debye check: max |ψ − ψ_DH| / V = {dh_err:.3} (linear Debye–Hückel, blocking cell); fitted screening length {lambda:.3} λ_D (expected 1)"
    );
    // Figures.
    if let Some(f) = &args.frames {
        write_frames(&sim, f, sim.steps)?;
    }
    sim.slice_png(
        &sim.psi,
        0.0,
        sim.v_hat,
        &out.join("biofet_potential_slice.png"),
    )?;
    let rho: Vec<f64> = sim.np.iter().zip(&sim.nm).map(|(p, m)| p - m).collect();
    let rmax = rho.iter().fold(1e-12f64, |a, v| a.max(v.abs()));
    sim.slice_png(&rho, -rmax, rmax, &out.join("biofet_charge_slice.png"))?;
    snapshots.push((sim.time, prof.clone()));
    let mut chart = LineChart::new(
        &format!(
            "BioFET double layer: potential along the axis after a {} mV step",
            params.volts * 1e3
        ),
        "distance from the driven electrode z (Debye lengths)",
        "qψ/kT",
    );
    for (t, p) in &snapshots {
        chart = chart.series(Series::ours(
            format!("t = {t:.1} λ²/D"),
            p.iter().map(|q| (q.0, q.1)).collect(),
        ));
    }
    chart = chart.series(Series::paper(
        "steady state, linear Debye–Hückel (analytic)",
        (0..=200)
            .map(|k| {
                let z = params.length * k as f64 / 200.0;
                (z, sim.analytic_potential(z))
            })
            .collect(),
    ));
    chart.save(&out.join("biofet_double_layer.png"))?;
    let ions = LineChart::new(
        "BioFET double layer: ion densities along the axis at the end",
        "z (Debye lengths)",
        "n / c0",
    )
    .series(Series::ours(
        "cations n⁺",
        prof.iter().map(|q| (q.0, q.2)).collect(),
    ))
    .series(Series::ours(
        "anions n⁻",
        prof.iter().map(|q| (q.0, q.3)).collect(),
    ))
    .series(Series::paper(
        "cations: Boltzmann exp(-(ψ - ψ_mid)) of the computed ψ",
        prof.iter()
            .map(|q| (q.0, (-(q.1 - 0.5 * sim.v_hat)).exp()))
            .collect(),
    ));
    ions.save(&out.join("biofet_ions.png"))?;
    println!(
        "wrote {}/biofet_double_layer.png, biofet_ions.png, biofet_potential_slice.png, biofet_charge_slice.png",
        out.display()
    );
    if cons > 1e-10 {
        bail!("ion count not conserved: relative change {cons:.2e}");
    }
    Ok(())
}

fn write_frames(sim: &Biofet, dir: &Path, step: usize) -> anyhow::Result<()> {
    sim.slice_png(
        &sim.psi,
        0.0,
        sim.v_hat,
        &dir.join(format!("psi_{step:06}.png")),
    )?;
    let lo = 1.0 - 0.5 * sim.v_hat;
    let hi = 1.0 + 0.5 * sim.v_hat;
    sim.slice_png(
        &sim.np,
        lo.min(0.0),
        hi.max(2.0),
        &dir.join(format!("nplus_{step:06}.png")),
    )?;
    sim.slice_png(
        &sim.nm,
        lo.min(0.0),
        hi.max(2.0),
        &dir.join(format!("nminus_{step:06}.png")),
    )?;
    Ok(())
}
