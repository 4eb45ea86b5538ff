//! The shader files of `glsl/`, embedded in the binary at build time (`include_dir!`).

use include_dir::{Dir, include_dir};

static GLSL: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/glsl");

/// The built-in copy of a shader file, by its path relative to `glsl/`.
pub(super) fn builtin(file: &str) -> Option<&'static str> {
    GLSL.get_file(file).and_then(|f| f.contents_utf8())
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
