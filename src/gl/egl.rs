//! Headless contexts on EGL devices (`EGL_EXT_platform_device`), no window system needed.
//!
//! The sequence: `Device::query_devices()`, `Display::with_device`, a config with *no* surface
//! type (the default template asks for window surfaces, which a device display has none of),
//! a core-profile context, `make_current_surfaceless()`, then glow.
//!
//! # Version negotiation
//! Core profiles are asked for in the order of [`CORE_VERSIONS`], 4.6 down to 3.3; the first
//! that the driver creates is used (a driver may give a newer version than asked). A device
//! that offers less than 4.3 still gets a context: the 2005 papers' fragment techniques need
//! GL 3.3 only, and what needs more says so through [`Caps::lacks`](super::Caps::lacks).
//!
//! # Which device
//! Hardware devices are tried before Mesa's software device (llvmpipe); a device that fails to
//! initialize is skipped and named in the error if none works. A name given with `--device`
//! matches the EGL device's name, vendor or DRM path, else the `GL_RENDERER` or `GL_VENDOR` of
//! the context each device gives (so `--device llvmpipe` finds Mesa's software device, whose
//! EGL name is empty).
//!
//! # No EGL device platform
//! Where EGL cannot enumerate devices (Windows, macOS, a GLX-only driver), or when the
//! environment variable `GPGPU_REPRO_CONTEXT=window` asks for it, the context comes from a
//! hidden window instead ([`super::window::hidden`]).

use std::ffi::CStr;
use std::fmt::Write as _;

use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display;
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder, GlConfig};
use glutin::context::{ContextAttributesBuilder, GlProfile, PossiblyCurrentGlContext};
use glutin::display::GlDisplay;

use super::context::{Gl, NativeContext};
use super::error::GlError;
use super::info::{DeviceEntry, DeviceInfo};

pub use super::version::CORE_VERSIONS;
use super::version::negotiate;

/// The environment variable that picks how contexts are made: `device` (EGL devices, the
/// default, with the hidden window as the fallback) or `window` (a hidden window always).
pub const CONTEXT_ENV: &str = "GPGPU_REPRO_CONTEXT";

/// Which EGL device to use (`--device` / `GPGPU_REPRO_DEVICE`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DeviceSelector {
    /// The first hardware device that works, else the software device.
    #[default]
    Auto,
    /// The device at this index of [`list_devices`].
    Index(usize),
    /// The first device whose name, vendor or DRM path contains this text (case-insensitive).
    Name(String),
}

impl std::str::FromStr for DeviceSelector {
    type Err = String;
    /// `auto`, an index, or part of a name; an empty name is refused (it would match every
    /// device, which is never what was meant).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(
                "empty device name: give `auto`, an index or part of a device's name \
                        (see `gpgpu-repro info`)"
                    .into(),
            );
        }
        Ok(if s.eq_ignore_ascii_case("auto") {
            DeviceSelector::Auto
        } else if let Ok(i) = s.parse() {
            DeviceSelector::Index(i)
        } else {
            DeviceSelector::Name(s.to_string())
        })
    }
}

/// The text that `from_str` ([`std::str::FromStr`]) reads back as the same selector (`auto`, an index,
/// a name; a name of digits alone cannot be, since that text is read as an index).
impl std::fmt::Display for DeviceSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceSelector::Auto => f.write_str("auto"),
            DeviceSelector::Index(i) => write!(f, "{i}"),
            DeviceSelector::Name(n) => f.write_str(n),
        }
    }
}

fn describe(index: usize, d: &Device) -> DeviceEntry {
    let software = d.extensions().contains("EGL_MESA_device_software");
    let drm_path = d.drm_device_node_path().map(|p| p.display().to_string());
    DeviceEntry {
        index,
        name: d.name().map(str::to_string).unwrap_or_else(|| {
            if software {
                "software".into()
            } else {
                "unnamed".into()
            }
        }),
        vendor: d.vendor().unwrap_or("unknown vendor").to_string(),
        drm_path,
        software,
    }
}

fn query() -> Result<Vec<Device>, String> {
    Device::query_devices()
        .map(|it| it.collect())
        .map_err(|e| format!("EGL device enumeration failed: {e}"))
}

/// The EGL devices of this machine, in enumeration order.
pub fn list_devices() -> Result<Vec<DeviceEntry>, GlError> {
    Ok(query()
        .map_err(|t| GlError::NoDevice {
            tried: format!("  {t}"),
            hint: INSTALL_HINT.into(),
        })?
        .iter()
        .enumerate()
        .map(|(i, d)| describe(i, d))
        .collect())
}

/// How contexts are made, from [`CONTEXT_ENV`]: `Ok(true)` for a hidden window.
fn window_forced() -> Result<bool, GlError> {
    match std::env::var(CONTEXT_ENV) {
        Err(_) => Ok(false),
        Ok(v) if v.is_empty() || v.eq_ignore_ascii_case("device") => Ok(false),
        Ok(v) if v.eq_ignore_ascii_case("window") => Ok(true),
        Ok(v) => Err(GlError::Invalid(format!(
            "{CONTEXT_ENV}={v:?}: expected `device` (EGL devices) or `window` (a hidden window)"
        ))),
    }
}

/// Creates a headless context on the selected device and makes it current on this thread.
///
/// Without an EGL device platform, or with `GPGPU_REPRO_CONTEXT=window`, the context is a
/// hidden window's ([`super::window::hidden`]); `selector` must then be `Auto`.
pub fn headless(selector: &DeviceSelector) -> Result<Gl, GlError> {
    super::caps::without_from_env().map_err(GlError::Invalid)?;
    if window_forced()? {
        if *selector != DeviceSelector::Auto {
            return Err(GlError::Invalid(format!(
                "{CONTEXT_ENV}=window uses the window system's context: --device {selector:?} \
                 cannot pick an EGL device there"
            )));
        }
        return super::window::hidden();
    }
    let devices = match query() {
        Ok(d) => d,
        Err(egl) if *selector == DeviceSelector::Auto => {
            // No EGL device platform: the window system's context, if there is one.
            return super::window::hidden().map_err(|w| GlError::NoDevice {
                tried: format!("  {egl}\n  hidden window: {w}"),
                hint: INSTALL_HINT.into(),
            });
        }
        Err(egl) => {
            return Err(GlError::NoDevice {
                tried: format!("  {egl}"),
                hint: INSTALL_HINT.into(),
            });
        }
    };
    let entries: Vec<DeviceEntry> = devices
        .iter()
        .enumerate()
        .map(|(i, d)| describe(i, d))
        .collect();
    let order: Vec<usize> = match selector {
        DeviceSelector::Auto => auto_order(&entries),
        DeviceSelector::Index(i) if *i < entries.len() => vec![*i],
        DeviceSelector::Name(n) => {
            let n = n.to_lowercase();
            let hit = name_matches(&entries, &n);
            if hit.is_empty() {
                return by_renderer(&devices, &entries, &n, auto_order(&entries), |extra| {
                    available(&entries, extra)
                });
            }
            hit
        }
        DeviceSelector::Index(i) => {
            return Err(GlError::DeviceNotFound {
                wanted: format!("#{i}"),
                available: available(&entries, &[]),
            });
        }
    };
    open_first(&devices, &entries, order)
}

/// The devices for an error message, one a line, each with `extra[index]` (what opening it
/// showed) where there is one.
fn available(entries: &[DeviceEntry], extra: &[String]) -> String {
    entries
        .iter()
        .map(|e| {
            let gl = extra.get(e.index).filter(|s| !s.is_empty());
            match gl {
                Some(r) => format!("  {e}: {r}"),
                None => format!("  {e}"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The order `Auto` tries the devices in: hardware first, then software.
fn auto_order(entries: &[DeviceEntry]) -> Vec<usize> {
    let mut o: Vec<usize> = (0..entries.len())
        .filter(|&i| !entries[i].software)
        .collect();
    o.extend((0..entries.len()).filter(|&i| entries[i].software));
    o
}

/// The devices whose EGL name, vendor or DRM path contains `n` (lower case).
fn name_matches(entries: &[DeviceEntry], n: &str) -> Vec<usize> {
    (0..entries.len())
        .filter(|&i| {
            let e = &entries[i];
            e.name.to_lowercase().contains(n)
                || e.vendor.to_lowercase().contains(n)
                || e.drm_path
                    .as_deref()
                    .is_some_and(|p| p.to_lowercase().contains(n))
        })
        .collect()
}

/// The first device of `order` that opens; else an error with what each gave.
fn open_first(
    devices: &[Device],
    entries: &[DeviceEntry],
    order: Vec<usize>,
) -> Result<Gl, GlError> {
    let mut tried = String::new();
    if order.is_empty() {
        tried.push_str("  EGL reports no devices at all.");
    }
    for i in order {
        match open(&devices[i], &entries[i]) {
            Ok(gl) => return Ok(gl),
            Err(e) => {
                let _ = writeln!(tried, "  tried {}: {e}", entries[i]);
            }
        }
    }
    let hint = if entries.is_empty() {
        INSTALL_HINT.to_string()
    } else {
        "hint: pick another device with --device / GPGPU_REPRO_DEVICE (see `gpgpu-repro info`)"
            .to_string()
    };
    Err(GlError::NoDevice { tried, hint })
}

/// What to install when EGL finds nothing at all.
const INSTALL_HINT: &str = "hint: install Mesa's EGL and GL drivers (Debian/Ubuntu: apt-get \
     install libegl1 libegl-mesa0 libgl1-mesa-dri), or pick another device with --device / \
     GPGPU_REPRO_DEVICE";

/// `--device NAME` that no EGL label matches: open each device and match `GL_RENDERER` and
/// `GL_VENDOR` (llvmpipe's EGL device has no name; its renderer is "llvmpipe (LLVM …)").
fn by_renderer(
    devices: &[Device],
    entries: &[DeviceEntry],
    wanted: &str,
    order: Vec<usize>,
    available: impl Fn(&[String]) -> String,
) -> Result<Gl, GlError> {
    let mut seen = vec![String::new(); entries.len()];
    for i in order {
        match open(&devices[i], &entries[i]) {
            Ok(gl) => {
                let info = gl.info();
                if info.renderer.to_lowercase().contains(wanted)
                    || info.vendor.to_lowercase().contains(wanted)
                {
                    return Ok(gl);
                }
                seen[i] = format!("{} ({}), {}", info.renderer, info.vendor, info.version);
            }
            Err(e) => seen[i] = format!("fails: {e}"),
        }
    }
    Err(GlError::DeviceNotFound {
        wanted: wanted.to_string(),
        available: available(&seen),
    })
}

/// What the glutin objects are kept in: dropped after the glow context (see [`Gl`]).
struct Native {
    context: glutin::api::egl::context::PossiblyCurrentContext,
    _display: Display,
}

impl NativeContext for Native {
    fn is_current(&self) -> bool {
        self.context.is_current()
    }
    fn release(&self) {
        if self.context.is_current() {
            let _ = self.context.make_not_current_in_place();
        }
    }
}

/// The `GL_VERSION` of a context made with the driver's defaults (a compatibility profile),
/// to say what a device below GL 3.3 core offers.
fn offered_version(display: &Display, config: &glutin::api::egl::config::Config) -> Option<String> {
    let attrs = ContextAttributesBuilder::new().build(None);
    // SAFETY: config belongs to display.
    let ctx = unsafe { display.create_context(config, &attrs) }.ok()?;
    let ctx = ctx.make_current_surfaceless().ok()?;
    // SAFETY: the context is current on this thread while glow is used.
    let gl = unsafe { glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s)) };
    let v = unsafe { glow::HasContext::get_parameter_string(&gl, glow::VERSION) };
    let _ = ctx.make_not_current_in_place();
    Some(v)
}

fn open(device: &Device, entry: &DeviceEntry) -> Result<Gl, GlError> {
    let egl = |what: &str, e: glutin::error::Error| GlError::Egl(format!("{what}: {e}"));
    // SAFETY: the device comes from EGL's own enumeration; no native display is passed.
    let display = unsafe { Display::with_device(device, None) }
        .map_err(|e| egl("eglGetPlatformDisplay(device)", e))?;
    let template = ConfigTemplateBuilder::new()
        .with_surface_type(ConfigSurfaceTypes::empty())
        .with_api(Api::OPENGL)
        .build();
    // SAFETY: the display is alive for the whole call.
    let config = unsafe { display.find_configs(template) }
        .map_err(|e| egl("eglChooseConfig", e))?
        .max_by_key(|c| c.num_samples() == 0)
        .ok_or_else(|| GlError::Egl("no EGL config without surface type for OpenGL".into()))?;
    let ctx = negotiate(|api| {
        let attrs = ContextAttributesBuilder::new()
            .with_context_api(api)
            .with_profile(GlProfile::Core)
            .build(None);
        // SAFETY: config belongs to display.
        unsafe { display.create_context(&config, &attrs) }
    })
    .map_err(|e| match offered_version(&display, &config) {
        Some(v) => GlError::Unsupported(format!(
            "the device offers OpenGL {v} (no core profile of 3.3 or newer); the 2005 papers' \
             fragment techniques need GL 3.3 core, the compute tables 4.3"
        )),
        None => e,
    })?;
    let ctx = ctx
        .make_current_surfaceless()
        .map_err(|e| egl("eglMakeCurrent", e))?;
    // SAFETY: the context is current on this thread; the loader returns pointers valid for
    // the display's lifetime, which `Native` extends past glow's.
    let loader = |s: &CStr| display.get_proc_address(s);
    let raw = unsafe { glow::Context::from_loader_function_cstr(loader) };
    let info = DeviceInfo::new(Some(entry.clone()));
    let keep = Native {
        context: ctx,
        _display: display.clone(),
    };
    Ok(Gl::from_glow(raw, info, Box::new(keep), &loader))
}
