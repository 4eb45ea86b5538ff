//! What a BioFET run gives and writes: [`simulate`] runs the simulation to the steady state;
//! its [`BiofetReport`] holds the measurements and [`BiofetReport::checks`] compares them
//! with theory within [`Tolerances`]; the figures (double layer, ion densities, the potential
//! and charge slices) and the PNG frames go where [`BiofetOutput`] says.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::error::BiofetError;
use super::model::Biofet;
use super::params::{AxisPoint, BiofetParams, THERMAL_VOLTAGE};
use crate::gl;
use crate::papers::bicg::poisson::Mesh;
use crate::report::files::write_atomic;
use crate::report::plot::colour_map;
use crate::report::{HeatMap, LineChart, Series};

impl Biofet {
    /// A y–z slice through the middle of x of a field, as a bare RGB image (from `lo` to
    /// `hi` in the colour map the field's sign asks for, [`colour_map`]; y across, z up),
    /// for the frame sequences. Written atomically (temp
    /// file + rename).
    pub fn slice_png(
        &self,
        field: &[f64],
        lo: f64,
        hi: f64,
        path: &Path,
    ) -> Result<(), BiofetError> {
        let Mesh { nx, ny, nz } = self.mesh;
        // Sequential for a one-signed field (ψ, the concentrations), diverging otherwise.
        let (map, (lo, hi)) = colour_map(field, (lo, hi));
        let scale = (384 / ny.max(nz)).max(1) as u32;
        let mut img = image::RgbImage::new(ny as u32 * scale, nz as u32 * scale);
        for (px, py, p) in img.enumerate_pixels_mut() {
            let y = (px / scale) as usize;
            let z = nz - 1 - (py / scale) as usize;
            let v = field[self.mesh.index(nx / 2, y, z)];
            *p = image::Rgb(map((v - lo) / (hi - lo)));
        }
        let mut png = std::io::Cursor::new(Vec::new());
        img.write_to(&mut png, image::ImageFormat::Png)
            .map_err(|e| BiofetError::Image {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
        write_atomic(path, png.get_ref())?;
        Ok(())
    }

    /// The report's picture of a field: the y–z plane through the middle of x as a labelled
    /// heat map, z (electrode to electrode) across and y up, both in Debye lengths λ_D on the
    /// mesh's spacing h (square cells), `scale` × the field's values against a colour bar
    /// from `lo` to `hi` labelled `unit`.
    fn slice_figure(
        &self,
        field: &[f64],
        scale: f64,
        (lo, hi): (f64, f64),
        title: String,
        unit: &str,
        path: &Path,
    ) -> Result<(), BiofetError> {
        let Mesh { nx, ny, nz } = self.mesh;
        let values = (0..ny)
            .flat_map(|y| (0..nz).map(move |z| scale * field[self.mesh.index(nx / 2, y, z)]))
            .collect();
        HeatMap {
            title,
            x_label: "z, from the driven electrode (z = 0) to the grounded one (Debye lengths)"
                .into(),
            y_label: "y (Debye lengths)".into(),
            bar_label: unit.into(),
            nx: nz,
            ny,
            h: self.h,
            values,
            range: (lo, hi),
        }
        .save(path)?;
        Ok(())
    }
}

/// Where [`simulate`] writes: the figures (double layer, ions, slices) and PNG frames.
#[derive(Clone, Debug, Default)]
pub struct BiofetOutput {
    /// Folder for `biofet_double_layer.png`, `biofet_ions.png` and the two slices.
    pub figures: Option<PathBuf>,
    /// Folder for frames and the steps between them.
    pub frames: Option<(PathBuf, usize)>,
}

/// The tolerances of the physics checks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// max |ψ̂ − ψ̂_DH| / V̂ along the axis (discretisation at h ≈ λ_D/2 and the step cap).
    pub debye_huckel: f64,
    /// |λ_fit − 1| in Debye lengths.
    pub debye_length: f64,
    /// Relative change of the ion counts (the scheme conserves them to rounding).
    pub conservation: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Tolerances {
            debye_huckel: 0.05,
            debye_length: 0.1,
            conservation: 1e-10,
        }
    }
}

/// One physics check: the measured value, the expected one, the deviation and its tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub name: &'static str,
    pub measured: f64,
    pub expected: f64,
    pub deviation: f64,
    pub tolerance: f64,
}

impl Check {
    pub fn passed(&self) -> bool {
        self.deviation <= self.tolerance
    }
}

/// What a run to the steady state gives.
#[derive(Clone, Debug)]
pub struct BiofetReport {
    pub params: BiofetParams,
    pub mesh: Mesh,
    pub steps: usize,
    /// Simulated time in λ_D²/D.
    pub time: f64,
    /// Whether max |∂n̂/∂t| fell below `steady_tol` before the step cap.
    pub steady: bool,
    /// The last max |∂n̂/∂t|.
    pub rate: f64,
    pub seconds: f64,
    pub poisson_iterations: usize,
    /// (Σ n̂⁺, Σ n̂⁻) at the start and at the end.
    pub totals: [(f64, f64); 2],
    /// max |ψ̂ − ψ̂_DH| / V̂ along the axis.
    pub dh_error: f64,
    /// Fitted screening length in λ_D.
    pub debye_length: f64,
    /// The files written.
    pub written: Vec<PathBuf>,
}

impl BiofetReport {
    /// Relative change of the ion counts.
    pub fn conservation(&self) -> f64 {
        let [(p0, m0), (p1, m1)] = self.totals;
        ((p1 - p0) / p0).abs().max(((m1 - m0) / m0).abs())
    }

    /// The physics checks against `tol`.
    pub fn checks(&self, tol: &Tolerances) -> Vec<Check> {
        vec![
            Check {
                name: "Debye–Hückel agreement",
                measured: self.dh_error,
                expected: 0.0,
                deviation: self.dh_error,
                tolerance: tol.debye_huckel,
            },
            Check {
                name: "Fitted screening length",
                measured: self.debye_length,
                expected: 1.0,
                deviation: (self.debye_length - 1.0).abs(),
                tolerance: tol.debye_length,
            },
            Check {
                name: "Ion conservation",
                measured: self.conservation(),
                expected: 0.0,
                deviation: self.conservation(),
                tolerance: tol.conservation,
            },
        ]
    }
}

impl std::fmt::Display for BiofetReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [(p0, m0), (p1, m1)] = self.totals;
        writeln!(
            f,
            "biofet: {} steps, t = {:.2} λ_D²/D, {} (max |dn/dt| = {:.2e}), {:.1} s, {:.1} \
             steps/s, {} Bi-CG iterations ({:.1} per step)",
            self.steps,
            self.time,
            if self.steady {
                "steady state reached"
            } else {
                "step cap reached before steady state"
            },
            self.rate,
            self.seconds,
            self.steps as f64 / self.seconds,
            self.poisson_iterations,
            self.poisson_iterations as f64 / (self.steps + 1) as f64
        )?;
        writeln!(
            f,
            "conservation: Σn⁺ {p0:.6} → {p1:.6}, Σn⁻ {m0:.6} → {m1:.6}, max relative change \
             {:.2e}",
            self.conservation()
        )?;
        write!(
            f,
            "Debye check: max |ψ − ψ_DH| / V = {:.3} (linear Debye–Hückel, blocking cell); \
             fitted screening length {:.3} λ_D (expected 1)",
            self.dh_error, self.debye_length
        )
    }
}

/// Runs the simulation to the steady state (or the step cap) and writes what `out` asks
/// for. Parameters are checked before anything is allocated.
pub fn simulate(
    gl: &gl::Gl,
    params: &BiofetParams,
    out: &BiofetOutput,
) -> Result<BiofetReport, BiofetError> {
    params.validate()?;
    let mut sim = Biofet::new(gl, params.clone())?;
    let t0 = sim.totals();
    let started = Instant::now();
    let mut snapshots: Vec<(f64, Vec<AxisPoint>)> = Vec::new();
    let snap_times = [0.5, 2.0, 8.0];
    let mut rate = f64::INFINITY;
    let mut written = Vec::new();
    while sim.steps < params.max_steps {
        sim.solve_poisson()?;
        if let Some(&t) = snap_times.get(snapshots.len())
            && sim.time >= t
        {
            snapshots.push((sim.time, sim.axis_profile()));
        }
        if let Some((dir, every)) = &out.frames
            && sim.steps % (*every).max(1) == 0
        {
            written.extend(write_frames(&sim, dir, sim.steps)?);
        }
        rate = sim.continuity_step();
        if rate < params.steady_tol {
            break;
        }
    }
    sim.solve_poisson()?;
    let seconds = started.elapsed().as_secs_f64();
    let prof = sim.axis_profile();
    let dh_error = prof
        .iter()
        .map(|p| (p.1 - sim.analytic_potential(p.0)).abs())
        .fold(0.0f64, f64::max)
        / sim.v_hat;
    let debye_length = sim.fitted_debye_length()?;
    if let Some((dir, _)) = &out.frames {
        written.extend(write_frames(&sim, dir, sim.steps)?);
    }
    if let Some(dir) = &out.figures {
        snapshots.push((sim.time, prof));
        written.extend(figures(&sim, &snapshots, dir)?);
    }
    Ok(BiofetReport {
        params: params.clone(),
        mesh: sim.mesh,
        steps: sim.steps,
        time: sim.time,
        steady: rate < params.steady_tol,
        rate,
        seconds,
        poisson_iterations: sim.poisson_iterations,
        totals: [t0, sim.totals()],
        dh_error,
        debye_length,
        written,
    })
}

/// The double-layer and ion figures and the two slices; `snapshots` ends with the final
/// profile.
fn figures(
    sim: &Biofet,
    snapshots: &[(f64, Vec<AxisPoint>)],
    dir: &Path,
) -> Result<Vec<PathBuf>, BiofetError> {
    let files = [
        "biofet_potential_slice.png",
        "biofet_charge_slice.png",
        "biofet_double_layer.png",
        "biofet_ions.png",
    ]
    .map(|f| dir.join(f));
    slice_figures(sim, [&files[0], &files[1]])?;
    axis_figures(sim, snapshots, [&files[2], &files[3]])?;
    Ok(files.to_vec())
}

/// The potential and the space charge on the y–z plane at mid-x, at the end of the run.
fn slice_figures(sim: &Biofet, [potential, charge]: [&Path; 2]) -> Result<(), BiofetError> {
    let mesh = sim.mesh;
    let mv = THERMAL_VOLTAGE * 1e3;
    sim.slice_figure(
        &sim.psi,
        mv,
        (0.0, sim.v_hat * mv),
        format!(
            "BioFET potential ψ on the y–z plane at mid-x, at the end (t = {:.1} λ²/D)",
            sim.time
        ),
        "potential ψ (mV)",
        potential,
    )?;
    let rho: Vec<f64> = sim.np.iter().zip(&sim.nm).map(|(p, m)| p - m).collect();
    let rmax = rho.iter().fold(1e-12f64, |a, v| a.max(v.abs()));
    sim.slice_figure(
        &rho,
        1.0,
        (-rmax, rmax),
        format!(
            "BioFET space charge on the y–z plane at mid-x, {}×{}×{} nodes",
            mesh.nx, mesh.ny, mesh.nz
        ),
        "charge density ρ (q·c₀)",
        charge,
    )?;
    Ok(())
}

/// The potential along the axis at every snapshot beside the analytic steady state, and the
/// ion densities along the axis at the end beside Boltzmann's.
fn axis_figures(
    sim: &Biofet,
    snapshots: &[(f64, Vec<AxisPoint>)],
    [double_layer, ions]: [&Path; 2],
) -> Result<(), BiofetError> {
    let length = sim.params.length;
    let mut chart = LineChart::new(
        &format!(
            "BioFET double layer: potential along the axis after a {} mV step",
            sim.params.volts * 1e3
        ),
        "distance from the driven electrode z (Debye lengths)",
        "qψ/kT",
    );
    for (t, p) in snapshots {
        chart = chart.series(Series::ours(
            format!("t = {t:.1} λ²/D"),
            p.iter().map(|q| (q.0, q.1)).collect(),
        ));
    }
    chart = chart.series(Series::paper(
        "steady state, linear Debye–Hückel (analytic)",
        (0..=200)
            .map(|k| {
                let z = length * k as f64 / 200.0;
                (z, sim.analytic_potential(z))
            })
            .collect(),
    ));
    chart.save(double_layer)?;
    let prof = sim.axis_profile();
    LineChart::new(
        "BioFET double layer: ion densities along the axis at the end",
        "z (Debye lengths)",
        "n / c0",
    )
    .series(Series::ours(
        "cations n+",
        prof.iter().map(|q| (q.0, q.2)).collect(),
    ))
    .series(Series::ours(
        "anions n−",
        prof.iter().map(|q| (q.0, q.3)).collect(),
    ))
    .series(Series::paper(
        "cations: Boltzmann exp(-(ψ - ψ_mid)) of the computed ψ",
        prof.iter()
            .map(|q| (q.0, (-(q.1 - 0.5 * sim.v_hat)).exp()))
            .collect(),
    ))
    .save(ions)?;
    Ok(())
}

fn write_frames(sim: &Biofet, dir: &Path, step: usize) -> Result<Vec<PathBuf>, BiofetError> {
    let lo = (1.0 - 0.5 * sim.v_hat).min(0.0);
    let hi = (1.0 + 0.5 * sim.v_hat).max(2.0);
    let mut out = Vec::new();
    for (name, field, lo, hi) in [
        ("psi", &sim.psi, 0.0, sim.v_hat),
        ("nplus", &sim.np, lo, hi),
        ("nminus", &sim.nm, lo, hi),
    ] {
        let path = dir.join(format!("{name}_{step:06}.png"));
        sim.slice_png(field, lo, hi, &path)?;
        out.push(path);
    }
    Ok(out)
}
