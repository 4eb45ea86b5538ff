//! Programs built from the shader files in `glsl/`.
//!
//! Shader files carry no `#version` line. [`preamble`] is the one function that writes it,
//! followed by the extensions and the `#define`s of a variant (block size, RGBA channel mask,
//! the fetch-counting switch `COUNT_FETCHES`…) and a `#line 1` so that the driver's log numbers
//! the lines of the file itself. Compile errors name the file and the stage; link errors name
//! the files. Programs are cached per context by (files, defines): asking twice costs a hash
//! lookup. The cache holds the linked program, not a [`Gl`]: it never keeps its context alive.
//!
//! # Which GLSL a program is compiled as
//! [`Glsl::for_sources`] decides, from the stages and the text of the files:
//! - a program with a compute stage is `#version 430 core` and needs [`Need::Compute`];
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
//! self-contained; a new shader needs no Rust change beyond the code that uses it.
//!
//! The files and their includes are `source.rs`, the GLSL version and extensions
//! `glsl.rs`, compiling and linking `compile.rs`, uniforms and dispatches `uniforms.rs`;
//! this file holds the program and the per-context cache.

mod compile;
mod glsl;
mod source;
mod uniforms;

pub use glsl::{
    GLSL_COMPUTE, GLSL_LEGACY, Glsl, INEXACT_DIV_DEFINE, inexact_division, set_inexact_division,
};
pub use source::{Define, expand_includes, preamble, source};

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use glow::HasContext;

use super::{Gl, GlError, Need};

/// Cache key: the files and the sorted defines.
pub(crate) type Key = (Vec<String>, Vec<Define>);

/// What the context's cache keeps of a program: the linked program (no [`Gl`] in it) and a
/// weak link to the handle in use, if any. Nothing in it keeps the context alive.
#[derive(Clone)]
pub(crate) struct CacheEntry {
    linked: Rc<Linked>,
    handle: std::rc::Weak<Program>,
}

/// A linked program as the context's cache keeps it: no [`Gl`], so no reference cycle.
pub(crate) struct Linked {
    id: glow::Program,
    files: Vec<String>,
    uniforms: RefCell<HashMap<String, Option<glow::UniformLocation>>>,
    local_size: [u32; 3],
}

/// A linked program. Uniform locations are looked up once and cached.
pub struct Program {
    gl: Gl,
    linked: Rc<Linked>,
    /// Whether the context's cache owns the GL program (else this handle deletes it).
    cached: bool,
    /// `local_size` of a compute program, as the driver reports it.
    pub local_size: [u32; 3],
}

impl Program {
    /// Compiles and links `files` (e.g. `["common/quad.vert", "lu/u.frag"]` or
    /// `["matmul/blocked.comp"]`) with `defines`, or returns the cached program.
    pub fn get(gl: &Gl, files: &[&str], defines: &[Define]) -> Result<Rc<Program>, GlError> {
        let mut sorted = defines.to_vec();
        sorted.sort();
        let key: Key = (files.iter().map(|s| s.to_string()).collect(), sorted);
        let cached = gl.programs().borrow().get(&key).cloned();
        let linked = match cached {
            // Someone still holds this program's handle: hand out the same one.
            Some(entry) => match entry.handle.upgrade() {
                Some(p) => return Ok(p),
                None => entry.linked,
            },
            None => {
                let mut p = Self::build(gl, files, defines)?;
                p.cached = true;
                p.linked.clone()
            }
        };
        let p = Rc::new(Program {
            gl: gl.clone(),
            local_size: linked.local_size,
            linked: linked.clone(),
            cached: true,
        });
        let handle = Rc::downgrade(&p);
        gl.programs()
            .borrow_mut()
            .insert(key, CacheEntry { linked, handle });
        Ok(p)
    }

    /// A compute program from one `.comp` file (cached). On a device without compute shaders
    /// the error says so and which GL version the device offers.
    pub fn compute(gl: &Gl, file: &str, defines: &[Define]) -> Result<Rc<Program>, GlError> {
        if let Some(why) = gl.caps().lacks(&[Need::Compute]) {
            return Err(GlError::Unsupported(format!("`{file}` {why}")));
        }
        Self::get(gl, &[file], defines)
    }

    /// A fragment program drawn over quads: `common/quad.vert` plus `frag` (cached).
    pub fn fragment(gl: &Gl, frag: &str, defines: &[Define]) -> Result<Rc<Program>, GlError> {
        Self::get(gl, &["common/quad.vert", frag], defines)
    }

    fn build(gl: &Gl, files: &[&str], defines: &[Define]) -> Result<Program, GlError> {
        let sources: Vec<(&str, &str)> = files
            .iter()
            .map(|&f| source(f).map(|t| (f, t)))
            .collect::<Result<_, _>>()?;
        Self::from_sources(gl, &sources, defines)
    }

    /// The files this program was built from.
    pub fn files(&self) -> &[String] {
        &self.linked.files
    }

    /// What a profile calls this program's passes ([`crate::gl::profile`]): its last file
    /// (the fragment or compute shader; the vertex stage is shared).
    pub fn pass_name(&self) -> String {
        self.linked.files.last().cloned().unwrap_or_default()
    }

    /// `glUseProgram`.
    pub fn bind(&self) {
        unsafe { self.gl.raw().use_program(Some(self.linked.id)) }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // A cached program lives as long as its context; the context's destruction frees it.
        if !self.cached && self.gl.is_current() {
            unsafe { self.gl.raw().delete_program(self.linked.id) }
        }
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Program{:?}", self.linked.files)
    }
}
