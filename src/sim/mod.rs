//! Simulations built on the papers' solvers (`gpgpu-repro sim NAME`), and their registry.
//!
//! The ADI simulations of Kim & Lee 2005 (§2 and §4): [`heat`] (simulation 1), [`pollutant`]
//! (simulation 2, two scenarios) and [`shallow_water`] (simulation 3). Every half-step is a
//! batch of tridiagonal systems built by a fragment pass from state that lives in GL textures
//! ([`adi`]) and solved on the GPU by a [`solver::LineSolver`]; the state is read back only
//! to write a PNG frame ([`frames`]) or to check it. [`viewer`] shows a simulation live.

pub mod adi;
pub mod figures;
pub mod frames;
pub mod heat;
pub mod pollutant;
pub mod render;
pub mod shallow_water;
pub mod solver;
pub mod viewer;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::gl::{self, DeviceSelector, Gl, GlError};

/// The command-line options every simulation takes.
#[derive(Clone, Debug)]
pub struct SimArgs {
    /// Grid size (N × N, or N³ for 3D simulations); `None`: the simulation's default.
    pub size: Option<u32>,
    /// Time steps to run; `None`: the simulation's default.
    pub steps: Option<u32>,
    /// Tridiagonal / linear solver by name (`cr`, `cg`, `thomas`, …); `None`: the default.
    pub solver: Option<String>,
    /// Write a PNG frame every `every` steps into this folder.
    pub frames: Option<PathBuf>,
    /// Steps between frames.
    pub every: u32,
    /// Open a live viewer instead of running headless.
    pub window: bool,
    /// The EGL device for headless runs.
    pub device: DeviceSelector,
}

/// One simulation: its name, a line about it, and its entry point.
pub struct SimEntry {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&SimArgs) -> anyhow::Result<()>,
}

/// Every simulation the `sim` command knows.
pub static SIMS: &[&SimEntry] = &[
    &HEAT,
    &POLLUTANT_STREAM,
    &POLLUTANT_VORTEX,
    &SHALLOW_WATER,
    &BIOFET,
];

/// The BioFET ion simulation of the `bicg` paper.
pub static BIOFET: SimEntry = SimEntry {
    name: "biofet",
    about: "ions + Poisson (GL fp64 Bi-CG) after a step voltage, to the double-layer steady state",
    run: run_biofet,
};

/// The simulation with this name.
pub fn find(name: &str) -> Option<&'static SimEntry> {
    SIMS.iter().copied().find(|s| s.name == name)
}

static HEAT: SimEntry = SimEntry {
    name: "heat",
    about: "heat conduction, Peaceman–Rachford ADI, Neumann walls, two sources (Kim & Lee 2005 sim. 1)",
    run: |a| run_cli(Kind::Heat, a),
};
static POLLUTANT_STREAM: SimEntry = SimEntry {
    name: "pollutant-stream",
    about: "pollutant advection–diffusion in a uniform stream, continuous source (sim. 2a)",
    run: |a| run_cli(Kind::PollutantStream, a),
};
static POLLUTANT_VORTEX: SimEntry = SimEntry {
    name: "pollutant-vortex",
    about: "pollutant advection–diffusion in a rotating flow, short release (sim. 2b)",
    run: |a| run_cli(Kind::PollutantVortex, a),
};
static SHALLOW_WATER: SimEntry = SimEntry {
    name: "shallow-water",
    about: "shallow water after Kass & Miller 1990, diagonal disturbance, 3D surface (sim. 3)",
    run: |a| run_cli(Kind::ShallowWater, a),
};

/// What can go wrong in a simulation.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("unknown solver `{name}`; the solvers are: {known}")]
    UnknownSolver { name: String, known: String },
    #[error("solver {solver}: {message}")]
    Solver { solver: String, message: String },
    #[error("invalid parameters: {0}")]
    Params(String),
    #[error("writing frame {path}: {message}")]
    Frame { path: PathBuf, message: String },
    #[error("{0}")]
    Window(String),
}

/// A simulation as the runner, the viewer and the figures drive it.
pub trait Simulation {
    /// The registry name (`heat`, …).
    fn name(&self) -> &'static str;
    fn adi(&self) -> &Adi;
    fn adi_mut(&mut self) -> &mut Adi;
    /// One time step (two ADI half-steps and whatever the simulation adds).
    fn step(&mut self) -> Result<(), SimError>;
    /// Steps since the start or the last reset.
    fn steps(&self) -> u64;
    /// Back to the initial state.
    fn reset(&mut self) -> Result<(), SimError>;
    /// The colour map's range of the displayed quantity.
    fn range(&self) -> (f32, f32);
    /// What the field is (for the colour bar).
    fn quantity(&self) -> &'static str;
    /// The Gaussian (centre x, centre y, radius, amplitude) a user's disturbance adds at `at`.
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4];

    /// Whether the view is a 3D surface (else a colour-mapped field).
    fn is_surface(&self) -> bool {
        false
    }

    /// For a surface: the bottom relief's shader uniform (base, slope, hill, radius).
    fn bottom_uniform(&self) -> [f32; 4] {
        [-1.0, 0.0, 0.0, 1.0]
    }

    /// Adds a disturbance at `at` (grid units).
    fn disturb(&mut self, at: [f32; 2]) -> Result<(), SimError> {
        let bump = self.disturbance(at);
        self.adi_mut().settle(bump)
    }
    /// The displayed field, read back in grid order.
    fn read(&self) -> Result<Vec<f32>, SimError> {
        self.adi().read()
    }
    /// Replaces the tridiagonal solver, keeping the state.
    fn set_solver(&mut self, solver: Box<dyn LineSolver>) -> Result<(), SimError> {
        self.adi_mut().set_solver(solver)
    }
}

pub use adi::Adi;
pub use solver::LineSolver;

/// The simulations by kind (the registry's entries map onto these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Heat,
    PollutantStream,
    PollutantVortex,
    ShallowWater,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Heat,
        Kind::PollutantStream,
        Kind::PollutantVortex,
        Kind::ShallowWater,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Kind::Heat => "heat",
            Kind::PollutantStream => "pollutant-stream",
            Kind::PollutantVortex => "pollutant-vortex",
            Kind::ShallowWater => "shallow-water",
        }
    }
    pub fn default_size(self) -> u32 {
        256
    }
    pub fn default_steps(self) -> u32 {
        match self {
            Kind::Heat => 200,
            Kind::PollutantStream => 200,
            Kind::PollutantVortex => 250,
            Kind::ShallowWater => 300,
        }
    }
}

/// Makes the simulation `kind` on an `n × n` grid with the solver called `solver`.
pub fn make(gl: &Gl, kind: Kind, n: u32, solver: &str) -> Result<Box<dyn Simulation>, SimError> {
    let s = solver::make(gl, solver, n, n)?;
    Ok(match kind {
        Kind::Heat => Box::new(heat::Heat::new(gl, heat::HeatParams::paper(n), s)?),
        Kind::PollutantStream => Box::new(pollutant::Pollutant::new(
            gl,
            pollutant::PollutantParams::stream(n),
            s,
        )?),
        Kind::PollutantVortex => Box::new(pollutant::Pollutant::new(
            gl,
            pollutant::PollutantParams::vortex(n),
            s,
        )?),
        Kind::ShallowWater => Box::new(shallow_water::ShallowWater::new(
            gl,
            shallow_water::WaterParams::paper(n),
            s,
        )?),
    })
}

/// What a headless run measured.
#[derive(Clone, Copy, Debug)]
pub struct RunStats {
    pub steps: u64,
    /// Time in the steps alone (`glFinish` at both ends; frame readback and PNG excluded).
    pub sim_time: Duration,
    pub frames: u32,
}

impl RunStats {
    pub fn fps(&self) -> f64 {
        self.steps as f64 / self.sim_time.as_secs_f64().max(1e-12)
    }
}

/// Runs `steps` steps headless, writing a frame every `every` steps (and at step 0) into
/// `frames` when given.
pub fn run_headless(
    sim: &mut dyn Simulation,
    steps: u32,
    frames: Option<&std::path::Path>,
    every: u32,
) -> Result<RunStats, SimError> {
    let gl = sim.adi().gl().clone();
    let mut stats = RunStats {
        steps: 0,
        sim_time: Duration::ZERO,
        frames: 0,
    };
    let mut renderer = None;
    let mut write = |sim: &dyn Simulation, stats: &mut RunStats| -> Result<(), SimError> {
        if let Some(dir) = frames {
            let path = dir.join(format!("{}_{:05}.png", sim.name(), sim.steps()));
            write_frame(sim, &path, &mut renderer)?;
            stats.frames += 1;
        }
        Ok(())
    };
    write(sim, &mut stats)?;
    let every = every.max(1);
    let mut done = 0;
    while done < steps {
        let chunk = every.min(steps - done);
        gl.finish();
        let t0 = Instant::now();
        for _ in 0..chunk {
            sim.step()?;
        }
        gl.finish();
        stats.sim_time += t0.elapsed();
        stats.steps += chunk as u64;
        done += chunk;
        write(sim, &mut stats)?;
    }
    Ok(stats)
}

/// Writes the frame of `sim` at `path`: the colour-mapped field with its colour bar, or for a
/// surface the lit 3D view (and the field beside it as `…_field.png`).
pub fn write_frame(
    sim: &dyn Simulation,
    path: &std::path::Path,
    renderer: &mut Option<render::Renderer>,
) -> Result<(), SimError> {
    if sim.is_surface() {
        if renderer.is_none() {
            *renderer = Some(render::Renderer::new(sim.adi().gl())?);
        }
        render::save_view(renderer.as_mut().unwrap(), sim, 800, 600, path)?;
        let field = path.with_file_name(format!(
            "{}_field.png",
            path.file_stem().unwrap_or_default().to_string_lossy()
        ));
        frames::write_frame(sim, &field)
    } else {
        frames::write_frame(sim, path)
    }
}

/// `sim biofet`: the command-line side of [`crate::papers::bicg::biofet::simulate`] (checks
/// the arguments, prints the run and its physics checks; a failed check is an error).
fn run_biofet(a: &SimArgs) -> anyhow::Result<()> {
    use crate::papers::bicg::biofet::{self, BiofetOutput, BiofetParams, Tolerances};
    if a.window {
        anyhow::bail!(
            "biofet has no live window view; run it headless and look at the PNG slices \
             (--frames DIR) and figures/bicg/biofet_double_layer.png"
        );
    }
    if let Some(s) = &a.solver
        && s != "bicg"
    {
        anyhow::bail!("biofet solves Poisson with its GL Bi-CG only (--solver bicg), not `{s}`");
    }
    let mut params = BiofetParams::default();
    if let Some(n) = a.size {
        params.n = n as usize;
    }
    if let Some(s) = a.steps {
        params.max_steps = s as usize;
    }
    params.validate()?;
    let g = gl::headless(&a.device).context("creating a headless GL context")?;
    eprintln!("{}", params.describe());
    let out = BiofetOutput {
        figures: Some(PathBuf::from("figures/bicg")),
        frames: a.frames.clone().map(|d| (d, a.every as usize)),
    };
    let report = biofet::simulate(&g, &params, &out)?;
    println!("{report}");
    println!("wrote {} files", report.written.len());
    let failed: Vec<String> = report
        .checks(&Tolerances::default())
        .iter()
        .filter(|c| !c.passed())
        .map(|c| {
            format!(
                "{}: deviation {:.3e} > tolerance {:.1e}",
                c.name, c.deviation, c.tolerance
            )
        })
        .collect();
    if !failed.is_empty() {
        anyhow::bail!("biofet checks FAILED: {}", failed.join("; "));
    }
    Ok(())
}

fn run_cli(kind: Kind, a: &SimArgs) -> anyhow::Result<()> {
    let n = a.size.unwrap_or(kind.default_size());
    let steps = a.steps.unwrap_or(kind.default_steps());
    let solver = a.solver.clone().unwrap_or(solver::DEFAULT.to_string());
    if a.window {
        return viewer::run(kind, n, &solver);
    }
    let g = gl::headless(&a.device).context("creating a headless GL context")?;
    eprintln!("device: {}", g.info().short());
    let mut sim = make(&g, kind, n, &solver)?;
    if let Some(dir) = &a.frames {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the frame folder {}", dir.display()))?;
    }
    let stats = run_headless(sim.as_mut(), steps, a.frames.as_deref(), a.every)?;
    println!(
        "{} {n}×{n}, solver {}: {} steps in {:.3} s = {:.1} FPS (steps per second; frame \
         output excluded){}",
        kind.name(),
        sim.adi().solver_name(),
        stats.steps,
        stats.sim_time.as_secs_f64(),
        stats.fps(),
        match &a.frames {
            Some(d) => format!("; {} frames in {}", stats.frames, d.display()),
            None => String::new(),
        }
    );
    Ok(())
}
