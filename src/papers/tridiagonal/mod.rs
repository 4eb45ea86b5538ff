//! Kim & Lee, "Fast GPU Implementation for the Solution of Tridiagonal Matrix Systems",
//! KIISE 2005: serial cyclic reduction in fragment shaders, against CPU Thomas and GPU CG.
//!
//! # The math (§3.1)
//! A system `a_i x_{i-1} + b_i x_i + c_i x_{i+1} = k_i`, `i = 1 … N` with `N = N' - 1`,
//! `N' = 2^q` and `x_0 = x_{N'} = 0`. Reduction level `s = 1 … q-1` (eq. 15) keeps the
//! equations `i = 2^s, 2·2^s, …, N' - 2^s` and eliminates their neighbours `i ∓ d`,
//! `d = 2^{s-1}`:
//!
//! ```text
//! α_i = -a_i/b_{i-d},  γ_i = -c_i/b_{i+d}
//! a_i' = α_i a_{i-d},  c_i' = γ_i c_{i+d}
//! b_i' = b_i + α_i c_{i-d} + γ_i a_{i+d},  k_i' = k_i + α_i k_{i-d} + γ_i k_{i+d}
//! ```
//!
//! (the text introduces the second multiplier as β and then uses γ). Filling (eq. 13, 14, 16),
//! `s = q … 1`: `x_i = (k_i - a_i x_{i-d} - c_i x_{i+d}) / b_i` with the level-`s-1`
//! coefficients, for `i = d, 3d, 5d, …` (eq. 16 prints step `2^{s-1}`, which would recompute
//! known unknowns from unknown neighbours; the step is `2^s`).
//!
//! # What is here
//! - [`layout`]: §3.2's `PC_s, PS_s, TW_s, TS_s` and the exact half-texel convention.
//! - [`fragment_cr`]: the paper's solver — RGBA `P` texels, `P0` + P1/P2 ping-pong (copy or
//!   switch), one quad per level, rasterizer index mapping, X1/X2 fill, batched rows.
//! - [`cg`]: the conjugate-gradient baseline in fragment shaders (Krüger & Westermann style),
//!   scalar and RGBA-packed.
//! - [`compute`]: beyond the paper, CR and PCR in GL 4.3 compute shaders (shared memory,
//!   one work group per system; a global-memory path for systems too big for it).
//! - [`cpu`]: batched systems, one Thomas generic over the float type ([`thomas`], run in
//!   f32 as the paper's baseline and in f64 as every reference) and a CPU cyclic reduction.
//! - [`tiled`]: Fig. 9's 3D batches tiled into one 2D texture.
//! - [`programs`]: every shader program variant the solvers build, in one place.
//! - [`sim`]: the ADI simulations of §2 and §4 (heat, pollutant, shallow water) on the
//!   batched solvers below.
//! - [`experiments`]: Table 1, Fig. 11 (with its sweep and pass profile), Fig. 9 (tiled 3D);
//!   the simulations' Fig. 13–19 from `sims.toml` (`experiments/sims/`).
//! - [`cr_trace`], [`cg_trace`]: what each pass of the fragment CR and CG is, for
//!   `gpgpu-repro trace` (below).
//!
//! # Watch it run: `gpgpu-repro trace`
//! The fragment solvers run pass by pass on a small input, every texture read back after
//! each pass (a PNG per pass, a GIF, `trace.md`; `--window` to step through them):
//!
//! ```text
//! gpgpu-repro trace cr-copy     # cyclic reduction, copy method (Fig. 2–8), 4 systems of 15
//! gpgpu-repro trace cr-switch   # the same, switch method, with the gather pass
//! gpgpu-repro trace cr-tiled    # Fig. 9: the N² systems of an N×N×N grid tiled, N = 4
//! gpgpu-repro trace cg-scalar   # the CG baseline, set-up + one iteration (Table 1)
//! gpgpu-repro trace cg-rgba     # the same on RGBA-packed vectors (Table 1's vector texture)
//! ```
//!
//! # The batched solver API (used by the ADI simulations)
//! Every solver implements [`BatchSolver`]: `solve(&mut self, systems)` takes an RGBA32F
//! **rectangle** texture of width `n` (unknowns along x) and height `batch` (one system per
//! row) whose texel `(i, j)` is `(a, b, c, k)` of equation `i` of system `j`
//! (`a` sub-diagonal, `b` diagonal, `c` super-diagonal, `k` right-hand side; `a` of the first
//! and `c` of the last equation multiply zero boundary values), and returns an R32F rectangle
//! texture `n × batch` holding `x`, owned by the solver (valid until the next `solve`, and
//! readable in place through [`BatchSolver::output`]: the ADI simulations of [`sim`]
//! keep their state there between half-steps, with no copy).
//!
//! ```no_run
//! # use gpgpu_repro::gl::{self, DeviceSelector, PingPongMethod, Texture, TexTarget, Format};
//! # use gpgpu_repro::papers::tridiagonal::*;
//! let gl = gl::headless(&DeviceSelector::Auto)?;
//! let sys = Systems::heat(1023, 1024, 0.5, 1);
//! let tex = Texture::new(&gl, TexTarget::Rect, Format::RGBA32F, 1023, 1024, Some(&sys.data))?;
//! let mut solver: Box<dyn BatchSolver> =
//!     Box::new(FragmentCr::new(&gl, 1023, 1024, PingPongMethod::Switch)?);
//! let x: Vec<f32> = solver.solve(&tex)?.read()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Constructors: [`FragmentCr::new`] (`method: PingPongMethod`), [`FragmentCg::new`] (fixed
//! iterations; symmetric positive-definite systems), [`ComputeCr::new`], [`ComputePcr::new`],
//! [`CpuThomas::new`] (reads back, solves in f32 on one thread, uploads — as the paper's CPU
//! baseline). Fragment CR and the compute solvers accept any `n ≥ 1` (CR pads to `2^q - 1`
//! with identity rows). A zero pivot gives [`TridiagonalError::ZeroPivot`] (CPU) or, for the
//! GPU solvers with the finite check on (the default), [`TridiagonalError::NonFinite`].

pub mod cg;
pub mod cg_model;
pub mod cg_trace;
pub mod claims;
pub mod compute;
pub mod cpu;
pub mod cr_trace;
pub mod experiments;
pub mod fragment_cr;
pub mod layout;
pub mod programs;
pub mod sim;
pub mod tiled;

pub use cg::{CgInfo, CgParams, FragmentCg, Packing};
pub use compute::{ComputeCr, ComputeCrPasses, ComputePcr, Memory};
pub use cpu::{Systems, thomas, thomas_batch, thomas_batch_f32, thomas_batch_f64};
pub use fragment_cr::{CrParams, FragmentCr};
pub use layout::CrLayout;

use crate::gl::{Format, Gl, GlError, TexTarget, Texture};

/// The systems as the fragment solvers read them: an RGBA32F rectangle texture, one row per
/// system and one texel (a, b, c, d) per equation.
pub fn upload(gl: &Gl, s: &Systems) -> Result<Texture, GlError> {
    Texture::new(
        gl,
        TexTarget::Rect,
        Format::RGBA32F,
        s.n as u32,
        s.batch as u32,
        Some(&s.data),
    )
}

/// What can go wrong in a tridiagonal solve.
#[derive(Debug, thiserror::Error)]
pub enum TridiagonalError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("zero pivot in system {system}, row {row}: the system is singular or needs pivoting")]
    ZeroPivot { system: usize, row: usize },
    #[error(
        "non-finite solution in system {system} at unknown {index}: a zero pivot (singular system or one that needs pivoting)"
    )]
    NonFinite { system: usize, index: usize },
    #[error("bad systems texture: {0}")]
    Shape(String),
    #[error("not supported: {0}")]
    Unsupported(String),
    #[error("CG did not converge in {iterations} iterations (relative residual {residual:.3e})")]
    NotConverged { iterations: usize, residual: f64 },
}

/// A solver for a batch of tridiagonal systems held in a texture (see the module docs).
pub trait BatchSolver {
    /// A short label for tables ("CR fragment (switch)", "Thomas CPU f32", …).
    fn name(&self) -> &str;
    /// `(n, batch)`: the unknowns per system and the number of systems it was built for.
    fn shape(&self) -> (usize, usize);
    /// Solves the systems of an RGBA32F rectangle texture `n × batch` (texel = `(a, b, c, k)`)
    /// and returns the R32F rectangle texture `n × batch` of `x` (the same as [`Self::output`]).
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError>;
    /// The solution of the last `solve` (R32F rectangle, `n × batch`), owned by the solver and
    /// valid until the next `solve`: a caller that keeps state on the GPU between solves (the
    /// ADI simulations) reads it from here, with no copy.
    fn output(&self) -> &Texture;
    /// Turns the finite check after each solve (a readback) on or off; solvers without one
    /// ignore it. Callers that keep the data on the GPU turn it off.
    fn set_check_finite(&mut self, _on: bool) {}
    /// What one `solve` does (bytes, flops, passes or dispatches), counted from the
    /// algorithm for the bound columns ([`crate::bench::bound`]); `None` for CPU solvers.
    fn work(&self) -> Option<crate::bench::Work> {
        None
    }
}

/// Checks that `t` is an RGBA32F rectangle texture of `n × batch`.
pub fn check_systems(t: &Texture, n: usize, batch: usize) -> Result<(), TridiagonalError> {
    if t.format() != Format::RGBA32F
        || t.target() != TexTarget::Rect
        || t.width() as usize != n
        || t.height() as usize != batch
    {
        return Err(TridiagonalError::Shape(format!(
            "expected an RGBA32F rectangle texture {n}×{batch}, got {:?} {:?} {}×{}",
            t.target(),
            t.format(),
            t.width(),
            t.height()
        )));
    }
    Ok(())
}

/// A solver's output texture: R32F rectangle `n × batch`, undefined until a solve writes it
/// ([`BatchSolver::output`]).
pub(crate) fn output_texture(gl: &Gl, n: usize, batch: usize) -> Result<Texture, GlError> {
    Texture::new(
        gl,
        TexTarget::Rect,
        Format::R32F,
        n as u32,
        batch as u32,
        None,
    )
}

/// Reads `x` back and reports the first non-finite value.
pub(crate) fn find_non_finite(x: &Texture, n: usize) -> Result<(), TridiagonalError> {
    let v = x.read()?;
    match v.iter().position(|v| !v.is_finite()) {
        Some(p) => Err(TridiagonalError::NonFinite {
            system: p / n,
            index: p % n,
        }),
        None => Ok(()),
    }
}

/// The paper's CPU baseline behind the GPU interface: reads the systems back, runs Thomas
/// in f32 on one thread, uploads `x` (the transfers are part of its time, as in Fig. 11).
pub struct CpuThomas {
    n: usize,
    batch: usize,
    host: Vec<f32>,
    x: Vec<f32>,
    out: Texture,
}

impl CpuThomas {
    pub fn new(gl: &Gl, n: usize, batch: usize) -> Result<CpuThomas, TridiagonalError> {
        let out = output_texture(gl, n, batch)?;
        Ok(CpuThomas {
            n,
            batch,
            host: vec![],
            x: vec![0.0; n * batch],
            out,
        })
    }
}

impl BatchSolver for CpuThomas {
    fn name(&self) -> &str {
        "Thomas CPU f32"
    }
    fn shape(&self) -> (usize, usize) {
        (self.n, self.batch)
    }
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        check_systems(systems, self.n, self.batch)?;
        self.host = systems.read()?;
        let sys = Systems {
            n: self.n,
            batch: self.batch,
            data: std::mem::take(&mut self.host),
        };
        let r = thomas_batch_f32(&sys, &mut self.x);
        self.host = sys.data;
        r?;
        self.out.upload(&self.x)?;
        Ok(&self.out)
    }
    fn output(&self) -> &Texture {
        &self.out
    }
}

/// The paper as the report cites it, its setup, how it runs here, and what is not
/// reproduced ([`crate::report::article`]).
pub const ORIGINAL: crate::report::article::Original = crate::report::article::Original {
    claims: claims::CLAIMS,
    citation: "Y. Kim and S. Lee, \"Fast GPU Implementation for the Solution of Tridiagonal Matrix Systems\" (삼중대각행렬 시스템 풀이의 빠른 GPU 구현), Journal of KIISE, 2005.",
    setup: "GeForce 6800 (256 MB, PCIe) against a Pentium IV 3.0 GHz; OpenGL with Cg fragment programs, pbuffers with several colour surfaces, fp32",
    here: "GLSL fragment shaders rendering into framebuffer objects (core GL has no pbuffers), the paper's copy and switch ping-pong, fp32; CPU Thomas single-threaded; GL 4.3 compute variants beside (labelled +)",
    omitted: &[
        (
            "§3.2's choice of a 2D texture over a cube map for 3D batches",
            "no cube-map layout is built: 3D batches are tiled into one 2D texture as the paper does, so the two are not compared",
        ),
        (
            "Figs. 1–4, 7 and 8: the diagrams of the reduction and fill passes, their texture-coordinate mapping and their 2D batches (§3.2)",
            "`gpgpu-repro trace tridiagonal` draws every pass of a solve (its rectangles, sources and values) but the report embeds none of them",
        ),
        (
            "serial CR against PCR on operation count",
            "PCR runs beside as a labelled compute variant and is timed (`tuning`, `fig11`); its operation count against CR's is not judged",
        ),
        (
            "Figs. 12, 15 and 17: the simulations' set-ups (grid, time step, sources)",
            "the paper shows pictures, not parameters; `experiments/sims.toml` holds ours",
        ),
    ],
};
