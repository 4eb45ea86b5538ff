//! Which GLSL a program is compiled as ([`Glsl::for_sources`]): its `#version`, the
//! extensions the features its files use need, and what the device lacks of them.

use super::source::{Define, preamble};
use crate::gl::caps::{Caps, Need};

/// The GLSL version of programs with a compute stage (GL 4.3: compute shaders, SSBOs).
pub const GLSL_COMPUTE: &str = "430 core";
/// The GLSL version of every other program (GL 3.3 core: the 2005 papers' techniques).
pub const GLSL_LEGACY: &str = "330 core";

/// The GLSL a program is compiled as: its `#version`, the extensions it enables, the
/// defines the toolkit adds, and the features its text uses that the device lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glsl {
    pub version: &'static str,
    pub extensions: Vec<&'static str>,
    pub defines: Vec<Define>,
    /// Features the files use (possibly only under an `#ifdef`) that the device lacks.
    pub missing: Vec<Need>,
}

/// Features newer than GLSL 3.30, the words that show their use, and their extensions.
const FEATURES: &[(&[&str], &[&str], Option<Need>)] = &[
    (&["precise"], &["GL_ARB_gpu_shader5"], None),
    (
        &["buffer"],
        &[
            "GL_ARB_shader_storage_buffer_object",
            "GL_ARB_shading_language_420pack",
        ],
        Some(Need::FragmentSsbo),
    ),
    (
        &[
            "double", "dvec2", "dvec3", "dvec4", "dmat2", "dmat3", "dmat4",
        ],
        &["GL_ARB_gpu_shader_fp64"],
        Some(Need::Fp64),
    ),
    (
        &["atomic_uint"],
        &[
            "GL_ARB_shader_atomic_counters",
            "GL_ARB_shading_language_420pack",
        ],
        Some(Need::AtomicCounters),
    ),
    (
        &["image2D", "image2DRect", "imageLoad", "imageStore"],
        &[
            "GL_ARB_shader_image_load_store",
            "GL_ARB_shading_language_420pack",
        ],
        Some(Need::ImageLoadStore),
    ),
    (&["binding"], &["GL_ARB_shading_language_420pack"], None),
];

impl Glsl {
    /// The GLSL for a program made of `sources` (file name, text) on a device with `caps`.
    pub fn for_sources(caps: &Caps, sources: &[(&str, &str)]) -> Glsl {
        if sources.iter().any(|(f, _)| f.ends_with(".comp")) {
            return Glsl {
                version: GLSL_COMPUTE,
                extensions: vec![],
                defines: vec![],
                missing: if caps.compute {
                    vec![]
                } else {
                    vec![Need::Compute]
                },
            };
        }
        let mut g = Glsl {
            version: GLSL_LEGACY,
            extensions: vec![],
            defines: vec![],
            missing: vec![],
        };
        let words: std::collections::HashSet<&str> =
            sources.iter().flat_map(|(_, t)| words(t)).collect();
        for (uses, exts, need) in FEATURES {
            if !uses.iter().any(|w| words.contains(w)) {
                continue;
            }
            let offered: Vec<&'static str> = exts
                .iter()
                .copied()
                .filter(|e| caps.has_extension(e))
                .collect();
            if (offered.is_empty() || need.is_some_and(|n| !caps.has(n)))
                && let Some(n) = need
            {
                g.missing.push(*n);
            }
            for e in offered {
                if !g.extensions.contains(&e) {
                    g.extensions.push(e);
                }
            }
        }
        if words.contains("precise") && !caps.has_extension("GL_ARB_gpu_shader5") {
            // GLSL 3.30 has no `precise`: the qualifier goes, the arithmetic stays.
            g.defines.push(Define::flag("precise"));
        }
        g
    }

    /// The preamble with `defines` after the toolkit's own (and [`INEXACT_DIV_DEFINE`] while
    /// [`inexact_division`] is on).
    pub fn preamble(&self, defines: &[Define]) -> String {
        let mut all: Vec<Define> = self.defines.iter().chain(defines).cloned().collect();
        if inexact_division() {
            all.push(Define::flag(INEXACT_DIV_DEFINE));
        }
        preamble(self.version, &self.extensions, &all)
    }
}

/// The environment variable (any value but empty or `0`) and the define of the
/// inexact-division switch ([`inexact_division`]).
pub const INEXACT_DIV_DEFINE: &str = "GPGPU_REPRO_INEXACT_DIV";

/// 0: not yet read from the environment; 1: off; 2: on.
static INEXACT_DIV: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Whether every program is built with [`INEXACT_DIV_DEFINE`]: the shaders' device division
/// (`a05_native_div` in `glsl/common/arith2005.glsl`, every `F_DIV` of a program built without
/// the 2005 model) is then a reciprocal moved by up to 1 ULP and a product, like the H200's
/// `/`, so that what a driver with an inexact division does to the 2005-arithmetic emulation
/// can be tried on a device whose `/` rounds correctly (llvmpipe). A test switch: results made
/// with it are not the device's. Off unless [`set_inexact_division`] or the environment
/// variable turns it on.
pub fn inexact_division() -> bool {
    use std::sync::atomic::Ordering::Relaxed;
    match INEXACT_DIV.load(Relaxed) {
        0 => {
            let on = std::env::var(INEXACT_DIV_DEFINE).is_ok_and(|v| !v.is_empty() && v != "0");
            INEXACT_DIV.store(if on { 2 } else { 1 }, Relaxed);
            on
        }
        v => v == 2,
    }
}

/// Turns the inexact-division switch ([`inexact_division`]) on or off for the programs built
/// from now on, whatever the environment says.
pub fn set_inexact_division(on: bool) {
    INEXACT_DIV.store(if on { 2 } else { 1 }, std::sync::atomic::Ordering::Relaxed);
}

/// The identifiers of GLSL text, comments removed.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
}
