//! What every table shares: one GPU or CPU solve from x₀ = 0, their timing, the tolerance a
//! GPU solution is verified to, and the warm-up that compiles every kernel.

use super::config::MeshSpec;
use crate::bench::Work;
use crate::gl::Gl;
use crate::gl::measure::{samples_cpu, samples_gpu};
use crate::gl::timing::{Samples, TimingPlan};
use crate::papers::bicg::cpu::{self, BicgInfo, BicgParams, Stop};
use crate::papers::bicg::gpu::{GpuBicg, GpuOptions};
use crate::papers::bicg::poisson::{Mesh, PoissonSystem, fig4_problem};
use crate::runner::{RunError, Session, TableWriter};

/// Verification tolerance of a GPU solution against the CPU one (see the module docs).
pub fn solution_tolerance(tol: f64) -> f64 {
    100.0 * tol
}

/// [`samples_gpu`] with this paper's error: each run's result kept.
pub(crate) fn time_gpu<S>(
    gl: &Gl,
    plan: TimingPlan,
    f: impl FnMut() -> Result<S, RunError>,
) -> Result<Samples<S>, RunError> {
    samples_gpu(gl, plan, f)
}

/// The repetition rule of `r`, for a caption: "median [95 % interval] of …".
pub(crate) fn rule(r: &crate::runner::Repeat) -> String {
    format!(
        "median [95 % interval] of the timed runs (distribution-free order-statistic interval \
         of the median; `*`: fewer than 6 runs, [min, max]): {}",
        r.rule("run", "mesh")
    )
}

/// [`samples_cpu`] with this paper's error: each run's result kept.
pub(crate) fn time_cpu<S>(
    plan: TimingPlan,
    f: impl FnMut() -> Result<S, RunError>,
) -> Result<Samples<S>, RunError> {
    samples_cpu(plan, f)
}

/// One GPU solve from x₀ = 0 with the matrix uploaded (the upload is part of the run), with
/// the work of its dispatches ([`crate::papers::bicg::gpu::work`]; the upload counts none).
pub(crate) fn gpu_solve(
    gl: &Gl,
    sys: &PoissonSystem,
    params: &BicgParams,
    opts: GpuOptions,
) -> Result<(Vec<f64>, BicgInfo, Work), RunError> {
    let x0 = vec![0.0; sys.mesh.nodes()];
    let mut g = GpuBicg::<f64>::new(gl, &sys.a, true, opts).map_err(RunError::algorithm)?;
    let (x, info) = g.solve(&sys.b, &x0, params).map_err(RunError::algorithm)?;
    Ok((x, info, g.work()))
}

/// The name of the paper's fp64 solve on the roofline (Fig. 4, Fig. 6, the per-iteration
/// table).
pub(crate) const SOLVE_KERNEL: &str = "Bi-CG fp64 (paper)";
/// The fused variant's solve on the roofline.
pub(crate) const FUSED_KERNEL: &str = "Bi-CG fp64 (fused)";

/// One CPU solve from x₀ = 0 on one thread: the paper's CPU side, every timed CPU solve.
pub(crate) fn cpu_solve(
    sys: &PoissonSystem,
    params: &BicgParams,
) -> Result<(Vec<f64>, BicgInfo), RunError> {
    cpu_solve_on(cpu::Threads::One, sys, params)
}

/// One CPU solve from x₀ = 0 on all of the host's CPUs, untimed: the reference a GPU
/// solution is verified against ([`cpu::Threads`]: the same bits as [`cpu_solve`]'s).
pub(crate) fn cpu_reference(
    sys: &PoissonSystem,
    params: &BicgParams,
) -> Result<(Vec<f64>, BicgInfo), RunError> {
    cpu_solve_on(cpu::Threads::All, sys, params)
}

/// One CPU solve from x₀ = 0 on `threads`.
fn cpu_solve_on(
    threads: cpu::Threads,
    sys: &PoissonSystem,
    params: &BicgParams,
) -> Result<(Vec<f64>, BicgInfo), RunError> {
    let mut x = vec![0.0; sys.mesh.nodes()];
    let info = cpu::solve_in(threads.pool(), &sys.a, None, &sys.b, &mut x, params)
        .map_err(RunError::algorithm)?;
    Ok((x, info))
}

/// `None` when both solves converged, else the reason a row fails.
pub(crate) fn not_converged(gpu: &BicgInfo, cpu: &BicgInfo) -> Option<String> {
    if gpu.stop != Stop::Converged {
        Some(format!("GPU: {}", gpu.stop.describe()))
    } else if cpu.stop != Stop::Converged {
        Some(format!("CPU: {}", cpu.stop.describe()))
    } else {
        None
    }
}
/// Builds the kernels of `opts` (both precisions) on a tiny problem.
pub(crate) fn warm_up(s: &Session, opts: GpuOptions) -> Result<(), RunError> {
    let sys = fig4_problem(&Mesh::cube(4));
    let p = BicgParams::iterations(2);
    let x0 = vec![0.0; sys.mesh.nodes()];
    GpuBicg::<f64>::new(&s.gl, &sys.a, true, opts)
        .and_then(|mut g| g.solve(&sys.b, &x0, &p))
        .map_err(RunError::algorithm)?;
    GpuBicg::<f32>::new(&s.gl, &sys.a.map(|v| v as f32), true, opts)
        .and_then(|mut g| g.solve(&sys.b, &x0, &p))
        .map_err(RunError::algorithm)?;
    Ok(())
}

/// The mesh of `spec` and its row key in `t`, or `None` where the row was reused
/// (`--resume`); a stop request ends the table first.
pub(crate) fn pending_mesh(
    s: &Session,
    t: &mut TableWriter,
    spec: &MeshSpec,
) -> Result<Option<(Mesh, String)>, RunError> {
    s.check_interrupt()?;
    let mesh = spec.0;
    let key = mesh.label();
    Ok(t.reuse(&key)?.is_none().then_some((mesh, key)))
}
