//! What a device offers ([`Caps`], read once when the context is made) and what a table or a
//! program needs ([`Need`]).
//!
//! The 2005 papers' fragment-shader techniques need GL 3.3 core and nothing newer (float
//! render targets, rectangle textures, `texelFetch`); compute shaders need GL 4.3, fp64 GL 4.0
//! (or `GL_ARB_gpu_shader_fp64`), atomic counters and image load/store GL 4.2, shader storage
//! buffers GL 4.3 (or `GL_ARB_shader_storage_buffer_object`). A feature counts as present when
//! the context's version includes it or the driver lists its extension, and for fp64 only if a
//! shader using `double` also compiles ([`Caps::fp64`] is detected, not assumed).
//!
//! ```no_run
//! # use gpgpu_repro::gl::{self, DeviceSelector, Need};
//! let gl = gl::headless(&DeviceSelector::Auto)?;
//! if let Some(why) = gl.caps().lacks(&[Need::Compute, Need::Fp64]) {
//!     println!("skipped: {why}"); // "needs compute shaders (GL 4.3), device offers GL 3.3"
//! }
//! # Ok::<(), gl::GlError>(())
//! ```

use serde::Serialize;

/// The features of a context that the papers' programs depend on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Caps {
    /// The context's GL version (major, minor).
    pub version: (u8, u8),
    /// The highest GLSL version, as a number (`450` for "4.50").
    pub glsl: u16,
    /// Compute shaders (GL 4.3 or `GL_ARB_compute_shader`).
    pub compute: bool,
    /// Double precision in shaders (GL 4.0 or `GL_ARB_gpu_shader_fp64`), and a probe compiled.
    pub fp64: bool,
    /// Atomic counters (GL 4.2 or `GL_ARB_shader_atomic_counters`).
    pub atomic_counters: bool,
    /// Shader storage buffers (GL 4.3 or `GL_ARB_shader_storage_buffer_object`).
    pub ssbo: bool,
    /// Shader storage buffers readable and writable from fragment shaders.
    pub ssbo_in_fragment: bool,
    /// Image load/store (GL 4.2 or `GL_ARB_shader_image_load_store`).
    pub image_load_store: bool,
    /// Rectangle textures, `sampler2DRect` (core since GL 3.1).
    pub rect_textures: bool,
    /// `precise` (GL 4.0 or `GL_ARB_gpu_shader5`): keeps `a*b + c` unfused.
    pub precise: bool,
    /// `layout(binding = N)` in shaders (GL 4.2 or `GL_ARB_shading_language_420pack`).
    pub explicit_binding: bool,
    pub max_texture_size: u32,
    pub max_rectangle_texture_size: u32,
    /// Extensions the toolkit may enable in a `#version 330 core` shader (those listed here
    /// and offered by the driver).
    pub extensions: Vec<String>,
}

/// Something a table, a simulation solver or a program needs from the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Need {
    /// Compute shaders (GL 4.3).
    Compute,
    /// Double precision in shaders (GL 4.0).
    Fp64,
    /// Atomic counters (GL 4.2).
    AtomicCounters,
    /// Shader storage buffers in fragment shaders (GL 4.3), e.g. the instrumented fetch counts.
    FragmentSsbo,
    /// Image load/store (GL 4.2).
    ImageLoadStore,
    /// Rectangle textures (GL 3.1).
    RectTextures,
    /// At least this GL version.
    Version(u8, u8),
}

impl Need {
    /// What it is, with the GL version that made it core: "compute shaders (GL 4.3)".
    pub fn describe(&self) -> String {
        let (maj, min) = self.core_in();
        let what = match self {
            Need::Compute => "compute shaders",
            Need::Fp64 => "fp64 (double) shaders",
            Need::AtomicCounters => "atomic counters",
            Need::FragmentSsbo => "shader storage buffers in fragment shaders",
            Need::ImageLoadStore => "image load/store",
            Need::RectTextures => "rectangle textures",
            Need::Version(..) => return format!("OpenGL {maj}.{min}"),
        };
        format!("{what} (GL {maj}.{min})")
    }

    /// The GL version that made it core.
    pub fn core_in(&self) -> (u8, u8) {
        match self {
            Need::Compute | Need::FragmentSsbo => (4, 3),
            Need::Fp64 => (4, 0),
            Need::AtomicCounters | Need::ImageLoadStore => (4, 2),
            Need::RectTextures => (3, 1),
            Need::Version(maj, min) => (*maj, *min),
        }
    }
}

impl std::fmt::Display for Need {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Features to treat as missing although the device has them, comma-separated: `compute`,
/// `fp64`, `atomic-counters`, `fragment-ssbo`, `image-load-store`. A test aid: on llvmpipe,
/// `GPGPU_REPRO_WITHOUT=compute` runs what a GL 3.3 device runs, `GPGPU_REPRO_WITHOUT=fp64`
/// what a device with compute shaders but no fp64 runs (bicg's fp32 build).
pub const WITHOUT_ENV: &str = "GPGPU_REPRO_WITHOUT";

/// The names [`WITHOUT_ENV`] accepts, and what each masks.
const MASKABLE: [(&str, Need); 5] = [
    ("compute", Need::Compute),
    ("fp64", Need::Fp64),
    ("atomic-counters", Need::AtomicCounters),
    ("fragment-ssbo", Need::FragmentSsbo),
    ("image-load-store", Need::ImageLoadStore),
];

/// The features [`WITHOUT_ENV`] masks (none when it is unset); an unknown name is an error.
pub fn without_from_env() -> Result<Vec<Need>, String> {
    let Ok(list) = std::env::var(WITHOUT_ENV) else {
        return Ok(vec![]);
    };
    parse_without(&list)
}

fn parse_without(list: &str) -> Result<Vec<Need>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|name| {
            MASKABLE
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, need)| *need)
                .ok_or_else(|| {
                    let known: Vec<&str> = MASKABLE.iter().map(|(n, _)| *n).collect();
                    format!(
                        "{WITHOUT_ENV}: unknown feature `{name}`; the features are {}",
                        known.join(", ")
                    )
                })
        })
        .collect()
}

/// The extensions a `#version 330 core` shader may enable, when the driver offers them.
pub(crate) const SHADER_EXTENSIONS: &[&str] = &[
    "GL_ARB_gpu_shader5",
    "GL_ARB_gpu_shader_fp64",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_shader_atomic_counters",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_compute_shader",
];

impl Caps {
    /// Whether the device has `need`.
    pub fn has(&self, need: Need) -> bool {
        match need {
            Need::Compute => self.compute,
            Need::Fp64 => self.fp64,
            Need::AtomicCounters => self.atomic_counters,
            Need::FragmentSsbo => self.ssbo_in_fragment,
            Need::ImageLoadStore => self.image_load_store,
            Need::RectTextures => self.rect_textures,
            Need::Version(maj, min) => self.version >= (maj, min),
        }
    }

    /// `None` when the device has every one of `needs`; else why not, e.g. "needs compute
    /// shaders (GL 4.3) and fp64 (double) shaders (GL 4.0), device offers GL 3.3".
    pub fn lacks(&self, needs: &[Need]) -> Option<String> {
        let missing: Vec<&Need> = needs.iter().filter(|n| !self.has(**n)).collect();
        let names: Vec<String> = missing.iter().map(|n| n.describe()).collect();
        let list = match names.as_slice() {
            [] => return None,
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        };
        // A feature its version makes core, missing all the same: a driver that refuses it
        // (the fp64 probe) or one masked with GPGPU_REPRO_WITHOUT.
        let without = if missing.iter().all(|n| n.core_in() <= self.version) {
            " without it"
        } else {
            ""
        };
        Some(format!(
            "needs {list}, device offers {}{without}",
            self.offers()
        ))
    }

    /// "GL 3.3": the version the device offers.
    pub fn offers(&self) -> String {
        format!("GL {}.{}", self.version.0, self.version.1)
    }

    /// Treats `without` as missing ([`WITHOUT_ENV`]).
    pub(crate) fn mask(&mut self, without: &[Need]) {
        for need in without {
            match need {
                Need::Compute => self.compute = false,
                Need::Fp64 => self.fp64 = false,
                Need::AtomicCounters => self.atomic_counters = false,
                Need::FragmentSsbo => self.ssbo_in_fragment = false,
                Need::ImageLoadStore => self.image_load_store = false,
                Need::RectTextures | Need::Version(..) => {}
            }
        }
    }

    /// Whether the driver offers extension `name` (only those of the toolkit's list).
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    /// The features of [`Need`] as a one-line list: "compute, fp64, atomic counters, …".
    pub fn summary(&self) -> String {
        let all = [
            (self.compute, "compute"),
            (self.fp64, "fp64"),
            (self.atomic_counters, "atomic counters"),
            (self.ssbo, "SSBOs"),
            (self.ssbo_in_fragment, "fragment SSBOs"),
            (self.image_load_store, "image load/store"),
            (self.rect_textures, "rectangle textures"),
            (self.precise, "precise"),
        ];
        let have: Vec<&str> = all.iter().filter(|(b, _)| *b).map(|(_, n)| *n).collect();
        let lack: Vec<&str> = all.iter().filter(|(b, _)| !*b).map(|(_, n)| *n).collect();
        let mut s = format!(
            "GL {}.{}, GLSL {}",
            self.version.0, self.version.1, self.glsl
        );
        if !have.is_empty() {
            s += &format!("; has {}", have.join(", "));
        }
        if !lack.is_empty() {
            s += &format!("; lacks {}", lack.join(", "));
        }
        s
    }
}

/// "4.50 - build 1" → 450; "3.30" → 330; unreadable → 0.
pub(crate) fn parse_glsl(version: &str) -> u16 {
    let mut it = version
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty());
    let maj: u16 = it.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let min: u16 = it.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    maj * 100 + if min < 10 { min * 10 } else { min }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gl33() -> Caps {
        Caps {
            version: (3, 3),
            glsl: 330,
            rect_textures: true,
            ..Default::default()
        }
    }

    #[test]
    fn lacks_names_each_missing_feature_and_the_version_offered() {
        let c = gl33();
        assert_eq!(c.lacks(&[Need::RectTextures]), None);
        assert_eq!(
            c.lacks(&[Need::Compute]).unwrap(),
            "needs compute shaders (GL 4.3), device offers GL 3.3"
        );
        assert_eq!(
            c.lacks(&[Need::Compute, Need::Fp64, Need::RectTextures])
                .unwrap(),
            "needs compute shaders (GL 4.3) and fp64 (double) shaders (GL 4.0), device offers GL 3.3"
        );
        assert!(
            c.lacks(&[Need::Version(4, 1)])
                .unwrap()
                .contains("OpenGL 4.1")
        );
        assert_eq!(c.lacks(&[Need::Version(3, 3)]), None);
    }

    #[test]
    fn masked_features_are_missing_and_unknown_names_are_refused() {
        let mut c = Caps {
            compute: true,
            fp64: true,
            ..gl33()
        };
        c.mask(&parse_without(" fp64 ,").unwrap());
        assert!(c.compute && !c.fp64);
        assert_eq!(
            c.lacks(&[Need::Fp64]).unwrap(),
            "needs fp64 (double) shaders (GL 4.0), device offers GL 3.3"
        );
        let e = parse_without("compute,doubles").unwrap_err();
        assert!(e.contains("`doubles`") && e.contains("fp64"), "{e}");
        assert_eq!(parse_without("").unwrap(), vec![]);
    }

    #[test]
    fn glsl_versions_parse() {
        assert_eq!(parse_glsl("4.50"), 450);
        assert_eq!(parse_glsl("3.30"), 330);
        assert_eq!(parse_glsl("4.60 NVIDIA"), 460);
        assert_eq!(parse_glsl("4.1"), 410);
        assert_eq!(parse_glsl(""), 0);
    }
}
