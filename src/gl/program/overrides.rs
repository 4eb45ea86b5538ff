//! Edited shaders without a rebuild: `GPGPU_REPRO_GLSL=DIR` names a folder laid out like
//! `glsl/` whose files replace the built-in copies of the same paths, so that a student can
//! change `DIR/tridiagonal/sim/thomas.glsl` and run `gpgpu-repro sim heat` again at once, and
//! an ablation (a shader with one load or one pass taken out) can be timed by the same binary
//! that timed the landed kernel.
//!
//! The folder is read once, before the first program is built ([`check`] runs first in
//! `main`, so that a bad folder fails before any output): every file in it must be one of the
//! built-in shader files (a misspelt name would otherwise silently change nothing), and files
//! equal to their built-in copies are not counted, so `GPGPU_REPRO_GLSL=glsl` in a checkout
//! names exactly the files edited since the build. Hidden files and editor backups (`.x`,
//! `x~`) are skipped. The reports name the replaced files in their provenance
//! ([`describe`]): their results are of those shaders, not of the commit's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::gl::error::GlError;

/// The environment variable naming the folder.
pub const GLSL_OVERRIDE_ENV: &str = "GPGPU_REPRO_GLSL";

/// The files of an override folder that differ from the built-in copies, by path relative to
/// `glsl/`.
#[derive(Debug, Default)]
pub struct Overrides {
    pub dir: Option<PathBuf>,
    pub files: BTreeMap<String, &'static str>,
}

static OVERRIDES: OnceLock<Result<Overrides, String>> = OnceLock::new();

/// The folder's files (read on the first call), or why the folder cannot be used.
pub fn overrides() -> Result<&'static Overrides, GlError> {
    OVERRIDES
        .get_or_init(|| match std::env::var_os(GLSL_OVERRIDE_ENV) {
            Some(d) if !d.is_empty() => load(Path::new(&d), super::embedded::builtin),
            _ => Ok(Overrides::default()),
        })
        .as_ref()
        .map_err(|e| GlError::Invalid(e.clone()))
}

/// Reads the override folder now: `Err` with the reason where it cannot be used.
pub fn check() -> Result<(), GlError> {
    overrides().map(|_| ())
}

/// One line for the provenance and the console: which files replaced the built-in ones;
/// empty where none did.
pub fn describe() -> String {
    match overrides() {
        Ok(Overrides {
            dir: Some(dir),
            files,
        }) if !files.is_empty() => format!(
            "shaders from {GLSL_OVERRIDE_ENV}={} replaced the built-in copies of {} (the \
             results are of those shaders, not of the commit's)",
            dir.display(),
            files
                .keys()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => String::new(),
    }
}

/// The files under `dir` that differ from `builtin`'s (`None`: no such built-in file, an
/// error).
fn load(dir: &Path, builtin: fn(&str) -> Option<&'static str>) -> Result<Overrides, String> {
    let bad = |why: String| format!("{GLSL_OVERRIDE_ENV}={}: {why}", dir.display());
    if !dir.is_dir() {
        return Err(bad("not a folder".into()));
    }
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| bad(format!("{}: {e}", d.display())))?;
        for entry in entries {
            let path = entry.map_err(|e| bad(e.to_string()))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') || name.ends_with('~') {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(dir)
                .ok()
                .and_then(|r| r.to_str())
                .map(|r| r.replace(std::path::MAIN_SEPARATOR, "/"))
                .ok_or_else(|| bad(format!("{}: not a UTF-8 path", path.display())))?;
            let Some(original) = builtin(&rel) else {
                return Err(bad(format!(
                    "`{rel}` is not one of the shader files (the paths under glsl/, e.g. \
                     `matmul/blocked.comp`)"
                )));
            };
            let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("`{rel}`: {e}")))?;
            if text != original {
                files.insert(rel, &*Box::leak(text.into_boxed_str()));
            }
        }
    }
    Ok(Overrides {
        dir: Some(dir.to_path_buf()),
        files,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(f: &str) -> Option<&'static str> {
        match f {
            "a/x.comp" => Some("void main() {}\n"),
            "b.frag" => Some("out vec4 c;\n"),
            _ => None,
        }
    }

    #[test]
    fn only_changed_known_files_count_and_unknown_ones_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/x.comp"), "void main() { }\n").unwrap();
        std::fs::write(dir.path().join("b.frag"), "out vec4 c;\n").unwrap();
        std::fs::write(dir.path().join(".b.frag.swp"), "junk").unwrap();
        let o = load(dir.path(), builtin).unwrap();
        assert_eq!(o.files.keys().collect::<Vec<_>>(), ["a/x.comp"]);
        assert_eq!(o.files["a/x.comp"], "void main() { }\n");

        std::fs::write(dir.path().join("a/y.comp"), "").unwrap();
        let e = load(dir.path(), builtin).unwrap_err();
        assert!(
            e.contains("`a/y.comp` is not one of the shader files"),
            "{e}"
        );

        let e = load(&dir.path().join("missing"), builtin).unwrap_err();
        assert!(e.contains("not a folder"), "{e}");
    }
}
