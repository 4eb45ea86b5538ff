//! Windowed contexts: a winit 0.30 window with a glutin-winit 0.5 GL context, wrapped into a
//! [`Gl`] so that everything in the toolkit works on it (draw into the window's back buffer
//! after [`Gl::bind_default_framebuffer`], then [`GlWindow::swap_buffers`]).
//!
//! winit 0.30 creates windows inside the event loop (`ApplicationHandler::resumed`), so
//! [`GlWindow::new`] takes the `ActiveEventLoop` it is given there.
//!
//! [`hidden`] is the fallback context where there is no EGL device platform (or with
//! `GPGPU_REPRO_CONTEXT=window`): an invisible 64×64 window made through glutin-winit (WGL,
//! CGL, GLX or EGL on X11/Wayland, whichever the window system offers) whose context renders
//! into the toolkit's framebuffers like a headless one. winit allows one event loop per
//! process, so one service thread owns it (made with `with_any_thread`) and makes the windows
//! for every thread that asks; each context is created and made current on the asking thread.
//! Under X11 this needs `DISPLAY` (for tests here: `xvfb-run`).

use std::ffi::CStr;
use std::rc::Rc;
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};

use glutin::config::{Config, ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextAttributesBuilder, GlProfile, NotCurrentGlContext, PossiblyCurrentContext,
    PossiblyCurrentGlContext,
};
use glutin::display::{Display, GetGlDisplay, GlDisplay};
use glutin::surface::{GlSurface, Surface, SwapInterval, WindowSurface};
use glutin_winit::{DisplayBuilder, GlWindow as _};
use winit::dpi::PhysicalSize;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowAttributes};

use super::context::{Gl, NativeContext};
use super::error::GlError;
use super::info::DeviceInfo;
use super::version::negotiate;

/// The event loop of a `--window` view (polling: the view is redrawn every frame), or, where
/// no display is set or none answers, an error that says so and what to do `instead` (the
/// headless way, or a virtual X server).
pub fn view_event_loop(instead: &str) -> Result<EventLoop<()>, GlError> {
    let unset = |v: &str| std::env::var_os(v).is_none_or(|s| s.is_empty());
    if unset("DISPLAY") && unset("WAYLAND_DISPLAY") {
        return Err(GlError::NoDisplay(format!(
            "neither DISPLAY nor WAYLAND_DISPLAY is set; {instead}"
        )));
    }
    let event_loop = EventLoop::new().map_err(|e| {
        GlError::NoDisplay(format!(
            "cannot connect to it ({e}; is the X or Wayland server running?); {instead}"
        ))
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    Ok(event_loop)
}

struct Native {
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
}

/// What a [`Gl`] keeps of a window context (the window itself may be owned elsewhere).
struct Keep<W> {
    native: Rc<Native>,
    _display: Display,
    // Dropped last: the surface refers to it.
    _window: W,
}

impl<W> NativeContext for Keep<W> {
    fn is_current(&self) -> bool {
        self.native.context.is_current()
    }
    fn release(&self) {
        if self.native.context.is_current() {
            let _ = self.native.context.make_not_current_in_place();
        }
    }
}

/// Makes a core context (negotiated down to 3.3) current on `window`'s surface and wraps it.
fn context_on<W>(
    window: &Window,
    config: &Config,
    keep_window: impl FnOnce(Rc<Native>, Display) -> Keep<W>,
) -> Result<(Gl, Rc<Native>), GlError>
where
    W: 'static,
{
    let egl = |what: &str, e: &dyn std::fmt::Display| GlError::Egl(format!("{what}: {e}"));
    let display = config.display();
    let attrs = window
        .build_surface_attributes(Default::default())
        .map_err(|e| egl("window handle", &e))?;
    // SAFETY: the window outlives the surface (`Keep` and `GlWindow` drop it last).
    let surface = unsafe { display.create_window_surface(config, &attrs) }
        .map_err(|e| egl("creating the window surface", &e))?;
    let handle = raw_window_handle::HasWindowHandle::window_handle(window)
        .map_err(|e| egl("window handle", &e))?
        .as_raw();
    let context = negotiate(|api| {
        let ca = ContextAttributesBuilder::new()
            .with_context_api(api)
            .with_profile(GlProfile::Core)
            .build(Some(handle));
        // SAFETY: the config belongs to the display.
        unsafe { display.create_context(config, &ca) }
    })?;
    let context = context
        .make_current(&surface)
        .map_err(|e| egl("making the context current", &e))?;
    let _ = surface.set_swap_interval(&context, SwapInterval::DontWait);
    let loader = |s: &CStr| display.get_proc_address(s);
    // SAFETY: the context is current on this thread; the pointers stay valid while the
    // display lives, which `Keep` (held by the Gl handle) guarantees.
    let raw = unsafe { glow::Context::from_loader_function_cstr(loader) };
    let native = Rc::new(Native { surface, context });
    let keep = keep_window(native.clone(), display.clone());
    let gl = Gl::from_glow(raw, DeviceInfo::new(None), Box::new(keep), &loader);
    Ok((gl, native))
}

/// A request to the service thread: a hidden window and a GL config for it.
type WindowReply = Result<(Window, Config), String>;

/// The service thread that owns the process's one winit event loop.
fn service() -> Result<&'static Mutex<mpsc::Sender<mpsc::Sender<WindowReply>>>, GlError> {
    static SERVICE: OnceLock<Result<Mutex<mpsc::Sender<mpsc::Sender<WindowReply>>>, String>> =
        OnceLock::new();
    SERVICE
        .get_or_init(|| {
            let (tx, rx) = mpsc::channel::<mpsc::Sender<WindowReply>>();
            let (ready_tx, ready_rx) = mpsc::channel::<Result<(), String>>();
            std::thread::Builder::new()
                .name("gpgpu-repro-windows".into())
                .spawn(move || {
                    let mut b = EventLoop::builder();
                    winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(&mut b, true);
                    let el = match b.build() {
                        Ok(el) => el,
                        Err(e) => {
                            let _ = ready_tx.send(Err(format!(
                                "cannot connect to a window system ({e}; is DISPLAY or \
                                 WAYLAND_DISPLAY set? here: xvfb-run)"
                            )));
                            return;
                        }
                    };
                    let _ = ready_tx.send(Ok(()));
                    for reply in rx {
                        let _ = reply.send(hidden_window(&el));
                    }
                })
                .map_err(|e| format!("starting the window thread: {e}"))?;
            ready_rx
                .recv()
                .map_err(|_| "the window thread stopped".to_string())??;
            Ok(Mutex::new(tx))
        })
        .as_ref()
        .map_err(|e| GlError::Egl(e.clone()))
}

fn hidden_window(el: &EventLoop<()>) -> WindowReply {
    let attrs = Window::default_attributes()
        .with_title("gpgpu-repro (hidden)")
        .with_visible(false)
        .with_inner_size(PhysicalSize::new(64, 64));
    let (window, config) = DisplayBuilder::new()
        .with_window_attributes(Some(attrs))
        .build(el, ConfigTemplateBuilder::new(), |configs| {
            configs
                .max_by_key(|c| c.num_samples() == 0)
                .expect("the display offers at least one config")
        })
        .map_err(|e| format!("creating a hidden window and its GL config: {e}"))?;
    let window = window.ok_or("no window was created")?;
    Ok((window, config))
}

/// A context on a hidden window, made current on this thread: the fallback where there is no
/// EGL device platform (see the module docs). The window lives as long as the context.
pub fn hidden() -> Result<Gl, GlError> {
    let (reply_tx, reply_rx) = mpsc::channel();
    service()?
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(reply_tx)
        .map_err(|_| GlError::Egl("the window thread stopped".into()))?;
    let (window, config) = reply_rx
        .recv()
        .map_err(|_| GlError::Egl("the window thread stopped".into()))?
        .map_err(GlError::Egl)?;
    let window = Rc::new(window);
    let w = window.clone();
    let (gl, _) = context_on(&window, &config, move |native, display| Keep {
        native,
        _display: display,
        _window: w,
    })?;
    Ok(gl)
}

/// A window with a current GL 3.3+ core context.
pub struct GlWindow {
    gl: Gl,
    native: Rc<Native>,
    // Dropped last: the surface refers to it.
    window: Window,
}

impl GlWindow {
    /// Opens a window with `attributes` and makes a core context current on it (negotiated
    /// from 4.6 down to 3.3, as headless contexts are), with a depth buffer and vsync off (the
    /// viewer measures frames per second).
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
        let (gl, native) = context_on(&window, &config, |native, display| Keep {
            native,
            _display: display,
            _window: (),
        })?;
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
