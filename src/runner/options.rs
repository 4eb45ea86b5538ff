//! What `reproduce` was asked to do ([`Options`]) and where it writes.

use std::path::{Path, PathBuf};

use crate::gl::DeviceInfo;
use crate::mode::Mode;

use super::device::{FIGURES, device_folder};

/// What `reproduce` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Paper keys; empty or `all` means every paper.
    pub papers: Vec<String>,
    pub mode: Mode,
    /// Output folder; default `figures/` (full) or `figures/quick/` (quick).
    pub out: Option<PathBuf>,
    pub resume: bool,
    /// Read `experiments/<name>.toml` from this folder instead of the copies built in.
    pub experiments: Option<PathBuf>,
    /// Only read and check the experiment files (`--check`): no output, no measurement.
    pub check_only: bool,
    /// Read every timed row against the device's limits: reuse `DIR/device.json` measured on
    /// this device, or run `bench` first (`--no-bench` turns it off: no bound columns).
    pub bench: bool,
    /// Profile each timed row's last warm-up run ([`crate::gl::profile`]): the records'
    /// "Where the time goes".
    pub profile: bool,
}

impl Options {
    /// Where the run writes: `--out`, else `figures/quick/` (quick) or
    /// `figures/<device>/` (full; [`device_folder`]), so that each device's results stand
    /// beside the others'.
    pub fn out_dir(&self, device: &DeviceInfo) -> PathBuf {
        self.out.clone().unwrap_or_else(|| match self.mode {
            Mode::Quick => PathBuf::from("figures/quick"),
            Mode::Full => Path::new(FIGURES).join(device_folder(device)),
        })
    }
}
