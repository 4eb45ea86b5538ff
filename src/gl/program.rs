//! Programs built from the shader files in `glsl/`.
//!
//! Shader files carry no `#version` line. [`preamble`] is the one function that writes it,
//! followed by the extensions and the `#define`s of a variant (block size, RGBA channel mask,
//! instrumentation switches…) and a `#line 1` so that the driver's log numbers the lines of
//! the file itself. Compile errors name the file and the stage; link errors name the files.
//! Programs are cached per context by (files, defines): asking twice costs a hash lookup.
//!
//! The files are embedded in the binary at build time (`include_dir!`), so the executable is
//! self-contained; a new shader needs no Rust change beyond the code that uses it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use glow::HasContext;
use include_dir::{Dir, include_dir};

use super::{Gl, GlError, Texture};

static GLSL: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/glsl");

/// The GLSL version every shader is compiled with (GL 4.3: compute shaders, SSBOs).
pub const GLSL_VERSION: &str = "430 core";

/// The text of a shader file, by its path relative to `glsl/`.
pub fn source(file: &str) -> Result<&'static str, GlError> {
    GLSL.get_file(file)
        .and_then(|f| f.contents_utf8())
        .ok_or_else(|| GlError::MissingShader(file.to_string()))
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
pub fn preamble(extensions: &[&str], defines: &[Define]) -> String {
    let mut s = format!("#version {GLSL_VERSION}\n");
    for e in extensions {
        s.push_str(&format!("#extension {e} : require\n"));
    }
    for Define(name, value) in defines {
        s.push_str(&format!("#define {name} {value}\n"));
    }
    // GLSL ≥ 3.30: the line after `#line N` is line N (C numbers it N+1 in older GLSL).
    s.push_str("#line 1 0\n");
    s
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

/// A linked program. Uniform locations are looked up once and cached.
pub struct Program {
    gl: Gl,
    id: glow::Program,
    files: Vec<String>,
    uniforms: RefCell<HashMap<String, Option<glow::UniformLocation>>>,
    /// `local_size` of a compute program, as the driver reports it.
    pub local_size: [u32; 3],
}

impl Program {
    /// Compiles and links `files` (e.g. `["common/quad.vert", "lu/u_pass.frag"]` or
    /// `["matmul/tiled.comp"]`) with `defines`, or returns the cached program.
    pub fn get(gl: &Gl, files: &[&str], defines: &[Define]) -> Result<Rc<Program>, GlError> {
        let mut sorted = defines.to_vec();
        sorted.sort();
        let key: Key = (files.iter().map(|s| s.to_string()).collect(), sorted);
        if let Some(p) = gl.programs().borrow().get(&key) {
            return Ok(p.clone());
        }
        let p = Rc::new(Self::build(gl, files, defines)?);
        gl.programs().borrow_mut().insert(key, p.clone());
        Ok(p)
    }

    /// A compute program from one `.comp` file (cached).
    pub fn compute(gl: &Gl, file: &str, defines: &[Define]) -> Result<Rc<Program>, GlError> {
        if !gl.info().compute {
            return Err(GlError::Unsupported("compute shaders (GL 4.3)".into()));
        }
        Self::get(gl, &[file], defines)
    }

    /// A fragment program drawn over quads: `common/quad.vert` plus `frag` (cached).
    pub fn fragment(gl: &Gl, frag: &str, defines: &[Define]) -> Result<Rc<Program>, GlError> {
        Self::get(gl, &["common/quad.vert", frag], defines)
    }

    /// Compiles without the cache, from `(file name, text)` pairs: for shaders made at run
    /// time and for tests of the error path.
    pub fn from_sources(
        gl: &Gl,
        sources: &[(&str, &str)],
        defines: &[Define],
    ) -> Result<Program, GlError> {
        let raw = gl.raw();
        let program = unsafe { raw.create_program() }.map_err(GlError::Invalid)?;
        let mut shaders = Vec::new();
        let cleanup = |shaders: &[glow::Shader]| unsafe {
            for &s in shaders {
                raw.delete_shader(s);
            }
            raw.delete_program(program);
        };
        for &(file, text) in sources {
            let (kind, stage) = stage_of(file)?;
            let full = format!("{}{}", preamble(&[], defines), text);
            let shader = unsafe { raw.create_shader(kind) }.map_err(GlError::Invalid)?;
            shaders.push(shader);
            unsafe {
                raw.shader_source(shader, &full);
                raw.compile_shader(shader);
                if !raw.get_shader_compile_status(shader) {
                    let log = name_log(&raw.get_shader_info_log(shader), file);
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
            id: program,
            files,
            uniforms: RefCell::default(),
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
        &self.files
    }

    /// `glUseProgram`.
    pub fn bind(&self) {
        unsafe { self.gl.raw().use_program(Some(self.id)) }
    }

    fn location(&self, name: &str) -> Option<glow::UniformLocation> {
        if let Some(l) = self.uniforms.borrow().get(name) {
            return *l;
        }
        let l = unsafe { self.gl.raw().get_uniform_location(self.id, name) };
        self.uniforms.borrow_mut().insert(name.to_string(), l);
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
    pub fn set_ivec2(&self, name: &str, v: [i32; 2]) {
        self.bind();
        unsafe {
            self.gl
                .raw()
                .uniform_2_i32(self.location(name).as_ref(), v[0], v[1])
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
            .check(&format!("dispatching {}", self.files.join(", ")))
    }

    /// Enough groups of `local_size` to cover `n` invocations along x (1D dispatch).
    pub fn dispatch_1d(&self, n: u32) -> Result<(), GlError> {
        self.dispatch([n.div_ceil(self.local_size[0].max(1)).max(1), 1, 1])
    }
}

/// Mesa numbers log lines as `0:LINE(COL)`, NVIDIA as `0(LINE)`: put the file name in front.
fn name_log(log: &str, file: &str) -> String {
    log.lines()
        .map(|l| {
            if let Some(rest) = l.strip_prefix("0:") {
                format!("{file}:{rest}")
            } else if let Some(rest) = l.strip_prefix("0(") {
                format!("{file}({rest}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Drop for Program {
    fn drop(&mut self) {
        unsafe { self.gl.raw().delete_program(self.id) }
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Program{:?}", self.files)
    }
}
