//! A linked [`Program`], handed out from the context's cache
//! ([`program_cache`](crate::gl::program_cache)).

use std::any::Any;
use std::rc::{Rc, Weak};

use glow::HasContext;

use super::source::{Define, source};

use crate::gl::caps::Need;
use crate::gl::context::Gl;
use crate::gl::error::GlError;
use crate::gl::program_cache::{CacheEntry, Key, Linked};

/// A linked program. Uniform locations are looked up once and cached.
pub struct Program {
    pub(super) gl: Gl,
    pub(super) linked: Rc<Linked>,
    /// Whether the context's cache owns the GL program (else this handle deletes it).
    pub(super) cached: bool,
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
            Some(entry) => match entry
                .handle
                .upgrade()
                .and_then(|p| p.downcast::<Program>().ok())
            {
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
        let weak: Weak<Program> = Rc::downgrade(&p);
        let handle: Weak<dyn Any> = weak;
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
