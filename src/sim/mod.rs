//! The simulations' generic layer: what any simulation on a 2D grid offers ([`Simulation`]),
//! a headless run ([`headless`]: steps per second, PNG frames), and the live viewer.
//!
//! Nothing here knows a paper: the simulations themselves live with the paper they come from
//! (the ADI simulations of Kim & Lee 2005 in `papers::tridiagonal::sim`, BioFET in
//! `papers::bicg::biofet`) and are listed once, in the registry. The papers use this layer;
//! it uses only `gl` and `report`.
//!
//! [`frames`] writes a field as a PNG (viridis with its colour bar), [`render`] draws it on
//! the GPU (the colour-mapped field, or a lit 3D surface); [`viewer`] shows a simulation live
//! ([`live`] its frame, [`overlay`] the colour bar and text drawn in the window, [`split`] two
//! solvers side by side on the same state).

pub mod frames;
pub mod headless;
pub mod live;
pub mod overlay;
pub mod render;
pub mod split;
pub mod viewer;

use std::path::PathBuf;

use crate::gl::{DeviceSelector, Gl, GlError, Need, Program, Texture};

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

/// Makes a simulation on an `n × n` grid with the solver called so.
pub type MakeSim = fn(&Gl, u32, &str) -> Result<Box<dyn Simulation>, SimError>;

/// The solvers a kind of simulation can switch between live (the viewer's `S` key) and the
/// one the split view (`V`) compares with.
pub struct Solvers {
    /// The `--solver` names to cycle through, the default first.
    pub names: &'static [&'static str],
    /// What the solver called so needs from the device.
    pub needs: fn(&str) -> &'static [Need],
    /// The split view's reference solver (the 2005 paper's baseline, CPU Thomas).
    pub baseline: &'static str,
}

impl Solvers {
    /// The solver a simulation uses unless told otherwise.
    pub fn default_name(&self) -> &'static str {
        self.names[0]
    }

    /// The solver the split view compares `solver` with: the baseline, or the default when
    /// `solver` is the baseline itself.
    pub fn partner(&self, solver: &str) -> &'static str {
        if solver == self.baseline {
            self.default_name()
        } else {
            self.baseline
        }
    }
}

/// A simulation's current field on the GPU and its layout: `transposed` when texel `(i, j)`
/// holds grid point `(j, i)` (an ADI y sweep's output).
#[derive(Clone, Copy)]
pub struct FieldRef<'a> {
    pub tex: &'a Texture,
    pub transposed: bool,
}

impl FieldRef<'_> {
    /// The value of a shader's layout flag for this field.
    pub fn flag(&self) -> i32 {
        self.transposed as i32
    }

    /// Binds the field's texture to sampler `name` on texture unit `unit`, and its layout
    /// flag to the uniform `{name}_t` (every shader that reads a field takes both).
    pub fn bind(&self, p: &Program, unit: u32, name: &str) {
        p.bind_texture(unit, name, self.tex);
        p.set_i32(&format!("{name}_t"), self.flag());
    }
}

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
    /// The GL context the simulation lives in.
    fn gl(&self) -> &Gl;
    /// Grid points per line (the field is `n × n`).
    fn n(&self) -> u32;
    /// The solver's `--solver` name.
    fn solver_name(&self) -> &str;
    /// The current field on the GPU, as the display passes read it.
    fn state(&self) -> FieldRef<'_>;
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
    fn disturb(&mut self, at: [f32; 2]) -> Result<(), SimError>;
    /// The displayed field, read back in grid order.
    fn read(&self) -> Result<Vec<f32>, SimError>;
    /// Replaces the solver by the one called `name`, keeping the state.
    fn set_solver(&mut self, name: &str) -> Result<(), SimError>;
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
