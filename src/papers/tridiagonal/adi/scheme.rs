//! The one ADI simulation base: a [`Scheme`] describes the equations of a simulation, and
//! two generic types run it — [`AdiSim`] on the GPU, [`AdiCpu`] in f64 on the CPU (the
//! reference the GPU is checked against).
//!
//! A scheme says, for the half-step along `sweep` of time step `step`, what the tridiagonal
//! equation `a x_{i-1} + b x_i + c x_{i+1} = k` of every grid point is:
//! - on the GPU, as a build fragment shader ([`Scheme::shader`]) and its uniforms
//!   ([`Scheme::uniforms`]); the base binds the state (`u_state`, `u_state_t`), the sweep
//!   (`u_dir`) and the grid size (`u_n`), and for a scheme with a previous state
//!   ([`Scheme::uses_previous`]) also the state at the start of the step (`u_start`,
//!   `u_start_t`) and the one before it (`u_prev`, grid order);
//! - on the CPU, as [`Scheme::equation`] of one grid point, from the same fields in f64.
//!
//! One time step is the x half-step, then the y half-step, each a batch of `n` systems of
//! `n` unknowns ([`super::half_step`] builds and solves them on the GPU without leaving it). The
//! CPU twin loops over the lines, solves each with `papers::tridiagonal`'s generic Thomas in
//! f64, and scatters the solution back into grid order.

use std::rc::Rc;

use crate::gl::{Format, Gl, Program, RenderTexture, TexTarget};
use crate::papers::tridiagonal::cpu::thomas;

use super::half_step::{Adi, Sweep};
use crate::sim::{FieldRef, SimError, Simulation, Snapshot};

/// The grid sizes a simulation accepts (unknowns per line). The upper end is the size whose
/// RGBA32F systems texture (16 bytes per point, 1 GiB at 8191²) still fits a GL rectangle
/// texture of 8192 texels; what a solver needs on top is checked by [`super::solver::check_fits`].
pub const GRID_RANGE: std::ops::RangeInclusive<u32> = 3..=8191;

/// Refuses a grid size outside [`GRID_RANGE`].
pub fn check_grid(n: u32) -> Result<(), SimError> {
    if !GRID_RANGE.contains(&n) {
        return Err(SimError::Params(format!(
            "grid of {n} unknowns per line: must be {}..={}",
            GRID_RANGE.start(),
            GRID_RANGE.end()
        )));
    }
    Ok(())
}

/// The fields a half-step's equations are built from, in f64 grid order (`j * n + i`).
pub struct Fields<'a> {
    pub n: usize,
    /// The half-step's input: the state (x sweep) or the x sweep's result (y sweep).
    pub now: &'a [f64],
    /// The state at the start of the time step.
    pub start: &'a [f64],
    /// The state at the start of the previous time step (schemes with a previous state).
    pub prev: &'a [f64],
}

impl Fields<'_> {
    /// `u` at grid point `g`, clamped to the grid (a ghost equal to the edge value: the
    /// zero-gradient walls every simulation here has), as the shaders' `clamp` fetch.
    pub fn at(&self, u: &[f64], g: [isize; 2]) -> f64 {
        let c = |v: isize| v.clamp(0, self.n as isize - 1) as usize;
        u[c(g[1]) * self.n + c(g[0])]
    }
}

/// The equations of one ADI simulation (see the module docs).
pub trait Scheme: Clone {
    /// The registry name (`heat`, …).
    fn name(&self) -> &'static str;
    /// Unknowns per grid line (the grid is `n × n`).
    fn n(&self) -> u32;
    /// Checks the scheme's own parameters (the base checks the grid size and the initial
    /// state's length).
    fn check(&self) -> Result<(), SimError>;
    /// The initial state the parameters give, grid order (`None`: zero everywhere).
    fn given_initial(&self) -> Option<&[f32]>;
    /// The initial state, grid order, `n²` values: [`Scheme::given_initial`], or zero.
    fn initial(&self) -> Vec<f32> {
        self.given_initial()
            .map_or_else(|| vec![0.0; (self.n() as usize).pow(2)], <[f32]>::to_vec)
    }
    /// The build shader (`glsl/…` path, e.g. `sim/heat_build.frag`).
    fn shader(&self) -> &'static str;
    /// Sets the build shader's own uniforms for half-step `sweep` of step `step`.
    fn uniforms(&self, p: &Program, step: u64, sweep: Sweep);
    /// `[a, b, c, k]` of grid point `g`, unknown `i` of its line, for the CPU twin: the same
    /// arithmetic as the build shader, in f64.
    fn equation(&self, f: &Fields, step: u64, sweep: Sweep, g: [usize; 2], i: usize) -> [f64; 4];
    /// What the field is (for the colour bar).
    fn quantity(&self) -> &'static str;
    /// The colour map's range of the field.
    fn range(&self) -> (f32, f32);
    /// The Gaussian (centre x, centre y, radius, amplitude) a user's disturbance adds at `at`.
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4];
    /// Whether the equations read the state before the current one (a second-order scheme in
    /// time: shallow water). The base then keeps it, and rebinds `u_start` for the y sweep.
    fn uses_previous(&self) -> bool {
        false
    }
    /// Whether the view is a 3D surface (else a colour-mapped field).
    fn is_surface(&self) -> bool {
        false
    }
    /// For a surface: the bottom relief's shader uniform (base, slope, hill, radius).
    fn bottom_uniform(&self) -> [f32; 4] {
        [-1.0, 0.0, 0.0, 1.0]
    }
}

/// The checks every scheme gets, before anything is allocated: grid size and its own
/// parameters.
fn check<S: Scheme>(s: &S) -> Result<(), SimError> {
    check_grid(s.n())?;
    s.check()
}

/// The scheme's initial state, checked for length.
fn initial<S: Scheme>(s: &S) -> Result<Vec<f32>, SimError> {
    let init = s.initial();
    if init.len() != (s.n() as usize).pow(2) {
        return Err(SimError::Params(format!(
            "initial field of {} values for a {n}×{n} grid",
            init.len(),
            n = s.n()
        )));
    }
    Ok(init)
}

/// Refuses the fused path for a scheme with a previous state.
fn check_fused<S: Scheme>(s: &S, solver: &str) -> Result<(), SimError> {
    if s.uses_previous() && solver == super::solver::FUSED {
        return Err(SimError::Params(format!(
            "{solver}: not for {} (its x sweep needs the state before the step, which the \
             fused dispatch overwrites)",
            s.name()
        )));
    }
    Ok(())
}

/// A scheme run on the GPU.
pub struct AdiSim<S: Scheme> {
    scheme: S,
    adi: Adi,
    build: Rc<Program>,
    /// With [`Scheme::uses_previous`]: the state before the current one, grid order (during a
    /// step, after the x build, the state at the step's start).
    prev: Option<RenderTexture>,
    steps: u64,
}

impl<S: Scheme> AdiSim<S> {
    /// The scheme on the GPU, its systems solved by the solver called `solver`.
    pub fn new(gl: &Gl, scheme: S, solver: &str) -> Result<Self, SimError> {
        check(&scheme)?;
        let n = scheme.n();
        super::solver::check_fits(gl, solver, n)?;
        check_fused(&scheme, solver)?;
        let init = initial(&scheme)?;
        let prev = if scheme.uses_previous() {
            Some(RenderTexture::new(
                gl,
                TexTarget::Rect,
                Format::R32F,
                n,
                n,
                Some(&init),
            )?)
        } else {
            None
        };
        Ok(AdiSim {
            adi: Adi::new(gl, n, &init, solver, scheme.shader())?,
            build: Program::fragment(gl, scheme.shader(), &[])?,
            scheme,
            prev,
            steps: 0,
        })
    }

    /// The ADI machinery underneath (its last systems texture, for the timing of a solve).
    pub fn adi(&self) -> &Adi {
        &self.adi
    }

    pub fn scheme(&self) -> &S {
        &self.scheme
    }
}

impl<S: Scheme> Simulation for AdiSim<S> {
    fn name(&self) -> &'static str {
        self.scheme.name()
    }
    fn gl(&self) -> &Gl {
        self.adi.gl()
    }
    fn n(&self) -> u32 {
        self.adi.n()
    }
    fn solver_name(&self) -> &str {
        self.adi.solver_name()
    }
    fn state(&self) -> FieldRef<'_> {
        self.adi.state()
    }
    fn disturb(&mut self, at: [f32; 2]) -> Result<(), SimError> {
        let bump = self.scheme.disturbance(at);
        self.adi.settle(bump)
    }
    fn read(&self) -> Result<Vec<f32>, SimError> {
        self.adi.read()
    }
    fn step(&mut self) -> Result<(), SimError> {
        let (build, scheme, step) = (self.build.clone(), &self.scheme, self.steps);
        let bind = |p: &Program, sweep: Sweep, state: FieldRef<'_>| {
            state.bind(p, 0, "u_state");
            scheme.uniforms(p, step, sweep);
        };
        match &self.prev {
            None => {
                for sweep in [Sweep::X, Sweep::Y] {
                    self.adi
                        .half_step(sweep, &build, |p, state| bind(p, sweep, state))?;
                }
            }
            Some(prev) => {
                // x sweep: start = the state, prev = the state before it.
                self.adi.build(Sweep::X, &build, |p, state| {
                    bind(p, Sweep::X, state);
                    state.bind(p, 1, "u_start");
                    p.bind_texture(2, "u_prev", prev.texture());
                })?;
                // The solve replaces the state, and the step's start is still needed (the y
                // sweep, and the next step's previous state): it moves into prev, in grid
                // order, now that the build pass has read the old prev.
                self.adi.resolve_into(self.adi.state(), prev, [0.0; 4])?;
                self.adi.solve(Sweep::X)?;
                self.adi.half_step(Sweep::Y, &build, |p, state| {
                    bind(p, Sweep::Y, state);
                    p.bind_texture(1, "u_start", prev.texture());
                    p.set_i32("u_start_t", 0);
                    p.bind_texture(2, "u_prev", prev.texture());
                })?;
            }
        }
        self.steps += 1;
        Ok(())
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn reset(&mut self) -> Result<(), SimError> {
        self.steps = 0;
        let init = self.scheme.initial();
        if let Some(prev) = &self.prev {
            prev.texture().upload(&init)?;
        }
        self.adi.reset(&init)
    }
    fn range(&self) -> (f32, f32) {
        self.scheme.range()
    }
    fn quantity(&self) -> &'static str {
        self.scheme.quantity()
    }
    fn disturbance(&self, at: [f32; 2]) -> [f32; 4] {
        self.scheme.disturbance(at)
    }
    fn is_surface(&self) -> bool {
        self.scheme.is_surface()
    }
    fn bottom_uniform(&self) -> [f32; 4] {
        self.scheme.bottom_uniform()
    }
    fn set_solver(&mut self, name: &str) -> Result<(), SimError> {
        check_fused(&self.scheme, name)?;
        self.adi.set_solver(name)
    }
    fn snapshot(&self) -> Result<Snapshot, SimError> {
        Ok(Snapshot {
            state: self.adi.read()?,
            prev: match &self.prev {
                Some(p) => Some(p.texture().read()?),
                None => None,
            },
            steps: self.steps,
        })
    }
    fn restore(&mut self, s: &Snapshot) -> Result<(), SimError> {
        let cells = (self.scheme.n() as usize).pow(2);
        let prev_ok = match (&self.prev, &s.prev) {
            (Some(_), Some(p)) => p.len() == cells,
            (None, None) => true,
            _ => false,
        };
        if s.state.len() != cells || !prev_ok {
            return Err(SimError::Params(format!(
                "a snapshot of another grid or scheme cannot be restored into {} on {n}×{n}",
                self.scheme.name(),
                n = self.scheme.n()
            )));
        }
        if let (Some(t), Some(p)) = (&self.prev, &s.prev) {
            t.texture().upload(p)?;
        }
        self.steps = s.steps;
        self.adi.reset(&s.state)
    }
}

/// The same scheme on the CPU in f64: the reference the GPU steps are checked against.
pub struct AdiCpu<S: Scheme> {
    pub scheme: S,
    /// The state, grid order (row `j`, column `i` at `j * n + i`).
    pub u: Vec<f64>,
    /// The state before it (equal to `u` at the start).
    pub prev: Vec<f64>,
    pub steps: u64,
}

impl<S: Scheme> AdiCpu<S> {
    pub fn new(scheme: S) -> Result<Self, SimError> {
        check(&scheme)?;
        let u: Vec<f64> = initial(&scheme)?.iter().map(|&v| v as f64).collect();
        Ok(AdiCpu {
            scheme,
            prev: u.clone(),
            u,
            steps: 0,
        })
    }

    /// One time step: the x half-step, then the y half-step.
    pub fn step(&mut self) -> Result<(), SimError> {
        let x = self.half(&self.u, Sweep::X)?;
        let y = self.half(&x, Sweep::Y)?;
        self.prev = std::mem::replace(&mut self.u, y);
        self.steps += 1;
        Ok(())
    }

    /// The state after `steps` steps from the scheme's initial state.
    pub fn run(scheme: S, steps: u32) -> Result<Vec<f64>, SimError> {
        let mut c = AdiCpu::new(scheme)?;
        for _ in 0..steps {
            c.step()?;
        }
        Ok(c.u)
    }

    /// Solves every line of `sweep` with `now` as the half-step's input.
    fn half(&self, now: &[f64], sweep: Sweep) -> Result<Vec<f64>, SimError> {
        let n = self.scheme.n() as usize;
        let f = Fields {
            n,
            now,
            start: &self.u,
            prev: &self.prev,
        };
        let mut eqs = vec![[0.0; 4]; n];
        let (mut x, mut cp) = (vec![0.0; n], vec![0.0; n]);
        let mut out = vec![0.0; n * n];
        for line in 0..n {
            for (i, e) in eqs.iter_mut().enumerate() {
                *e = self
                    .scheme
                    .equation(&f, self.steps, sweep, sweep.point(line, i), i);
            }
            thomas(n, |i| eqs[i], &mut x, &mut cp).map_err(|row| SimError::Solver {
                solver: "CPU Thomas f64".into(),
                message: format!("zero pivot in line {line}, row {row}"),
            })?;
            for (i, &v) in x.iter().enumerate() {
                let [gx, gy] = sweep.point(line, i);
                out[gy * n + gx] = v;
            }
        }
        Ok(out)
    }
}
