//! `gpgpu-repro trace <technique>`: a legacy fragment technique run pass by pass, for teaching.
//!
//! The 2005 papers drew their techniques by hand: Kim & Lee's cyclic reduction (Fig. 2–9) as
//! runs of RGBA texels written level by level into ping-pong buffers, Matsui et al.'s LU
//! (Fig. 3–5) as quads swept over a matrix texture. `trace` draws the same pictures from the
//! real thing: it runs the solver the experiments use — same code, same shaders — on a small
//! input with a [`PassObserver`](crate::gl::PassObserver) attached, which reads back every
//! texture each pass reads and writes, before the draw and after it. Out come one PNG per
//! pass ([`render`]), an animated GIF of the sequence, and `trace.md` ([`markdown`]) narrating
//! each pass: shader, defines, uniforms, quad and texture coordinates, the paper's equation,
//! texels fetched and written.
//!
//! Every technique lives in its own file (the [`TECHNIQUES`] table lists them) and checks its
//! input before anything runs. The traced result is compared with an untraced run of the same
//! solver on the same input: they must agree bit for bit (the observer only reads).
//!
//! Imports: `main` → `trace` → `papers` → `gl` (like the registry, nothing below imports it).

pub mod bicg;
pub mod catalog;
pub mod cg;
pub mod cr;
pub mod cr_tiled;
pub mod error;
pub mod input;
pub mod lu;
pub mod markdown;
pub mod matmul;
pub mod output;
pub mod record;
pub mod render;
pub mod run;
pub mod technique;
pub mod window;

pub use catalog::{TECHNIQUES, help, resolve, technique};
pub use error::TraceError;
pub use input::Input;
pub use output::{default_out, files, write};
pub use record::{PassRecord, Recorder, Snapshot};
pub use run::Trace;
pub use technique::Technique;
