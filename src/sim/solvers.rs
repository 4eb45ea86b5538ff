//! Making a simulation ([`MakeSim`]) and the solvers it can switch between ([`Solvers`]).

use crate::gl::caps::Need;
use crate::gl::context::Gl;

use super::error::SimError;
use super::simulation::Simulation;

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
