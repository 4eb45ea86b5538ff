//! The shader files of `glsl/`, embedded in the binary at build time (`include_dir!`).

use include_dir::{Dir, include_dir};

static GLSL: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/glsl");

/// The built-in copy of a shader file, by its path relative to `glsl/`.
pub(super) fn builtin(file: &str) -> Option<&'static str> {
    GLSL.get_file(file).and_then(|f| f.contents_utf8())
}
