//! Programs built from the shader files in `glsl/`.
//!
//! Shader files carry no `#version` line. [`preamble`] is the one function that writes it,
//! followed by the extensions and the `#define`s of a variant (block size, RGBA channel mask,
//! the fetch-counting switch `COUNT_FETCHES`…) and a `#line 1` so that the driver's log numbers
//! the lines of the file itself. Compile errors name the file and the stage; link errors name
//! the files. Programs are cached per context by (files, defines): asking twice costs a hash
//! lookup. The cache holds the linked program, not a [`Gl`](super::Gl): it never keeps its context alive.
//!
//! # Which GLSL a program is compiled as
//! [`Glsl::for_sources`] decides, from the stages and the text of the files:
//! - a program with a compute stage is `#version 430 core` and needs [`Need::Compute`](super::Need::Compute);
//! - every other program (the 2005 papers' fragment techniques, the viewer) is
//!   `#version 330 core`, so that it runs on a GL 3.3 device. Features newer than GLSL 3.30
//!   that a file uses are enabled as extensions where the device offers them: `precise`
//!   (`GL_ARB_gpu_shader5`; where absent, `precise` is defined away and the driver may fuse
//!   `a*b + c`), `buffer` blocks and their `atomicAdd` (`GL_ARB_shader_storage_buffer_object`,
//!   with `GL_ARB_shading_language_420pack` for `layout(binding = N)`), `double`
//!   (`GL_ARB_gpu_shader_fp64`), `atomic_uint`, `image2D`… A file that uses such a feature
//!   only under an `#ifdef` (the instrumented fetch counts) compiles without it when the
//!   switch is off; with the switch on, on a device without the feature, the compile error
//!   says what the device lacks.
//!
//! # Includes
//! A line `#include "common/arith2005.glsl"` in a shader file is replaced by that file's text
//! ([`expand_includes`]), framed by `#line` directives that give the included text its own
//! source-string number, so that a compile error in it names the included file. One level:
//! an included file includes nothing.
//!
//! The files are embedded in the binary at build time (`include_dir!`), so the executable is
//! self-contained; a new shader needs no Rust change beyond the code that uses it. Edited
//! copies can replace them at run time without a rebuild (`GPGPU_REPRO_GLSL`, `overrides.rs`).
//!
//! The embedded files are `embedded.rs`, their run-time replacements `overrides.rs`, the
//! files and their includes `source.rs`, the GLSL version and extensions `glsl.rs`, compiling
//! and linking `compile.rs`, uniforms and dispatches `uniforms.rs`, the program and the
//! per-context cache `handle.rs`.

mod compile;
mod embedded;
pub(crate) mod glsl;
pub(crate) mod handle;
pub mod overrides;
pub(crate) mod source;
mod uniforms;

pub use glsl::{
    GLSL_COMPUTE, GLSL_LEGACY, Glsl, INEXACT_DIV_DEFINE, inexact_division, set_inexact_division,
};
pub use handle::Program;
pub use source::{Define, expand_includes, preamble, source};
