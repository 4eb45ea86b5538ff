//! The run's own drift (issue 36): a few roofs re-measured at the start of the papers and
//! after them ([`after_paper`]: each one in a full run, the last in a quick one), so that the
//! report says how far the device moved over the run's span.
//!
//! The intervals' between-run terms ([`crate::stats::between`]) come from the bench's passes,
//! minutes apart at the run's start; a full run lasts an hour, and a rerun comes hours later.
//! Two full runs of this project on llvmpipe hours apart moved some roofs far more than the
//! bench's passes of either run moved them. The probes measure that movement inside one run; they widen no interval and decide no verdict (a term from three points would be no
//! estimate), they say whether the terms held over the run.
//!
//! Each probe is a one-pass quick measurement of [`PROBES`] in this process
//! ([`crate::bench::measure_only`]): seconds on llvmpipe, less on a GPU.

use std::time::Instant;

use crate::bench::{Settings, measure_only};
use crate::gl::Gl;
use crate::mode::Mode;
use crate::report::record::DriftProbe;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_run_probes_after_every_paper_a_quick_run_after_its_last() {
        assert!(after_paper(Mode::Full, false));
        assert!(after_paper(Mode::Full, true));
        assert!(!after_paper(Mode::Quick, false));
        assert!(after_paper(Mode::Quick, true));
    }
}
