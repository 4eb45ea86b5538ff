//! The paper's experiments, one file per table or figure: [`fig4`] (GPU vs CPU solve time per
//! mesh), [`periter`] (a fixed number of iterations at the largest mesh), [`spmv`] (SpMV
//! bandwidth), [`table2`] (share of time per kernel), [`fig6`] (time vs threads per block),
//! [`precision`] (fp32 vs fp64), [`precision_charged`] (the same on the charged BioFET
//! systems), [`anchor`] (faer's sparse Cholesky), [`biofet`] (the
//! BioFET double layer against Debye–Hückel) and, beyond the paper, [`legacy`] (the fp32
//! iteration as fragment passes beside the compute build). Fig. 5 is skipped (two host CPUs).
//!
//! Every GPU solution is verified against the CPU f64 `linbcg` of [`super::cpu`] with
//! [`crate::util::max_rel_error`]; both stop when NR's estimate of the relative error
//! reaches `tol`, from slightly different rounding (reduction order), so they agree to a
//! small multiple of `tol` ([`solution_tolerance`]).
//!
//! With `--resume` every table reuses the rows of an earlier run with the same configuration
//! on the same device, and the notes that go with them are written again from their cells:
//! per row ([`fig4`], [`periter`], [`spmv`], [`fig6`], [`anchor`]), or all rows of one
//! measurement together ([`table2`], [`precision`], [`biofet`]).

pub mod anchor;
pub mod biofet;
pub mod config;
pub mod fig4;
pub mod fig6;
pub mod legacy;
pub mod periter;
pub mod precision;
pub mod precision_charged;
pub mod spmv;
pub mod table2;

use std::time::Instant;

use super::cpu::{self, BicgParams};
use super::gpu::{GpuBicg, GpuOptions};
use super::poisson::{Mesh, PoissonSystem, fig4_problem};
use super::{BicgInfo, Stop};
use crate::bench::Work;
use crate::gl::timing::{Samples, TimingPlan, repeat};
use crate::gl::{Gl, Need};
use crate::runner::{RunError, Session, TableSpec};
pub use config::{Config, MeshSpec};

/// Verification tolerance of a GPU solution against the CPU one (see the module docs).
pub fn solution_tolerance(tol: f64) -> f64 {
    100.0 * tol
}

/// Runs `f` `plan` times between two `glFinish` calls (through [`repeat`]), keeping each
/// run's result.
pub(crate) fn time_gpu<S>(
    gl: &Gl,
    plan: TimingPlan,
    mut f: impl FnMut() -> Result<S, RunError>,
) -> Result<Samples<S>, RunError> {
    gl.finish();
    repeat(plan, || {
        gl.finish();
        let t0 = Instant::now();
        let out = f()?;
        gl.finish();
        Ok((out, t0.elapsed().as_secs_f64() * 1e3))
    })
}

/// The repetition rule of `r`, for a caption: "median [95 % interval] of …".
pub(crate) fn rule(r: &crate::runner::Repeat) -> String {
    format!(
        "median [95 % interval] of the timed runs (distribution-free order-statistic interval \
         of the median; `*`: fewer than 6 runs, [min, max]): {} warm-up run(s), at least {} \
         runs, then more until the interval is within ±{:.0} % of the median, at most {} runs \
         and {} s",
        r.warmup,
        r.repetitions,
        100.0 * r.ci_target,
        r.max_runs(),
        r.budget_s
    )
}

/// Runs `f` `plan` times on the CPU (through [`repeat`]), keeping each run's result.
pub(crate) fn time_cpu<S>(
    plan: TimingPlan,
    mut f: impl FnMut() -> Result<S, RunError>,
) -> Result<Samples<S>, RunError> {
    repeat(plan, || {
        let t0 = Instant::now();
        let out = f()?;
        Ok((out, t0.elapsed().as_secs_f64() * 1e3))
    })
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

/// One CPU solve from x₀ = 0.
pub(crate) fn cpu_solve(
    sys: &PoissonSystem,
    params: &BicgParams,
) -> Result<(Vec<f64>, BicgInfo), RunError> {
    let mut x = vec![0.0; sys.mesh.nodes()];
    let info = cpu::solve(&sys.a, None, &sys.b, &mut x, params).map_err(RunError::algorithm)?;
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

/// Runs every experiment of the paper.
/// What the paper's GL Bi-CG needs: compute shaders and fp64 (the paper ran double
/// precision throughout, §V.2).
pub const GL_FP64: &[Need] = &[Need::Compute, Need::Fp64];

/// The tables and what they need: every GL solve is the paper's fp64 compute Bi-CG, except
/// the precision table's fp32 build (compute only; its fp64 row is skipped without fp64);
/// today's anchor (faer on the CPU) runs anywhere, and so do the `legacy` table's fragment
/// rows (its compute rows need compute shaders).
pub const TABLES: &[TableSpec] = &[
    TableSpec::needs("fig4", GL_FP64),
    TableSpec::needs("periter", GL_FP64),
    TableSpec::needs("spmv", GL_FP64),
    TableSpec::needs("table2", GL_FP64),
    TableSpec::needs("table2_calls", GL_FP64),
    TableSpec::needs("fig6", GL_FP64),
    TableSpec::needs("precision", &[Need::Compute]).rows_need(&[Need::Fp64]),
    TableSpec::needs("precision_charged", GL_FP64),
    TableSpec::any("anchor"),
    TableSpec::any("legacy").rows_need(&[Need::Compute]),
    TableSpec::needs("biofet", GL_FP64),
];

pub struct Bicg;

impl crate::runner::Paper for Bicg {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        let params = BicgParams {
            tol: cfg.solver.tol,
            max_iter: cfg.solver.max_iter,
        };
        let opts = GpuOptions {
            local_size: cfg.solver.local_size,
            ..GpuOptions::default()
        };
        notes(s, &params);
        // Compile every kernel once, outside any timed region.
        if s.lacks(GL_FP64).is_none() {
            warm_up(s, opts)?;
        }
        if s.runs("fig4") {
            fig4::run(s, cfg, &params, opts)?;
        }
        if s.runs("periter") {
            periter::run(s, cfg, opts)?;
        }
        if s.runs("spmv") {
            spmv::run(s, cfg, opts)?;
        }
        if s.runs("table2") {
            table2::run(s, cfg, &params, opts)?;
        }
        if s.runs("fig6") {
            fig6::run(s, cfg, &params)?;
        }
        if s.runs("precision") {
            precision::run(s, cfg, &params, opts)?;
        }
        if s.runs("precision_charged") {
            precision_charged::run(s, cfg, &params, opts)?;
        }
        anchor::run(s, cfg, &params)?;
        if s.runs("legacy") {
            legacy::run(s, cfg, opts)?;
        }
        if s.runs("biofet") {
            biofet::run(s, cfg)?;
        }
        Ok(())
    }
}

fn notes(s: &Session, params: &BicgParams) {
    s.note(format!(
        "Solver: NR linbcg with the diagonal preconditioner and itol = 4 (the max-norm estimate of \
         the relative error of x), tol = {:.0e}, cap {} iterations, x₀ = 0. The paper states no \
         tolerance; {:.0e} lies below what fp32 (ε ≈ {:.0e}) can resolve in x, so the precision \
         comparison asks the paper's question.",
        params.tol,
        params.max_iter,
        params.tol,
        f32::EPSILON
    ));
    s.note(
        "Problem: the 7-point Laplace operator (ε = 1, no charge) on nx×ny×nz nodes, node \
         x + nx·(y + ny·z); Fig. 3's electrodes as Dirichlet nodes (0 V on z = 0, 0.5 V on the \
         centred half-width square of z = nz−1, 0.25 V on x = 0; the paper shows but does not \
         specify the geometry); the other faces insulating. Dirichlet rows are identity rows \
         and their values moved to the right-hand side, so A is symmetric and Aᵀ reuses A.",
    );
    s.note(
        "Fig. 5 (the same GPU behind an i7 and a Core 2 Duo) is skipped: it needs two host \
         machines, and on llvmpipe the 'GPU' is the host CPU itself, so the question it asks \
         (does the host CPU matter?) has no meaning here.",
    );
}

/// Builds the kernels of `opts` (both precisions) on a tiny problem.
pub(crate) fn warm_up(s: &Session, opts: GpuOptions) -> Result<(), RunError> {
    let sys = fig4_problem(&Mesh::cube(4));
    let p = BicgParams {
        tol: 0.0,
        max_iter: 2,
    };
    let x0 = vec![0.0; sys.mesh.nodes()];
    GpuBicg::<f64>::new(&s.gl, &sys.a, true, opts)
        .and_then(|mut g| g.solve(&sys.b, &x0, &p))
        .map_err(RunError::algorithm)?;
    GpuBicg::<f32>::new(&s.gl, &sys.a.map(|v| v as f32), true, opts)
        .and_then(|mut g| g.solve(&sys.b, &x0, &p))
        .map_err(RunError::algorithm)?;
    Ok(())
}
