//! The result of `bench`: every measurement, the limits derived from them, the device and the
//! date; saved as `device.json` and printed as a table.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::BenchError;
use super::groups::{
    BANDWIDTH, DEVICE_BOUND, FIXED_COST, FMA, HOST_TRANSFER, access_term, row_group,
};
use super::limits::Limits;
use super::measurement::Measurement;
use super::warm::WarmUp;
use crate::gl::DeviceInfo;
use crate::mode::Mode;
use crate::work::Access;

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
    /// ([`crate::stats::between`], where the model is stated; failed measurements left out;
    /// each row's passes less the one farthest from their median where it has three, [`super::passes::spread_passes`]).
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
        self.between_terms_over(&[])
    }

    /// [`Self::between_terms`] with the drift probes' span (the [`crate::stats::between`]
    /// module docs): `probes` holds each probed roof's key and its values hours apart, in
    /// time order; a key feeds the groups its bench row (the measurement with that key)
    /// feeds, and a key the profile lacks feeds none.
    pub fn between_terms_over(&self, probes: &[(String, Vec<f64>)]) -> crate::stats::BetweenTerms {
        use crate::stats::between::{Group, pass_differences};
        let ok: Vec<&Measurement> = self
            .measurements
            .iter()
            .filter(|m| m.value.is_some())
            .collect();
        let d = |keep: &dyn Fn(&Measurement) -> bool| {
            let kept: Vec<Vec<f64>> = ok
                .iter()
                .filter(|m| keep(m))
                .map(|m| super::passes::spread_passes(m))
                .collect();
            pass_differences(kept.iter().map(Vec::as_slice))
        };
        let span = |keep: &dyn Fn(&Measurement) -> bool| {
            let kept = probes
                .iter()
                .filter(|(key, _)| ok.iter().any(|m| &m.key == key && keep(m)))
                .map(|(_, v)| v.as_slice());
            pass_differences(kept)
        };
        let group =
            |name: &str, fallback: Option<&str>, keep: &dyn Fn(&Measurement) -> bool| Group {
                name: name.to_string(),
                fallback: fallback.map(String::from),
                differences: d(keep),
                span: span(keep),
            };
        let mut groups = vec![
            group(DEVICE_BOUND, None, &|m| {
                row_group(m).is_some_and(|g| g != HOST_TRANSFER && g != FIXED_COST)
            }),
            group(BANDWIDTH, Some(DEVICE_BOUND), &|m| {
                row_group(m) == Some(BANDWIDTH)
            }),
        ];
        for a in Access::ALL {
            let keys = a.keys();
            groups.push(group(&access_term(a), Some(BANDWIDTH), &|m| {
                row_group(m) == Some(BANDWIDTH) && keys.iter().any(|k| m.key.starts_with(k))
            }));
        }
        for g in [FMA, FIXED_COST, HOST_TRANSFER] {
            groups.push(group(g, Some(DEVICE_BOUND), &|m| row_group(m) == Some(g)));
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
            writeln!(f, "{}", measurement_line(m, w))?;
        }
        self.fmt_terms(f)?;
        self.fmt_roofs(f)?;
        Ok(())
    }
}

impl DeviceProfile {
    /// The between-run terms per limiter, one line each.
    fn fmt_terms(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms = self.between_terms();
        if terms.any() {
            writeln!(
                f,
                "between-run terms per limiter (R/√2 of the 95th percentile of |ln| between \
                 passes of the limiter's own rows, each row's outlier of three left out; \
                 default `{}`):",
                terms.default
            )?;
            for t in &terms.terms {
                writeln!(f, "  {}", t.describe())?;
            }
        } else {
            writeln!(f, "between-run terms: none (fewer than two passes)")?;
        }
        Ok(())
    }

    /// The roofs by access kind, one line each.
    fn fmt_roofs(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

/// One measurement's line of the table (`w`: the key column's width).
fn measurement_line(m: &Measurement, w: usize) -> String {
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
    format!(
        "{:<w$} {:>12} {:<7} {:>10.3} {:>5} {:>5} {:>9}  {}",
        m.key,
        value,
        m.unit.name(),
        m.timing.median_ms,
        m.reps,
        m.timing.runs,
        err,
        text.trim()
    )
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
    use crate::bench::measurement::Unit;

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
        // Three passes, one of them slow by e (the outlier, left out: one pair, `step`), or
        // two passes `step` apart (one pair).
        let slow = |x: f64, step: f64| vec![x, x * e.powf(step), x / e];
        let two = |x: f64, step: f64| vec![x, x * e.powf(step)];
        let mut m = Vec::new();
        // SSBO reads and copies: 10 rows, one pair 0.01 each, their slow pass left out.
        for i in 0..6 {
            m.push(row(
                &format!("ssbo.read.f32.{i}"),
                Unit::GBs,
                &slow(10.0, 0.01),
            ));
        }
        for i in 0..4 {
            m.push(row(
                &format!("ssbo.copy.f32.{i}"),
                Unit::GBs,
                &slow(8.0, 0.01),
            ));
        }
        // FMA: 10 rows, 0.002; transfers: 10 rows, 2.0.
        for i in 0..10 {
            m.push(row(
                &format!("fma.compute.f32.{i}"),
                Unit::Gflops,
                &two(100.0, 0.002),
            ));
            let k = if i % 2 == 0 { "upload" } else { "readback" };
            m.push(row(&format!("{k}.ssbo.{i}"), Unit::GBs, &two(1.0, 2.0)));
        }
        // A fixed cost of three passes: one pair stays (too few).
        m.push(row(
            "fixed.draw",
            Unit::Micros,
            &[5.0, 5.0 * e.sqrt(), 5.0 * e],
        ));
        // A failed row's passes count nowhere.
        m.push(Measurement {
            passes: two(1.0, 3.0),
            ..Measurement::failed("ssbo.write.f32", "no")
        });
        let p = DeviceProfile::new(DeviceInfo::default(), Mode::Quick, 1.0, m);
        let t = p.between_terms();
        let limit = |g: &str| t.get(g).unwrap().term.unwrap().limit;
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        // The SSBO read rows are those of their access kind (reads and copies): 10 pairs,
        // the slow passes (|ln| = 1 from the others) in none of them.
        let read = t.get(&access_term(Access::SsboRead)).unwrap();
        assert_eq!((read.pairs, read.from.as_deref()), (10, None));
        assert!(near(limit(&access_term(Access::SsboRead)), 0.01));
        // SSBO writes: the copies only (4 pairs, the failed row left out) → bandwidth's.
        let write = t.get(&access_term(Access::SsboWrite)).unwrap();
        assert_eq!((write.pairs, write.from.as_deref()), (4, Some(BANDWIDTH)));
        assert!(near(limit(&access_term(Access::SsboWrite)), 0.01));
        assert!(near(limit(FMA), 0.002));
        assert!(near(limit(HOST_TRANSFER), 2.0));
        // device-bound: memory and FMA rows, 20 pairs, no transfer or fixed cost in it:
        // the 19th of 20 sorted differences is 0.01.
        assert_eq!(t.get(DEVICE_BOUND).unwrap().pairs, 20);
        assert!(near(limit(DEVICE_BOUND), 0.01));
        let fixed = t.get(FIXED_COST).unwrap();
        assert_eq!(
            (fixed.pairs, fixed.from.as_deref()),
            (1, Some(DEVICE_BOUND))
        );
        assert_eq!(t.default, DEVICE_BOUND);
        // The table names every group.
        let shown = p.to_string();
        assert!(
            shown.contains("host transfer: ±") && shown.contains("fma: ±"),
            "{shown}"
        );
    }
}
