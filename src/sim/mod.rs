//! Simulations built on the papers' solvers (`gpgpu-repro sim NAME`), and their registry.
//!
//! The ADI simulations of Kim & Lee 2005 (§2 and §4): [`heat`] (simulation 1), [`pollutant`]
//! (simulation 2, two scenarios) and [`shallow_water`] (simulation 3), each a short
//! description of its equations (a [`scheme::Scheme`]) run by one generic base
//! ([`scheme::AdiSim`] on the GPU, [`scheme::AdiCpu`] its f64 twin). Every half-step is a
//! batch of tridiagonal systems built by a fragment pass from state that lives in GL textures
//! ([`adi`]) and solved on the GPU by a `papers::tridiagonal` [`BatchSolver`](crate::papers::tridiagonal::BatchSolver)
//! ([`solver`]); the state is read back only to write a PNG frame ([`frames`]) or to check
//! it. [`viewer`] shows a simulation live ([`live`] its frame, [`overlay`] the colour bar and
//! text drawn in the window, [`split`] two solvers side by side on the same state). [`SIMS`] is the one list of simulations.

pub mod adi;
pub mod config;
pub mod figures;
pub mod frames;
pub mod heat;
pub mod live;
pub mod overlay;
pub mod pollutant;
pub mod render;
pub mod scheme;
pub mod shallow_water;
pub mod solver;
pub mod split;
pub mod viewer;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::gl::{DeviceSelector, Gl, GlError};

use scheme::{AdiCpu, AdiSim, Scheme};

/// The command-line options every simulation takes.
#[derive(Clone, Debug)]
pub struct SimArgs {
    /// Grid size as the papers count it (N′ = 2^q points per line for the paper's "1024 ×
    /// 1024"; an ADI simulation solves N′ - 1 unknowns per line); `None`: the default.
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
    /// For the ADI simulations: how to make one and its CPU reference.
    pub adi: Option<AdiSpec>,
}

/// Makes an ADI simulation on an `n × n` grid with the solver called so.
pub type MakeSim = fn(&Gl, u32, &str) -> Result<Box<dyn Simulation>, SimError>;

/// What the figures, the tests and the viewer need of an ADI simulation.
pub struct AdiSpec {
    /// Time steps of a `sim` run without `--steps`.
    pub default_steps: u32,
    /// The simulation on an `n × n` grid (n unknowns per line) with the solver called so.
    pub make: MakeSim,
    /// Its CPU f64 twin's state after `steps` steps on an `n × n` grid.
    pub reference: fn(u32, u32) -> Result<Vec<f64>, SimError>,
}

/// The grid of a `sim` run without `--size`: N′ = 256 (255 unknowns per line).
pub const DEFAULT_SIZE: u32 = 256;

/// Every simulation the `sim` command knows.
pub static SIMS: &[&SimEntry] = &[&HEAT, &POLLUTANT_STREAM, &POLLUTANT_VORTEX, &SHALLOW_WATER];

/// The ADI simulations of [`SIMS`], with their [`AdiSpec`].
pub fn adi_sims() -> impl Iterator<Item = (&'static SimEntry, &'static AdiSpec)> {
    SIMS.iter().filter_map(|e| e.adi.as_ref().map(|a| (*e, a)))
}

/// The ADI simulation with this name.
pub fn find_adi(name: &str) -> Option<&'static AdiSpec> {
    adi_sims().find(|(e, _)| e.name == name).map(|(_, a)| a)
}

fn boxed<S: Scheme + 'static>(
    gl: &Gl,
    s: S,
    solver: &str,
) -> Result<Box<dyn Simulation>, SimError> {
    Ok(Box::new(AdiSim::new(gl, s, solver)?))
}

/// The [`SimEntry`] of an ADI simulation: its name, its line, the steps of a run without
/// `--steps`, and the function giving its parameters on an `n × n` grid (the GPU simulation
/// and its CPU reference both start from them).
macro_rules! adi_entry {
    ($name:literal, $about:literal, $steps:literal, $params:path) => {
        SimEntry {
            name: $name,
            about: $about,
            adi: Some(AdiSpec {
                default_steps: $steps,
                make: |g, n, s| boxed(g, $params(n), s),
                reference: |n, k| AdiCpu::run($params(n), k),
            }),
        }
    };
}

pub static HEAT: SimEntry = adi_entry!(
    "heat",
    "heat conduction, Peaceman–Rachford ADI, Neumann walls, two sources (Kim & Lee 2005 sim. 1)",
    200,
    heat::HeatParams::ours
);
pub static POLLUTANT_STREAM: SimEntry = adi_entry!(
    "pollutant-stream",
    "pollutant advection–diffusion in a uniform stream, continuous source (sim. 2a)",
    200,
    pollutant::PollutantParams::stream_ours
);
pub static POLLUTANT_VORTEX: SimEntry = adi_entry!(
    "pollutant-vortex",
    "pollutant advection–diffusion in a rotating flow, short release (sim. 2b)",
    250,
    pollutant::PollutantParams::vortex_ours
);
pub static SHALLOW_WATER: SimEntry = adi_entry!(
    "shallow-water",
    "shallow water after Kass & Miller 1990, diagonal disturbance, 3D surface (sim. 3)",
    300,
    shallow_water::WaterParams::ours
);

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
    /// Replaces the tridiagonal solver by the one called `name`, keeping the state.
    fn set_solver(&mut self, name: &str) -> Result<(), SimError> {
        self.adi_mut().set_solver(name)
    }
    /// Everything a simulation of the same scheme and grid needs to go on from here.
    fn snapshot(&self) -> Result<Snapshot, SimError>;
    /// Goes on from `s` (a [`Simulation::snapshot`] of the same scheme and grid).
    fn restore(&mut self, s: &Snapshot) -> Result<(), SimError>;
}

/// A simulation's state at one step: what the split view's second solver starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The state, grid order.
    pub state: Vec<f32>,
    /// The state before it, for schemes that keep one.
    pub prev: Option<Vec<f32>>,
    pub steps: u64,
}

pub use adi::Adi;

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

/// The `--size` range: the grid N′ as the papers count it (their "1024 × 1024" is N′ =
/// 1024); an ADI simulation solves N′ - 1 unknowns per line (§3.1's N = N′ - 1), so this is
/// [`scheme::GRID_RANGE`] plus one.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> =
    *scheme::GRID_RANGE.start() + 1..=*scheme::GRID_RANGE.end() + 1;

/// The unknowns per line of `--size` N′ (see [`SIZE_RANGE`]), or the range message.
pub fn grid_of_size(size: u32) -> Result<u32, SimError> {
    if !SIZE_RANGE.contains(&size) {
        return Err(SimError::Params(format!(
            "--size {size}: must be {}..={} (the grid N′ as the paper counts it, e.g. 1024; \
             N′ - 1 unknowns per line are solved)",
            SIZE_RANGE.start(),
            SIZE_RANGE.end()
        )));
    }
    Ok(size - 1)
}
