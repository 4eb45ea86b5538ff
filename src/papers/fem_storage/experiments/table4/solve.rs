//! One measured row of Table 4: the GPU Jacobi solve within its budget, the direct solve,
//! and the row's cells.

use std::time::Duration;

use super::finding::{Finding, describe, versus};
use crate::bench::Work;
use crate::gl::measure::measure_cpu;
use crate::papers::fem_storage::assembly::{System, jacobi_spectral_radius};
use crate::papers::fem_storage::direct::cholesky_solve;
use crate::papers::fem_storage::error::FemError;
use crate::papers::fem_storage::experiments::config::{Config, Table4Config};
use crate::papers::fem_storage::experiments::threads::threads;
use crate::papers::fem_storage::flat::FlatMatrix;
use crate::papers::fem_storage::gpu::GpuJacobi;
use crate::papers::fem_storage::jacobi::{CpuJacobi, JacobiInfo, JacobiParams, JacobiSweeps, Stop};
use crate::papers::fem_storage::mesh::Grid;
use crate::report::RowBuilder;
use crate::runner::{Repeat, Session};
use crate::stats::Estimate;

fn jacobi_params(c: &Table4Config, budget_s: f64) -> JacobiParams {
    JacobiParams {
        tol: c.tol,
        max_iterations: c.max_iterations,
        budget: Some(Duration::from_secs_f64(budget_s)),
        check_every: 1,
    }
}

/// The solve on the roofline: its sweeps and stopping tests ([`GpuJacobi::work`]) against
/// `GPU total`.
const KERNEL: &str = "Jacobi solve (GL)";

pub(super) fn solve_row(
    s: &Session,
    cfg: &Config,
    si: usize,
    dim: usize,
    grid: Grid,
    budget: f64,
    row: RowBuilder,
) -> Result<(RowBuilder, Finding), FemError> {
    let c = &cfg.table4;
    let sys = System::assemble(grid, &cfg.problem)?;
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f)?;
    let (info, work, x, step_err) = gpu_solve(s, c, &flat, budget)?;
    let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let jacobi_res = sys.relative_residual(&x64);
    let direct_ok = dim == 2 || grid.nodes() <= c.direct_max_3d;
    let (chol_s, chol_res) = if direct_ok {
        let (tm, res) = cholesky(c.direct.pick(s.mode), &sys)?;
        (Some(tm), Some(res))
    } else {
        (None, None)
    };
    let rho = jacobi_spectral_radius(&grid);
    let fitted = info.extrapolate(c.tol).map(|e| e.rho);
    let extra = info.extrapolate_with(c.tol, rho);
    let needed = match info.stop {
        Stop::Converged => Some(info.iterations as f64),
        _ => extra.map(|e| info.iterations as f64 + e.more_iterations),
    };
    let on_paper_row = dim == 2 || c.dims.len() == 1;
    let paper_any = c.paper_gpu_s.get(si).copied();
    let bound = 1e6 * flat.sweep_bytes() as f64 / (c.c1060_bandwidth_gbs * 1e9);
    let finding = Finding {
        text: describe(&grid, dim, &info, jacobi_res, rho, fitted, needed, c.tol),
        feasibility: needed
            .zip(paper_any)
            .map(|(k, p)| (c.sizes.pick(s.mode)[si] as usize, p, k, bound)),
        converged: (info.stop == Stop::Converged)
            .then(|| (grid.label(), info.iterations, jacobi_res)),
        versus: versus(si, &grid, &info, needed, chol_s.clone(), on_paper_row),
    };
    // The Cholesky answer must solve the system to near machine precision.
    let err = match chol_res {
        Some(r) if r > 1e-9 => r,
        _ => step_err,
    };
    let cells = Cells {
        info: &info,
        jacobi_res,
        chol: (chol_s, chol_res),
        rho,
        fitted,
        needed,
        bound,
    };
    let row = cells
        .fill(row, c, si, on_paper_row)
        .runs(1)
        // The solve's sweeps and stopping tests against its wall time.
        .work(KERNEL, work, info.seconds * 1e3)
        // One GPU sweep equals the CPU sweep on the same f32 arrays to f32 rounding
        // (summation order and fused multiply-adds).
        .verify(err, 1e-5);
    Ok((row, finding))
}

/// A solved row's cells beyond the key: the GPU solve (`info`, the true residual), the
/// direct solve's seconds and residual, the spectral radius (exact, fitted), the iterations
/// needed to the tolerance and the C1060's bound per sweep (µs).
struct Cells<'a> {
    info: &'a JacobiInfo,
    jacobi_res: f64,
    chol: (Option<Estimate>, Option<f64>),
    rho: f64,
    fitted: Option<f64>,
    needed: Option<f64>,
    bound: f64,
}

impl Cells<'_> {
    /// `row` with the cells, the paper's (its row `si`, where the row is on the paper's table)
    /// beside ours.
    fn fill(&self, row: RowBuilder, c: &Table4Config, si: usize, on_paper_row: bool) -> RowBuilder {
        let paper_s = on_paper_row
            .then(|| c.paper_gpu_s.get(si).copied())
            .flatten();
        let paper_any = c.paper_gpu_s.get(si).copied();
        let implied = self.needed.zip(paper_any).map(|(k, p)| 1e6 * p / k);
        row.num("Jacobi iterations", self.info.iterations as f64)
            .text("stopped by", self.info.stop.describe())
            .num("final rel. change", self.info.rel_change)
            .num("Jacobi residual", self.jacobi_res)
            .num("GPU ms/iter", self.info.ms_per_iteration())
            .num("GPU total", self.info.seconds)
            .opt("paper GPU", paper_s)
            .opt_est("Cholesky", self.chol.0.clone())
            .opt("Cholesky residual", self.chol.1)
            .opt(
                "paper MATLAB A\\b",
                on_paper_row
                    .then(|| c.paper_matlab_s.get(si).copied())
                    .flatten(),
            )
            .num("ρ exact", self.rho)
            .opt("ρ fitted", self.fitted)
            .opt(
                &format!("iterations to {:.0e} (estimate)", c.tol),
                self.needed,
            )
            .opt(
                &format!("time to {:.0e} here (estimate)", c.tol),
                self.needed.map(|k| k * self.info.ms_per_iteration() / 1e3),
            )
            .opt("paper-implied µs/iter", implied)
            .num("C1060 bound µs/iter", self.bound)
            .opt(
                "sweeps in paper time at C1060 peak",
                paper_any.map(|p| p * 1e6 / self.bound),
            )
            .opt(
                &format!("C1060 time to {:.0e} (estimate)", c.tol),
                self.needed.map(|k| k * self.bound * 1e-6),
            )
    }
}

/// The GPU solve from zero after a warm-up sweep, its work, its iterate and the kernel check
/// at this size (one more GPU sweep from the iterate against the CPU sweep).
fn gpu_solve(
    s: &Session,
    c: &Table4Config,
    flat: &FlatMatrix,
    budget: f64,
) -> Result<(JacobiInfo, Work, Vec<f32>, f64), FemError> {
    let mut gpu = GpuJacobi::with_reads(&s.gl, flat, c.reads)?;
    // Warm-up: one sweep compiles and faults in the buffers; restart from zero.
    gpu.step(true)?;
    gpu.set_x(&vec![0.0; flat.n()])?;
    s.gl.finish();
    // Timed by the solve's own clock: booked as a timed GPU run.
    let info = crate::gl::ledger::book_gpu(|| gpu.solve(&jacobi_params(c, budget)))?;
    let work = gpu.work(info.iterations, info.history.len());
    let x = gpu.x()?;
    // Kernel check at this size: one more GPU sweep from x against the CPU sweep.
    let mut cpu = CpuJacobi::new(flat, threads());
    cpu.set_x(&x);
    cpu.step();
    gpu.step(false)?;
    let want: Vec<f64> = cpu.x().iter().map(|&v| v as f64).collect();
    let step_err = crate::stats::max_rel_error(&gpu.x()?, &want);
    Ok((info, work, x, step_err))
}

/// The direct solve (Cholesky on the CPU): its time in seconds and its relative residual.
fn cholesky(direct: &Repeat, sys: &System) -> Result<(Estimate, f64), FemError> {
    let mut xd = Vec::new();
    let tm = measure_cpu(direct.plan(), || {
        xd = cholesky_solve(&sys.k, &sys.f)?;
        Ok::<(), FemError>(())
    })?;
    Ok((tm.est().map(|ms| ms / 1e3), sys.relative_residual(&xd)))
}
