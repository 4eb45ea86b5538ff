//! Shader files: their text by path (embedded from `glsl/` at build time), `#include`
//! expansion, the `#define`s of a variant and the preamble written before every file.

pub use crate::gl::define::Define;

use super::embedded::builtin;
use crate::gl::error::GlError;

/// The text of a shader file, by its path relative to `glsl/`: the built-in copy, or the
/// edited one where `GPGPU_REPRO_GLSL` names a folder that replaces it (`overrides.rs`).
pub fn source(file: &str) -> Result<&'static str, GlError> {
    if let Some(text) = super::overrides::overrides()?.files.get(file) {
        return Ok(text);
    }
    builtin(file).ok_or_else(|| GlError::MissingShader(file.to_string()))
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
