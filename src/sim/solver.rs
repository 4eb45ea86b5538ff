//! The batched tridiagonal solvers an ADI half-step can use, behind one trait.
//!
//! A batch is an RGBA32F rectangle texture `n` wide and `batch` high: row `j` is one system,
//! texel `(i, j)` = `(a_i, b_i, c_i, k_i)` (sub-diagonal, diagonal, super-diagonal, right-hand
//! side; `a_0` and `c_{n-1}` are ignored). The solution is an R32F rectangle texture of the
//! same shape, [`LineSolver::output`], valid until the next `solve`.
//!
//! The paper's solvers — fragment-shader cyclic reduction (§3.2), fragment CG for a fixed
//! number of iterations, CPU Thomas with readback and upload — and the compute-shader CR/PCR
//! are `papers::tridiagonal`'s [`BatchSolver`]s; [`Paper`] adapts them. Their `solve` returns
//! the solution by reference only, so the adapter copies it into a texture of its own with
//! one R32F pass (so that the state can outlive the borrow): one extra pass per half-step,
//! measured in the Fig. 14 table's breakdown. Their finite-value check (a readback per solve)
//! is turned off: the data stays on the GPU. This module adds a batched Thomas algorithm in a
//! compute shader (one invocation per system), a GPU-resident baseline beyond the paper.
//!
//! Names for `--solver`: `cr` (fragment CR, switch method — the paper's pbuffer surfaces),
//! `cr-copy` (copy method), `cgN` (fragment CG, N fixed iterations, scalar textures; `cg` =
//! `cg4`), `thomas` (CPU), `compute-cr`, `compute-pcr`, `gpu-thomas`.

use std::rc::Rc;

use crate::gl::{
    Format, Gl, GlError, PingPongMethod, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget,
    Texture, image_access,
};
use crate::papers::tridiagonal::{
    self as tri, BatchSolver, ComputeCr, ComputePcr, FragmentCg, FragmentCr, Packing,
};

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

/// The solver names `--solver` accepts (`cgN` takes any N ≥ 1), first the default.
pub const SOLVER_NAMES: &[&str] = &[
    "cr",
    "cr-copy",
    "cg4",
    "thomas",
    "compute-cr",
    "compute-pcr",
    "gpu-thomas",
];

/// The solver a simulation uses unless told otherwise: the paper's.
pub const DEFAULT: &str = "cr";

/// Makes the solver called `name` for `n`-unknown systems, `batch` of them.
pub fn make(gl: &Gl, name: &str, n: u32, batch: u32) -> Result<Box<dyn LineSolver>, SimError> {
    let (nu, bu) = (n as usize, batch as usize);
    let wrap = |s: Box<dyn BatchSolver>| -> Result<Box<dyn LineSolver>, SimError> {
        Ok(Box::new(Paper::new(gl, name, s, n, batch)?))
    };
    let err = |e: tri::TridiagonalError| SimError::Solver {
        solver: name.to_string(),
        message: e.to_string(),
    };
    match name {
        "gpu-thomas" => Ok(Box::new(ComputeThomas::new(gl, n, batch)?)),
        "cr" | "cr-copy" => {
            let method = if name == "cr" {
                PingPongMethod::Switch
            } else {
                PingPongMethod::Copy
            };
            let mut s = FragmentCr::new(gl, nu, bu, method).map_err(err)?;
            s.set_check_finite(false);
            wrap(Box::new(s))
        }
        "thomas" => wrap(Box::new(tri::CpuThomas::new(gl, nu, bu).map_err(err)?)),
        "compute-cr" => {
            let mut s = ComputeCr::new(gl, nu, bu).map_err(err)?;
            s.set_check_finite(false);
            wrap(Box::new(s))
        }
        "compute-pcr" => {
            let mut s = ComputePcr::new(gl, nu, bu).map_err(err)?;
            s.set_check_finite(false);
            wrap(Box::new(s))
        }
        cg if cg.starts_with("cg") => {
            let iterations = match &cg[2..] {
                "" => 4,
                k => k.parse::<usize>().ok().filter(|&k| k >= 1).ok_or_else(|| {
                    SimError::UnknownSolver {
                        name: cg.to_string(),
                        known: SOLVER_NAMES.join(", "),
                    }
                })?,
            };
            let mut p = tri::CgParams::fixed(Packing::Scalar, iterations);
            p.check_finite = false;
            wrap(Box::new(
                FragmentCg::with_params(gl, nu, bu, p).map_err(err)?,
            ))
        }
        other => Err(SimError::UnknownSolver {
            name: other.to_string(),
            known: SOLVER_NAMES.join(", "),
        }),
    }
}

/// One of `papers::tridiagonal`'s solvers, with its solution copied into a texture of ours.
pub struct Paper {
    name: String,
    inner: Box<dyn BatchSolver>,
    out: RenderTexture,
    copy: Rc<Program>,
    quad: QuadBatch,
}

impl Paper {
    pub fn new(
        gl: &Gl,
        name: &str,
        inner: Box<dyn BatchSolver>,
        n: u32,
        batch: u32,
    ) -> Result<Paper, SimError> {
        Ok(Paper {
            name: name.to_string(),
            inner,
            out: RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n, batch, None)?,
            copy: Program::fragment(gl, "sim/resolve.frag", &[])?,
            quad: QuadBatch::new(gl, &[Quad::identity(Rect::full(n, batch))])?,
        })
    }

    /// The wrapped solver's own label.
    pub fn inner_name(&self) -> &str {
        self.inner.name()
    }
}

impl LineSolver for Paper {
    fn solve(&mut self, systems: &Texture) -> Result<(), SimError> {
        let x = self.inner.solve(systems).map_err(|e| SimError::Solver {
            solver: self.name.clone(),
            message: e.to_string(),
        })?;
        self.out.bind();
        let p = &self.copy;
        p.bind_texture(0, "u_src", x);
        p.set_i32("u_src_t", 0);
        p.set_vec4("u_bump", [0.0; 4]);
        let (w, h) = (self.out.texture().width(), self.out.texture().height());
        self.quad.draw(p, w, h)?;
        Ok(())
    }
    fn output(&self) -> &Texture {
        self.out.texture()
    }
    fn name(&self) -> &str {
        &self.name
    }
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
        p.bind_image(0, &self.x, image_access::READ_WRITE);
        p.bind_image(1, &self.cp, image_access::READ_WRITE);
        p.set_i32("u_n", systems.width() as i32);
        p.set_i32("u_batch", systems.height() as i32);
        p.dispatch_1d(systems.height())?;
        // Later passes sample x as a texture.
        self.gl.image_barrier();
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
