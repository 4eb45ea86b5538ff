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

use crate::gl::Program;

use super::half_step::Sweep;
use super::scheme::{Fields, Scheme};
use crate::sim::SimError;

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
    /// Our set-up after Fig. 19 (the paper shows the scene; every number here is ours: g,
    /// Δt, τ, the bottom's slope and hill, the push's path, size, depth and duration): a still
    /// pond 0.22–0.30 deep over a slope and a hill, a push moving along the diagonal. g
    /// scales with n² so waves cross the grid in the same number of steps at any n (wave
    /// speed about 1.7 n/256 cells per time unit in the deep part).
    pub fn ours(n: u32) -> WaterParams {
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

impl WaterParams {
    /// The water depth max(h - b, 0) at `g` (clamped to the grid) from `h` (grid order).
    fn depth(&self, f: &Fields, h: &[f64], g: [isize; 2]) -> f64 {
        let c = |v: isize| v.clamp(0, self.n as isize - 1) as usize;
        (f.at(h, g) - self.bottom.at(c(g[0]), c(g[1]), self.n) as f64).max(0.0)
    }
}

impl Scheme for WaterParams {
    fn name(&self) -> &'static str {
        "shallow-water"
    }
    fn n(&self) -> u32 {
        self.n
    }
    fn check(&self) -> Result<(), SimError> {
        let b = self.bottom;
        let finite = [b.base, b.slope, b.hill, b.radius, self.display]
            .iter()
            .all(|v| v.is_finite());
        let dt_g =
            self.dt.is_finite() && self.dt > 0.0 && self.gravity.is_finite() && self.gravity > 0.0;
        if !dt_g || !(0.0..1.0).contains(&self.damping) || !finite || b.radius <= 0.0 {
            return Err(SimError::Params(
                "Δt, g must be positive, 0 ≤ τ < 1, the bottom finite with a positive radius"
                    .into(),
            ));
        }
        Ok(())
    }
    fn given_initial(&self) -> Option<&[f32]> {
        self.initial.as_deref()
    }
    fn shader(&self) -> &'static str {
        "tridiagonal/sim/water_build.frag"
    }
    fn uniforms(&self, p: &Program, step: u64, _sweep: Sweep) {
        p.set_f32("u_kappa", self.kappa() as f32);
        p.set_f32("u_damp", 1.0 - self.damping);
        for (m, t) in self.push_terms(step).iter().enumerate() {
            p.set_vec4(&format!("u_push[{m}]"), *t);
        }
        p.set_vec4("u_bottom", self.bottom.uniform());
    }
    fn equation(&self, f: &Fields, step: u64, sweep: Sweep, g: [usize; 2], i: usize) -> [f64; 4] {
        let kappa = self.kappa();
        let (along, _) = sweep.along_across();
        let s = [g[0] as isize, g[1] as isize];
        let d0 = self.depth(f, f.start, s);
        let a = if i == 0 {
            0.0
        } else {
            -kappa * (self.depth(f, f.start, [s[0] - along[0], s[1] - along[1]]) + d0)
        };
        let c = if i == f.n - 1 {
            0.0
        } else {
            -kappa * (d0 + self.depth(f, f.start, [s[0] + along[0], s[1] + along[1]]))
        };
        let k = match sweep {
            Sweep::X => {
                let h1 = f.at(f.start, s);
                let mut k = h1 + (1.0 - self.damping as f64) * (h1 - f.at(f.prev, s));
                for t in &self.push_terms(step) {
                    let dx = (g[0] as f32 + 0.5 - t[0]) as f64 / t[2] as f64;
                    let dy = (g[1] as f32 + 0.5 - t[1]) as f64 / t[2] as f64;
                    k += t[3] as f64 * (-(dx * dx + dy * dy)).exp();
                }
                k
            }
            Sweep::Y => f.at(f.now, s),
        };
        [a, 1.0 - a - c, c, k]
    }
    fn quantity(&self) -> &'static str {
        "surface height"
    }
    fn range(&self) -> (f32, f32) {
        (-self.display, self.display)
    }
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4] {
        [at[0], at[1], 0.03 * self.n as f32, -0.02]
    }
    fn uses_previous(&self) -> bool {
        true
    }
    fn is_surface(&self) -> bool {
        true
    }
    fn bottom_uniform(&self) -> [f32; 4] {
        self.bottom.uniform()
    }
}
