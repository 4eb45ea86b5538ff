//! What every measurement module shares: a measurement to make (`Step`), one kernel timed
//! with its calibrated repetitions (`time_kernel`; a compute dispatch: `time_dispatch`), and a
//! launch grid (`groups_256`).

use super::budget;
use super::measurement::Measurement;
use super::settings::Settings;
use crate::gl::measure::measure_gpu;
use crate::gl::timing::TimingPlan;
use crate::gl::{Gl, GlError, Program, Timing};

/// A measurement to make: its key and the function that makes it.
pub(crate) type Step<'a> = (String, Box<dyn Fn() -> Result<Measurement, GlError> + 'a>);

/// Times `kernel` (one call = one kernel, `glFinish` around each timed run): a calibration
/// run picks how many calls a timed run makes so that it lasts at least `s.min_run_ms`.
/// Returns the timing of one run and the calls per run.
pub(crate) fn time_kernel(
    gl: &Gl,
    s: &Settings,
    mut kernel: impl FnMut() -> Result<(), GlError>,
) -> Result<(Timing, u32), GlError> {
    let once = measure_gpu(gl, TimingPlan::once(), &mut kernel)?;
    let reps = if once.median_ms > 0.0 {
        (s.min_run_ms / once.median_ms).ceil().clamp(1.0, 4096.0) as u32
    } else {
        4096
    };
    // Within what is left of the row's time share ([`budget`]; one run at least).
    let t = measure_gpu(gl, budget::clip(s.timing), || {
        for _ in 0..reps {
            kernel()?;
        }
        Ok(())
    })?;
    Ok((t, reps))
}

/// [`time_kernel`] of a compute dispatch of `groups` followed by the storage barrier that
/// makes its writes visible.
pub(crate) fn time_dispatch(
    gl: &Gl,
    s: &Settings,
    prog: &Program,
    groups: [u32; 3],
) -> Result<(Timing, u32), GlError> {
    time_kernel(gl, s, || {
        prog.dispatch(groups)?;
        gl.storage_barrier();
        Ok(())
    })
}

/// `[x, y, 1]` work groups of 256 covering `n` invocations (x at most 65535).
pub(crate) fn groups_256(n: usize) -> [u32; 3] {
    let g = n.div_ceil(256).max(1) as u32;
    [g.min(65535), g.div_ceil(65535), 1]
}
