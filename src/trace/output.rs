//! The files of a trace: one PNG per pass, the GIF of the sequence and `trace.md`, written
//! atomically into the output folder.

use super::error::TraceError;
use super::run::Trace;
use super::{markdown, render};

use std::path::{Path, PathBuf};

use crate::report::files::write_atomic;

/// The default output folder of `technique`: `figures/quick/trace/<technique>/` (quick
/// outputs are git-ignored).
pub fn default_out(technique: &str) -> PathBuf {
    Path::new("figures/quick/trace").join(technique)
}

/// The files of a trace, in memory: `(file name, bytes)`.
pub fn files(trace: &Trace) -> Result<Vec<(String, Vec<u8>)>, TraceError> {
    let count = trace.passes.len();
    let heading = trace.heading();
    let mut out = vec![];
    let mut pictures = vec![];
    let mut names = vec![];
    for (i, pass) in trace.passes.iter().enumerate() {
        let pic = render::pass_picture(pass, i, count, &heading).map_err(TraceError::Render)?;
        let name = format!("pass-{:02}-{}.png", i + 1, slug(&pass.title));
        out.push((name.clone(), render::png(&pic).map_err(TraceError::Render)?));
        names.push(name);
        pictures.push(pic);
    }
    out.push((
        "trace.gif".into(),
        render::gif(&pictures, 2000).map_err(TraceError::Render)?,
    ));
    out.push((
        "trace.md".into(),
        markdown::trace_md(trace, &names).into_bytes(),
    ));
    Ok(out)
}

/// Writes the files of a trace into `dir` (created); returns their paths.
pub fn write(trace: &Trace, dir: &Path) -> Result<Vec<PathBuf>, TraceError> {
    let files = files(trace)?;
    std::fs::create_dir_all(dir).map_err(|source| TraceError::Folder {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths = vec![];
    for (name, bytes) in files {
        let path = dir.join(name);
        write_atomic(&path, &bytes)?;
        paths.push(path);
    }
    Ok(paths)
}

/// A file-name fragment of a pass title: lower-case words joined by `-`.
fn slug(title: &str) -> String {
    let words: Vec<String> = title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(4)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    words.join("-")
}
