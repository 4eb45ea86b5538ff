//! # gpgpu-repro
//!
//! Re-creates five historical GPGPU papers on OpenGL — each with the paper's own technique —
//! and regenerates their tables and figures on whatever GL device the machine has.
//!
//! - [`gl`]: the GL toolkit (headless EGL contexts, programs, float textures, the copy and
//!   switch ping-pong methods, quads that map indices through the rasterizer, SSBOs, timing);
//!   the only module that calls `glow`.
//! - [`registry`]: every paper and simulation, the table the CLI and the runner share; the
//!   one list of simulations (the papers' own: the tridiagonal paper's ADI simulations and
//!   bicg's BioFET).
//! - [`papers`]: one folder per paper (GPU implementations, CPU references, experiments).
//! - [`sim`]: the simulations' generic layer (the `Simulation` trait, headless frames, the
//!   live viewer); the simulations themselves live in their papers, which use it.
//! - [`runner`]: checks every experiment file before any work, runs a paper's experiments,
//!   saves rows as they finish, resumes.
//!
//! Imports go one way: `main` → [`registry`] → [`papers`] → [`sim`], [`runner`] →
//! [`bench`](mod@bench) → [`report`] → [`work`], [`gl`] (`tests/layering.rs` checks that no two folders
//! import each other).
//! - [`trace`]: `gpgpu-repro trace`, a legacy technique pass by pass (PNGs, GIF, Markdown);
//!   sits beside the registry, above the papers.
//! - [`report`]: tables (Markdown, CSV, JSON), plots (PNG), provenance, `REPORT.md`.
//! - [`mode`](mod@mode): a run's [`Mode`] (quick or full), below every folder.
//! - [`work`]: the work model (bytes by access kind, flops, passes) and the bound types,
//!   plain data below the bench and the report that both use.

pub mod bench;
pub mod float;
pub mod gl;
pub mod mode;
pub mod papers;
pub mod registry;
pub mod report;
pub mod runner;
pub mod sim;
pub mod stats;
pub mod trace;
pub mod util;
pub mod work;

pub use mode::Mode;
