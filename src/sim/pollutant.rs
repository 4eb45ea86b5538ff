//! Simulation 2: pollutant advection–diffusion (Kim & Lee 2005 §2.2, eq. 6 and 8; Fig. 15–18).
//!
//! ∂C/∂t + u ∂C/∂x + v ∂C/∂y = D ∇²C + S on an `n × n` grid (Δh = 1). The fully implicit
//! five-point scheme (eq. 7) needs a penta-diagonal solve; eq. 8 splits it ADI-style with the
//! *upwind* difference Δ* in the implicit direction and the *central* Δ⁰ in the explicit one:
//!
//! ```text
//! (C* - C)/(Δt/2)  = -u Δ*_x C*  - v Δ⁰_y C  + D (Δ_xx C* + Δ_yy C)  + S
//! (C' - C*)/(Δt/2) = -u Δ⁰_x C*  - v Δ*_y C' + D (Δ_xx C* + Δ_yy C') + S
//! ```
//!
//! Each implicit operator is an M-matrix (non-positive off-diagonals, strictly dominant
//! diagonal), and per Fourier mode |1 + implicit symbol| ≥ |1 - explicit symbol|, so the
//! scheme is unconditionally stable: it stays bounded at time steps far above the explicit
//! limit Δt ≤ min(Δh/(|u|+|v|), Δh²/(4D)) (see `tests/sims.rs`). It is *not* positivity
//! preserving for every Δt: the explicit central half may undershoot where the cell Péclet
//! number |w| Δh / D exceeds 2; with Δt inside the explicit limit it stays non-negative.
//! Boundaries are zero-gradient (ghost = edge value).
//!
//! Two scenarios: [`PollutantParams::stream`], a uniform flow along x with a continuous source
//! left of the centre (Fig. 15/16), and [`PollutantParams::vortex`], a rotation of constant
//! angular velocity ω about the centre with a short release near the lower left (Fig. 17/18).

use std::rc::Rc;

use crate::gl::{Gl, Program};

use super::adi::{Adi, Sweep};
use super::heat::check_grid;
use super::solver::{LineSolver, thomas};
use super::{SimError, Simulation};

/// The velocity field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Flow {
    /// Uniform velocity (u, v).
    Stream([f32; 2]),
    /// Rotation about the grid centre: (u, v) = ω (-(y - y_c), x - x_c).
    Vortex(f32),
}

impl Flow {
    /// The velocity at `x` (grid units) on an `n × n` grid, in f64 for the reference.
    pub fn at(&self, x: [f64; 2], n: u32) -> [f64; 2] {
        match *self {
            Flow::Stream(v) => [v[0] as f64, v[1] as f64],
            Flow::Vortex(w) => {
                let c = 0.5 * n as f64;
                let w = w as f64;
                [-w * (x[1] - c), w * (x[0] - c)]
            }
        }
    }
}

/// A source disc releasing `rate` (concentration per time unit) while `step < until`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Release {
    pub centre: [f32; 2],
    pub radius: f32,
    pub rate: f32,
    /// Steps the source is on; `None`: always.
    pub until: Option<u64>,
}

/// The pollutant simulation's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct PollutantParams {
    pub n: u32,
    pub flow: Flow,
    /// Diffusion coefficient D.
    pub diffusion: f32,
    pub dt: f32,
    pub source: Option<Release>,
    /// Initial concentration (grid order); `None`: zero.
    pub initial: Option<Vec<f32>>,
    /// Upper end of the colour map.
    pub display_max: f32,
}

impl PollutantParams {
    /// Fig. 15/16: stream along x at n/512 cells per time unit, continuous source at
    /// (0.2 n, 0.5 n); Δt = 2. Speeds and D scale with n so the pictures match across sizes.
    pub fn stream(n: u32) -> PollutantParams {
        let s = n as f32 / 256.0;
        PollutantParams {
            n,
            flow: Flow::Stream([0.5 * s, 0.0]),
            diffusion: 0.5 * s * s,
            dt: 2.0,
            source: Some(Release {
                centre: [0.2 * n as f32, 0.5 * n as f32],
                radius: 0.025 * n as f32,
                rate: 0.05,
                until: None,
            }),
            initial: None,
            display_max: 1.0,
        }
    }

    /// Fig. 17/18: rotation at ω = 2π / 500 (one turn in 250 steps of Δt = 2), release at
    /// (0.25 n, 0.25 n) during the first 10 steps.
    pub fn vortex(n: u32) -> PollutantParams {
        let s = n as f32 / 256.0;
        PollutantParams {
            n,
            flow: Flow::Vortex(std::f32::consts::TAU / 500.0),
            diffusion: 0.1 * s * s,
            dt: 2.0,
            source: Some(Release {
                centre: [0.25 * n as f32, 0.25 * n as f32],
                radius: 0.04 * n as f32,
                rate: 0.1,
                until: Some(10),
            }),
            initial: None,
            display_max: 1.0,
        }
    }

    /// The largest Δt an explicit (forward Euler, upwind) scheme could take on this grid:
    /// min(Δh / max(|u| + |v|), Δh² / (4 D)).
    pub fn explicit_limit(&self) -> f64 {
        let n = self.n;
        let mut vmax = 0.0f64;
        for (i, j) in [
            (0, 0),
            (n - 1, 0),
            (0, n - 1),
            (n - 1, n - 1),
            (n / 2, n / 2),
        ] {
            let v = self.flow.at([i as f64 + 0.5, j as f64 + 0.5], n);
            vmax = vmax.max(v[0].abs() + v[1].abs());
        }
        let adv = if vmax > 0.0 {
            1.0 / vmax
        } else {
            f64::INFINITY
        };
        let dif = if self.diffusion > 0.0 {
            0.25 / self.diffusion as f64
        } else {
            f64::INFINITY
        };
        adv.min(dif)
    }

    fn init(&self) -> Vec<f32> {
        self.initial
            .clone()
            .unwrap_or_else(|| vec![0.0; (self.n * self.n) as usize])
    }

    fn check(&self) -> Result<(), SimError> {
        check_grid(self.n)?;
        if !(self.dt > 0.0 && self.diffusion >= 0.0) {
            return Err(SimError::Params("Δt must be positive and D ≥ 0".into()));
        }
        if let Some(v) = &self.initial
            && v.len() != (self.n * self.n) as usize
        {
            return Err(SimError::Params("initial field of the wrong size".into()));
        }
        Ok(())
    }

    /// The source term at cell `(i, j)` during step `step`.
    fn source_at(&self, i: usize, j: usize, step: u64) -> f64 {
        match self.source {
            Some(r) if r.until.is_none_or(|u| step < u) => {
                let (dx, dy) = (i as f32 + 0.5 - r.centre[0], j as f32 + 0.5 - r.centre[1]);
                if dx * dx + dy * dy < r.radius * r.radius {
                    r.rate as f64
                } else {
                    0.0
                }
            }
            _ => 0.0,
        }
    }

    fn source_uniform(&self, step: u64) -> [f32; 4] {
        match self.source {
            Some(r) if r.until.is_none_or(|u| step < u) => {
                [r.centre[0], r.centre[1], r.radius, r.rate]
            }
            _ => [0.0; 4],
        }
    }
}

/// The pollutant simulation on the GPU.
pub struct Pollutant {
    params: PollutantParams,
    adi: Adi,
    build: Rc<Program>,
    steps: u64,
    name: &'static str,
}

impl Pollutant {
    pub fn new(
        gl: &Gl,
        params: PollutantParams,
        solver: Box<dyn LineSolver>,
    ) -> Result<Pollutant, SimError> {
        params.check()?;
        let adi = Adi::new(gl, params.n, &params.init(), solver)?;
        let name = match params.flow {
            Flow::Stream(_) => "pollutant-stream",
            Flow::Vortex(_) => "pollutant-vortex",
        };
        Ok(Pollutant {
            build: Program::fragment(gl, "sim/pollutant_build.frag", &[])?,
            params,
            adi,
            steps: 0,
            name,
        })
    }

    pub fn params(&self) -> &PollutantParams {
        &self.params
    }

    fn half(&mut self, sweep: Sweep) -> Result<(), SimError> {
        let p = &self.params;
        let lambda = p.dt / 2.0;
        let alpha = lambda * p.diffusion;
        let (mode, vel, omega) = match p.flow {
            Flow::Stream(v) => (0, v, 0.0),
            Flow::Vortex(w) => (1, [0.0; 2], w),
        };
        let src = p.source_uniform(self.steps);
        self.adi.half_step(sweep, &self.build, |pr, state| {
            pr.bind_texture(0, "u_state", state.tex);
            pr.set_i32("u_state_t", state.flag());
            pr.set_f32("u_lambda", lambda);
            pr.set_f32("u_alpha", alpha);
            pr.set_i32("u_flow", mode);
            pr.set_vec2("u_vel", vel);
            pr.set_f32("u_omega", omega);
            pr.set_vec4("u_src", src);
        })
    }
}

impl Simulation for Pollutant {
    fn name(&self) -> &'static str {
        self.name
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
        (0.0, self.params.display_max)
    }
    fn quantity(&self) -> &'static str {
        "concentration"
    }
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4] {
        [
            at[0],
            at[1],
            0.03 * self.params.n as f32,
            self.params.display_max,
        ]
    }
}

/// The same scheme on the CPU in f64.
pub struct PollutantCpu {
    pub params: PollutantParams,
    /// Concentration, grid order.
    pub c: Vec<f64>,
    pub steps: u64,
}

impl PollutantCpu {
    pub fn new(params: PollutantParams) -> Result<PollutantCpu, SimError> {
        params.check()?;
        let c = params.init().iter().map(|&v| v as f64).collect();
        Ok(PollutantCpu {
            params,
            c,
            steps: 0,
        })
    }

    pub fn step(&mut self) {
        self.half(Sweep::X);
        self.half(Sweep::Y);
        self.steps += 1;
    }

    fn half(&mut self, sweep: Sweep) {
        let p = &self.params;
        let n = p.n as usize;
        let lambda = p.dt as f64 / 2.0;
        let alpha = lambda * p.diffusion as f64;
        let at = |c: &[f64], i: isize, j: isize| {
            let cl = |v: isize| v.clamp(0, n as isize - 1) as usize;
            c[cl(j) * n + cl(i)]
        };
        let (mut a, mut b, mut cc, mut k) =
            (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let (mut x, mut cp) = (vec![0.0; n], vec![0.0; n]);
        let mut out = vec![0.0; n * n];
        for line in 0..n {
            for i in 0..n {
                let (gi, gj) = match sweep {
                    Sweep::X => (i, line),
                    Sweep::Y => (line, i),
                };
                let vel = p.flow.at([gi as f64 + 0.5, gj as f64 + 0.5], p.n);
                let (w, wt) = match sweep {
                    Sweep::X => (vel[0], vel[1]),
                    Sweep::Y => (vel[1], vel[0]),
                };
                let (si, sj) = (gi as isize, gj as isize);
                let c0 = at(&self.c, si, sj);
                let (cpl, cmi) = match sweep {
                    Sweep::X => (at(&self.c, si, sj + 1), at(&self.c, si, sj - 1)),
                    Sweep::Y => (at(&self.c, si + 1, sj), at(&self.c, si - 1, sj)),
                };
                a[i] = -lambda * w.max(0.0) - alpha;
                cc[i] = lambda * w.min(0.0) - alpha;
                b[i] = 1.0 + lambda * w.abs() + 2.0 * alpha;
                if i == 0 {
                    b[i] += a[i];
                    a[i] = 0.0;
                }
                if i == n - 1 {
                    b[i] += cc[i];
                    cc[i] = 0.0;
                }
                k[i] = c0 - lambda * wt * 0.5 * (cpl - cmi)
                    + alpha * (cpl - 2.0 * c0 + cmi)
                    + lambda * p.source_at(gi, gj, self.steps);
            }
            thomas(&a, &b, &cc, &k, &mut x, &mut cp);
            for i in 0..n {
                match sweep {
                    Sweep::X => out[line * n + i] = x[i],
                    Sweep::Y => out[i * n + line] = x[i],
                }
            }
        }
        self.c = out;
    }
}
