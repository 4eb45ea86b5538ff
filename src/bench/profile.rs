//! The result of `bench`: every measurement, the limits derived from them, the device and the
//! date; saved as `device.json` and printed as a table.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::BenchError;
use super::sweep::{CacheLevel, Plateau, SweepPoint};
use super::warm::WarmUp;
use crate::gl::{DeviceInfo, Timing};
use crate::mode::Mode;
use crate::work::{Access, Bound, Kind, Limiter, Work};

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
    /// spell, so the between-run terms ([`DeviceProfile::between_terms`]) do not pair it.
    /// `value` is the better of it and the passes' best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_cpu: Option<f64>,
    /// The sizes of a sweep's planned ladder that it did not measure (bytes; for an FMA row,
    /// the invocation counts): its time share was spent ([`super::budget`]), or an
    /// allocation failed. Empty: the whole ladder was measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreached: Vec<f64>,
    /// Where a sweep's planned ladder ends (bytes; [`super::Settings::ladder_end`]): past
    /// the device's last cache. `None`: not swept, or an older profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep_end: Option<f64>,
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
            unreached: vec![],
            sweep_end: None,
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

    /// Whether a swept row's plateau is the memory's: its sweep reached its planned end
    /// (past the device's last cache). A sweep that stopped short (its time share spent)
    /// may have read its plateau in a cache; so may an older profile's, which has no planned
    /// end recorded and counts as having left. A row that was not swept counts as having left.
    pub fn left_caches(&self) -> bool {
        match (self.sweep.last(), self.sweep_end) {
            (Some(last), Some(end)) => last.bytes >= end,
            _ => true,
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
            unreached: vec![],
            sweep_end: None,
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccessRoof {
    pub access: Access,
    /// The memory roof: the best plateau of its rows, GB/s.
    pub memory_gbs: Option<f64>,
    /// The best rate of its rows at any working-set size (a cache level), GB/s: the rate a
    /// bound uses ([`super::bound`]).
    pub peak_gbs: Option<f64>,
    /// No row of this kind left the caches (every sweep stopped short of its planned end,
    /// [`Measurement::left_caches`]): `memory_gbs` is then a cache's plateau, not the
    /// memory's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cache_only: bool,
    /// The kind's curve: at each swept size, the best rate of its rows (GB/s), by size; what
    /// a bound reads at a working set's size ([`Limits::rate_at`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curve: Vec<SweepPoint>,
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
        let of = |a: Access| {
            rows.iter()
                .filter(move |m| a.keys().iter().any(|p| m.key.starts_with(p)))
                .filter(|m| m.value.is_some())
        };
        let access: Vec<AccessRoof> = Access::ALL
            .iter()
            .map(|&a| {
                // The memory roof from the rows whose sweeps left the caches; where none
                // did, the best plateau, marked as a cache's.
                let left = of(a)
                    .filter(|m| m.left_caches())
                    .filter_map(|m| m.value)
                    .reduce(f64::max);
                AccessRoof {
                    access: a,
                    memory_gbs: left.or(best(a.keys())),
                    peak_gbs: peak(a.keys()),
                    cache_only: left.is_none() && of(a).next().is_some(),
                    curve: best_at_each_size(of(a).flat_map(|m| &m.sweep)),
                }
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
    /// The access kind whose bytes take the longest at its peak (`B_a / BW_a`, the memory
    /// term of [`Limits::bound`]); `None` when no counted kind has a roof.
    pub fn dominant_access(&self, work: &Work) -> Option<Access> {
        Access::ALL
            .iter()
            .filter_map(|&a| {
                let b = work.bytes.get(a);
                let r = self.peak_gbs(a).filter(|r| *r > 0.0)?;
                (b > 0.0).then_some((a, b / r))
            })
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|x| x.0)
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

/// At each size of `points`, the best verified rate, by size.
fn best_at_each_size<'a>(points: impl Iterator<Item = &'a SweepPoint>) -> Vec<SweepPoint> {
    let mut out: Vec<SweepPoint> = Vec::new();
    for p in points {
        let Some(g) = p.gbs.filter(|g| g.is_finite() && *g > 0.0) else {
            continue;
        };
        match out.iter_mut().find(|q| q.bytes == p.bytes) {
            Some(q) => q.gbs = q.gbs.map(|r| r.max(g)),
            None => out.push(SweepPoint {
                bytes: p.bytes,
                gbs: Some(g),
            }),
        }
    }
    out.sort_by(|a, b| a.bytes.total_cmp(&b.bytes));
    out
}

/// The device's measured limits: `device.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DeviceProfile {
    /// When it was measured (UTC, RFC 3339).
    pub date: String,
    pub mode: Mode,
    /// Seconds the whole `bench` took.
    pub seconds: f64,
    pub device: DeviceInfo,
    pub limits: Limits,
    pub measurements: Vec<Measurement>,
    /// The machine's load before and during the bench, and the measurements taken while it
    /// was noisy ([`crate::report::load`]); `None` in older profiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<crate::report::load::RunLoad>,
    /// The bench's time budget, s ([`super::Settings::budget`]; `None` in older profiles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_s: Option<f64>,
    /// The warm-up before each pass ([`super::warm`]), in the order made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warm_up: Vec<WarmUp>,
}

impl DeviceProfile {
    pub fn new(
        device: DeviceInfo,
        mode: Mode,
        seconds: f64,
        measurements: Vec<Measurement>,
    ) -> Self {
        DeviceProfile {
            date: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            mode,
            seconds,
            device,
            limits: Limits::from_measurements(&measurements),
            measurements,
            machine: None,
            budget_s: None,
            warm_up: vec![],
        }
    }

    /// The device's between-run terms per limiter from its measurements' passes
    /// ([`crate::stats::between`], where the model is stated; failed measurements left out).
    /// The groups, each from its own rows' passes, in the order they resolve, with the group
    /// that stands in where one has too few pairs:
    /// - `device-bound` ([`DEVICE_BOUND`], the default): every memory and FMA roof, not the
    ///   host transfers or the fixed costs; no fallback;
    /// - `bandwidth` ([`BANDWIDTH`]): every memory roof (the shader paths and the copy) →
    ///   `device-bound`;
    /// - `bandwidth: <access kind>` ([`access_term`]): the rows of that access kind
    ///   ([`Access::keys`]) → `bandwidth`;
    /// - `fma` ([`FMA`]): the fp32 and fp64 FMA roofs → `device-bound`;
    /// - `fixed cost` ([`FIXED_COST`]): the empty draw, dispatch and finish (not the one-CPU
    ///   floor, another configuration) → `device-bound`;
    /// - `host transfer` ([`HOST_TRANSFER`]): `upload.*` and `readback.*` → `device-bound`
    ///   (reported: no kernel row is bound by a transfer).
    ///
    /// Without passes every group is empty and no term is set.
    pub fn between_terms(&self) -> crate::stats::BetweenTerms {
        use crate::stats::between::{Group, pass_differences};
        let ok: Vec<&Measurement> = self
            .measurements
            .iter()
            .filter(|m| m.value.is_some())
            .collect();
        let d = |keep: &dyn Fn(&Measurement) -> bool| {
            pass_differences(ok.iter().filter(|m| keep(m)).map(|m| m.passes.as_slice()))
        };
        let group = |name: &str, fallback: Option<&str>, differences: Vec<f64>| Group {
            name: name.to_string(),
            fallback: fallback.map(String::from),
            differences,
        };
        let mut groups = vec![
            group(
                DEVICE_BOUND,
                None,
                d(&|m| row_group(m).is_some_and(|g| g != HOST_TRANSFER && g != FIXED_COST)),
            ),
            group(
                BANDWIDTH,
                Some(DEVICE_BOUND),
                d(&|m| row_group(m) == Some(BANDWIDTH)),
            ),
        ];
        for a in Access::ALL {
            let keys = a.keys();
            groups.push(group(
                &access_term(a),
                Some(BANDWIDTH),
                d(&|m| {
                    row_group(m) == Some(BANDWIDTH) && keys.iter().any(|k| m.key.starts_with(k))
                }),
            ));
        }
        for g in [FMA, FIXED_COST, HOST_TRANSFER] {
            groups.push(group(
                g,
                Some(DEVICE_BOUND),
                d(&|m| row_group(m) == Some(g)),
            ));
        }
        crate::stats::BetweenTerms::resolve(&groups, DEVICE_BOUND)
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

/// The between-run group of every memory and FMA roof (the default term: intervals with no
/// known limiter carry it).
pub const DEVICE_BOUND: &str = "device-bound";
/// The group of every memory roof.
pub const BANDWIDTH: &str = "bandwidth";
/// The group of the FMA roofs (fp32 and fp64, both pipelines).
pub const FMA: &str = "fma";
/// The group of the fixed costs (empty draw, dispatch, finish).
pub const FIXED_COST: &str = "fixed cost";
/// The group of the host transfers (uploads and read-backs).
pub const HOST_TRANSFER: &str = "host transfer";

/// The group of memory roofs of access kind `a`: `bandwidth: SSBO read`.
pub fn access_term(a: Access) -> String {
    format!("{BANDWIDTH}: {}", a.name())
}

/// The between-run group a bench row feeds, from its key: `upload.*`/`readback.*` host
/// transfers, `fixed.*` fixed costs, `fma.*` FMA, any other GB/s row a memory roof; `None`
/// for a row of none of them.
fn row_group(m: &Measurement) -> Option<&'static str> {
    let k = m.key.as_str();
    if k.starts_with("upload.") || k.starts_with("readback.") {
        Some(HOST_TRANSFER)
    } else if k.starts_with("fixed.") {
        Some(FIXED_COST)
    } else if k.starts_with("fma.") {
        Some(FMA)
    } else if m.unit == Unit::GBs {
        Some(BANDWIDTH)
    } else {
        None
    }
}

/// The between-run groups whose terms a timed row bounded by `bound` carries (the largest
/// applies): its limiter's, and its close runner-up's where the bound names one
/// ([`crate::stats::between`]'s model). A bandwidth limit is that of `access`, the access
/// kind whose term sets the memory part of the bound ([`Limits::dominant_access`]), or of
/// all memory roofs where no kind is known; an unknown limiter, the default group.
pub fn between_groups(bound: &Bound, access: Option<Access>) -> Vec<String> {
    let name = |l: Limiter| match (l, access) {
        (Limiter::Bandwidth, Some(a)) => access_term(a),
        (Limiter::Bandwidth, None) => BANDWIDTH.to_string(),
        (Limiter::Fp32 | Limiter::Fp64, _) => FMA.to_string(),
        (Limiter::FixedCost, _) => FIXED_COST.to_string(),
        (Limiter::Unknown, _) => DEVICE_BOUND.to_string(),
    };
    std::iter::once(bound.limiter)
        .chain(bound.close)
        .map(name)
        .collect()
}

/// The table `bench` prints.
impl fmt::Display for DeviceProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "device: {}", self.device.short())?;
        writeln!(
            f,
            "date: {}, mode: {}, {:.1} s{}",
            self.date,
            self.mode,
            self.seconds,
            self.budget_s
                .map(|b| format!(" (budget {b:.0} s)"))
                .unwrap_or_default()
        )?;
        if !self.warm_up.is_empty() {
            let each: Vec<String> = self.warm_up.iter().map(WarmUp::describe).collect();
            writeln!(f, "warm-up: {}", each.join("; "))?;
        }
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
        let terms = self.between_terms();
        if terms.any() {
            writeln!(
                f,
                "between-run terms per limiter (R/√2 of the 95th percentile of |ln| between \
                 passes of the limiter's own rows; default `{}`):",
                terms.default
            )?;
            for t in &terms.terms {
                writeln!(f, "  {}", t.describe())?;
            }
        } else {
            writeln!(f, "between-run terms: none (fewer than two passes)")?;
        }
        writeln!(
            f,
            "roofs by access kind (memory plateau / peak at any size, GB/s):"
        )?;
        for r in &self.limits.access {
            let g = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.3}"));
            writeln!(
                f,
                "  {:<30} {:>10} / {:>10}{}",
                r.access.name(),
                g(r.memory_gbs),
                g(r.peak_gbs),
                if r.cache_only {
                    "  (a cache's plateau: no sweep of this kind left the caches)"
                } else {
                    ""
                }
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
    if !m.unreached.is_empty() {
        let each: Vec<String> = m.unreached.iter().map(|&b| mib(b)).collect();
        s += &format!(", not reached (time budget): {}", each.join(", "));
    }
    if !m.left_caches() {
        s += ", plateau is a cache's (the sweep ended before leaving the caches)";
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verified row `key` of `unit` with these passes.
    fn row(key: &str, unit: Unit, passes: &[f64]) -> Measurement {
        Measurement {
            value: passes.iter().copied().reduce(f64::max),
            unit,
            passes: passes.to_vec(),
            ..Measurement::failed(key, "")
        }
    }

    #[test]
    fn each_limiter_rests_on_its_own_rows() {
        let e = std::f64::consts::E;
        // SSBO reads: 4 rows × 3 passes = 12 pairs, every pass e^0.01 apart: R = 0.02.
        // FMA: 4 rows whose passes differ by e^0.001 and e^0.002: R = 0.002.
        // Transfers: e^1 apart, many pairs; fixed costs: 3 pairs (too few: device-bound's).
        let q = |x: f64, step: f64| vec![x, x * e.powf(step), x * e.powf(2.0 * step)];
        let mut m = vec![
            row("ssbo.read.f32", Unit::GBs, &q(10.0, 0.01)),
            row("ssbo.read.f64", Unit::GBs, &q(12.0, 0.01)),
            row("ssbo.copy.f32", Unit::GBs, &q(8.0, 0.01)),
            row("ssbo.copy.f64", Unit::GBs, &q(9.0, 0.01)),
            row("upload.ssbo", Unit::GBs, &q(1.0, 1.0)),
            row("readback.ssbo", Unit::GBs, &q(1.0, 1.0)),
            row("upload.texture", Unit::GBs, &q(1.0, 1.0)),
            row("readback.texture", Unit::GBs, &q(1.0, 1.0)),
            row("fixed.draw", Unit::Micros, &q(5.0, 0.5)),
        ];
        for k in [
            "fma.compute.f32",
            "fma.fragment.f32",
            "fma.compute.f64",
            "fma.fragment.f64",
        ] {
            m.push(row(k, Unit::Gflops, &q(100.0, 0.001)));
        }
        // A failed row's passes count nowhere.
        m.push(Measurement {
            passes: q(1.0, 3.0),
            ..Measurement::failed("ssbo.write.f32", "no")
        });
        let p = DeviceProfile::new(DeviceInfo::default(), Mode::Quick, 1.0, m);
        let t = p.between_terms();
        let limit = |g: &str| t.get(g).unwrap().term.unwrap().limit;
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        // The SSBO read rows are those of their access kind (reads and copies): 12 pairs.
        let read = t.get(&access_term(Access::SsboRead)).unwrap();
        assert_eq!((read.pairs, read.from.as_deref()), (12, None));
        assert!(near(limit(&access_term(Access::SsboRead)), 0.02));
        // SSBO writes: the copies only (6 pairs, the failed row left out) → bandwidth's.
        let write = t.get(&access_term(Access::SsboWrite)).unwrap();
        assert_eq!((write.pairs, write.from.as_deref()), (6, Some(BANDWIDTH)));
        assert!(near(limit(FMA), 0.002));
        assert!(near(limit(HOST_TRANSFER), 2.0));
        // device-bound: memory and FMA rows, 24 pairs, no transfer or fixed cost in it:
        // the 23rd of 24 sorted differences (⌈22.8⌉) is 0.02.
        assert_eq!(t.get(DEVICE_BOUND).unwrap().pairs, 24);
        assert!(near(limit(DEVICE_BOUND), 0.02));
        let fixed = t.get(FIXED_COST).unwrap();
        assert_eq!(
            (fixed.pairs, fixed.from.as_deref()),
            (3, Some(DEVICE_BOUND))
        );
        assert_eq!(t.default, DEVICE_BOUND);
        // The table names every group.
        let shown = p.to_string();
        assert!(
            shown.contains("host transfer: ±") && shown.contains("fma: ±"),
            "{shown}"
        );
    }

    #[test]
    fn a_row_carries_its_limiters_group_and_a_close_runner_ups() {
        let b = |limiter, close| Bound {
            ms: 1.0,
            limiter,
            close,
            ms_met: None,
        };
        assert_eq!(
            between_groups(&b(Limiter::Bandwidth, None), Some(Access::TexRgba)),
            vec![access_term(Access::TexRgba)]
        );
        assert_eq!(
            between_groups(&b(Limiter::Bandwidth, None), None),
            vec![BANDWIDTH]
        );
        assert_eq!(
            between_groups(&b(Limiter::Fp64, Some(Limiter::FixedCost)), None),
            vec![FMA, FIXED_COST]
        );
        assert_eq!(
            between_groups(&b(Limiter::Unknown, None), None),
            vec![DEVICE_BOUND]
        );
    }

    #[test]
    fn the_dominant_access_is_the_longest_memory_term() {
        let l = Limits {
            access: vec![
                AccessRoof {
                    access: Access::TexRgba,
                    memory_gbs: Some(10.0),
                    peak_gbs: Some(100.0),
                    cache_only: false,
                    curve: vec![],
                },
                AccessRoof {
                    access: Access::Target,
                    memory_gbs: Some(5.0),
                    peak_gbs: Some(10.0),
                    cache_only: false,
                    curve: vec![],
                },
            ],
            ..Limits::default()
        };
        // 500 B at 100 GB/s against 100 B at 10 GB/s: the target write takes longer.
        let w = Work {
            bytes: crate::work::Bytes::of(&[(Access::TexRgba, 500.0), (Access::Target, 100.0)]),
            ..Work::default()
        };
        assert_eq!(l.dominant_access(&w), Some(Access::Target));
        // A kind without a roof is not counted; no counted kind: none.
        let w = Work {
            bytes: crate::work::Bytes::of(&[(Access::SsboRead, 1e9)]),
            ..Work::default()
        };
        assert_eq!(l.dominant_access(&w), None);
    }
}
