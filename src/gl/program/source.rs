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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every division of a shader that uses the 2005 arithmetic goes through `F_DIV` (or the
    /// model's own exact integer division), so that the emulation never leans on the device's
    /// `/`, which GLSL promises only to 2.5 ULP (issue 36): outside comments, a `/` appears
    /// only in `a05_native_div`, the device's division, in `common/arith2005.glsl`.
    #[test]
    fn shaders_of_the_2005_model_divide_only_through_f_div() {
        const HEADER: &str = "common/arith2005.glsl";
        let mut files = vec![];
        let mut stack = vec![&GLSL];
        while let Some(d) = stack.pop() {
            stack.extend(d.dirs());
            files.extend(d.files());
        }
        let users: Vec<_> = files
            .iter()
            .filter(|f| f.contents_utf8().is_some_and(|t| t.contains(HEADER)))
            .collect();
        assert!(
            users.len() >= 10,
            "{} shaders include {HEADER}",
            users.len()
        );
        let mut bad = vec![];
        for f in users
            .iter()
            .copied()
            .chain(files.iter().filter(|f| f.path().ends_with(HEADER)))
        {
            let text = f.contents_utf8().unwrap();
            let mut in_native = false;
            for (i, line) in text.lines().enumerate() {
                if line.starts_with("float a05_native_div(") {
                    in_native = true;
                }
                let code = line.split("//").next().unwrap_or("");
                if code.contains('/') && !in_native && !code.trim_start().starts_with("#include") {
                    bad.push(format!("{}:{}: {line}", f.path().display(), i + 1));
                }
                if in_native && line.starts_with('}') {
                    in_native = false;
                }
            }
        }
        assert!(bad.is_empty(), "native divisions:\n{}", bad.join("\n"));
    }
}
