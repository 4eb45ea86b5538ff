//! The simulation's parameters, their ranges and the physical constants.

use super::error::BiofetError;
use crate::papers::bicg::cpu::BicgParams;

/// The screening-length fit uses the nodes within this many Debye lengths of the driven
/// electrode.
pub const FIT_SPAN: f64 = 1.5;

/// The largest accepted `n` (nodes along z): the explicit time step shrinks with h², so
/// larger boxes would not reach the steady state in any reasonable number of steps.
pub const MAX_NODES_Z: usize = 4096;

/// kT/q at 300 K, volts.
pub(super) const THERMAL_VOLTAGE: f64 = 0.025_852;

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
pub(super) fn time_step(h: f64) -> f64 {
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
