//! # gpgpu-repro
//!
//! Re-creates five historical GPGPU papers on OpenGL — each with the paper's own technique —
//! and regenerates their tables and figures on whatever GL device the machine has.
//!
//! - [`gl`]: the GL toolkit (headless EGL contexts, programs, float textures, the copy and
//!   switch ping-pong methods, quads that map indices through the rasterizer, SSBOs, timing);
//!   the only module that calls `glow`.
//! - [`papers`]: one module per paper and the registry the CLI and the runner share.
//! - [`runner`]: runs a paper's experiments, verifies every GPU result, saves rows as they
//!   finish, resumes.
//! - [`report`]: tables (Markdown, CSV, JSON), plots (PNG), provenance, `REPORT.md`.

pub mod bench;
pub mod gl;
pub mod papers;
pub mod report;
pub mod runner;
pub mod sim;
pub mod util;
