//! The result of `bench`: every measurement, the limits derived from them, the device and the
//! date; saved as `device.json` and printed as a table.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::BenchError;
use crate::gl::{DeviceInfo, Timing};

/// The unit of a measurement's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unit {
    /// 10⁹ bytes per second.
    #[serde(rename = "GB/s")]
    GBs,
    /// 10⁹ flops per second (an FMA is 2 flops).
    #[serde(rename = "GFLOPS")]
    Gflops,
    /// Microseconds per operation.
    #[serde(rename = "µs")]
    Micros,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::GBs => "GB/s",
            Unit::Gflops => "GFLOPS",
            Unit::Micros => "µs",
        }
    }
}

/// One measured limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Stable key, e.g. `ssbo.copy.f32` (see [`Limits`] for which keys feed which limit).
    pub key: String,
    /// What was run, in words.
    pub what: String,
    pub unit: Unit,
    /// The measured value; `None` when the check failed or the device lacks the feature.
    pub value: Option<f64>,
    /// Bytes, flops or operations of one timed run (all its kernel calls).
    pub amount: f64,
    /// Kernel calls per timed run.
    pub reps: u32,
    /// The timed runs (ms).
    pub timing: Timing,
    /// Max relative error of the read-back result against the CPU reference (`None`:
    /// nothing to read back, e.g. a bare `glFinish`).
    pub error: Option<f64>,
    pub tolerance: f64,
    /// Why there is no value, or a remark.
    pub note: String,
}

impl Measurement {
    /// A verified (or failed) measurement: `amount` units per timed run of `timing`.
    pub(crate) fn new(
        key: &str,
        what: String,
        unit: Unit,
        amount: f64,
        reps: u32,
        timing: Timing,
        check: Option<(f64, f64)>,
    ) -> Measurement {
        let (error, tolerance) = match check {
            Some((e, tol)) => (Some(e), tol),
            None => (None, 0.0),
        };
        let ok = error.is_none_or(|e| e <= tolerance);
        let value = match unit {
            Unit::Micros => timing.median_ms * 1e3 / amount,
            Unit::GBs | Unit::Gflops => amount / (timing.median_ms * 1e-3) / 1e9,
        };
        Measurement {
            key: key.to_string(),
            what,
            unit,
            value: (ok && value.is_finite()).then_some(value),
            amount,
            reps,
            timing,
            error,
            tolerance,
            note: if ok {
                String::new()
            } else {
                format!(
                    "check failed: error {:.1e} > {tolerance:.0e}",
                    error.unwrap_or(0.0)
                )
            },
        }
    }

    /// A measurement that could not be made, with the reason.
    pub(crate) fn failed(key: &str, why: &str) -> Measurement {
        Measurement {
            key: key.to_string(),
            what: String::new(),
            unit: Unit::GBs,
            value: None,
            amount: 0.0,
            reps: 0,
            timing: Timing::default(),
            error: None,
            tolerance: 0.0,
            note: why.to_string(),
        }
    }
}

/// The limits a bound uses, each the best verified measurement of its keys (`None`: none).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Best bandwidth of a compute dispatch (`ssbo.*` and the texture path `compute.*`), GB/s.
    pub compute_gbs: Option<f64>,
    /// Best bandwidth of a fragment pass (`texture.*`, `target.*`, `copytex.*`), GB/s.
    pub fragment_gbs: Option<f64>,
    /// FMA peaks (`fma.compute.f32` …), GFLOPS.
    pub compute_fp32_gflops: Option<f64>,
    pub compute_fp64_gflops: Option<f64>,
    pub fragment_fp32_gflops: Option<f64>,
    pub fragment_fp64_gflops: Option<f64>,
    /// An empty draw with a framebuffer switch (`fixed.draw`), ms.
    pub draw_ms: Option<f64>,
    /// An empty dispatch with its barrier (`fixed.dispatch`), ms.
    pub dispatch_ms: Option<f64>,
    /// A `glFinish` round trip (`fixed.finish`), ms.
    pub finish_ms: Option<f64>,
    /// Best host → GL bandwidth (`upload.*`), GB/s.
    pub upload_gbs: Option<f64>,
    /// Best GL → host bandwidth (`readback.*`), GB/s.
    pub readback_gbs: Option<f64>,
}

impl Limits {
    /// The limits of a set of measurements.
    pub fn from_measurements(rows: &[Measurement]) -> Limits {
        let best = |prefixes: &[&str]| {
            rows.iter()
                .filter(|m| prefixes.iter().any(|p| m.key.starts_with(p)))
                .filter_map(|m| m.value)
                .fold(None, |acc: Option<f64>, v| {
                    Some(acc.map_or(v, |a| a.max(v)))
                })
        };
        let ms = |key: &str| best(&[key]).map(|us| us * 1e-3);
        Limits {
            compute_gbs: best(&["ssbo.", "compute."]),
            fragment_gbs: best(&["texture.", "target.", "copytex."]),
            compute_fp32_gflops: best(&["fma.compute.f32"]),
            compute_fp64_gflops: best(&["fma.compute.f64"]),
            fragment_fp32_gflops: best(&["fma.fragment.f32"]),
            fragment_fp64_gflops: best(&["fma.fragment.f64"]),
            draw_ms: ms("fixed.draw"),
            dispatch_ms: ms("fixed.dispatch"),
            finish_ms: ms("fixed.finish"),
            upload_gbs: best(&["upload."]),
            readback_gbs: best(&["readback."]),
        }
    }
}

/// The device's measured limits: `device.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DeviceProfile {
    /// When it was measured (UTC, RFC 3339).
    pub date: String,
    /// `quick` or `full`.
    pub mode: String,
    /// Seconds the whole `bench` took.
    pub seconds: f64,
    pub device: DeviceInfo,
    pub limits: Limits,
    pub measurements: Vec<Measurement>,
    /// The machine's load before and during the bench, and the measurements taken while it
    /// was noisy ([`crate::report::load`]); `None` in older profiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<crate::report::load::RunLoad>,
}

impl DeviceProfile {
    pub fn new(
        device: DeviceInfo,
        mode: &str,
        seconds: f64,
        measurements: Vec<Measurement>,
    ) -> Self {
        DeviceProfile {
            date: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            mode: mode.to_string(),
            seconds,
            device,
            limits: Limits::from_measurements(&measurements),
            measurements,
            machine: None,
        }
    }

    /// The measurement with `key`.
    pub fn get(&self, key: &str) -> Option<&Measurement> {
        self.measurements.iter().find(|m| m.key == key)
    }

    /// Writes the profile as pretty JSON (creating the folder).
    pub fn save(&self, path: &Path) -> Result<(), BenchError> {
        let io = |source| BenchError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|source| BenchError::Json {
            path: path.to_path_buf(),
            source,
        })?;
        std::fs::write(path, text + "\n").map_err(io)
    }

    /// Reads a profile written by [`DeviceProfile::save`].
    pub fn load(path: &Path) -> Result<DeviceProfile, BenchError> {
        let text = std::fs::read_to_string(path).map_err(|source| BenchError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|source| BenchError::Json {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// The table `bench` prints.
impl fmt::Display for DeviceProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "device: {}", self.device.short())?;
        writeln!(
            f,
            "date: {}, mode: {}, {:.1} s",
            self.date, self.mode, self.seconds
        )?;
        if let Some(m) = &self.machine {
            writeln!(f, "machine: {}", m.describe())?;
        }
        let w = self
            .measurements
            .iter()
            .map(|m| m.key.len())
            .max()
            .unwrap_or(3);
        writeln!(
            f,
            "{:<w$} {:>12} {:<7} {:>10} {:>5} {:>5} {:>9}  what / note",
            "key", "value", "unit", "run ms", "reps", "runs", "error"
        )?;
        for m in &self.measurements {
            let value = m.value.map_or("—".to_string(), |v| format!("{v:.3}"));
            let err = m.error.map_or("—".to_string(), |e| format!("{e:.1e}"));
            let text = if m.note.is_empty() {
                m.what.clone()
            } else {
                format!("{} [{}]", m.what, m.note)
            };
            writeln!(
                f,
                "{:<w$} {:>12} {:<7} {:>10.3} {:>5} {:>5} {:>9}  {}",
                m.key,
                value,
                m.unit.name(),
                m.timing.median_ms,
                m.reps,
                m.timing.runs,
                err,
                text.trim()
            )?;
        }
        Ok(())
    }
}
