//! The per-context program cache: linked programs by (files, defines). It holds the linked
//! program (GL name, uniform locations), never a [`Gl`](super::Gl): it keeps no context alive.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use super::define::Define;

/// Cache key: the files and the sorted defines.
pub(crate) type Key = (Vec<String>, Vec<Define>);

/// What the context's cache keeps of a program: the linked program (no [`Gl`] in it) and a
/// weak link to the handle in use, if any. Nothing in it keeps the context alive.
#[derive(Clone)]
pub(crate) struct CacheEntry {
    pub(crate) linked: Rc<Linked>,
    /// The [`Program`](super::program::Program) handed out, type-erased so that the cache
    /// (below the context) need not name the program (above it).
    pub(crate) handle: Weak<dyn Any>,
}

/// A linked program as the context's cache keeps it: no [`Gl`], so no reference cycle.
pub(crate) struct Linked {
    pub(crate) id: glow::Program,
    pub(crate) files: Vec<String>,
    pub(crate) uniforms: RefCell<HashMap<String, Option<glow::UniformLocation>>>,
    pub(crate) local_size: [u32; 3],
}
