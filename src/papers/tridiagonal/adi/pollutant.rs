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
//! Two scenarios: [`PollutantParams::stream_ours`], a uniform flow along x with a continuous
//! source left of the centre (Fig. 15/16), and [`PollutantParams::vortex_ours`], a rotation of
//! constant angular velocity ω about the centre with a short release near the lower left
//! (Fig. 17/18). The paper describes the scenes only: every number (velocities, ω, D, Δt,
//! source positions, sizes, rates and durations) is ours.

use crate::gl::Program;

use super::half_step::Sweep;
use super::scheme::{Fields, Scheme};
use crate::sim::SimError;

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
    /// Our set-up after Fig. 15/16 (the numbers are ours): stream along x at n/512 cells per
    /// time unit, continuous source at (0.2 n, 0.5 n); Δt = 2. Speeds and D scale with n so
    /// the pictures match across sizes.
    pub fn stream_ours(n: u32) -> PollutantParams {
        let s = n as f32 / 256.0;
        let release = ([0.2, 0.5], 0.025, 0.05, None);
        Self::scene(n, Flow::Stream([0.5 * s, 0.0]), 0.5 * s * s, release)
    }

    /// Our set-up after Fig. 17/18 (the numbers are ours): rotation at ω = 2π / 500 (one
    /// turn in 250 steps of Δt = 2), release at (0.25 n, 0.25 n) during the first 10 steps.
    pub fn vortex_ours(n: u32) -> PollutantParams {
        let s = n as f32 / 256.0;
        let release = ([0.25, 0.25], 0.04, 0.1, Some(10));
        Self::scene(
            n,
            Flow::Vortex(std::f32::consts::TAU / 500.0),
            0.1 * s * s,
            release,
        )
    }

    /// What both scenes share: Δt = 2, a clean start, the colour map up to 1, and a source
    /// disc given as (centre and radius in units of n, rate, steps on).
    fn scene(
        n: u32,
        flow: Flow,
        diffusion: f32,
        (centre, radius, rate, until): ([f32; 2], f32, f32, Option<u64>),
    ) -> PollutantParams {
        let nf = n as f32;
        PollutantParams {
            n,
            flow,
            diffusion,
            dt: 2.0,
            source: Some(Release {
                centre: [centre[0] * nf, centre[1] * nf],
                radius: radius * nf,
                rate,
                until,
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

impl Scheme for PollutantParams {
    fn name(&self) -> &'static str {
        match self.flow {
            Flow::Stream(_) => "pollutant-stream",
            Flow::Vortex(_) => "pollutant-vortex",
        }
    }
    fn n(&self) -> u32 {
        self.n
    }
    fn check(&self) -> Result<(), SimError> {
        let flow_finite = match self.flow {
            Flow::Stream(v) => v.iter().all(|x| x.is_finite()),
            Flow::Vortex(w) => w.is_finite(),
        };
        let ok = self.dt.is_finite()
            && self.dt > 0.0
            && self.diffusion.is_finite()
            && self.diffusion >= 0.0
            && flow_finite;
        if !ok {
            return Err(SimError::Params(
                "Δt must be positive, D ≥ 0, all finite, and the velocity finite".into(),
            ));
        }
        Ok(())
    }
    fn given_initial(&self) -> Option<&[f32]> {
        self.initial.as_deref()
    }
    fn shader(&self) -> &'static str {
        "tridiagonal/sim/pollutant_build.frag"
    }
    fn uniforms(&self, p: &Program, step: u64, _sweep: Sweep) {
        let lambda = self.dt / 2.0;
        let (mode, vel, omega) = match self.flow {
            Flow::Stream(v) => (0, v, 0.0),
            Flow::Vortex(w) => (1, [0.0; 2], w),
        };
        p.set_f32("u_lambda", lambda);
        p.set_f32("u_alpha", lambda * self.diffusion);
        p.set_i32("u_flow", mode);
        p.set_vec2("u_vel", vel);
        p.set_f32("u_omega", omega);
        p.set_vec4("u_src", self.source_uniform(step));
    }
    fn equation(&self, f: &Fields, step: u64, sweep: Sweep, g: [usize; 2], i: usize) -> [f64; 4] {
        let lambda = self.dt as f64 / 2.0;
        let alpha = lambda * self.diffusion as f64;
        let vel = self.flow.at([g[0] as f64 + 0.5, g[1] as f64 + 0.5], self.n);
        let (w, wt) = match sweep {
            Sweep::X => (vel[0], vel[1]),
            Sweep::Y => (vel[1], vel[0]),
        };
        let (_, across) = sweep.along_across();
        let s = [g[0] as isize, g[1] as isize];
        let c0 = f.at(f.now, s);
        let cpl = f.at(f.now, [s[0] + across[0], s[1] + across[1]]);
        let cmi = f.at(f.now, [s[0] - across[0], s[1] - across[1]]);
        let mut a = -lambda * w.max(0.0) - alpha;
        let mut c = lambda * w.min(0.0) - alpha;
        let mut b = 1.0 + lambda * w.abs() + 2.0 * alpha;
        if i == 0 {
            b += a;
            a = 0.0;
        }
        if i == f.n - 1 {
            b += c;
            c = 0.0;
        }
        let k = c0 - lambda * wt * 0.5 * (cpl - cmi)
            + alpha * (cpl - 2.0 * c0 + cmi)
            + lambda * self.source_at(g[0], g[1], step);
        [a, b, c, k]
    }
    fn quantity(&self) -> &'static str {
        "concentration"
    }
    fn range(&self) -> (f32, f32) {
        (0.0, self.display_max)
    }
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4] {
        [at[0], at[1], 0.03 * self.n as f32, self.display_max]
    }
}
