//! How a timed row's simulation is verified: a fresh run against its CPU f64 twin.

use crate::gl::Gl;
use crate::papers::tridiagonal::adi::AdiSpec;
use crate::runner::RunError;
use crate::stats::max_rel_error;

// f32 GPU against f64 CPU over a few steps: as in tests/sims.rs (1e-4 over 100 steps), with
// the same margin for the largest grids (more unknowns per line, same contraction).
pub(super) const TOL: f64 = 1e-4;

/// max |gpu - cpu| / max |cpu| after `steps` steps of `spec` with `solver` on `n × n`.
pub(super) fn verify(
    gl: &Gl,
    spec: &AdiSpec,
    n: u32,
    solver: &str,
    steps: u32,
) -> Result<f64, RunError> {
    let mut sim = (spec.make)(gl, n, solver).map_err(RunError::algorithm)?;
    for _ in 0..steps {
        sim.step().map_err(RunError::algorithm)?;
    }
    let gpu = sim.read().map_err(RunError::algorithm)?;
    let cpu = (spec.reference)(n, steps).map_err(RunError::algorithm)?;
    Ok(max_rel_error(&gpu, &cpu))
}
