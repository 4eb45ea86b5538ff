//! The live viewer's split view: the same simulation with a second solver, side by side.
//!
//! The second simulation is made with the partner solver ([`Solvers::partner`]: CPU Thomas,
//! the 2005 paper's baseline, or the default when the first one is Thomas) and starts from the first one's state
//! ([`Simulation::snapshot`] / [`Simulation::restore`]: state, previous state, step count);
//! from then on both take every step, and every disturbance, together. Each step is timed on
//! its own, between two `glFinish` calls, so that one solver's queued GPU work is not billed to
//! the other: the steps per second shown are each solver's alone. Twice a second both fields
//! are read back and their largest difference computed ([`max_abs_diff`]): for cyclic
//! reduction against Thomas it stays at float rounding level (both solve the same systems
//! exactly, in a different order of operations), while the FPS tell which is faster here.

use std::time::{Duration, Instant};

use super::error::SimError;
use super::simulation::Simulation;
use super::solvers::{MakeSim, Solvers};

/// The largest `|a_i − b_i|`; infinite where one value is finite and the other not (or both
/// non-finite), `None` for fields of different or zero length.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> Option<f32> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    Some(a.iter().zip(b).fold(0.0f32, |m, (x, y)| {
        let d = (x - y).abs();
        m.max(if d.is_finite() { d } else { f32::INFINITY })
    }))
}

/// "A n.n× faster than B" for steps per second `rates` of solvers `names` (empty when a
/// rate is not yet known).
pub fn speed_line(names: [&str; 2], rates: [f64; 2]) -> String {
    let [a, b] = rates;
    if !(a > 0.0 && b > 0.0) {
        return String::new();
    }
    let (fast, slow, ratio) = if a >= b {
        (names[0], names[1], a / b)
    } else {
        (names[1], names[0], b / a)
    };
    format!("{fast} {ratio:.1}× faster than {slow}")
}

/// The second simulation of a split view and what was measured of both.
pub struct Split {
    pub other: Box<dyn Simulation>,
    busy: [Duration; 2],
    steps: u32,
    /// Steps per second of each solver alone, over the last measuring interval.
    pub rates: [f64; 2],
    /// The largest difference between the two fields at the last measurement.
    pub diff: Option<f32>,
}

impl Split {
    /// A second simulation like `first` (made by `make`) with the partner of its solver
    /// among `solvers`, at `first`'s state.
    pub fn new(
        first: &dyn Simulation,
        make: MakeSim,
        solvers: &Solvers,
    ) -> Result<Split, SimError> {
        let gl = first.gl().clone();
        let name = solvers.partner(first.solver_name());
        let mut other = make(&gl, first.n(), name)?;
        other.restore(&first.snapshot()?)?;
        Ok(Split {
            other,
            busy: [Duration::ZERO; 2],
            steps: 0,
            rates: [0.0; 2],
            diff: Some(0.0),
        })
    }

    /// One step of each, timed apart.
    pub fn step(&mut self, first: &mut dyn Simulation) -> Result<(), SimError> {
        let gl = first.gl().clone();
        for (i, sim) in [first, self.other.as_mut()].into_iter().enumerate() {
            gl.finish();
            let t0 = Instant::now();
            sim.step()?;
            gl.finish();
            self.busy[i] += t0.elapsed();
        }
        self.steps += 1;
        Ok(())
    }

    /// Turns the time since the last call into steps per second, and compares the fields.
    pub fn measure(&mut self, first: &dyn Simulation) -> Result<(), SimError> {
        if self.steps > 0 {
            self.rates = self
                .busy
                .map(|t| self.steps as f64 / t.as_secs_f64().max(1e-9));
        }
        self.busy = [Duration::ZERO; 2];
        self.steps = 0;
        self.diff = max_abs_diff(&first.read()?, &self.other.read()?);
        Ok(())
    }

    /// The line under the two fields: their difference and which solver is faster.
    pub fn footer(&self, first: &dyn Simulation) -> String {
        let names = [first.solver_name(), self.other.solver_name()];
        let diff = self.diff.map_or("–".to_string(), |d| format!("{d:.1e}"));
        let speed = speed_line(names, self.rates);
        let sep = if speed.is_empty() { "" } else { "   ·   " };
        format!("max |{} − {}| = {diff}{sep}{speed}", names[0], names[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_abs_diff_known_answers() {
        assert_eq!(max_abs_diff(&[1.0, 2.0, 3.0], &[1.5, 2.0, 1.0]), Some(2.0));
        assert_eq!(max_abs_diff(&[0.0; 4], &[0.0; 4]), Some(0.0));
        assert_eq!(
            max_abs_diff(&[1.0, f32::NAN], &[1.0, 0.0]),
            Some(f32::INFINITY)
        );
        assert_eq!(max_abs_diff(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(max_abs_diff(&[], &[]), None);
    }

    #[test]
    fn speed_line_names_the_faster() {
        assert_eq!(
            speed_line(["cr", "thomas"], [30.0, 10.0]),
            "cr 3.0× faster than thomas"
        );
        assert_eq!(
            speed_line(["cr", "thomas"], [10.0, 25.0]),
            "thomas 2.5× faster than cr"
        );
        assert_eq!(speed_line(["cr", "thomas"], [0.0, 25.0]), "");
    }
}
