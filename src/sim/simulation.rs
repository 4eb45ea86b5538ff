//! What any simulation on a 2D grid offers ([`Simulation`]): its field on the GPU
//! ([`FieldRef`]), a step, a reset, a disturbance, a [`Snapshot`] to go on from.

use crate::gl::context::Gl;
use crate::gl::program::Program;
use crate::gl::texture::Texture;

use super::error::SimError;

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
