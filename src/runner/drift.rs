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

use std::path::Path;
use std::time::Instant;

use crate::bench::{Settings, measure_only};
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
