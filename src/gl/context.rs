//! The handle to a current GL context ([`Gl`]): reference counted, `!Send`, owning the native
//! context; the operations on the context itself (checks, barriers, viewport, blending).
//! The ownership model is in the [`gl`](super) module doc.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{CStr, c_void};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use glow::HasContext;

use super::caps::Caps;
use super::error::GlError;
use super::info::{self, DeviceInfo};
use super::program_cache::{CacheEntry, Key};
use super::rect::Rect;

/// A handle to a current GL context; cheap to clone (reference counted).
#[derive(Clone)]
pub struct Gl(Rc<Shared>);

struct Shared {
    // Field order is drop order: the loader first, then the native context it points into.
    raw: glow::Context,
    checks: std::cell::Cell<bool>,
    /// When the last `glFinish` returned: the GPU has had nothing to do since, as far as this
    /// context knows ([`Gl::idle`]).
    last_finish: std::cell::Cell<Option<std::time::Instant>>,
    info: DeviceInfo,
    /// Linked programs by (files, defines). They hold no `Gl` (no cycle through the cache);
    /// the context's destruction deletes them.
    programs: RefCell<HashMap<Key, CacheEntry>>,
    /// `glGetProgramiv`, loaded directly: glow's wrapper reads one integer, and
    /// `GL_COMPUTE_WORK_GROUP_SIZE` writes three.
    get_programiv: Option<GetProgramiv>,
    native: Box<dyn NativeContext>,
}

type GetProgramiv = unsafe extern "system" fn(u32, u32, *mut i32);

/// A weak handle to a context (see [`Gl::downgrade`]).
#[derive(Clone)]
pub struct WeakGl(std::rc::Weak<Shared>);

impl WeakGl {
    /// Whether the context still exists (some [`Gl`] or GL object still holds it).
    pub fn is_alive(&self) -> bool {
        self.0.strong_count() > 0
    }
}

/// What keeps a native context alive (glutin's context, display, surface), seen by [`Gl`].
pub trait NativeContext {
    /// Whether this context is current on the calling thread.
    fn is_current(&self) -> bool;
    /// Makes the context not current on this thread (before it is destroyed), if it is.
    fn release(&self);
}

static LIVE_CONTEXTS: AtomicUsize = AtomicUsize::new(0);

/// How many contexts made by the toolkit are alive in this process (created, not yet freed).
pub fn live_contexts() -> usize {
    LIVE_CONTEXTS.load(Ordering::SeqCst)
}

impl Drop for Shared {
    fn drop(&mut self) {
        // Release before destroying: a context current on a thread is only destroyed once it
        // stops being current, which for a test thread or a long-lived program may be never.
        self.native.release();
        LIVE_CONTEXTS.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Gl {
    /// Wraps a loaded glow context. `native` keeps the native context (and surface) alive for
    /// as long as any GL object exists; it must be current on this thread.
    ///
    /// `loader` is the function glow was loaded with (the display's `get_proc_address`).
    pub fn from_glow(
        raw: glow::Context,
        mut info: DeviceInfo,
        native: Box<dyn NativeContext>,
        loader: &dyn Fn(&CStr) -> *const c_void,
    ) -> Gl {
        let ptr = loader(c"glGetProgramiv");
        // SAFETY: a non-null pointer from the GL loader for glGetProgramiv has this signature.
        let get_programiv = (!ptr.is_null())
            .then(|| unsafe { std::mem::transmute::<*const c_void, GetProgramiv>(ptr) });
        info::fill_limits(&raw, &mut info);
        let checks = cfg!(debug_assertions)
            || std::env::var("GPGPU_REPRO_GL_CHECK").is_ok_and(|v| v != "0" && !v.is_empty());
        LIVE_CONTEXTS.fetch_add(1, Ordering::SeqCst);
        Gl(Rc::new(Shared {
            raw,
            checks: std::cell::Cell::new(checks),
            last_finish: std::cell::Cell::new(None),
            info,
            programs: RefCell::new(HashMap::new()),
            get_programiv,
            native,
        }))
    }

    /// What the device offers: GL and GLSL versions, features, limits (see [`Caps::lacks`]).
    pub fn caps(&self) -> &Caps {
        &self.0.info.caps
    }

    /// A weak handle: it says whether the context is still alive without keeping it so.
    pub fn downgrade(&self) -> WeakGl {
        WeakGl(Rc::downgrade(&self.0))
    }

    /// Whether this context is current on the calling thread (objects are deleted only then).
    pub(crate) fn is_current(&self) -> bool {
        self.0.native.is_current()
    }

    /// The glow context, for the toolkit's own modules.
    pub(crate) fn raw(&self) -> &glow::Context {
        &self.0.raw
    }

    /// What this context runs on: device, driver, limits.
    pub fn info(&self) -> &DeviceInfo {
        &self.0.info
    }

    /// Whether every toolkit operation is followed by a `glGetError` check.
    pub fn checks_enabled(&self) -> bool {
        self.0.checks.get()
    }

    /// Turns the `glGetError` checks on for this context (and its clones) whatever the build:
    /// the tests call it, so that a release-built test run checks as a debug one does.
    pub fn enable_checks(&self) {
        self.0.checks.set(true);
    }

    /// `glFinish`: blocks until every command issued so far has completed.
    pub fn finish(&self) {
        unsafe { self.raw().finish() }
        self.0.last_finish.set(Some(std::time::Instant::now()));
    }

    /// How long since the last [`finish`](Self::finish) returned (`None` before the first):
    /// how long the device may have idled, which on a hardware GPU lowers its clocks
    /// ([`super::steady`]).
    pub fn idle(&self) -> Option<std::time::Duration> {
        self.0.last_finish.get().map(|t| t.elapsed())
    }

    /// `glFlush`.
    pub fn flush(&self) {
        unsafe { self.raw().flush() }
    }

    /// Checks `glGetError` when checks are on (see the module docs).
    pub fn check(&self, what: &str) -> Result<(), GlError> {
        if self.0.checks.get() {
            self.check_now(what)
        } else {
            Ok(())
        }
    }

    /// Checks `glGetError` unconditionally; drains every pending error, reports the first.
    pub fn check_now(&self, what: &str) -> Result<(), GlError> {
        let mut first = None;
        loop {
            let code = unsafe { self.raw().get_error() };
            if code == glow::NO_ERROR {
                break;
            }
            first.get_or_insert(code);
        }
        match first {
            None => Ok(()),
            Some(code) => Err(GlError::Call {
                what: what.to_string(),
                code,
            }),
        }
    }

    /// `glMemoryBarrier` with the given `glow::*_BARRIER_BIT`s.
    pub fn memory_barrier(&self, bits: u32) {
        unsafe { self.raw().memory_barrier(bits) }
    }

    /// Barrier for SSBO writes read by later dispatches, and buffer readback.
    pub fn storage_barrier(&self) {
        self.memory_barrier(glow::SHADER_STORAGE_BARRIER_BIT | glow::BUFFER_UPDATE_BARRIER_BIT);
    }

    /// Binds the default framebuffer (a window's back buffer) with a viewport of `w`×`h`.
    pub fn bind_default_framebuffer(&self, w: u32, h: u32) {
        unsafe {
            self.raw().bind_framebuffer(glow::FRAMEBUFFER, None);
            self.raw().viewport(0, 0, w as i32, h as i32);
        }
    }

    /// Clears the bound framebuffer's colour (and depth) to `rgba`.
    pub fn clear(&self, rgba: [f32; 4]) {
        unsafe {
            self.raw().clear_color(rgba[0], rgba[1], rgba[2], rgba[3]);
            self.raw()
                .clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
        }
    }

    /// Draws into `r` of the bound framebuffer only (a view in part of a window).
    pub fn set_viewport(&self, r: Rect) {
        unsafe {
            self.raw()
                .viewport(r.x as i32, r.y as i32, r.w as i32, r.h as i32);
        }
    }

    /// Enables or disables alpha blending, `colour·α + destination·(1 − α)`: an overlay with
    /// transparent parts drawn over a view.
    pub fn set_blend(&self, on: bool) {
        unsafe {
            if on {
                self.raw().enable(glow::BLEND);
                self.raw()
                    .blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
            } else {
                self.raw().disable(glow::BLEND)
            }
        }
    }

    /// Enables or disables the depth test (for 3D views such as the water surface).
    pub fn set_depth_test(&self, on: bool) {
        unsafe {
            if on {
                self.raw().enable(glow::DEPTH_TEST)
            } else {
                self.raw().disable(glow::DEPTH_TEST)
            }
        }
    }

    /// The three integers of `glGetProgramiv(program, pname)` (e.g. a compute local size).
    pub(crate) fn program_iv3(&self, program: glow::Program, pname: u32) -> [i32; 3] {
        let mut v = [0i32; 3];
        if let Some(f) = self.0.get_programiv {
            // SAFETY: v has room for the three values the query writes.
            unsafe { f(program.0.get(), pname, v.as_mut_ptr()) };
        }
        v
    }

    pub(super) fn programs(&self) -> &RefCell<HashMap<Key, CacheEntry>> {
        &self.0.programs
    }
}

impl std::fmt::Debug for Gl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gl")
            .field("renderer", &self.info().renderer)
            .finish()
    }
}

impl Gl {
    /// Barrier for SSBO writes read by later dispatches through a [`BufferTexture`](super::buffer::BufferTexture) view of
    /// the buffer (`texelFetch`) or through the buffer itself, and buffer readback.
    pub fn fetch_barrier(&self) {
        self.memory_barrier(
            glow::SHADER_STORAGE_BARRIER_BIT
                | glow::TEXTURE_FETCH_BARRIER_BIT
                | glow::BUFFER_UPDATE_BARRIER_BIT,
        );
    }

    /// Barrier for image stores (compute shaders) read later by texture fetches, image loads,
    /// framebuffer operations or `glGetTexImage`.
    pub fn image_barrier(&self) {
        self.memory_barrier(
            glow::SHADER_IMAGE_ACCESS_BARRIER_BIT
                | glow::TEXTURE_FETCH_BARRIER_BIT
                | glow::TEXTURE_UPDATE_BARRIER_BIT
                | glow::FRAMEBUFFER_BARRIER_BIT,
        );
    }
}
