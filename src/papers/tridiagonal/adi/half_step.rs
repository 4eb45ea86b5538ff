//! The ADI machinery the simulations share: a batch of tridiagonal systems built on the GPU
//! by a fragment pass, solved by a [`BatchSolver`], and read by the next pass without leaving
//! the GPU.
//!
//! An ADI step (Kim & Lee 2005 §2, eq. 3 and 8) is two half-steps, each one tridiagonal
//! system per grid line: the x sweep solves along rows, the y sweep along columns. The solver
//! wants every system on one texture row, so the y sweep's batch is the grid *transposed*:
//! texel `(i, j)` of its systems texture is grid point `(j, i)`. There is no separate
//! transposition pass: the build pass of each half-step reads the previous solution through
//! a layout flag (`u_*_t` in the shaders) — that fetch with swapped coordinates *is* the
//! transposition — and after a y sweep the state stays transposed in the solver's output
//! until the next build pass (or [`Adi::resolve_into`], for display and readback) reads it.

use crate::gl::program;
use crate::gl::{
    Define, Format, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture,
    image_access,
};

use crate::papers::tridiagonal::batch::BatchSolver;

use super::solver::{self, ThomasScratch};
use crate::sim::{FieldRef, SimError};

/// Direction of a half-step's implicit sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    X,
    Y,
}

impl Sweep {
    pub fn index(self) -> i32 {
        match self {
            Sweep::X => 0,
            Sweep::Y => 1,
        }
    }

    /// The grid point `(x, y)` of unknown `i` of line `line` (a row for x, a column for y).
    pub fn point(self, line: usize, i: usize) -> [usize; 2] {
        match self {
            Sweep::X => [i, line],
            Sweep::Y => [line, i],
        }
    }

    /// The unit step along the sweep and across it, in grid coordinates.
    pub fn along_across(self) -> ([isize; 2], [isize; 2]) {
        match self {
            Sweep::X => ([1, 0], [0, 1]),
            Sweep::Y => ([0, 1], [1, 0]),
        }
    }
}

/// Where the current state lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Current {
    /// In the grid texture, in grid order (initial state, after a reset or a disturbance).
    Grid,
    /// In the solver's output, transposed when the last sweep was along y.
    Solved { transposed: bool },
}

/// How the systems of a half-step are solved.
enum Solve {
    /// Built into the systems texture by the scheme's fragment pass, then solved by a
    /// `papers::tridiagonal` solver (the paper's way).
    Batch(Box<dyn BatchSolver>),
    /// Built and solved in one compute dispatch ([`solver::FUSED`], beyond the paper).
    Fused(Fused),
}

/// The fused build-and-solve path: the scheme's build shader with `glsl/tridiagonal/sim/fused_thomas.comp`
/// appended, two R32F outputs used in turn (a dispatch reads the state its equations need
/// from one and writes the other), and the forward sweep's (c′, d′) where
/// [`ThomasScratch`] keeps them (`thomas.glsl`).
struct Fused {
    program: Program,
    x: [Texture; 2],
    scratch: ThomasScratch,
    last: usize,
}

impl Fused {
    fn new(gl: &Gl, n: u32, build_shader: &str) -> Result<Fused, SimError> {
        let driver = "tridiagonal/sim/fused_thomas.comp";
        let text = format!(
            "{}\n{}",
            program::source(build_shader)?,
            program::source(driver)?
        );
        let r32f = || Texture::new(gl, TexTarget::Rect, Format::R32F, n, n, None);
        let scratch = ThomasScratch::new(gl, n, n)?;
        let mut defines = scratch.defines();
        defines.push(Define::flag("FUSED"));
        Ok(Fused {
            program: Program::from_sources(gl, &[(driver, text.as_str())], &defines)?,
            x: [r32f()?, r32f()?],
            scratch,
            last: 0,
        })
    }

    /// One half-step along `sweep` of an `n × n` grid; `bind` gets the program and this
    /// path's last output (the state, unless it is in the grid texture).
    fn dispatch(
        &mut self,
        gl: &Gl,
        sweep: Sweep,
        n: u32,
        bind: impl FnOnce(&Program, &Texture),
    ) -> Result<(), SimError> {
        let p = &self.program;
        bind(p, &self.x[self.last]);
        p.set_i32("u_dir", sweep.index());
        p.set_i32("u_n", n as i32);
        p.set_i32("u_lines", n as i32);
        let next = 1 - self.last;
        p.bind_image(0, &self.x[next], image_access::WRITE_ONLY);
        self.scratch.bind();
        p.dispatch_1d(n)?;
        // The next pass samples x as a texture; the next dispatch rewrites the scratch.
        gl.image_barrier();
        gl.storage_barrier();
        self.last = next;
        Ok(())
    }
}

/// The shared ADI state of one simulation on an `n × n` grid.
pub struct Adi {
    gl: Gl,
    n: u32,
    systems: RenderTexture,
    grid: RenderTexture,
    quad: QuadBatch,
    resolve: std::rc::Rc<Program>,
    solver: Solve,
    solver_name: String,
    /// The scheme's build shader (for the fused path).
    build_shader: &'static str,
    current: Current,
}

impl Adi {
    /// An `n × n` grid holding `init` (row-major, grid order), built by `build_shader` and
    /// solved by the solver called `solver` ([`solver::make`], or [`solver::FUSED`]).
    pub fn new(
        gl: &Gl,
        n: u32,
        init: &[f32],
        solver: &str,
        build_shader: &'static str,
    ) -> Result<Adi, SimError> {
        Ok(Adi {
            gl: gl.clone(),
            n,
            systems: RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, n, n, None)?,
            grid: RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n, n, Some(init))?,
            quad: QuadBatch::new(gl, &[Quad::identity(Rect::full(n, n))])?,
            resolve: Program::fragment(gl, "tridiagonal/sim/resolve.frag", &[])?,
            solver: Self::make_solver(gl, solver, n, build_shader)?,
            solver_name: solver.to_string(),
            build_shader,
            current: Current::Grid,
        })
    }

    fn make_solver(gl: &Gl, name: &str, n: u32, build_shader: &str) -> Result<Solve, SimError> {
        Ok(if name == solver::FUSED {
            Solve::Fused(Fused::new(gl, n, build_shader)?)
        } else {
            Solve::Batch(solver::make(gl, name, n, n)?)
        })
    }

    pub fn n(&self) -> u32 {
        self.n
    }

    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    /// The solver's `--solver` name (`cr`, `gpu-thomas`, …).
    pub fn solver_name(&self) -> &str {
        &self.solver_name
    }

    /// The current state and its layout.
    pub fn state(&self) -> FieldRef<'_> {
        match self.current {
            Current::Grid => FieldRef {
                tex: self.grid.texture(),
                transposed: false,
            },
            Current::Solved { transposed } => FieldRef {
                tex: match &self.solver {
                    Solve::Batch(s) => s.output(),
                    Solve::Fused(f) => &f.x[f.last],
                },
                transposed,
            },
        }
    }

    /// The systems texture of the last half-step (for tests).
    pub fn systems(&self) -> &Texture {
        self.systems.texture()
    }

    /// One half-step: renders the systems with `program` over the whole grid (`bind` sets the
    /// program's own inputs from the current state), then solves them; with the fused path,
    /// `bind` sets the fused program's inputs and one dispatch does both. Sets `u_dir`, `u_n`.
    pub fn half_step(
        &mut self,
        sweep: Sweep,
        program: &Program,
        bind: impl FnOnce(&Program, FieldRef<'_>),
    ) -> Result<(), SimError> {
        let Solve::Fused(f) = &mut self.solver else {
            self.build(sweep, program, bind)?;
            return self.solve(sweep);
        };
        let (from_buffer, transposed) = match self.current {
            Current::Grid => (false, false),
            Current::Solved { transposed } => (true, transposed),
        };
        let grid = self.grid.texture();
        f.dispatch(&self.gl, sweep, self.n, |p, last| {
            let tex = if from_buffer { last } else { grid };
            p.bind_image(2, tex, image_access::READ_ONLY);
            bind(p, FieldRef { tex, transposed })
        })?;
        self.current = Current::Solved {
            transposed: sweep == Sweep::Y,
        };
        Ok(())
    }

    /// The first half of [`Self::half_step`]: renders the systems.
    pub fn build(
        &self,
        sweep: Sweep,
        program: &Program,
        bind: impl FnOnce(&Program, FieldRef<'_>),
    ) -> Result<(), SimError> {
        self.systems.bind();
        bind(program, self.state());
        program.set_i32("u_dir", sweep.index());
        program.set_i32("u_n", self.n as i32);
        self.quad.draw(program, self.n, self.n)?;
        Ok(())
    }

    /// The second half of [`Self::half_step`]: solves the systems; their solution becomes the
    /// state (transposed after a y sweep).
    pub fn solve(&mut self, sweep: Sweep) -> Result<(), SimError> {
        let Solve::Batch(s) = &mut self.solver else {
            return Err(SimError::Params(format!(
                "{}: builds and solves in one dispatch (no separate solve)",
                solver::FUSED
            )));
        };
        s.solve(self.systems.texture())
            .map_err(|e| solver::solver_error(&self.solver_name, e))?;
        self.current = Current::Solved {
            transposed: sweep == Sweep::Y,
        };
        Ok(())
    }

    /// Copies `field` into `dst` in grid order, adding a Gaussian `bump` = (centre x, centre y,
    /// radius, amplitude) in grid units (amplitude 0: a plain copy).
    pub fn resolve_into(
        &self,
        field: FieldRef<'_>,
        dst: &RenderTexture,
        bump: [f32; 4],
    ) -> Result<(), SimError> {
        dst.bind();
        let p = &self.resolve;
        field.bind(p, 0, "u_src");
        p.set_vec4("u_bump", bump);
        self.quad.draw(p, self.n, self.n)?;
        Ok(())
    }

    /// Brings the state back into the grid texture, adding `bump` (see [`Self::resolve_into`]).
    /// Needed before the solver is replaced (its output goes with it) and for disturbances.
    pub fn settle(&mut self, bump: [f32; 4]) -> Result<(), SimError> {
        if self.current == Current::Grid && bump[3] == 0.0 {
            return Ok(());
        }
        // The grid texture cannot be read and written by one pass: go through a scratch copy
        // when the state is already there.
        if self.current == Current::Grid {
            let tmp = RenderTexture::new(
                &self.gl,
                TexTarget::Rect,
                Format::R32F,
                self.n,
                self.n,
                None,
            )?;
            self.resolve_into(self.state(), &tmp, [0.0; 4])?;
            let f = FieldRef {
                tex: tmp.texture(),
                transposed: false,
            };
            self.resolve_into(f, &self.grid, bump)?;
        } else {
            self.resolve_into(self.state(), &self.grid, bump)?;
        }
        self.current = Current::Grid;
        Ok(())
    }

    /// Replaces the solver by the one called `name`, keeping the state.
    pub fn set_solver(&mut self, name: &str) -> Result<(), SimError> {
        let next = Self::make_solver(&self.gl, name, self.n, self.build_shader)?;
        self.settle([0.0; 4])?;
        self.solver = next;
        self.solver_name = name.to_string();
        Ok(())
    }

    /// Replaces the state with `init` (grid order).
    pub fn reset(&mut self, init: &[f32]) -> Result<(), SimError> {
        self.grid.texture().upload(init)?;
        self.current = Current::Grid;
        Ok(())
    }

    /// Reads the state back in grid order (row-major, `n × n`).
    pub fn read(&self) -> Result<Vec<f32>, SimError> {
        let f = self.state();
        let raw = f.tex.read()?;
        Ok(if f.transposed {
            transpose(&raw, self.n as usize)
        } else {
            raw
        })
    }
}

/// The transpose of a row-major `n × n` array.
pub fn transpose<T: Copy>(v: &[T], n: usize) -> Vec<T> {
    let mut out = v.to_vec();
    for j in 0..n {
        for i in 0..n {
            out[i * n + j] = v[j * n + i];
        }
    }
    out
}
