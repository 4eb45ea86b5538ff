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

use std::rc::Rc;

use crate::gl::{Gl, Program};

use super::adi::{Adi, Sweep};
use super::solver::{LineSolver, thomas};
use super::{SimError, Simulation};

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
    /// Fig. 12: two sources at temperature 1 left and right of the centre, Δt = n/16.
    pub fn paper(n: u32) -> HeatParams {
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

    fn init(&self) -> Vec<f32> {
        self.initial
            .clone()
            .unwrap_or_else(|| vec![0.0; (self.n * self.n) as usize])
    }

    fn check(&self) -> Result<(), SimError> {
        check_grid(self.n)?;
        if self.sources.len() > 2 {
            return Err(SimError::Params("at most two heat sources".into()));
        }
        if !(self.dt > 0.0 && self.diffusivity >= 0.0) {
            return Err(SimError::Params(format!(
                "Δt = {} and c = {} must be positive",
                self.dt, self.diffusivity
            )));
        }
        if let Some(v) = &self.initial
            && v.len() != (self.n * self.n) as usize
        {
            return Err(SimError::Params("initial field of the wrong size".into()));
        }
        Ok(())
    }

    fn source_at(&self, i: usize, j: usize) -> Option<f32> {
        let (x, y) = (i as f32 + 0.5, j as f32 + 0.5);
        self.sources.iter().find_map(|s| {
            let (dx, dy) = (x - s.centre[0], y - s.centre[1]);
            (dx * dx + dy * dy < s.radius * s.radius).then_some(s.temperature)
        })
    }
}

pub(crate) fn check_grid(n: u32) -> Result<(), SimError> {
    if !(4..=8192).contains(&n) {
        return Err(SimError::Params(format!("grid size {n}: must be 4..=8192")));
    }
    Ok(())
}

/// The heat simulation on the GPU.
pub struct Heat {
    params: HeatParams,
    adi: Adi,
    build: Rc<Program>,
    steps: u64,
}

impl Heat {
    pub fn new(gl: &Gl, params: HeatParams, solver: Box<dyn LineSolver>) -> Result<Heat, SimError> {
        params.check()?;
        let adi = Adi::new(gl, params.n, &params.init(), solver)?;
        Ok(Heat {
            build: Program::fragment(gl, "sim/heat_build.frag", &[])?,
            params,
            adi,
            steps: 0,
        })
    }

    pub fn params(&self) -> &HeatParams {
        &self.params
    }

    fn half(&mut self, sweep: Sweep) -> Result<(), SimError> {
        let r = self.params.r() as f32;
        let mut src = [[0f32; 4]; 2];
        for (s, p) in src.iter_mut().zip(&self.params.sources) {
            *s = [p.centre[0], p.centre[1], p.radius, p.temperature];
        }
        let nsrc = self.params.sources.len() as i32;
        self.adi.half_step(sweep, &self.build, |p, state| {
            p.bind_texture(0, "u_state", state.tex);
            p.set_i32("u_state_t", state.flag());
            p.set_f32("u_r", r);
            p.set_i32("u_nsrc", nsrc);
            p.set_vec4("u_src[0]", src[0]);
            p.set_vec4("u_src[1]", src[1]);
        })
    }
}

impl Simulation for Heat {
    fn name(&self) -> &'static str {
        "heat"
    }
    fn adi(&self) -> &Adi {
        &self.adi
    }
    fn adi_mut(&mut self) -> &mut Adi {
        &mut self.adi
    }
    fn step(&mut self) -> Result<(), SimError> {
        self.half(Sweep::X)?;
        self.half(Sweep::Y)?;
        self.steps += 1;
        Ok(())
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn reset(&mut self) -> Result<(), SimError> {
        self.steps = 0;
        self.adi.reset(&self.params.init())
    }
    fn range(&self) -> (f32, f32) {
        let hi = self
            .params
            .sources
            .iter()
            .map(|s| s.temperature)
            .fold(0.0f32, f32::max);
        (0.0, if hi > 0.0 { hi } else { 1.0 })
    }
    fn quantity(&self) -> &'static str {
        "temperature"
    }
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4] {
        let n = self.params.n as f32;
        [at[0], at[1], 0.03 * n, self.range().1]
    }
}

/// The same scheme on the CPU in f64: the reference the GPU step is checked against.
pub struct HeatCpu {
    pub params: HeatParams,
    /// Temperature, grid order (row `j`, column `i` at `j * n + i`).
    pub t: Vec<f64>,
}

impl HeatCpu {
    pub fn new(params: HeatParams) -> Result<HeatCpu, SimError> {
        params.check()?;
        let t = params.init().iter().map(|&v| v as f64).collect();
        Ok(HeatCpu { params, t })
    }

    /// One Peaceman–Rachford step (two half-steps).
    pub fn step(&mut self) {
        self.half(Sweep::X);
        self.half(Sweep::Y);
    }

    fn half(&mut self, sweep: Sweep) {
        let n = self.params.n as usize;
        let r = self.params.r();
        let at = |t: &[f64], i: isize, j: isize| {
            let c = |v: isize| v.clamp(0, n as isize - 1) as usize;
            t[c(j) * n + c(i)]
        };
        let (mut a, mut b, mut c, mut k) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let (mut x, mut cp) = (vec![0.0; n], vec![0.0; n]);
        let mut out = vec![0.0; n * n];
        for line in 0..n {
            for i in 0..n {
                let (gi, gj) = match sweep {
                    Sweep::X => (i, line),
                    Sweep::Y => (line, i),
                };
                if let Some(temp) = self.params.source_at(gi, gj) {
                    (a[i], b[i], c[i], k[i]) = (0.0, 1.0, 0.0, temp as f64);
                    continue;
                }
                let (gi, gj) = (gi as isize, gj as isize);
                let t0 = at(&self.t, gi, gj);
                let (tp, tm) = match sweep {
                    Sweep::X => (at(&self.t, gi, gj + 1), at(&self.t, gi, gj - 1)),
                    Sweep::Y => (at(&self.t, gi + 1, gj), at(&self.t, gi - 1, gj)),
                };
                a[i] = if i == 0 { 0.0 } else { -r };
                c[i] = if i == n - 1 { 0.0 } else { -r };
                b[i] = 1.0 - a[i] - c[i];
                k[i] = t0 + r * (tp - 2.0 * t0 + tm);
            }
            thomas(&a, &b, &c, &k, &mut x, &mut cp);
            for i in 0..n {
                match sweep {
                    Sweep::X => out[line * n + i] = x[i],
                    Sweep::Y => out[i * n + line] = x[i],
                }
            }
        }
        self.t = out;
    }
}
