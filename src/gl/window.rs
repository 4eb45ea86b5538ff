//! Windowed contexts: a winit 0.30 window with a glutin-winit 0.5 GL context, wrapped into a
//! [`Gl`] so that everything in the toolkit works on it (draw into the window's back buffer
//! after [`Gl::bind_default_framebuffer`], then [`GlWindow::swap_buffers`]).
//!
//! winit 0.30 creates windows inside the event loop (`ApplicationHandler::resumed`), so
//! [`GlWindow::new`] takes the `ActiveEventLoop` it is given there.

use std::ffi::CStr;
use std::rc::Rc;

use glutin::config::{ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextApi, ContextAttributesBuilder, GlProfile, NotCurrentGlContext, PossiblyCurrentContext,
    Version,
};
use glutin::display::{GetGlDisplay, GlDisplay};
use glutin::surface::{GlSurface, Surface, SwapInterval, WindowSurface};
use glutin_winit::{DisplayBuilder, GlWindow as _};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Window, WindowAttributes};

use super::{DeviceInfo, Gl, GlError};

struct Native {
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
}

/// A window with a current GL 4.3+ core context.
pub struct GlWindow {
    gl: Gl,
    native: Rc<Native>,
    // Dropped last: the surface refers to it.
    window: Window,
}

impl GlWindow {
    /// Opens a window with `attributes` and makes a core 4.5 (else 4.3) context current on it,
    /// with a depth buffer and vsync off (the viewer measures frames per second).
    pub fn new(
        event_loop: &ActiveEventLoop,
        attributes: WindowAttributes,
    ) -> Result<Self, GlError> {
        let egl = |what: &str, e: &dyn std::fmt::Display| GlError::Egl(format!("{what}: {e}"));
        let template = ConfigTemplateBuilder::new().with_depth_size(24);
        let (window, config) = DisplayBuilder::new()
            .with_window_attributes(Some(attributes))
            .build(event_loop, template, |configs| {
                configs
                    .max_by_key(|c| (c.depth_size() > 0, c.num_samples() == 0))
                    .expect("the display offers at least one config")
            })
            .map_err(|e| egl("creating the window and its GL config", &e))?;
        let window = window.ok_or_else(|| GlError::Egl("no window was created".into()))?;
        let display = config.display();
        let attrs = window
            .build_surface_attributes(Default::default())
            .map_err(|e| egl("window handle", &e))?;
        // SAFETY: the window outlives the surface (field order of GlWindow).
        let surface = unsafe { display.create_window_surface(&config, &attrs) }
            .map_err(|e| egl("creating the window surface", &e))?;
        let handle = raw_window_handle::HasWindowHandle::window_handle(&window)
            .map_err(|e| egl("window handle", &e))?
            .as_raw();
        let mut last = None;
        let mut context = None;
        for (major, minor) in [(4, 6), (4, 5), (4, 3)] {
            let ca = ContextAttributesBuilder::new()
                .with_context_api(ContextApi::OpenGl(Some(Version::new(major, minor))))
                .with_profile(GlProfile::Core)
                .build(Some(handle));
            // SAFETY: the config belongs to the display.
            match unsafe { display.create_context(&config, &ca) } {
                Ok(c) => {
                    context = Some(c);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let context = context.ok_or_else(|| {
            egl(
                "creating a core 4.3+ context",
                &last.map(|e| e.to_string()).unwrap_or_default(),
            )
        })?;
        let context = context
            .make_current(&surface)
            .map_err(|e| egl("making the context current", &e))?;
        let _ = surface.set_swap_interval(&context, SwapInterval::DontWait);
        let loader = |s: &CStr| display.get_proc_address(s);
        // SAFETY: the context is current on this thread; the pointers stay valid while the
        // display lives, which `Native` (held by the Gl handle) guarantees.
        let raw = unsafe { glow::Context::from_loader_function_cstr(loader) };
        let native = Rc::new(Native { surface, context });
        let gl = Gl::from_glow(
            raw,
            DeviceInfo::new(None),
            Box::new((native.clone(), display.clone())),
            &loader,
        );
        if gl.info().version_number < (4, 3) {
            return Err(GlError::Unsupported(format!(
                "the window's OpenGL {:?} (compute shaders need 4.3)",
                gl.info().version_number
            )));
        }
        Ok(GlWindow { gl, native, window })
    }

    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    pub fn window(&self) -> &Window {
        &self.window
    }

    /// The drawable size in pixels.
    pub fn size(&self) -> (u32, u32) {
        let s = self.window.inner_size();
        (s.width.max(1), s.height.max(1))
    }

    /// Resizes the surface to the window (call on `WindowEvent::Resized`).
    pub fn resize(&self) {
        self.window
            .resize_surface(&self.native.surface, &self.native.context);
    }

    /// Presents the back buffer.
    pub fn swap_buffers(&self) -> Result<(), GlError> {
        self.native
            .surface
            .swap_buffers(&self.native.context)
            .map_err(|e| GlError::Egl(format!("swap buffers: {e}")))
    }
}
