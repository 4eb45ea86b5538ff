//! What the context runs on: the `info` command's data and the report's provenance.

use glow::HasContext;
use serde::{Deserialize, Serialize};

use super::caps::{Caps, SHADER_EXTENSIONS, parse_glsl};

/// Device, driver and the limits the papers' kernels depend on.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// The EGL device (absent for a windowed context).
    pub egl_device: Option<String>,
    pub software: bool,
    pub vendor: String,
    pub renderer: String,
    pub version: String,
    pub version_number: (i32, i32),
    pub glsl_version: String,
    pub compute: bool,
    pub fp64: bool,
    pub max_texture_size: i32,
    pub max_rectangle_texture_size: i32,
    /// Texels of a buffer texture (`GL_MAX_TEXTURE_BUFFER_SIZE`, GL 3.1; absent from
    /// profiles written before it was read).
    #[serde(default)]
    pub max_texture_buffer_size: i32,
    pub max_work_group_invocations: i32,
    pub max_work_group_size: [i32; 3],
    pub max_work_group_count: [i32; 3],
    pub max_shared_memory_bytes: i32,
    pub max_ssbo_bytes: i64,
    pub max_fragment_ssbo_blocks: i32,
    pub cpu: String,
    pub os: String,
    /// The features the papers' programs depend on (see [`Gl::caps`](super::Gl::caps)).
    pub caps: Caps,
}

impl DeviceInfo {
    pub(crate) fn new(entry: Option<DeviceEntry>) -> Self {
        DeviceInfo {
            software: entry.as_ref().is_some_and(|e| e.software),
            egl_device: entry.map(|e| e.to_string()),
            cpu: cpu_model(),
            os: os_name(),
            ..Default::default()
        }
    }

    /// A short one-line description: renderer and GL version.
    /// The renderer's name without its details, for legends: `llvmpipe`, `NVIDIA H100 80GB
    /// HBM3`.
    pub fn label(&self) -> &str {
        self.renderer
            .split(" (")
            .next()
            .and_then(|r| r.split('/').next())
            .unwrap_or(&self.renderer)
    }

    pub fn short(&self) -> String {
        format!("{} — {}", self.renderer, self.version)
    }

    /// A CPU rasterizer (llvmpipe, softpipe): its "GPU" passes run on the host's cores, so the
    /// host CPU is part of the device.
    pub fn cpu_rasterizer(&self) -> bool {
        self.software || is_cpu_rasterizer(&self.renderer)
    }

    /// What makes two runs the same device: [`short`](Self::short), and for a CPU rasterizer
    /// the host CPU too (llvmpipe on two CPUs is two devices: its speed is the host's). Rows
    /// and device limits are reused only where this matches.
    pub fn identity(&self) -> String {
        if self.cpu_rasterizer() {
            format!("{} on {}", self.short(), self.cpu)
        } else {
            self.short()
        }
    }
}

/// Whether `renderer` (the GL_RENDERER string, or a label of it) names a CPU rasterizer.
pub fn is_cpu_rasterizer(renderer: &str) -> bool {
    ["llvmpipe", "softpipe", "swrast", "SwiftShader"]
        .iter()
        .any(|r| renderer.contains(r))
}

impl DeviceInfo {
    /// The device: EGL device, GL strings, what is treated as missing.
    fn device_rows(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "EGL device",
                self.egl_device
                    .clone()
                    .unwrap_or_else(|| "window system".into()),
            ),
            ("GL_VENDOR", self.vendor.clone()),
            ("GL_RENDERER", self.renderer.clone()),
            ("GL_VERSION", self.version.clone()),
            ("GLSL version", self.glsl_version.clone()),
            (
                "treated as missing",
                std::env::var(super::caps::WITHOUT_ENV)
                    .map(|v| format!("{v} ({})", super::caps::WITHOUT_ENV))
                    .unwrap_or_else(|_| "nothing".into()),
            ),
        ]
    }

    /// What the device offers beyond GL 3.3 core, and whether the legacy papers run.
    fn feature_rows(&self) -> Vec<(&'static str, String)> {
        vec![
            ("compute shaders", yes_with(self.compute, "GL 4.3 core")),
            (
                "fp64 (double)",
                yes_with(self.fp64, "GL 4.0 / GL_ARB_gpu_shader_fp64"),
            ),
            (
                "atomic counters",
                yes_with(self.caps.atomic_counters, "GL 4.2"),
            ),
            (
                "SSBOs in fragment shaders",
                yes_with(self.caps.ssbo_in_fragment, "GL 4.3"),
            ),
            (
                "image load/store",
                yes_with(self.caps.image_load_store, "GL 4.2"),
            ),
            (
                "precise (unfused a*b+c)",
                yes_with(self.caps.precise, "GL_ARB_gpu_shader5"),
            ),
            (
                "legacy (fragment) papers",
                if self.caps.version >= (3, 3) {
                    "run (GL 3.3 core is enough)".to_string()
                } else {
                    "no (need GL 3.3 core)".to_string()
                },
            ),
        ]
    }

    /// The limits the papers' sizes and kernels meet.
    fn limit_rows(&self) -> Vec<(&'static str, String)> {
        vec![
            ("max texture size", self.max_texture_size.to_string()),
            (
                "max rectangle texture",
                self.max_rectangle_texture_size.to_string(),
            ),
            (
                "max buffer texture",
                format!("{} texels", self.max_texture_buffer_size),
            ),
            (
                "max work-group invocations",
                self.max_work_group_invocations.to_string(),
            ),
            ("max work-group size", fmt3(self.max_work_group_size)),
            ("max work-group count", fmt3(self.max_work_group_count)),
            (
                "shared memory per group",
                format!("{} bytes", self.max_shared_memory_bytes),
            ),
            ("max SSBO size", format!("{} bytes", self.max_ssbo_bytes)),
            (
                "fragment-stage SSBOs",
                self.max_fragment_ssbo_blocks.to_string(),
            ),
        ]
    }

    /// The renderer's kind and the host.
    fn host_rows(&self) -> Vec<(&'static str, String)> {
        let yn = |b: bool| if b { "yes" } else { "no" };
        vec![
            ("software renderer", yn(self.software).to_string()),
            ("CPU", self.cpu.clone()),
            ("OS", self.os.clone()),
        ]
    }
}

impl std::fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rows = [
            self.device_rows(),
            self.feature_rows(),
            self.limit_rows(),
            self.host_rows(),
        ];
        for (k, v) in rows.into_iter().flatten() {
            writeln!(f, "{k:<28} {v}")?;
        }
        Ok(())
    }
}

fn yes_with(b: bool, what: &str) -> String {
    if b {
        format!("yes ({what})")
    } else {
        format!("no ({what} missing)")
    }
}

fn fmt3(v: [i32; 3]) -> String {
    format!("{} × {} × {}", v[0], v[1], v[2])
}

/// Reads the GL strings, limits and features (`info.caps`) of the current context.
pub(crate) fn fill_limits(gl: &glow::Context, info: &mut DeviceInfo) {
    let mut caps = Caps::default();
    unsafe {
        info.vendor = gl.get_parameter_string(glow::VENDOR);
        info.renderer = gl.get_parameter_string(glow::RENDERER);
        info.version = gl.get_parameter_string(glow::VERSION);
        info.glsl_version = gl.get_parameter_string(glow::SHADING_LANGUAGE_VERSION);
        let v = gl.version();
        info.version_number = (v.major as i32, v.minor as i32);
        caps.version = (v.major.min(255) as u8, v.minor.min(255) as u8);
        caps.glsl = parse_glsl(&info.glsl_version);
        let at_least = |maj, min| (v.major, v.minor) >= (maj, min);
        let ext = gl.supported_extensions();
        caps.extensions = SHADER_EXTENSIONS
            .iter()
            .filter(|e| ext.contains(**e))
            .map(|e| e.to_string())
            .collect();
        // Compute programs are written as `#version 430 core` (one preamble): a context below
        // 4.3 that lists GL_ARB_compute_shader (llvmpipe under MESA_GL_VERSION_OVERRIDE) is
        // treated as the device it claims to be, without compute.
        caps.compute = at_least(4, 3);
        caps.fp64 = (at_least(4, 0) || ext.contains("GL_ARB_gpu_shader_fp64")) && probe_fp64(gl);
        caps.atomic_counters = at_least(4, 2) || ext.contains("GL_ARB_shader_atomic_counters");
        caps.ssbo = at_least(4, 3) || ext.contains("GL_ARB_shader_storage_buffer_object");
        caps.image_load_store = at_least(4, 2) || ext.contains("GL_ARB_shader_image_load_store");
        caps.rect_textures = at_least(3, 1) || ext.contains("GL_ARB_texture_rectangle");
        caps.precise = ext.contains("GL_ARB_gpu_shader5");
        caps.explicit_binding = at_least(4, 2) || ext.contains("GL_ARB_shading_language_420pack");
        // Checked by `headless` before any context was made: an unknown name never gets here.
        caps.mask(&super::caps::without_from_env().unwrap_or_default());
        info.compute = caps.compute;
        info.fp64 = caps.fp64;
        info.max_texture_size = gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE);
        info.max_rectangle_texture_size = gl.get_parameter_i32(glow::MAX_RECTANGLE_TEXTURE_SIZE);
        info.max_texture_buffer_size = gl.get_parameter_i32(glow::MAX_TEXTURE_BUFFER_SIZE);
        caps.max_texture_size = info.max_texture_size.max(0) as u32;
        caps.max_rectangle_texture_size = info.max_rectangle_texture_size.max(0) as u32;
        if caps.compute {
            info.max_work_group_invocations =
                gl.get_parameter_i32(glow::MAX_COMPUTE_WORK_GROUP_INVOCATIONS);
            for i in 0..3 {
                info.max_work_group_size[i] =
                    gl.get_parameter_indexed_i32(glow::MAX_COMPUTE_WORK_GROUP_SIZE, i as u32);
                info.max_work_group_count[i] =
                    gl.get_parameter_indexed_i32(glow::MAX_COMPUTE_WORK_GROUP_COUNT, i as u32);
            }
            info.max_shared_memory_bytes =
                gl.get_parameter_i32(glow::MAX_COMPUTE_SHARED_MEMORY_SIZE);
        }
        if caps.ssbo {
            info.max_ssbo_bytes = gl.get_parameter_i64(glow::MAX_SHADER_STORAGE_BLOCK_SIZE);
            info.max_fragment_ssbo_blocks =
                gl.get_parameter_i32(glow::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS);
        }
        caps.ssbo_in_fragment = caps.ssbo && info.max_fragment_ssbo_blocks > 0;
        // Drain errors from queries a driver may not know.
        while gl.get_error() != glow::NO_ERROR {}
    }
    info.caps = caps;
}

/// Whether a fragment shader with `double` arithmetic compiles: a driver may list fp64 and
/// still refuse it (or emulate only part of it).
fn probe_fp64(gl: &glow::Context) -> bool {
    let v = gl.version();
    let head = if (v.major, v.minor) >= (4, 0) {
        "#version 400 core\n"
    } else {
        "#version 330 core\n#extension GL_ARB_gpu_shader_fp64 : require\n"
    };
    let src = format!(
        "{head}uniform float u; out vec4 o;\n\
         void main() {{ double d = double(u) * 3.0LF + 1.0LF; dvec2 e = dvec2(d, d * d); \
         o = vec4(float(e.x), float(e.y), 0.0, 1.0); }}\n"
    );
    unsafe {
        let Ok(sh) = gl.create_shader(glow::FRAGMENT_SHADER) else {
            return false;
        };
        gl.shader_source(sh, &src);
        gl.compile_shader(sh);
        let ok = gl.get_shader_compile_status(sh);
        gl.delete_shader(sh);
        ok
    }
}

/// The CPU model from `/proc/cpuinfo`, with the number of logical CPUs.
pub fn cpu_model() -> String {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")
                .and_then(|r| r.split(':').nth(1))
        })
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let n = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{model} ({n} logical CPUs)")
}

/// The OS name from `/etc/os-release`, with the kernel release.
pub fn os_name() -> String {
    let text = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
    let pretty = text
        .lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|s| s.trim_matches('"').to_string())
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!("{pretty}, Linux {}", kernel.trim())
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
