//! What the context runs on: the `info` command's data and the report's provenance.

use glow::HasContext;
use serde::{Deserialize, Serialize};

use super::context::DeviceEntry;

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
    pub max_work_group_invocations: i32,
    pub max_work_group_size: [i32; 3],
    pub max_work_group_count: [i32; 3],
    pub max_shared_memory_bytes: i32,
    pub max_ssbo_bytes: i64,
    pub max_fragment_ssbo_blocks: i32,
    pub cpu: String,
    pub os: String,
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
    pub fn short(&self) -> String {
        format!("{} — {}", self.renderer, self.version)
    }

    /// A file-system friendly name of the renderer (for `figures/<gpu-name>/`).
    pub fn slug(&self) -> String {
        let s: String = self
            .renderer
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        s.split('-')
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("-")
    }
}

impl std::fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let yn = |b: bool| if b { "yes" } else { "no" };
        let rows: Vec<(&str, String)> = vec![
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
            ("compute shaders", yes_with(self.compute, "GL 4.3 core")),
            (
                "fp64 (double)",
                yes_with(self.fp64, "GL_ARB_gpu_shader_fp64"),
            ),
            ("max texture size", self.max_texture_size.to_string()),
            (
                "max rectangle texture",
                self.max_rectangle_texture_size.to_string(),
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
            ("software renderer", yn(self.software).to_string()),
            ("CPU", self.cpu.clone()),
            ("OS", self.os.clone()),
        ];
        for (k, v) in rows {
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

/// Reads the GL strings and limits into `info`.
pub(crate) fn fill_limits(gl: &glow::Context, info: &mut DeviceInfo) {
    unsafe {
        info.vendor = gl.get_parameter_string(glow::VENDOR);
        info.renderer = gl.get_parameter_string(glow::RENDERER);
        info.version = gl.get_parameter_string(glow::VERSION);
        info.glsl_version = gl.get_parameter_string(glow::SHADING_LANGUAGE_VERSION);
        let v = gl.version();
        info.version_number = (v.major as i32, v.minor as i32);
        let at_least = |maj, min| (v.major, v.minor) >= (maj, min);
        let ext = gl.supported_extensions();
        info.compute = at_least(4, 3) || ext.contains("GL_ARB_compute_shader");
        info.fp64 = at_least(4, 0) || ext.contains("GL_ARB_gpu_shader_fp64");
        info.max_texture_size = gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE);
        info.max_rectangle_texture_size = gl.get_parameter_i32(glow::MAX_RECTANGLE_TEXTURE_SIZE);
        if info.compute {
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
            info.max_ssbo_bytes = gl.get_parameter_i64(glow::MAX_SHADER_STORAGE_BLOCK_SIZE);
            info.max_fragment_ssbo_blocks =
                gl.get_parameter_i32(glow::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS);
        }
        // Drain errors from queries a driver may not know.
        while gl.get_error() != glow::NO_ERROR {}
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
