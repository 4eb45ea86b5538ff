//! A run set against the one it replaces: when `reproduce` (without `--resume`) writes into a
//! folder that holds a complete run of the same mode, the records of the papers it is about
//! to run are copied aside first (the JSON files of their folders, `device.json`), and
//! once every paper has run the two are compared ([`crate::report::compare`], the same
//! stability summary and side-by-side report as `gpgpu-repro compare`) into
//! `previous.md` beside `REPORT.md`, its summary line printed. So each full run carries its
//! own evidence of how well the last one reproduced: the intervals' overlap, verdict, winner
//! and limiter flips — on a cloud host that includes what changed between the two days, which
//! the bench's between-run term (minutes apart, one process) does not cover.
//!
//! Only the papers the command ran are compared, on both sides (a paper the command left alone
//! would compare equal to itself). The old run may be of another commit: `previous.md`'s
//! opening table names both. Every run that writes removes a `previous.md` left by an earlier
//! one before it starts (it describes a pair the run is about to change); a run that is
//! interrupted, or finds no complete run of its mode where it writes, leaves none.

use std::path::Path;

use crate::mode::Mode;
use crate::report::files::{DEVICE_JSON, write_atomic};
use crate::report::index::{RUN_JSON, RunTimes};

/// The file the comparison is written to, in the run's folder.
pub const PREVIOUS_MD: &str = "previous.md";

/// The previous run's records of the papers about to run, copied aside.
pub struct Previous {
    copy: tempfile::TempDir,
    /// The paper keys copied.
    keys: Vec<String>,
    /// The previous run's commit and date (its `run.json`).
    commit: String,
    date: String,
}

/// Copies `keys`' records in `dir` aside where `dir` holds a complete run of `mode` (its
/// `run.json`) that ran them; `None` otherwise, or (with a warning) where a file cannot be
/// read or copied — the comparison is a by-product, never a reason to fail the run.
pub fn snapshot(dir: &Path, mode: Mode, resume: bool, keys: &[&str]) -> Option<Previous> {
    if resume {
        return None;
    }
    let times: RunTimes =
        serde_json::from_str(&std::fs::read_to_string(dir.join(RUN_JSON)).ok()?).ok()?;
    if !times.complete || times.mode != mode {
        return None;
    }
    let ran: Vec<String> = keys
        .iter()
        .filter(|k| times.papers.iter().any(|(p, _)| p == *k))
        .map(|k| k.to_string())
        .collect();
    if ran.is_empty() {
        return None;
    }
    match copy_records(dir, &ran) {
        Ok(copy) => Some(Previous {
            copy,
            keys: ran,
            commit: times.commit,
            date: times.date,
        }),
        Err(e) => {
            eprintln!(
                "warning: the previous run in {} is not compared: {e}",
                dir.display()
            );
            None
        }
    }
}

/// `keys`' records (every JSON file of their folders) and `device.json` of `dir` copied into
/// a new temporary folder.
fn copy_records(dir: &Path, keys: &[String]) -> Result<tempfile::TempDir, String> {
    let copy = tempfile::tempdir().map_err(|e| e.to_string())?;
    let device = dir.join(DEVICE_JSON);
    if device.is_file() {
        copy_file(&device, &copy.path().join(DEVICE_JSON))?;
    }
    for key in keys {
        let (from, to) = (dir.join(key), copy.path().join(key));
        std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
        let entries = std::fs::read_dir(&from).map_err(|e| format!("{}: {e}", from.display()))?;
        for path in entries.flatten().map(|e| e.path()) {
            if let (Some(name), Some("json")) =
                (path.file_name(), path.extension().and_then(|x| x.to_str()))
            {
                copy_file(&path, &to.join(name))?;
            }
        }
    }
    Ok(copy)
}

fn copy_file(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("{}: {e}", from.display()))
}

impl Previous {
    /// Compares the copied run (A) with this run's records of the same papers in `dir` (B),
    /// writes `dir/previous.md` and returns the stability summary's reading, prefixed with
    /// A's commit, date and the papers compared.
    pub fn compare(&self, dir: &Path) -> Result<String, String> {
        let folders = [
            format!(
                "`{}`, the run this one replaced (copied aside as it began)",
                dir.display()
            ),
            format!("`{}`, this run", dir.display()),
        ];
        let (report, reading) =
            crate::report::compare::compare_read(self.copy.path(), dir, &folders, Some(&self.keys))
                .map_err(|e| e.to_string())?;
        let md = format!(
            "{}\n\n_Written by the run in this folder: A = the run it replaced, B = this run, \
             over the papers this run ran ({})._\n",
            report.trim_end(),
            self.keys.join(", ")
        );
        write_atomic(&dir.join(PREVIOUS_MD), md.as_bytes()).map_err(|e| e.to_string())?;
        Ok(format!(
            "the run of `{}` ({}), over {}: {reading}",
            self.commit,
            self.date,
            self.keys.join(", ")
        ))
    }
}

/// Removes `dir/previous.md` where it exists (none there is no error).
pub fn remove_stale(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(PREVIOUS_MD));
}
