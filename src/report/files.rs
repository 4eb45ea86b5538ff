//! Atomic file output: a temp file in the same folder, then a rename. A reader (or Ctrl-C)
//! sees either the old file or the new one, never half of one.

use std::io::Write;
use std::path::{Path, PathBuf};

/// An output error with the path it happened at.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}", path.display())]
pub struct OutputError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

pub(crate) fn err(path: &Path, source: std::io::Error) -> OutputError {
    OutputError {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `bytes` to `path` atomically, creating the parent folder.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| err(dir, e))?;
    tmp.write_all(bytes).map_err(|e| err(path, e))?;
    tmp.as_file().sync_data().map_err(|e| err(path, e))?;
    tmp.persist(path).map_err(|e| err(path, e.error))?;
    Ok(())
}

/// Makes sure `dir` exists and a file can be created in it (before any work starts).
pub fn ensure_writable(dir: &Path) -> Result<(), OutputError> {
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    tempfile::Builder::new()
        .prefix(".write-test")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| err(dir, e))
}
