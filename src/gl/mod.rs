//! The GL toolkit: the only module in the crate that calls `glow` directly.
//!
//! # Ownership model
//! Every GL object is an RAII wrapper that holds a clone of [`Gl`], a reference-counted handle
//! to the context. The handle owns, besides `glow::Context`, whatever keeps the native context
//! alive (the glutin EGL display and context, or a window's surface). An object is deleted in
//! its `Drop`, and the context can only go away after the last object that refers to it: no GL
//! object outlives its context. `Gl` is `!Send`: one thread owns a context and all of its
//! objects (tests that run in parallel each make their own context).
//!
//! The context owns nothing that holds a [`Gl`]: its program cache keeps the linked programs
//! themselves (GL names, uniform locations), and each [`Program`] handed out holds the `Gl`.
//! So the context (and its driver threads) is freed when the last handle goes, cached programs
//! or not; [`live_contexts`] counts the contexts alive in the process. When the last handle
//! goes, the context is released from the thread and destroyed, which frees every object still
//! in it. An object dropped while another context is current on the thread is left to its own
//! context's destruction rather than deleted in the wrong context.
//!
//! # Error checking
//! With checks on (debug builds, tests, or `GPGPU_REPRO_GL_CHECK=1`), every toolkit operation
//! ends with `glGetError`, and a GL error becomes [`GlError::Call`] naming the operation. In
//! release builds the checks are made only where a result is read back.
//!
//! # Pieces
//! - [`context`]: the handle [`Gl`] and the operations on the context itself;
//! - [`egl`]: headless EGL device contexts, version negotiation down to GL 3.3 core;
//! - [`caps`]: what the device offers ([`Caps`]) and what a table needs ([`Need`]);
//! - [`window`]: windowed contexts (the live viewer) and hidden-window contexts (the fallback
//!   where there is no EGL device platform);
//! - [`program`]: programs built from `glsl/` files with one preamble function, cached;
//! - [`texture`]: float textures (2D and rectangle, R32F and RGBA32F);
//! - [`render_target`]: render targets (a texture with its own framebuffer);
//! - [`pingpong`]: the copy and switch methods of the 2005 papers behind one interface;
//! - [`observe`]: the per-pass observer of traced solves (the `trace` command);
//! - [`quad`]: quads with explicit per-vertex texture coordinates (rasterizer index mapping);
//! - [`buffer`]: shader storage buffers and buffer-texture views of them, compute dispatch,
//!   memory barriers;
//! - [`timing`]: `glFinish`-bracketed timing with warm-up, repetitions and a time budget.

pub mod buffer;
pub mod caps;
pub mod context;
pub mod define;
pub mod egl;
pub mod error;
pub mod image_access;
pub mod info;
pub mod ledger;
pub mod measure;
pub mod observe;
pub mod pingpong;
pub mod procedural;
pub mod profile;
pub mod program;
pub mod program_cache;
pub mod quad;
pub mod rect;
pub mod render_target;
pub mod steady;
pub mod texture;
pub mod timing;
pub mod version;
pub mod window;

pub use buffer::{Buffer, BufferTexture, Reads, Ssbo, TexelType, bind_all};
pub use caps::{Caps, Need};
pub use context::{Gl, NativeContext, WeakGl, live_contexts};
pub use define::Define;
pub use egl::{DeviceSelector, headless};
pub use error::GlError;
pub use info::{DeviceInfo, is_cpu_rasterizer};
pub use observe::{Panel, Pass, PassInfo, PassObserver, Role};
pub use pingpong::{PingPong, PingPongMethod, PingPongStats};
pub use program::Program;
pub use quad::{Quad, QuadBatch};
pub use render_target::RenderTexture;
pub use texture::{Format, Rect, TexTarget, Texture};
pub use timing::{Timing, TimingPlan};
