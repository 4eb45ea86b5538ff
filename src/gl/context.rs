//! Headless contexts on EGL devices (`EGL_EXT_platform_device`), no window system needed.
//!
//! The sequence: `Device::query_devices()`, `Display::with_device`, a config with *no* surface
//! type (the default template asks for window surfaces, which a device display has none of),
//! a core-profile 4.5 context (4.3 if 4.5 is refused), `make_current_surfaceless()`, then glow.
//! Hardware devices are tried before Mesa's software device (llvmpipe); a device that fails to
//! initialize is skipped and named in the error if none works.

use std::ffi::CStr;
use std::fmt::Write as _;
use std::num::NonZeroU32;

use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display;
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder, GlConfig};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::display::GlDisplay;

use super::{DeviceInfo, Gl, GlError};

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
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        Ok(if s.is_empty() || s.eq_ignore_ascii_case("auto") {
            DeviceSelector::Auto
        } else if let Ok(i) = s.parse() {
            DeviceSelector::Index(i)
        } else {
            DeviceSelector::Name(s.to_string())
        })
    }
}

/// One EGL device as enumerated.
#[derive(Clone, Debug)]
pub struct DeviceEntry {
    pub index: usize,
    pub name: String,
    pub vendor: String,
    pub drm_path: Option<String>,
    pub software: bool,
}

impl std::fmt::Display for DeviceEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{} {} ({})", self.index, self.name, self.vendor)?;
        if let Some(p) = &self.drm_path {
            write!(f, " {p}")?;
        }
        f.write_str(if self.software {
            " [software]"
        } else {
            " [hardware]"
        })
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

fn query() -> Result<Vec<Device>, GlError> {
    Device::query_devices()
        .map(|it| it.collect())
        .map_err(|e| GlError::NoDevice {
            tried: format!("EGL device enumeration failed: {e}"),
        })
}

/// The EGL devices of this machine, in enumeration order.
pub fn list_devices() -> Result<Vec<DeviceEntry>, GlError> {
    Ok(query()?
        .iter()
        .enumerate()
        .map(|(i, d)| describe(i, d))
        .collect())
}

/// Creates a headless context on the selected device and makes it current on this thread.
pub fn headless(selector: &DeviceSelector) -> Result<Gl, GlError> {
    let devices = query()?;
    let entries: Vec<DeviceEntry> = devices
        .iter()
        .enumerate()
        .map(|(i, d)| describe(i, d))
        .collect();
    let available = || {
        entries
            .iter()
            .map(|e| format!("  {e}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let order: Vec<usize> = match selector {
        DeviceSelector::Auto => {
            let mut o: Vec<usize> = (0..entries.len())
                .filter(|&i| !entries[i].software)
                .collect();
            o.extend((0..entries.len()).filter(|&i| entries[i].software));
            o
        }
        DeviceSelector::Index(i) if *i < entries.len() => vec![*i],
        DeviceSelector::Name(n) => {
            let n = n.to_lowercase();
            let hit: Vec<usize> = (0..entries.len())
                .filter(|&i| {
                    let e = &entries[i];
                    e.name.to_lowercase().contains(&n)
                        || e.vendor.to_lowercase().contains(&n)
                        || e.drm_path
                            .as_deref()
                            .is_some_and(|p| p.to_lowercase().contains(&n))
                })
                .collect();
            if hit.is_empty() {
                return Err(GlError::DeviceNotFound {
                    wanted: n,
                    available: available(),
                });
            }
            hit
        }
        DeviceSelector::Index(i) => {
            return Err(GlError::DeviceNotFound {
                wanted: format!("#{i}"),
                available: available(),
            });
        }
    };
    let mut tried = String::new();
    if order.is_empty() {
        tried.push_str("EGL reports no devices at all.");
    }
    for i in order {
        match open(&devices[i], &entries[i]) {
            Ok(gl) => return Ok(gl),
            Err(e) => {
                let _ = writeln!(tried, "  tried {}: {e}", entries[i]);
            }
        }
    }
    Err(GlError::NoDevice { tried })
}

/// What the glutin objects are kept in: dropped after the glow context (see [`Gl`]).
struct Native {
    _context: glutin::api::egl::context::PossiblyCurrentContext,
    _display: Display,
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
    let mut last_err = None;
    for (major, minor) in [(4, 6), (4, 5), (4, 3)] {
        let attrs = ContextAttributesBuilder::new()
            .with_context_api(ContextApi::OpenGl(Some(Version::new(major, minor))))
            .with_profile(GlProfile::Core)
            .build(None);
        // SAFETY: config belongs to display.
        match unsafe { display.create_context(&config, &attrs) } {
            Ok(ctx) => {
                let ctx = ctx
                    .make_current_surfaceless()
                    .map_err(|e| egl("eglMakeCurrent", e))?;
                // SAFETY: the context is current on this thread; the loader returns pointers
                // valid for the display's lifetime, which `Native` extends past glow's.
                let loader = |s: &CStr| display.get_proc_address(s);
                let raw = unsafe { glow::Context::from_loader_function_cstr(loader) };
                let info = DeviceInfo::new(Some(entry.clone()));
                let keep = Native {
                    _context: ctx,
                    _display: display.clone(),
                };
                let gl = Gl::from_glow(raw, info, Box::new(keep), &loader);
                let (maj, min) = gl.info().version_number;
                if (maj, min) < (4, 3) {
                    return Err(GlError::Unsupported(format!(
                        "OpenGL {maj}.{min}: compute shaders need 4.3"
                    )));
                }
                return Ok(gl);
            }
            Err(e) => last_err = Some(e),
        }
    }
    Err(egl(
        "eglCreateContext (core 4.6/4.5/4.3)",
        last_err.expect("at least one version was tried"),
    ))
}

/// A window size for callers that track a surface (never zero).
pub fn nonzero(v: u32) -> NonZeroU32 {
    NonZeroU32::new(v.max(1)).expect("max(1) is non-zero")
}
