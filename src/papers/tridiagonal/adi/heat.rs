//! Simulation 1: unsteady heat conduction with Peaceman–Rachford ADI (Kim & Lee 2005 §2.1,
//! eq. 1 and 3; Fig. 12–14).
//!
//! ∂T/∂t = c ∇²T on an `n × n` grid (Δh = 1), Neumann boundaries (zero flux through the
//! walls), and two heat sources of uniform temperature left and right of the centre (Fig. 12)
//! whose cells are held at that temperature. One time step is two half-steps of Δt/2:
//!
//! ```text
//! x sweep:  -r T*_{i-1,j} + (1+2r) T*_{i,j} - r T*_{i+1,j} = T_{i,j} + r (T_{i,j+1} - 2T_{i,j} + T_{i,j-1})
//! y sweep:  the same with the roles of i and j exchanged, T* on the right,   r = c Δt / (2 Δh²)
//! ```
//!
//! The boundary rows use a ghost value equal to the edge value, so every row of the implicit
//! matrix sums to one and the explicit operator sums to zero over a line: with the sources off
//! the total heat is conserved exactly (up to f32 rounding). The scheme is unconditionally
//! stable; its amplification (1 - r λ)/(1 + r λ) tends to -1 for the shortest waves at large
//! r, which shows as a faint checkerboard next to a discontinuity (a property of
//! Peaceman–Rachford, not of the solver).

use crate::gl::Program;

use super::half_step::Sweep;
use super::scheme::{Fields, Scheme};
use crate::sim::SimError;

/// A heat source: a disc of cells held at `temperature`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Source {
    /// Centre in grid units (cell `(i, j)` has its centre at `(i + 0.5, j + 0.5)`).
    pub centre: [f32; 2],
    pub radius: f32,
    pub temperature: f32,
}

/// The heat simulation's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatParams {
    pub n: u32,
    /// Thermal diffusivity c (grid units² per time unit).
    pub diffusivity: f32,
    pub dt: f32,
    /// At most two sources (Fig. 12 has two).
    pub sources: Vec<Source>,
    /// Initial temperature field (grid order); `None`: zero everywhere.
    pub initial: Option<Vec<f32>>,
}

impl HeatParams {
    /// Our set-up after Fig. 12 (the paper gives no values): two sources at temperature 1 at
    /// 0.3 n and 0.7 n on the middle line, radius 0.05 n; c = 1, Δt = n/16 (so r = n/32: the
    /// heat reaches the walls in the same number of steps at every n). All of these numbers
    /// are ours.
    pub fn ours(n: u32) -> HeatParams {
        let nf = n as f32;
        let src = |x: f32| Source {
            centre: [x * nf, 0.5 * nf],
            radius: 0.05 * nf,
            temperature: 1.0,
        };
        HeatParams {
            n,
            diffusivity: 1.0,
            dt: nf / 16.0,
            sources: vec![src(0.3), src(0.7)],
            initial: None,
        }
    }

    /// r = c Δt / (2 Δh²), the coefficient of one half-step.
    pub fn r(&self) -> f64 {
        self.diffusivity as f64 * self.dt as f64 / 2.0
    }

    fn source_at(&self, i: usize, j: usize) -> Option<f32> {
        let (x, y) = (i as f32 + 0.5, j as f32 + 0.5);
        self.sources.iter().find_map(|s| {
            let (dx, dy) = (x - s.centre[0], y - s.centre[1]);
            (dx * dx + dy * dy < s.radius * s.radius).then_some(s.temperature)
        })
    }
}

impl Scheme for HeatParams {
    fn name(&self) -> &'static str {
        "heat"
    }
    fn n(&self) -> u32 {
        self.n
    }
    fn check(&self) -> Result<(), SimError> {
        if self.sources.len() > 2 {
            return Err(SimError::Params("at most two heat sources".into()));
        }
        let ok = self.dt.is_finite()
            && self.dt > 0.0
            && self.diffusivity.is_finite()
            && self.diffusivity >= 0.0;
        if !ok {
            return Err(SimError::Params(format!(
                "Δt = {} must be positive and c = {} non-negative, both finite",
                self.dt, self.diffusivity
            )));
        }
        Ok(())
    }
    fn given_initial(&self) -> Option<&[f32]> {
        self.initial.as_deref()
    }
    fn shader(&self) -> &'static str {
        "tridiagonal/sim/heat_build.frag"
    }
    fn uniforms(&self, p: &Program, _step: u64, _sweep: Sweep) {
        let mut src = [[0f32; 4]; 2];
        for (s, q) in src.iter_mut().zip(&self.sources) {
            *s = [q.centre[0], q.centre[1], q.radius, q.temperature];
        }
        p.set_f32("u_r", self.r() as f32);
        p.set_i32("u_nsrc", self.sources.len() as i32);
        p.set_vec4("u_src[0]", src[0]);
        p.set_vec4("u_src[1]", src[1]);
    }
    fn equation(&self, f: &Fields, _step: u64, sweep: Sweep, g: [usize; 2], i: usize) -> [f64; 4] {
        if let Some(temp) = self.source_at(g[0], g[1]) {
            return [0.0, 1.0, 0.0, temp as f64];
        }
        let r = self.r();
        let (_, across) = sweep.along_across();
        let g = [g[0] as isize, g[1] as isize];
        let t0 = f.at(f.now, g);
        let tp = f.at(f.now, [g[0] + across[0], g[1] + across[1]]);
        let tm = f.at(f.now, [g[0] - across[0], g[1] - across[1]]);
        let a = if i == 0 { 0.0 } else { -r };
        let c = if i == f.n - 1 { 0.0 } else { -r };
        [a, 1.0 - a - c, c, t0 + r * (tp - 2.0 * t0 + tm)]
    }
    fn quantity(&self) -> &'static str {
        "temperature"
    }
    fn range(&self) -> (f32, f32) {
        let hi = self
            .sources
            .iter()
            .map(|s| s.temperature)
            .fold(0.0f32, f32::max);
        (0.0, if hi > 0.0 { hi } else { 1.0 })
    }
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4] {
        [at[0], at[1], 0.03 * self.n as f32, self.range().1]
    }
}
