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
//! - [`adi`]: the ADI simulations of §2 and §4 (heat, pollutant, shallow water) on the
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
//! readable in place through [`BatchSolver::output`]: the ADI simulations of [`adi`]
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

pub mod adi;
mod batch;
pub mod cg;
pub mod cg_model;
pub mod claims;
pub mod compute;
pub mod cpu;
mod cpu_thomas;
mod error;
pub mod experiments;
pub mod fragment_cr;
pub mod layout;
mod original;
pub mod programs;
pub mod tiled;

pub use batch::{BatchSolver, check_systems, upload};
pub use cg::trace as cg_trace;
pub use cg::{CgInfo, CgParams, FragmentCg, Packing};
pub use compute::{ComputeCr, ComputeCrPasses, ComputePcr, Memory};
pub use cpu::{Systems, thomas, thomas_batch, thomas_batch_f32, thomas_batch_f64};
pub use cpu_thomas::CpuThomas;
pub use error::TridiagonalError;
pub use fragment_cr::trace as cr_trace;
pub use fragment_cr::{CrParams, FragmentCr};
pub use layout::CrLayout;
pub use original::ORIGINAL;
