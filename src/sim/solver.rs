//! The batched tridiagonal solvers an ADI half-step can use, behind one trait.
//!
//! A batch is an RGBA32F rectangle texture `n` wide and `batch` high: row `j` is one system,
//! texel `(i, j)` = `(a_i, b_i, c_i, k_i)` (sub-diagonal, diagonal, super-diagonal, right-hand
//! side; `a_0` and `c_{n-1}` are ignored). The solution comes back as an R32F rectangle
//! texture of the same shape, owned by the solver and valid until its next `solve`.
//!
//! The paper's solvers — fragment-shader cyclic reduction (§3.2), fragment CG for a fixed
//! number of iterations, CPU Thomas with upload/readback — and the compute-shader CR/PCR live
//! in `papers::tridiagonal`; they are adapted to this trait by [`adapt`]. This module adds a
//! GPU-resident batched Thomas algorithm in a compute shader (one invocation per system, a
//! baseline beyond the paper) and a CPU Thomas (f64, with readback and upload) of its own.

use crate::gl::{Format, Gl, GlError, Program, Rect, TexTarget, Texture};

use super::SimError;

/// A batched tridiagonal solver as the simulations use it.
pub trait LineSolver {
    /// Solves every row of `systems` into [`LineSolver::output`].
    fn solve(&mut self, systems: &Texture) -> Result<(), SimError>;
    /// The solution of the last `solve` (R32F rect, `n × batch`).
    fn output(&self) -> &Texture;
    /// Short name (`cr`, `cg4`, `thomas`, …) for the command line, tables and titles.
    fn name(&self) -> &str;
}

/// The solver names `--solver` accepts, first the default.
pub const SOLVER_NAMES: &[&str] = &["gpu-thomas", "thomas"];

/// The solver a simulation uses unless told otherwise.
pub const DEFAULT: &str = "gpu-thomas";

/// Makes the solver called `name` for `n`-unknown systems, `batch` of them.
pub fn make(gl: &Gl, name: &str, n: u32, batch: u32) -> Result<Box<dyn LineSolver>, SimError> {
    Ok(match name {
        "gpu-thomas" => Box::new(ComputeThomas::new(gl, n, batch)?),
        "thomas" => Box::new(CpuThomas::new(gl, n, batch)?),
        other => {
            return Err(SimError::UnknownSolver {
                name: other.to_string(),
                known: SOLVER_NAMES.join(", "),
            });
        }
    })
}

/// Thomas algorithm in a compute shader: one invocation walks one system (forward
/// elimination, back substitution), so a batch of `batch` systems runs `batch` invocations.
pub struct ComputeThomas {
    gl: Gl,
    program: std::rc::Rc<Program>,
    x: Texture,
    cp: Texture,
}

impl ComputeThomas {
    pub fn new(gl: &Gl, n: u32, batch: u32) -> Result<Self, SimError> {
        Ok(ComputeThomas {
            gl: gl.clone(),
            program: Program::compute(gl, "sim/thomas.comp", &[])?,
            x: Texture::new(gl, TexTarget::Rect, Format::R32F, n, batch, None)?,
            cp: Texture::new(gl, TexTarget::Rect, Format::R32F, n, batch, None)?,
        })
    }
}

impl LineSolver for ComputeThomas {
    fn solve(&mut self, systems: &Texture) -> Result<(), SimError> {
        check_shape(systems, &self.x)?;
        let p = &self.program;
        p.bind_texture(0, "u_sys", systems);
        p.bind_image(0, &self.x, glow::READ_WRITE);
        p.bind_image(1, &self.cp, glow::READ_WRITE);
        p.set_i32("u_n", systems.width() as i32);
        p.set_i32("u_batch", systems.height() as i32);
        p.dispatch_1d(systems.height())?;
        // Later passes sample x as a texture.
        self.gl.memory_barrier(
            glow::TEXTURE_FETCH_BARRIER_BIT | glow::SHADER_IMAGE_ACCESS_BARRIER_BIT,
        );
        Ok(())
    }
    fn output(&self) -> &Texture {
        &self.x
    }
    fn name(&self) -> &str {
        "gpu-thomas"
    }
}

fn check_shape(systems: &Texture, x: &Texture) -> Result<(), SimError> {
    if systems.format() != Format::RGBA32F
        || systems.width() != x.width()
        || systems.height() != x.height()
    {
        return Err(SimError::Gl(GlError::Invalid(format!(
            "systems {systems:?}: expected RGBA32F {}×{}",
            x.width(),
            x.height()
        ))));
    }
    Ok(())
}

/// Thomas algorithm on the CPU in f64, as the paper's CPU baseline in a simulation: every
/// half-step reads the systems back, solves them and uploads the solution.
pub struct CpuThomas {
    x: Texture,
    scratch: Vec<f64>,
    out: Vec<f32>,
}

impl CpuThomas {
    pub fn new(gl: &Gl, n: u32, batch: u32) -> Result<Self, SimError> {
        Ok(CpuThomas {
            x: Texture::new(gl, TexTarget::Rect, Format::R32F, n, batch, None)?,
            scratch: vec![0.0; 2 * n as usize],
            out: vec![0.0; (n * batch) as usize],
        })
    }
}

impl LineSolver for CpuThomas {
    fn solve(&mut self, systems: &Texture) -> Result<(), SimError> {
        check_shape(systems, &self.x)?;
        let n = systems.width() as usize;
        let sys = systems.read()?;
        let (cp, xs) = self.scratch.split_at_mut(n);
        for (row, out) in sys.chunks_exact(4 * n).zip(self.out.chunks_exact_mut(n)) {
            thomas_f32_row(row, cp, xs);
            for (o, &v) in out.iter_mut().zip(xs.iter()) {
                *o = v as f32;
            }
        }
        self.x
            .upload_rect(Rect::full(self.x.width(), self.x.height()), &self.out)?;
        Ok(())
    }
    fn output(&self) -> &Texture {
        &self.x
    }
    fn name(&self) -> &str {
        "thomas"
    }
}

fn thomas_f32_row(row: &[f32], cp: &mut [f64], x: &mut [f64]) {
    let n = x.len();
    let t = |i: usize| {
        let p = &row[4 * i..4 * i + 4];
        (p[0] as f64, p[1] as f64, p[2] as f64, p[3] as f64)
    };
    let (_, b0, c0, k0) = t(0);
    cp[0] = c0 / b0;
    x[0] = k0 / b0;
    for i in 1..n {
        let (a, b, c, k) = t(i);
        let m = b - a * cp[i - 1];
        cp[i] = c / m;
        x[i] = (k - a * x[i - 1]) / m;
    }
    for i in (0..n - 1).rev() {
        x[i] -= cp[i] * x[i + 1];
    }
}

/// The Thomas algorithm in f64 for one system: `a` sub-, `b` main, `c` super-diagonal,
/// `k` right-hand side (`a[0]`, `c[n-1]` ignored). The CPU references' solver.
pub fn thomas(a: &[f64], b: &[f64], c: &[f64], k: &[f64], x: &mut [f64], cp: &mut [f64]) {
    let n = b.len();
    cp[0] = c[0] / b[0];
    x[0] = k[0] / b[0];
    for i in 1..n {
        let m = b[i] - a[i] * cp[i - 1];
        cp[i] = c[i] / m;
        x[i] = (k[i] - a[i] * x[i - 1]) / m;
    }
    for i in (0..n - 1).rev() {
        x[i] -= cp[i] * x[i + 1];
    }
}
