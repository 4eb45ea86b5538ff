//! Compiling and linking a program from `(file name, text)` pairs: the GLSL chosen for
//! them, each stage compiled with the preamble (its log naming the file), then linked.

use std::cell::RefCell;
use std::rc::Rc;

use glow::HasContext;

use super::glsl::Glsl;
use super::handle::Program;
use super::source::{Define, expand_includes};
use crate::gl::caps::Need;
use crate::gl::context::Gl;
use crate::gl::error::GlError;
use crate::gl::program_cache::Linked;

impl Program {
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
        let program = unsafe { gl.raw().create_program() }.map_err(GlError::Invalid)?;
        let mut build = Build {
            gl,
            glsl,
            head,
            program,
            shaders: Vec::new(),
        };
        for (&(file, text), (_, names)) in sources.iter().zip(&expanded) {
            build.compile(file, text, names)?;
        }
        let files: Vec<String> = sources.iter().map(|(f, _)| f.to_string()).collect();
        build.link(&files)?;
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
}

/// A program being built: its GLSL, the preamble, the GL program and the shaders compiled
/// into it so far.
struct Build<'a> {
    gl: &'a Gl,
    glsl: Glsl,
    head: String,
    program: glow::Program,
    shaders: Vec<glow::Shader>,
}

impl Build<'_> {
    /// Deletes the shaders made so far and the program.
    fn cleanup(&self) {
        let raw = self.gl.raw();
        unsafe {
            for &s in &self.shaders {
                raw.delete_shader(s);
            }
            raw.delete_program(self.program);
        }
    }

    /// Compiles the file `file` (its expanded `text`, the source strings `names`) after the
    /// preamble and attaches it; on a compile error, with the log naming the file and what
    /// the device lacks, deletes everything made so far.
    fn compile(&mut self, file: &str, text: &str, names: &[String]) -> Result<(), GlError> {
        let (gl, raw) = (self.gl, self.gl.raw());
        let (kind, stage) = stage_of(file)?;
        let full = format!("{}{text}", self.head);
        let shader = unsafe { raw.create_shader(kind) }.map_err(GlError::Invalid)?;
        self.shaders.push(shader);
        unsafe {
            raw.shader_source(shader, &full);
            raw.compile_shader(shader);
            if !raw.get_shader_compile_status(shader) {
                let mut log = name_log(&raw.get_shader_info_log(shader), names);
                if let Some(why) = gl.caps().lacks(&self.glsl.missing) {
                    log.push_str(&format!(
                        "\n(compiled as GLSL {}: the file uses features the device lacks: {why})",
                        self.glsl.version
                    ));
                }
                self.cleanup();
                return Err(GlError::Compile {
                    file: file.to_string(),
                    stage,
                    log,
                });
            }
            raw.attach_shader(self.program, shader);
        }
        Ok(())
    }

    /// Links the program and deletes its shaders; on a link error, deletes the program too.
    fn link(&self, files: &[String]) -> Result<(), GlError> {
        let (raw, program) = (self.gl.raw(), self.program);
        unsafe {
            raw.link_program(program);
            let ok = raw.get_program_link_status(program);
            let log = raw.get_program_info_log(program);
            for &s in &self.shaders {
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
        Ok(())
    }
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
