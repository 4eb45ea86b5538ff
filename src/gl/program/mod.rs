//! Programs built from the shader files in `glsl/`.
//!
//! Shader files carry no `#version` line. [`preamble`] is the one function that writes it,
//! followed by the extensions and the `#define`s of a variant (block size, RGBA channel mask,
//! the fetch-counting switch `COUNT_FETCHES`…) and a `#line 1` so that the driver's log numbers
//! the lines of the file itself. Compile errors name the file and the stage; link errors name
//! the files. Programs are cached per context by (files, defines): asking twice costs a hash
//! lookup. The cache holds the linked program, not a [`Gl`]: it never keeps its context alive.
//!
//! # Which GLSL a program is compiled as
//! [`Glsl::for_sources`] decides, from the stages and the text of the files:
//! - a program with a compute stage is `#version 430 core` and needs [`Need::Compute`];
//! - every other program (the 2005 papers' fragment techniques, the viewer) is
//!   `#version 330 core`, so that it runs on a GL 3.3 device. Features newer than GLSL 3.30
//!   that a file uses are enabled as extensions where the device offers them: `precise`
//!   (`GL_ARB_gpu_shader5`; where absent, `precise` is defined away and the driver may fuse
//!   `a*b + c`), `buffer` blocks and their `atomicAdd` (`GL_ARB_shader_storage_buffer_object`,
//!   with `GL_ARB_shading_language_420pack` for `layout(binding = N)`), `double`
//!   (`GL_ARB_gpu_shader_fp64`), `atomic_uint`, `image2D`… A file that uses such a feature
//!   only under an `#ifdef` (the instrumented fetch counts) compiles without it when the
//!   switch is off; with the switch on, on a device without the feature, the compile error
//!   says what the device lacks.
//!
//! # Includes
//! A line `#include "common/arith2005.glsl"` in a shader file is replaced by that file's text
//! ([`expand_includes`]), framed by `#line` directives that give the included text its own
//! source-string number, so that a compile error in it names the included file. One level:
//! an included file includes nothing.
//!
//! The files are embedded in the binary at build time (`include_dir!`), so the executable is
//! self-contained; a new shader needs no Rust change beyond the code that uses it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use glow::HasContext;
use include_dir::{Dir, include_dir};

use super::{Caps, Gl, GlError, Need, Texture};

static GLSL: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/glsl");

/// The GLSL version of programs with a compute stage (GL 4.3: compute shaders, SSBOs).
pub const GLSL_COMPUTE: &str = "430 core";
/// The GLSL version of every other program (GL 3.3 core: the 2005 papers' techniques).
pub const GLSL_LEGACY: &str = "330 core";

/// The text of a shader file, by its path relative to `glsl/`.
pub fn source(file: &str) -> Result<&'static str, GlError> {
    GLSL.get_file(file)
        .and_then(|f| f.contents_utf8())
        .ok_or_else(|| GlError::MissingShader(file.to_string()))
}

/// `text` (the shader file `file`) with every `#include "PATH"` line replaced by the file
/// `PATH` (relative to `glsl/`), and the names of the source strings the `#line` directives
/// number: `file` first, then each included file.
pub fn expand_includes(file: &str, text: &str) -> Result<(String, Vec<String>), GlError> {
    let mut names = vec![file.to_string()];
    if !text.contains("#include") {
        return Ok((text.to_string(), names));
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("#include") else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let path = rest.trim().trim_matches('"');
        let bad = |why: &str| GlError::Invalid(format!("`{file}` line {}: {why}", i + 1));
        if path.is_empty() || rest.trim() != format!("\"{path}\"") {
            return Err(bad("expected `#include \"PATH\"`"));
        }
        let inc = source(path).map_err(|_| bad(&format!("no shader file `{path}`")))?;
        if inc.lines().any(|l| l.trim_start().starts_with("#include")) {
            return Err(bad(&format!(
                "`{path}` includes another file (one level only)"
            )));
        }
        out.push_str(&format!(
            "#line 1 {}\n{inc}\n#line {} 0\n",
            names.len(),
            i + 2
        ));
        names.push(path.to_string());
    }
    Ok((out, names))
}

/// A `#define NAME VALUE` for a shader variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Define(pub String, pub String);

impl Define {
    pub fn new(name: impl Into<String>, value: impl ToString) -> Self {
        Define(name.into(), value.to_string())
    }
    /// A define with no value (`#define NAME`), for `#ifdef` switches.
    pub fn flag(name: impl Into<String>) -> Self {
        Define(name.into(), String::new())
    }
}

/// The lines put before every shader file: version, extensions, defines, `#line 1`.
pub fn preamble(version: &str, extensions: &[&str], defines: &[Define]) -> String {
    let mut s = format!("#version {version}\n");
    for e in extensions {
        s.push_str(&format!("#extension {e} : enable\n"));
    }
    for Define(name, value) in defines {
        s.push_str(&format!("#define {name} {value}\n"));
    }
    // GLSL ≥ 3.30: the line after `#line N` is line N (C numbers it N+1 in older GLSL).
    s.push_str("#line 1 0\n");
    s
}

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

    /// The preamble with `defines` after the toolkit's own.
    pub fn preamble(&self, defines: &[Define]) -> String {
        let all: Vec<Define> = self.defines.iter().chain(defines).cloned().collect();
        preamble(self.version, &self.extensions, &all)
    }
}

/// The identifiers of GLSL text, comments removed.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
}

fn stage_of(file: &str) -> Result<(u32, &'static str), GlError> {
    let ext = file.rsplit('.').next().unwrap_or("");
    Ok(match ext {
        "vert" => (glow::VERTEX_SHADER, "vertex"),
        "frag" => (glow::FRAGMENT_SHADER, "fragment"),
        "comp" => (glow::COMPUTE_SHADER, "compute"),
        "geom" => (glow::GEOMETRY_SHADER, "geometry"),
        _ => {
            return Err(GlError::Invalid(format!(
                "`{file}`: unknown shader stage `.{ext}`"
            )));
        }
    })
}

/// Cache key: the files and the sorted defines.
pub(crate) type Key = (Vec<String>, Vec<Define>);

/// What the context's cache keeps of a program: the linked program (no [`Gl`] in it) and a
/// weak link to the handle in use, if any. Nothing in it keeps the context alive.
#[derive(Clone)]
pub(crate) struct CacheEntry {
    linked: Rc<Linked>,
    handle: std::rc::Weak<Program>,
}

/// A linked program as the context's cache keeps it: no [`Gl`], so no reference cycle.
pub(crate) struct Linked {
    id: glow::Program,
    files: Vec<String>,
    uniforms: RefCell<HashMap<String, Option<glow::UniformLocation>>>,
    local_size: [u32; 3],
}

/// A linked program. Uniform locations are looked up once and cached.
pub struct Program {
    gl: Gl,
    linked: Rc<Linked>,
    /// Whether the context's cache owns the GL program (else this handle deletes it).
    cached: bool,
    /// `local_size` of a compute program, as the driver reports it.
    pub local_size: [u32; 3],
}

impl Program {
    /// Compiles and links `files` (e.g. `["common/quad.vert", "lu/u.frag"]` or
    /// `["matmul/blocked.comp"]`) with `defines`, or returns the cached program.
    pub fn get(gl: &Gl, files: &[&str], defines: &[Define]) -> Result<Rc<Program>, GlError> {
        let mut sorted = defines.to_vec();
        sorted.sort();
        let key: Key = (files.iter().map(|s| s.to_string()).collect(), sorted);
        let cached = gl.programs().borrow().get(&key).cloned();
        let linked = match cached {
            // Someone still holds this program's handle: hand out the same one.
            Some(entry) => match entry.handle.upgrade() {
                Some(p) => return Ok(p),
                None => entry.linked,
            },
            None => {
                let mut p = Self::build(gl, files, defines)?;
                p.cached = true;
                p.linked.clone()
            }
        };
        let p = Rc::new(Program {
            gl: gl.clone(),
            local_size: linked.local_size,
            linked: linked.clone(),
            cached: true,
        });
        let handle = Rc::downgrade(&p);
        gl.programs()
            .borrow_mut()
            .insert(key, CacheEntry { linked, handle });
        Ok(p)
    }

    /// A compute program from one `.comp` file (cached). On a device without compute shaders
    /// the error says so and which GL version the device offers.
    pub fn compute(gl: &Gl, file: &str, defines: &[Define]) -> Result<Rc<Program>, GlError> {
        if let Some(why) = gl.caps().lacks(&[Need::Compute]) {
            return Err(GlError::Unsupported(format!("`{file}` {why}")));
        }
        Self::get(gl, &[file], defines)
    }

    /// A fragment program drawn over quads: `common/quad.vert` plus `frag` (cached).
    pub fn fragment(gl: &Gl, frag: &str, defines: &[Define]) -> Result<Rc<Program>, GlError> {
        Self::get(gl, &["common/quad.vert", frag], defines)
    }

    /// Compiles without the cache, from `(file name, text)` pairs: for shaders made at run
    /// time and for tests of the error path. The GLSL version and extensions are chosen by
    /// [`Glsl::for_sources`].
    pub fn from_sources(
        gl: &Gl,
        sources: &[(&str, &str)],
        defines: &[Define],
    ) -> Result<Program, GlError> {
        let expanded: Vec<(String, Vec<String>)> = sources
            .iter()
            .map(|(f, t)| expand_includes(f, t))
            .collect::<Result<_, _>>()?;
        let sources: Vec<(&str, &str)> = sources
            .iter()
            .zip(&expanded)
            .map(|((f, _), (t, _))| (*f, t.as_str()))
            .collect();
        let sources = &sources[..];
        let glsl = Glsl::for_sources(gl.caps(), sources);
        if glsl.missing.contains(&Need::Compute) {
            let why = gl.caps().lacks(&[Need::Compute]).unwrap_or_default();
            let files: Vec<&str> = sources.iter().map(|(f, _)| *f).collect();
            return Err(GlError::Unsupported(format!(
                "[{}] {why}",
                files.join(", ")
            )));
        }
        let head = glsl.preamble(defines);
        let raw = gl.raw();
        let program = unsafe { raw.create_program() }.map_err(GlError::Invalid)?;
        let mut shaders = Vec::new();
        let cleanup = |shaders: &[glow::Shader]| unsafe {
            for &s in shaders {
                raw.delete_shader(s);
            }
            raw.delete_program(program);
        };
        for (&(file, text), (_, names)) in sources.iter().zip(&expanded) {
            let (kind, stage) = stage_of(file)?;
            let full = format!("{head}{text}");
            let shader = unsafe { raw.create_shader(kind) }.map_err(GlError::Invalid)?;
            shaders.push(shader);
            unsafe {
                raw.shader_source(shader, &full);
                raw.compile_shader(shader);
                if !raw.get_shader_compile_status(shader) {
                    let mut log = name_log(&raw.get_shader_info_log(shader), names);
                    if let Some(why) = gl.caps().lacks(&glsl.missing) {
                        log.push_str(&format!(
                            "\n(compiled as GLSL {}: the file uses features the device lacks: {why})",
                            glsl.version
                        ));
                    }
                    cleanup(&shaders);
                    return Err(GlError::Compile {
                        file: file.to_string(),
                        stage,
                        log,
                    });
                }
                raw.attach_shader(program, shader);
            }
        }
        let files: Vec<String> = sources.iter().map(|(f, _)| f.to_string()).collect();
        unsafe {
            raw.link_program(program);
            let ok = raw.get_program_link_status(program);
            let log = raw.get_program_info_log(program);
            for &s in &shaders {
                raw.detach_shader(program, s);
                raw.delete_shader(s);
            }
            if !ok {
                raw.delete_program(program);
                return Err(GlError::Link {
                    files: files.join(", "),
                    log,
                });
            }
        }
        let mut local_size = [0u32; 3];
        if sources.iter().any(|(f, _)| f.ends_with(".comp")) {
            local_size = gl
                .program_iv3(program, glow::COMPUTE_WORK_GROUP_SIZE)
                .map(|x| x as u32);
        }
        gl.check(&format!("linking [{}]", files.join(", ")))?;
        Ok(Program {
            gl: gl.clone(),
            linked: Rc::new(Linked {
                id: program,
                files,
                uniforms: RefCell::default(),
                local_size,
            }),
            cached: false,
            local_size,
        })
    }

    fn build(gl: &Gl, files: &[&str], defines: &[Define]) -> Result<Program, GlError> {
        let sources: Vec<(&str, &str)> = files
            .iter()
            .map(|&f| source(f).map(|t| (f, t)))
            .collect::<Result<_, _>>()?;
        Self::from_sources(gl, &sources, defines)
    }

    /// The files this program was built from.
    pub fn files(&self) -> &[String] {
        &self.linked.files
    }

    /// `glUseProgram`.
    pub fn bind(&self) {
        unsafe { self.gl.raw().use_program(Some(self.linked.id)) }
    }

    fn location(&self, name: &str) -> Option<glow::UniformLocation> {
        if let Some(l) = self.linked.uniforms.borrow().get(name) {
            return *l;
        }
        let l = unsafe { self.gl.raw().get_uniform_location(self.linked.id, name) };
        self.linked
            .uniforms
            .borrow_mut()
            .insert(name.to_string(), l);
        l
    }

    /// Sets an `int` (or sampler) uniform; a name the program does not use is ignored, as GL
    /// ignores location -1 (the compiler may have removed an unused uniform).
    pub fn set_i32(&self, name: &str, v: i32) {
        self.bind();
        unsafe { self.gl.raw().uniform_1_i32(self.location(name).as_ref(), v) }
    }
    pub fn set_u32(&self, name: &str, v: u32) {
        self.bind();
        unsafe { self.gl.raw().uniform_1_u32(self.location(name).as_ref(), v) }
    }
    pub fn set_f32(&self, name: &str, v: f32) {
        self.bind();
        unsafe { self.gl.raw().uniform_1_f32(self.location(name).as_ref(), v) }
    }
    pub fn set_vec2(&self, name: &str, v: [f32; 2]) {
        self.bind();
        unsafe {
            self.gl
                .raw()
                .uniform_2_f32(self.location(name).as_ref(), v[0], v[1])
        }
    }
    pub fn set_vec3(&self, name: &str, v: [f32; 3]) {
        self.bind();
        unsafe {
            self.gl
                .raw()
                .uniform_3_f32(self.location(name).as_ref(), v[0], v[1], v[2])
        }
    }
    pub fn set_vec4(&self, name: &str, v: [f32; 4]) {
        self.bind();
        let l = self.location(name);
        unsafe {
            self.gl
                .raw()
                .uniform_4_f32(l.as_ref(), v[0], v[1], v[2], v[3])
        }
    }
    pub fn set_mat4(&self, name: &str, m: &[f32; 16]) {
        self.bind();
        unsafe {
            self.gl
                .raw()
                .uniform_matrix_4_f32_slice(self.location(name).as_ref(), false, m)
        }
    }

    /// Binds `tex` to texture `unit` and points the sampler uniform `name` at it.
    pub fn bind_texture(&self, unit: u32, name: &str, tex: &Texture) {
        unsafe {
            self.gl.raw().active_texture(glow::TEXTURE0 + unit);
            self.gl
                .raw()
                .bind_texture(tex.target().gl(), Some(tex.id()));
        }
        self.set_i32(name, unit as i32);
    }

    /// Binds the buffer texture `tex` to texture `unit` and points sampler `name`
    /// (`samplerBuffer` / `usamplerBuffer`) at it.
    pub fn bind_buffer_texture(&self, unit: u32, name: &str, tex: &super::BufferTexture) {
        unsafe {
            self.gl.raw().active_texture(glow::TEXTURE0 + unit);
            self.gl
                .raw()
                .bind_texture(glow::TEXTURE_BUFFER, Some(tex.id()));
        }
        self.set_i32(name, unit as i32);
    }

    /// Binds level 0 of `tex` to image `unit` (`image2D`/`image2DRect` in a shader) with
    /// `access` = `glow::READ_ONLY` / `WRITE_ONLY` / `READ_WRITE`.
    pub fn bind_image(&self, unit: u32, tex: &Texture, access: u32) {
        unsafe {
            self.gl.raw().bind_image_texture(
                unit,
                Some(tex.id()),
                0,
                false,
                0,
                access,
                tex.format().internal(),
            )
        }
    }

    /// `glDispatchCompute` with `groups` work groups. Checks the device's group-count limit.
    pub fn dispatch(&self, groups: [u32; 3]) -> Result<(), GlError> {
        let max = self.gl.info().max_work_group_count;
        for i in 0..3 {
            if groups[i] as i64 > max[i] as i64 {
                return Err(GlError::Invalid(format!(
                    "dispatch of {groups:?} groups exceeds the device limit {max:?}"
                )));
            }
        }
        self.bind();
        unsafe {
            self.gl
                .raw()
                .dispatch_compute(groups[0], groups[1], groups[2])
        };
        self.gl
            .check(&format!("dispatching {}", self.linked.files.join(", ")))
    }

    /// Enough groups of `local_size` to cover `n` invocations along x (1D dispatch).
    pub fn dispatch_1d(&self, n: u32) -> Result<(), GlError> {
        self.dispatch([n.div_ceil(self.local_size[0].max(1)).max(1), 1, 1])
    }
}

/// Mesa numbers log lines as `N:LINE(COL)`, NVIDIA as `N(LINE)`, `N` the source string (0 the
/// file, 1… its includes, see [`expand_includes`]): put the file's name in front.
fn name_log(log: &str, names: &[String]) -> String {
    log.lines()
        .map(|l| {
            let digits = l.len() - l.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let name = l[..digits].parse::<usize>().ok().and_then(|n| names.get(n));
            match (name, l[digits..].chars().next()) {
                (Some(name), Some(':' | '(')) => format!("{name}{}", &l[digits..]),
                _ => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Drop for Program {
    fn drop(&mut self) {
        // A cached program lives as long as its context; the context's destruction frees it.
        if !self.cached && self.gl.is_current() {
            unsafe { self.gl.raw().delete_program(self.linked.id) }
        }
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Program{:?}", self.linked.files)
    }
}
