//! The result of `bench`: every measurement, the limits derived from them, the device and the
//! date; saved as `device.json` and printed as a table.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::BenchError;
use super::sweep::{CacheLevel, Plateau, SweepPoint};
use crate::gl::{DeviceInfo, Timing};
use crate::work::{Access, Kind};

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
    /// The measured value: the best of the timed runs (the least time; BabelStream's rule), and
    /// for a swept bandwidth the plateau at the large sizes (the memory roof); `None` when the
    /// check failed or the device lacks the feature.
    pub value: Option<f64>,
    /// A swept bandwidth's best rate at any size (the fastest cache level), GB/s.
    #[serde(default)]
    pub peak: Option<f64>,
    /// A swept bandwidth's plateau ([`super::sweep::plateau`]).
    #[serde(default)]
    pub plateau: Option<Plateau>,
    /// Cache levels the sweep shows above the plateau, smallest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cache: Vec<CacheLevel>,
    /// Every size of the sweep (empty: not swept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sweep: Vec<SweepPoint>,
    /// Bytes, flops or operations of one timed run (all its kernel calls; the largest size's
    /// for a sweep).
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
    /// Each pass's value when the bench ran in passes ([`super::passes`]); `value` is their
    /// best (a swept row's: the plateau of the passes' best curve).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passes: Vec<f64>,
    /// A fixed cost's value in the pass made with the process on one CPU (the floor,
    /// [`super::fixed`]), apart from `passes`: it is another configuration, not another
    /// spell, so the between-run term ([`DeviceProfile::between_run`]) does not pair it.
    /// `value` is the better of it and the passes' best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_cpu: Option<f64>,
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
        // Best of the runs: a roof is what the device can reach, and the least time is the
        // estimate of it that other processes can only lengthen.
        let value = match unit {
            Unit::Micros => timing.min_ms * 1e3 / amount,
            Unit::GBs | Unit::Gflops => amount / (timing.min_ms * 1e-3) / 1e9,
        };
        Measurement {
            key: key.to_string(),
            what,
            unit,
            value: (ok && value.is_finite() && value > 0.0).then_some(value),
            peak: None,
            plateau: None,
            cache: vec![],
            sweep: vec![],
            passes: vec![],
            one_cpu: None,
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
            peak: None,
            plateau: None,
            cache: vec![],
            sweep: vec![],
            passes: vec![],
            one_cpu: None,
            amount: 0.0,
            reps: 0,
            timing: Timing::default(),
            error: None,
            tolerance: 0.0,
            note: why.to_string(),
        }
    }
}

/// The roofs of one access kind ([`Access::keys`] names the bench rows that feed it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccessRoof {
    pub access: Access,
    /// The memory roof: the best plateau of its rows, GB/s.
    pub memory_gbs: Option<f64>,
    /// The best rate of its rows at any working-set size (a cache level), GB/s: the rate a
    /// bound uses ([`super::bound`]).
    pub peak_gbs: Option<f64>,
}

/// The limits a bound uses, each the best verified measurement of its keys (`None`: none).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Best memory roof of a compute shader's accesses (SSBO, texture path), GB/s: the
    /// roofline's compute roof and the provenance line, not the bound.
    pub compute_gbs: Option<f64>,
    /// Best memory roof of a fragment shader's accesses (texture reads, target writes; not
    /// the copy path, which no shader reaches), GB/s.
    pub fragment_gbs: Option<f64>,
    /// The roofs of every access kind, in [`Access::ALL`] order.
    #[serde(default)]
    pub access: Vec<AccessRoof>,
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
        let peak = |prefixes: &[&str]| {
            rows.iter()
                .filter(|m| prefixes.iter().any(|p| m.key.starts_with(p)))
                .filter(|m| m.value.is_some())
                .filter_map(|m| m.peak.or(m.value))
                .reduce(f64::max)
        };
        let access: Vec<AccessRoof> = Access::ALL
            .iter()
            .map(|&a| AccessRoof {
                access: a,
                memory_gbs: best(a.keys()),
                peak_gbs: peak(a.keys()),
            })
            .collect();
        let pipeline = |kind: Kind| {
            access
                .iter()
                .filter(|r| r.access.kind() == kind && r.access != Access::Copy)
                .filter_map(|r| r.memory_gbs)
                .reduce(f64::max)
        };
        Limits {
            compute_gbs: pipeline(Kind::Compute),
            fragment_gbs: pipeline(Kind::Fragment),
            compute_fp32_gflops: best(&["fma.compute.f32"]),
            compute_fp64_gflops: best(&["fma.compute.f64"]),
            fragment_fp32_gflops: best(&["fma.fragment.f32"]),
            fragment_fp64_gflops: best(&["fma.fragment.f64"]),
            draw_ms: ms("fixed.draw"),
            dispatch_ms: ms("fixed.dispatch"),
            finish_ms: ms("fixed.finish"),
            upload_gbs: best(&["upload."]),
            readback_gbs: best(&["readback."]),
            access,
        }
    }

    /// The roofs of access kind `a`, when measured.
    pub fn roof(&self, a: Access) -> Option<&AccessRoof> {
        self.access.iter().find(|r| r.access == a)
    }
    /// The peak rate of access kind `a` (what a bound uses), GB/s.
    pub fn peak_gbs(&self, a: Access) -> Option<f64> {
        self.roof(a).and_then(|r| r.peak_gbs)
    }
    /// The fastest peak of a shader access of pipeline `kind` (not the copy path, which no
    /// shader reaches): bytes of no known kind are read against it.
    pub fn fastest_gbs(&self, kind: Kind) -> Option<f64> {
        self.access
            .iter()
            .filter(|r| r.access.kind() == kind && r.access != Access::Copy)
            .filter_map(|r| r.peak_gbs)
            .reduce(f64::max)
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

    /// The device's between-run term from its measurements' passes
    /// ([`crate::stats::between`]; failed measurements left out); `None` when the bench made
    /// one pass or too few pairs.
    pub fn between_run(&self) -> Option<crate::stats::BetweenRun> {
        crate::stats::BetweenRun::from_passes(
            self.measurements
                .iter()
                .filter(|m| m.value.is_some())
                .map(|m| m.passes.as_slice()),
        )
    }

    /// The measurement with `key`.
    pub fn get(&self, key: &str) -> Option<&Measurement> {
        self.measurements.iter().find(|m| m.key == key)
    }

    /// Writes the profile as pretty JSON (creating the folder), atomically like every other
    /// file the program writes ([`crate::report::files::write_atomic`]): a full disk or an
    /// interrupt leaves the old `device.json` or none, never a truncated one that no later
    /// run can read (issue 40).
    pub fn save(&self, path: &Path) -> Result<(), BenchError> {
        let text = serde_json::to_string_pretty(self).map_err(|source| BenchError::Json {
            path: path.to_path_buf(),
            source,
        })?;
        crate::report::files::write_atomic(path, (text + "\n").as_bytes()).map_err(|e| {
            BenchError::Io {
                path: e.path,
                source: e.source,
            }
        })
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
            let mut text = if m.note.is_empty() {
                m.what.clone()
            } else {
                format!("{} [{}]", m.what, m.note)
            };
            if let Some(sw) = sweep_summary(m) {
                text = format!("{text}; {sw}");
            }
            if !m.passes.is_empty() {
                let each: Vec<String> = m.passes.iter().map(|v| format!("{v:.3}")).collect();
                text = format!("{text}; passes {}", each.join(" / "));
            }
            if let Some(v) = m.one_cpu {
                text = format!("{text}; on one CPU {v:.3}");
            }
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
        match self.between_run() {
            Some(b) => writeln!(f, "{}", b.describe())?,
            None => writeln!(f, "between-run term: none (fewer than two passes)")?,
        }
        writeln!(
            f,
            "roofs by access kind (memory plateau / peak at any size, GB/s):"
        )?;
        for r in &self.limits.access {
            let g = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.3}"));
            writeln!(
                f,
                "  {:<30} {:>10} / {:>10}",
                r.access.name(),
                g(r.memory_gbs),
                g(r.peak_gbs)
            )?;
        }
        Ok(())
    }
}

fn mib(bytes: f64) -> String {
    let m = bytes / (1u64 << 20) as f64;
    if m >= 1.0 {
        format!("{m:.0} MiB")
    } else {
        format!("{:.0} KiB", bytes / 1024.0)
    }
}

/// A swept row's curve in words: the sizes, the plateau, the peak and the cache levels.
fn sweep_summary(m: &Measurement) -> Option<String> {
    let first = m.sweep.first()?;
    let last = m.sweep.last()?;
    let mut s = format!(
        "swept {}–{} ({} sizes)",
        mib(first.bytes),
        mib(last.bytes),
        m.sweep.len()
    );
    if let Some(p) = m.plateau {
        s += &format!(
            ", plateau from {} over {} sizes",
            mib(p.from_bytes),
            p.sizes
        );
    }
    if let Some(peak) = m.peak {
        s += &format!(", peak {peak:.3}");
    }
    for c in &m.cache {
        s += &format!(", cache ≤ {}: {:.3} GB/s", mib(c.up_to_bytes), c.gbs);
    }
    Some(s)
}
