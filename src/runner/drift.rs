//! The run's own drift (issue 36): a few roofs re-measured at the start of the papers and
//! after them ([`after_paper`]: each one in a full run, the last in a quick one), so that the
//! report says how far the device moved over the run's span.
//!
//! The bench's passes are minutes apart at the run's start; a full run lasts an hour, and a
//! rerun comes hours later. Two full runs of this project on llvmpipe an hour apart moved
//! their values far more than the bench's passes of either run moved its roofs. The probes
//! measure that movement: the report says how far the roofs moved over this run, and the
//! next run in the folder pairs the probes of this one with its own start probe
//! ([`span_series`]) for the between-run terms' long span ([`crate::stats::between`]: each
//! group carries the larger of its bench term and its span term).
//!
//! Each probe is a one-pass quick measurement of [`PROBES`] in this process
//! ([`crate::bench::measure_only`]): seconds on llvmpipe, less on a GPU.
//!
//! # One state of the device
//! A probe also checks that the device is still the one its bench measured. A virtual
//! machine moved to another host, a CPU held at another frequency or a GPU left at idle
//! clocks keeps its name, and so its folder and its `device.json`, while its roofs move by
//! factors: on this project's 2-core AMD EPYC host, the bench of 2026-11-29 measured every
//! probed roof at a fraction of what the probes of runs days later found (the committed
//! `device.json` of `figures/llvmpipe-amd-epyc-2cpu/` against its `run.json`'s `drift`). A
//! probe that lies more than [`STATE_FACTOR`] outside the range the profile measured for one
//! of its roofs (its passes and its value, [`off_state`]) is of **another state** of the
//! device:
//!
//! - at a run's start, against a `device.json` the run would reuse: that profile's bounds
//!   are not this device's now, so the run measures its bench afresh;
//! - among the earlier run's probes: a pair across two states is not the drift of one device
//!   but the distance between two, and a span term from it would widen every interval by the
//!   ratio of two machines; such probes are left out of the span ([`same_state`]) and the
//!   run's `state` line says how many and how far they lay. The span term therefore measures
//!   drift within one state, at most a factor [`STATE_FACTOR`] either side of the bench's
//!   range.
//!
//! The range, not the value: on a host whose bench passes spread widely (the same AMD EPYC
//! host on 2026-12-03, its passes rising one after another) a one-pass probe of the same
//! state may fall anywhere in that spread. The factor is far outside what a probe lies from
//! its bench's range within one state (compare the Intel Xeon folder's probes with its
//! bench, and the H200's start probe with its), and far inside the moves between states seen
//! on the AMD EPYC host.

use std::path::Path;
use std::time::Instant;

use crate::bench::{DeviceProfile, Settings, measure_only};
use crate::gl::Gl;
use crate::mode::Mode;
use crate::report::index::RUN_JSON;
use crate::report::record::{DriftProbe, RunTimes};

/// The roofs probed: compute-shader memory bandwidth, the fragment pipeline's texture read
/// (the 2005 papers' access), and compute FMA.
pub const PROBES: [&str; 3] = [
    "ssbo.read.f32",
    "texture.rgba32f.2d.consecutive",
    "fma.compute.f32",
];

/// Whether a probe follows a paper (`last`: the command's last one). A full run lasts an
/// hour, and a probe after each paper shows when in it the device moved. A quick run lasts
/// minutes: the probe at the start and one at the end span it, and the probes between would
/// add one probe's seconds per paper (on a 2-core llvmpipe host 3–4 s each, the six probes of
/// `reproduce all --quick` 21 s of its 344 s: `run.json`'s `drift` times against its papers').
pub fn after_paper(mode: Mode, last: bool) -> bool {
    mode == Mode::Full || last
}

/// Measures the probes now; `None` when none could be measured (interrupted, or the device
/// lacks them all).
pub fn probe(gl: &Gl, after: &str, started: Instant) -> Option<DriftProbe> {
    let mut s = Settings::new(Mode::Quick);
    s.passes = 1;
    let mut values = Vec::new();
    for key in PROBES {
        let Ok(p) = measure_only(gl, &s, false, Some(key)) else {
            continue;
        };
        if let Some(m) = p.measurements.iter().find(|m| m.key == key)
            && let Some(v) = m.value.filter(|v| v.is_finite() && *v > 0.0)
        {
            values.push((key.to_string(), m.unit.name().to_string(), v));
        }
    }
    (!values.is_empty()).then(|| DriftProbe {
        after: after.to_string(),
        seconds: started.elapsed().as_secs_f64(),
        values,
    })
}

/// The drift probes of the run recorded in `dir/run.json` (the run this one replaces, or the
/// interrupted one it resumes), read before this run writes anything; none where there is
/// no readable `run.json`. The folder is the device's ([`super::device::device_folder`]), so
/// they are probes of this device, hours or days ago.
pub fn earlier(dir: &Path) -> Vec<DriftProbe> {
    std::fs::read_to_string(dir.join(RUN_JSON))
        .ok()
        .and_then(|s| serde_json::from_str::<RunTimes>(&s).ok())
        .map(|t| t.drift)
        .unwrap_or_default()
}

/// How far a probe may lie outside the range its bench measured for a roof (either way) and
/// still be of the same state of the device (module docs): the between-run model's factor of
/// one state.
pub use crate::stats::STATE_FACTOR;

/// A probe's roof that lies beyond [`STATE_FACTOR`] outside the range its bench measured.
#[derive(Clone, Debug, PartialEq)]
pub struct OffState {
    pub key: String,
    pub unit: String,
    /// The probe's value.
    pub probed: f64,
    /// The least and the greatest value the bench gave the roof: its passes and its value
    /// (one value where it ran in one pass).
    pub bench: (f64, f64),
}

impl OffState {
    /// How far the probe lies outside the bench's range, ≥ 1 (1 inside it).
    pub fn factor(&self) -> f64 {
        let (lo, hi) = self.bench;
        if self.probed < lo {
            lo / self.probed
        } else if self.probed > hi {
            self.probed / hi
        } else {
            1.0
        }
    }

    /// "`key` 4.79 GB/s against the bench's 0.79–0.80 (a factor 6.0 outside it)".
    pub fn describe(&self) -> String {
        let (lo, hi) = self.bench;
        let range = if lo == hi {
            format!("{lo:.4}")
        } else {
            format!("{lo:.4}–{hi:.4}")
        };
        format!(
            "`{}` {:.4} {} against the bench's {range} (a factor {:.2} outside it)",
            self.key,
            self.probed,
            self.unit,
            self.factor()
        )
    }
}

/// The roof of `probe` farthest outside the range `profile` measured for it (its passes and
/// its value), where that is beyond [`STATE_FACTOR`]: the probe is of another state of the
/// device (module docs). The range, not the value alone: a device whose passes spread widely
/// (a host that ramps up under load) is one state across that spread, and a one-pass probe
/// may fall anywhere in it. A roof the profile lacks, or holds in another unit, decides
/// nothing.
pub fn off_state(profile: &DeviceProfile, probe: &DriftProbe) -> Option<OffState> {
    probe
        .values
        .iter()
        .filter_map(|(key, unit, v)| {
            let m = profile.get(key).filter(|m| m.unit.name() == unit)?;
            let bench = m
                .passes
                .iter()
                .chain(&m.value)
                .filter(|b| b.is_finite() && **b > 0.0)
                .fold(None, |r: Option<(f64, f64)>, &b| {
                    Some(r.map_or((b, b), |(lo, hi)| (lo.min(b), hi.max(b))))
                })?;
            (v.is_finite() && *v > 0.0).then(|| OffState {
                key: key.clone(),
                unit: unit.clone(),
                probed: *v,
                bench,
            })
        })
        .filter(|o| o.factor() > STATE_FACTOR)
        .max_by(|a, b| a.factor().total_cmp(&b.factor()))
}

/// The probes of `probes` of the state `profile` measured, and a line on the ones left out
/// (how many, and the farthest of them); `None` where none was.
pub fn same_state(
    profile: &DeviceProfile,
    probes: &[DriftProbe],
) -> (Vec<DriftProbe>, Option<String>) {
    let (kept, off): (Vec<_>, Vec<_>) = probes
        .iter()
        .map(|p| (p, off_state(profile, p)))
        .partition(|(_, o)| o.is_none());
    let farthest = off
        .iter()
        .filter_map(|(p, o)| o.as_ref().map(|o| (p, o)))
        .max_by(|a, b| a.1.factor().total_cmp(&b.1.factor()));
    let note = farthest.map(|(p, o)| {
        format!(
            "{} of the earlier run's {} drift probes were of another state of this device \
             (beyond a factor {STATE_FACTOR} outside this run's bench) and give no span term; the \
             farthest, after `{}`: {}",
            off.len(),
            probes.len(),
            p.after,
            o.describe()
        )
    });
    (kept.into_iter().map(|(p, _)| p.clone()).collect(), note)
}

/// Each probed roof's values over `probes` in their order (a roof in any of them; a probe
/// that lacks it adds nothing), with the unit of the first value: a value in another unit
/// (a bench row redefined since) is left out rather than compared.
pub fn span_series(probes: &[DriftProbe]) -> Vec<(String, Vec<f64>)> {
    let mut out: Vec<(String, String, Vec<f64>)> = Vec::new();
    for p in probes {
        for (key, unit, v) in &p.values {
            match out.iter_mut().find(|(k, _, _)| k == key) {
                Some((_, u, vs)) if u == unit => vs.push(*v),
                Some(_) => {}
                None => out.push((key.clone(), unit.clone(), vec![*v])),
            }
        }
    }
    out.into_iter().map(|(k, _, v)| (k, v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::measurement::{Measurement, Unit};
    use crate::gl::DeviceInfo;

    /// A bench whose `ssbo.read.f32` passes gave 5 and 10 GB/s (its value 10) and whose
    /// `fma.compute.f32` gave 100 GFLOPS in one pass.
    fn bench() -> DeviceProfile {
        let row = |key: &str, unit, v, passes: &[f64]| Measurement {
            value: Some(v),
            unit,
            passes: passes.to_vec(),
            ..Measurement::failed(key, "")
        };
        DeviceProfile::new(
            DeviceInfo::default(),
            Mode::Full,
            1.0,
            vec![
                row("ssbo.read.f32", Unit::GBs, 10.0, &[5.0, 10.0]),
                row("fma.compute.f32", Unit::Gflops, 100.0, &[]),
            ],
        )
    }

    #[test]
    fn a_probe_beyond_the_factor_of_its_bench_is_of_another_state() {
        let b = bench();
        // Within the factor of the range either way, or inside it (the SSBO probe at half the
        // bench's value, where its slower pass lay): the same state.
        for (ssbo, fma) in [(14.9, 67.0), (3.4, 149.0), (5.0, 100.0)] {
            let near = probe(
                "start",
                &[
                    ("ssbo.read.f32", "GB/s", ssbo),
                    ("fma.compute.f32", "GFLOPS", fma),
                ],
            );
            assert_eq!(off_state(&b, &near), None, "{ssbo} {fma}");
        }
        // Beyond it on both roofs: the farther one (a factor 3 down against 2.5 down below
        // the slower pass) is named.
        let far = probe(
            "lu",
            &[
                ("ssbo.read.f32", "GB/s", 2.0),
                ("fma.compute.f32", "GFLOPS", 100.0 / 3.0),
            ],
        );
        let o = off_state(&b, &far).unwrap();
        assert_eq!(o.key, "fma.compute.f32");
        assert!((o.factor() - 3.0).abs() < 1e-12, "{}", o.factor());
        // A roof the bench lacks, or holds in another unit, decides nothing.
        let other = probe(
            "start",
            &[("texture.x", "GB/s", 1e6), ("ssbo.read.f32", "GFLOPS", 1e6)],
        );
        assert_eq!(off_state(&b, &other), None);
    }

    #[test]
    fn the_span_keeps_only_the_earlier_probes_of_the_benchs_state() {
        let b = bench();
        let probes = [
            probe("start", &[("ssbo.read.f32", "GB/s", 11.0)]),
            probe("tridiagonal", &[("ssbo.read.f32", "GB/s", 1.0)]),
            probe("lu", &[("ssbo.read.f32", "GB/s", 4.0)]),
            probe("bicg", &[("ssbo.read.f32", "GB/s", 16.0)]),
        ];
        let (kept, note) = same_state(&b, &probes);
        assert_eq!(kept, vec![probes[0].clone(), probes[2].clone()]);
        let note = note.unwrap();
        assert!(
            note.starts_with("2 of the earlier run's 4 drift probes"),
            "{note}"
        );
        assert!(
            note.contains("after `tridiagonal`") && note.contains("a factor 5.00"),
            "{note}"
        );
        // All of one state: all kept, nothing to say.
        let (kept, note) = same_state(&b, &probes[..1]);
        assert_eq!((kept.len(), note), (1, None));
    }

    fn probe(after: &str, values: &[(&str, &str, f64)]) -> DriftProbe {
        DriftProbe {
            after: after.into(),
            seconds: 0.0,
            values: values
                .iter()
                .map(|(k, u, v)| (k.to_string(), u.to_string(), *v))
                .collect(),
        }
    }

    #[test]
    fn the_span_series_gathers_each_roof_over_the_probes_in_order() {
        let probes = [
            probe("start", &[("a", "GB/s", 1.0), ("b", "GFLOPS", 5.0)]),
            probe("lu", &[("a", "GB/s", 2.0)]),
            // A unit that changed: left out, not compared with the others.
            probe("start", &[("a", "GB/s", 3.0), ("b", "GB/s", 9.0)]),
        ];
        assert_eq!(
            span_series(&probes),
            vec![("a".into(), vec![1.0, 2.0, 3.0]), ("b".into(), vec![5.0])]
        );
        assert!(span_series(&[]).is_empty());
    }

    #[test]
    fn earlier_probes_come_from_a_readable_run_json_only() {
        let dir = tempfile::tempdir().unwrap();
        assert!(earlier(dir.path()).is_empty());
        std::fs::write(dir.path().join(RUN_JSON), "{ not json").unwrap();
        assert!(earlier(dir.path()).is_empty());
        let times = RunTimes {
            drift: vec![probe("start", &[("a", "GB/s", 1.0)])],
            ..RunTimes::default()
        };
        std::fs::write(
            dir.path().join(RUN_JSON),
            serde_json::to_string(&times).unwrap(),
        )
        .unwrap();
        assert_eq!(earlier(dir.path()), times.drift);
    }

    #[test]
    fn a_full_run_probes_after_every_paper_a_quick_run_after_its_last() {
        assert!(after_paper(Mode::Full, false));
        assert!(after_paper(Mode::Full, true));
        assert!(!after_paper(Mode::Quick, false));
        assert!(after_paper(Mode::Quick, true));
    }
}
