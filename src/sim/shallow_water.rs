//! Simulation 3: shallow water after Kass & Miller 1990 (Kim & Lee 2005 §4, eq. 18; Fig. 19).
//!
//! The linearised shallow-water equations reduce to a wave equation for the surface height h
//! whose speed √(g d) follows the local depth d = h - b over a bottom b:
//! ∂²h/∂t² = g d ∇²h. Kass & Miller discretise it implicitly in time, split by direction:
//!
//! ```text
//! x sweep:  A_x h* = h¹ + (1 - τ)(h¹ - h²)        (h¹ = h^{n-1}, h² = h^{n-2}; τ: damping)
//! y sweep:  A_y h  = h*
//! A: symmetric tridiagonal, e_i = 1 + κ (d_{i-1} + 2 d_i + d_{i+1}),
//!                           f_i = -κ (d_i + d_{i+1}),   κ = g Δt² / (2 Δh²)
//! ```
//!
//! (The digest of the paper's e_i lost the factor 2 on d_i; Kass & Miller's eq. 15–16 and
//! the requirement that a flat surface stays flat — rows summing to one — give 2 d_i.) End
//! rows have one neighbour, so every column sums to one: the volume Σ h is conserved exactly
//! when nothing pushes the surface. The depth comes from h^{n-1}, so the matrix changes every
//! step and the coefficients are rebuilt on the GPU each step (in the build pass, with the
//! right-hand side). A disturbance moving diagonally across the surface pushes it down
//! (Fig. 19). Depth is clamped at zero (dry cells), as Kass & Miller do.

use std::rc::Rc;

use crate::gl::{Format, Gl, Program, RenderTexture, TexTarget};

use super::adi::{Adi, Sweep};
use super::heat::check_grid;
use super::solver::{LineSolver, thomas};
use super::{SimError, Simulation};

/// The bottom relief: `base + slope · (x + y)/n + hill · exp(-|x/n - c|² / radius²)`, with
/// the hill centred at c = (0.62, 0.38).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bottom {
    pub base: f32,
    pub slope: f32,
    pub hill: f32,
    pub radius: f32,
}

impl Bottom {
    /// The bottom height under cell `(i, j)` (f32, as the shader computes it).
    pub fn at(&self, i: usize, j: usize, n: u32) -> f32 {
        let x = (i as f32 + 0.5) / n as f32;
        let y = (j as f32 + 0.5) / n as f32;
        let (dx, dy) = (x - 0.62, y - 0.38);
        let hill = self.hill * (-(dx * dx + dy * dy) / (self.radius * self.radius)).exp();
        self.base + self.slope * (x + y) + hill
    }
    fn uniform(&self) -> [f32; 4] {
        [self.base, self.slope, self.hill, self.radius]
    }
}

/// A disturbance pushing the surface down, moving in a straight line: a Gaussian depression
/// D_n = depth · exp(-|x - p_n|²/radius²) whose centre p_n moves from `from` to `to`. It is
/// imposed as a displacement: the x sweep's right-hand side gets -(D_n - 2 D_{n-1} + D_{n-2})
/// (zero outside the push's steps), so the surface follows the object and the net volume
/// added over the whole push is zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Push {
    /// Start and end centres (grid units).
    pub from: [f32; 2],
    pub to: [f32; 2],
    /// Steps to go from `from` to `to`; the push stops there.
    pub steps: u64,
    pub radius: f32,
    /// Depth of the depression at its centre.
    pub depth: f32,
}

/// The shallow-water parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterParams {
    pub n: u32,
    /// Gravity g (grid units per time unit²).
    pub gravity: f32,
    pub dt: f32,
    /// τ in h¹ + (1 - τ)(h¹ - h²).
    pub damping: f32,
    pub bottom: Bottom,
    pub push: Option<Push>,
    /// Initial surface (grid order); `None`: flat at 0.
    pub initial: Option<Vec<f32>>,
    /// Colour-map half range of the surface height.
    pub display: f32,
}

impl WaterParams {
    /// Fig. 19: a still pond 0.22–0.30 deep over a slope and a hill, a push moving along the
    /// diagonal. g scales with n² so waves cross the grid in the same number of steps at any n
    /// (wave speed about 1.7 n/256 cells per time unit in the deep part).
    pub fn paper(n: u32) -> WaterParams {
        let s = n as f32 / 256.0;
        let nf = n as f32;
        WaterParams {
            n,
            gravity: 9.81 * s * s,
            dt: 1.0,
            damping: 0.002,
            bottom: Bottom {
                base: -0.30,
                slope: 0.04,
                hill: 0.15,
                radius: 0.12,
            },
            push: Some(Push {
                from: [0.12 * nf, 0.12 * nf],
                to: [0.88 * nf, 0.88 * nf],
                steps: 300,
                radius: 0.03 * nf,
                depth: 0.05,
            }),
            initial: None,
            display: 0.01,
        }
    }

    /// κ = g Δt² / (2 Δh²).
    pub fn kappa(&self) -> f64 {
        self.gravity as f64 * (self.dt as f64).powi(2) / 2.0
    }

    fn init(&self) -> Vec<f32> {
        self.initial
            .clone()
            .unwrap_or_else(|| vec![0.0; (self.n * self.n) as usize])
    }

    fn check(&self) -> Result<(), SimError> {
        check_grid(self.n)?;
        if !(self.dt > 0.0 && self.gravity > 0.0 && (0.0..1.0).contains(&self.damping)) {
            return Err(SimError::Params(
                "Δt, g must be positive and 0 ≤ τ < 1".into(),
            ));
        }
        if let Some(v) = &self.initial
            && v.len() != (self.n * self.n) as usize
        {
            return Err(SimError::Params("initial field of the wrong size".into()));
        }
        Ok(())
    }

    /// The depression's terms in step `step`: (centre x, centre y, radius, weight) for the
    /// positions at steps `step`, `step - 1`, `step - 2` with weights -depth · (1, -2, 1)
    /// (weight 0 where the push is not on).
    pub fn push_terms(&self, step: u64) -> [[f32; 4]; 3] {
        let mut out = [[0.0, 0.0, 1.0, 0.0]; 3];
        let Some(p) = self.push else { return out };
        for (m, w) in [(0u64, 1.0f32), (1, -2.0), (2, 1.0)] {
            let Some(s) = step.checked_sub(m) else {
                continue;
            };
            if s >= p.steps {
                continue;
            }
            let f = s as f32 / p.steps as f32;
            out[m as usize] = [
                p.from[0] + f * (p.to[0] - p.from[0]),
                p.from[1] + f * (p.to[1] - p.from[1]),
                p.radius,
                -p.depth * w,
            ];
        }
        out
    }
}

/// The shallow-water simulation on the GPU.
pub struct ShallowWater {
    params: WaterParams,
    adi: Adi,
    /// h^{n-1} while a step runs, h^{n-2}… between steps: always in grid order.
    prev: RenderTexture,
    build: Rc<Program>,
    steps: u64,
}

impl ShallowWater {
    pub fn new(
        gl: &Gl,
        params: WaterParams,
        solver: Box<dyn LineSolver>,
    ) -> Result<ShallowWater, SimError> {
        params.check()?;
        let init = params.init();
        let adi = Adi::new(gl, params.n, &init, solver)?;
        let prev = RenderTexture::new(
            gl,
            TexTarget::Rect,
            Format::R32F,
            params.n,
            params.n,
            Some(&init),
        )?;
        Ok(ShallowWater {
            build: Program::fragment(gl, "sim/water_build.frag", &[])?,
            params,
            adi,
            prev,
            steps: 0,
        })
    }

    pub fn params(&self) -> &WaterParams {
        &self.params
    }

    fn bind_common(&self, p: &Program) {
        p.set_f32("u_kappa", self.params.kappa() as f32);
        p.set_f32("u_damp", 1.0 - self.params.damping);
        for (m, t) in self.params.push_terms(self.steps).iter().enumerate() {
            p.set_vec4(&format!("u_push[{m}]"), *t);
        }
        p.set_vec4("u_bottom", self.params.bottom.uniform());
    }
}

impl Simulation for ShallowWater {
    fn name(&self) -> &'static str {
        "shallow-water"
    }
    fn adi(&self) -> &Adi {
        &self.adi
    }
    fn adi_mut(&mut self) -> &mut Adi {
        &mut self.adi
    }
    fn step(&mut self) -> Result<(), SimError> {
        let build = self.build.clone();
        self.bind_common(&build);
        let prev = self.prev.texture();
        // x sweep: h¹ = the state, h² = prev.
        self.adi.build(Sweep::X, &build, |p, h1| {
            p.bind_texture(0, "u_h1", h1.tex);
            p.set_i32("u_h1_t", h1.flag());
            p.bind_texture(1, "u_h2", prev);
            p.set_i32("u_h2_t", 0);
        })?;
        // The solve replaces the state, and h¹ is still needed (the y sweep's depth, the next
        // step's h²): it moves into prev, in grid order, once the build pass has read h².
        self.adi
            .resolve_into(self.adi.state(), &self.prev, [0.0; 4])?;
        self.adi.solve(Sweep::X)?;
        // y sweep: depth from h¹ (now in prev), right-hand side h* (the state).
        let prev = self.prev.texture();
        self.adi.half_step(Sweep::Y, &build, |p, hs| {
            p.bind_texture(0, "u_h1", prev);
            p.set_i32("u_h1_t", 0);
            p.bind_texture(1, "u_h2", hs.tex);
            p.set_i32("u_h2_t", hs.flag());
        })?;
        self.steps += 1;
        Ok(())
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn reset(&mut self) -> Result<(), SimError> {
        self.steps = 0;
        let init = self.params.init();
        self.prev.texture().upload(&init)?;
        self.adi.reset(&init)
    }
    fn range(&self) -> (f32, f32) {
        (-self.params.display, self.params.display)
    }
    fn quantity(&self) -> &'static str {
        "surface height"
    }
    fn is_surface(&self) -> bool {
        true
    }
    fn bottom_uniform(&self) -> [f32; 4] {
        self.params.bottom.uniform()
    }
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4] {
        [at[0], at[1], 0.03 * self.params.n as f32, -0.02]
    }
}

/// The same scheme on the CPU in f64.
pub struct WaterCpu {
    pub params: WaterParams,
    /// h^n and h^{n-1}, grid order.
    pub h: Vec<f64>,
    pub prev: Vec<f64>,
    pub steps: u64,
    bottom: Vec<f64>,
}

impl WaterCpu {
    pub fn new(params: WaterParams) -> Result<WaterCpu, SimError> {
        params.check()?;
        let h: Vec<f64> = params.init().iter().map(|&v| v as f64).collect();
        let n = params.n as usize;
        let bottom = (0..n * n)
            .map(|k| params.bottom.at(k % n, k / n, params.n) as f64)
            .collect();
        Ok(WaterCpu {
            prev: h.clone(),
            h,
            params,
            steps: 0,
            bottom,
        })
    }

    /// The bottom height, grid order.
    pub fn bottom(&self) -> &[f64] {
        &self.bottom
    }

    pub fn step(&mut self) {
        let p = &self.params;
        let n = p.n as usize;
        let kappa = p.kappa();
        let damp = 1.0 - p.damping as f64;
        let push = p.push_terms(self.steps);
        let depth: Vec<f64> = self
            .h
            .iter()
            .zip(&self.bottom)
            .map(|(h, b)| (h - b).max(0.0))
            .collect();
        let mut rhs = vec![0.0; n * n];
        for j in 0..n {
            for i in 0..n {
                let k = j * n + i;
                rhs[k] = self.h[k] + damp * (self.h[k] - self.prev[k]);
                for t in &push {
                    let dx = (i as f32 + 0.5 - t[0]) as f64 / t[2] as f64;
                    let dy = (j as f32 + 0.5 - t[1]) as f64 / t[2] as f64;
                    rhs[k] += t[3] as f64 * (-(dx * dx + dy * dy)).exp();
                }
            }
        }
        let hs = sweep(&rhs, &depth, n, kappa, Sweep::X);
        let hn = sweep(&hs, &depth, n, kappa, Sweep::Y);
        self.prev = std::mem::replace(&mut self.h, hn);
        self.steps += 1;
    }
}

/// Solves A h = rhs along every line of `sweep` (grid order in and out).
fn sweep(rhs: &[f64], depth: &[f64], n: usize, kappa: f64, sweep: Sweep) -> Vec<f64> {
    let (mut a, mut b, mut c, mut k) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut x, mut cp) = (vec![0.0; n], vec![0.0; n]);
    let mut out = vec![0.0; n * n];
    let idx = |line: usize, i: usize| match sweep {
        Sweep::X => line * n + i,
        Sweep::Y => i * n + line,
    };
    for line in 0..n {
        for i in 0..n {
            let d0 = depth[idx(line, i)];
            a[i] = if i == 0 {
                0.0
            } else {
                -kappa * (depth[idx(line, i - 1)] + d0)
            };
            c[i] = if i == n - 1 {
                0.0
            } else {
                -kappa * (d0 + depth[idx(line, i + 1)])
            };
            b[i] = 1.0 - a[i] - c[i];
            k[i] = rhs[idx(line, i)];
        }
        thomas(&a, &b, &c, &k, &mut x, &mut cp);
        for i in 0..n {
            out[idx(line, i)] = x[i];
        }
    }
    out
}
