//! The ADI machinery the simulations share: a batch of tridiagonal systems built on the GPU
//! by a fragment pass, solved by a [`LineSolver`], and read by the next pass without leaving
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

use crate::gl::{Format, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture};

use super::SimError;
use super::solver::LineSolver;

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
}

/// Where the current state lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Current {
    /// In the grid texture, in grid order (initial state, after a reset or a disturbance).
    Grid,
    /// In the solver's output, transposed when the last sweep was along y.
    Solved { transposed: bool },
}

/// A field on the GPU: its texture and whether it is stored transposed.
#[derive(Clone, Copy)]
pub struct FieldRef<'a> {
    pub tex: &'a Texture,
    pub transposed: bool,
}

impl FieldRef<'_> {
    /// The value of a shader's layout flag for this field.
    pub fn flag(&self) -> i32 {
        self.transposed as i32
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
    solver: Box<dyn LineSolver>,
    current: Current,
}

impl Adi {
    /// An `n × n` grid holding `init` (row-major, grid order).
    pub fn new(
        gl: &Gl,
        n: u32,
        init: &[f32],
        solver: Box<dyn LineSolver>,
    ) -> Result<Adi, SimError> {
        Ok(Adi {
            gl: gl.clone(),
            n,
            systems: RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, n, n, None)?,
            grid: RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n, n, Some(init))?,
            quad: QuadBatch::new(gl, &[Quad::identity(Rect::full(n, n))])?,
            resolve: Program::fragment(gl, "sim/resolve.frag", &[])?,
            solver,
            current: Current::Grid,
        })
    }

    pub fn n(&self) -> u32 {
        self.n
    }

    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    pub fn solver_name(&self) -> &str {
        self.solver.name()
    }

    /// The current state and its layout.
    pub fn state(&self) -> FieldRef<'_> {
        match self.current {
            Current::Grid => FieldRef {
                tex: self.grid.texture(),
                transposed: false,
            },
            Current::Solved { transposed } => FieldRef {
                tex: self.solver.output(),
                transposed,
            },
        }
    }

    /// The systems texture of the last half-step (for tests).
    pub fn systems(&self) -> &Texture {
        self.systems.texture()
    }

    /// One half-step: renders the systems with `program` over the whole grid (`bind` sets the
    /// program's own inputs from the current state), then solves them. Sets `u_dir`, `u_n`.
    pub fn half_step(
        &mut self,
        sweep: Sweep,
        program: &Program,
        bind: impl FnOnce(&Program, FieldRef<'_>),
    ) -> Result<(), SimError> {
        self.build(sweep, program, bind)?;
        self.solve(sweep)
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
        self.solver.solve(self.systems.texture())?;
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
        p.bind_texture(0, "u_src", field.tex);
        p.set_i32("u_src_t", field.flag());
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

    /// Replaces the solver, keeping the state.
    pub fn set_solver(&mut self, solver: Box<dyn LineSolver>) -> Result<(), SimError> {
        self.settle([0.0; 4])?;
        self.solver = solver;
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
