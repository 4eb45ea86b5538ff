//! Atomic file output: a temp file in the same folder, then a rename. A reader (or Ctrl-C, or
//! a full disk) sees either the old file or the new one, never half of one. The temp file is
//! created with mode 0666 less the process's umask, as `File::create` would (tempfile's own
//! default is 0600), so the files written honour the umask. Every error names its path.

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
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes what `fill` writes to `path` atomically (temp file, then rename), creating the
/// parent folder; nothing replaces `path` unless `fill` and the flush succeed.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The umask applies to this mode at creation, as for `File::create`.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|e| err(path, e))?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        fill(&mut w).map_err(|e| err(path, e))?;
        w.flush().map_err(|e| err(path, e))?;
    }
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

/// The file beside `REPORT.md` that holds the device's limits (`bench`).
pub const DEVICE_JSON: &str = "device.json";
