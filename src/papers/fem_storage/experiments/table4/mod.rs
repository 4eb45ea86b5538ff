//! Table 4: the GPU Jacobi (GL compute on the paper's flattened layout, §IV, Fig. 4–5)
//! against a direct sparse solve in the role of MATLAB's `A\b`, at the paper's matrix sizes.
//!
//! Each solve is capped by a wall-time budget; where it stops first, the iterations still
//! needed are **estimated** ([`JacobiInfo::extrapolate_with`]): ln(tol/δ_k) / ln ρ from the
//! last relative change δ_k, assuming the change keeps shrinking by exactly the Jacobi
//! spectral radius ρ per iteration (the slowest mode dominating, as in exact arithmetic).
//!
//! The notes and the feasibility finding are `notes.rs`.

use std::time::Duration;

mod notes;

use super::{Config, Table4Config, threads};
use crate::bench::Work;
use crate::gl::Reads;
use crate::gl::timing::measure_cpu;
use crate::papers::fem_storage::FemError;
use crate::papers::fem_storage::assembly::{System, jacobi_spectral_radius};
use crate::papers::fem_storage::direct::cholesky_solve;
use crate::papers::fem_storage::flat::FlatMatrix;
use crate::papers::fem_storage::gpu::GpuJacobi;
use crate::papers::fem_storage::jacobi::JacobiSweeps;
use crate::papers::fem_storage::jacobi::{CpuJacobi, JacobiInfo, JacobiParams, Stop};
use crate::papers::fem_storage::mesh::Grid;
use crate::report::{Column, Fmt, Row, RowBuilder, bound_columns};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::Estimate;

fn jacobi_params(c: &Table4Config, budget_s: f64) -> JacobiParams {
    JacobiParams {
        tol: c.tol,
        max_iterations: c.max_iterations,
        budget: Some(Duration::from_secs_f64(budget_s)),
        check_every: 1,
    }
}

fn cols(c: &Table4Config) -> Vec<Column> {
    vec![
        Column::key("paper size").int(),
        Column::key("mesh").text(),
        Column::key("unknowns").int(),
        Column::ours("Jacobi iterations").int(),
        Column::ours("stopped by").text(),
        Column::ours("final rel. change").sci(2),
        Column::ours("Jacobi residual").sci(2),
        Column::ours("GPU ms/iter").fixed(3),
        Column::ours("GPU total").unit("s").fixed(2),
        Column::paper("paper GPU").unit("s").fixed(6),
        Column::ours("Cholesky").unit("s").fixed(3),
        Column::ours("Cholesky residual").sci(2),
        Column::paper("paper MATLAB A\\b").unit("s").fixed(6),
        Column::beyond("ρ exact").fixed(7),
        Column::beyond("ρ fitted").fixed(7),
        Column::beyond(&format!("iterations to {:.0e} (estimate)", c.tol)).sci(2),
        Column::beyond(&format!("time to {:.0e} here (estimate)", c.tol))
            .unit("s")
            .sci(2),
        Column::beyond("paper-implied µs/iter").fixed(3),
        Column::beyond("C1060 bound µs/iter").fixed(1),
        Column::beyond("sweeps in paper time at C1060 peak").fmt(Fmt::Sig(4)),
        Column::beyond(&format!("C1060 time to {:.0e} (estimate)", c.tol))
            .unit("s")
            .sci(2),
    ]
    .into_iter()
    .chain(bound_columns())
    .collect()
}

/// The solve on the roofline: its sweeps and stopping tests ([`GpuJacobi::work`]) against
/// `GPU total`.
const KERNEL: &str = "Jacobi solve (GL)";

/// What one row found, for the notes.
struct Finding {
    text: String,
    /// (paper size, paper GPU s, iterations needed, C1060 µs per sweep).
    feasibility: Option<(usize, f64, f64, f64)>,
    /// (mesh, iterations, Jacobi residual) of a run that passed the stopping test.
    converged: Option<(String, usize, f64)>,
    /// F5 on the paper's (2D) rows: (paper size index, mesh, GPU seconds to the tolerance —
    /// measured where converged, else the estimate —, the direct solve's seconds).
    versus: Option<(usize, String, f64, Estimate)>,
}

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let c = &cfg.table4;
    let sizes = c.sizes.pick(s.mode);
    let budgets = c.jacobi_budget_s.pick(s.mode);
    let mut t = s.table(
        "table4",
        "Table 4 — GPU Jacobi (GL compute, paper's layout) vs direct sparse Cholesky",
        cols(c),
        c,
    )?;
    let mut rows = Vec::new();
    for (si, &size) in sizes.iter().enumerate() {
        for &dim in &c.dims {
            rows.push((si, size as usize, dim));
        }
    }
    t.expect_rows(rows.len());
    let mut findings = Vec::new();
    for (si, size, dim) in rows {
        s.check_interrupt()?;
        let grid = Grid::nearest(dim, size, c.max_aspect).map_err(RunError::algorithm)?;
        let key = format!("{size} {dim}D {}", grid.label());
        // A reused row's finding (for the notes) is read back from its cells (a row that
        // lacks one is measured again).
        if let Some(row) = t.reuse(&key)?
            && let Some(f) = finding_of(&t, &row, c, (si, size, dim), &grid)
        {
            findings.push(f);
            continue;
        }
        t.start(&key);
        let row = t
            .row(&key)
            .num("paper size", size as f64)
            .text("mesh", grid.label())
            .num("unknowns", grid.nodes() as f64);
        match solve_row(s, cfg, si, dim, grid, budgets[si], row.clone()) {
            Ok((r, mut f)) => {
                t.push(r)?;
                // F5 reads the direct solve's time as the table holds it (its interval with
                // the row's between-run term), as a reused row's finding does.
                if let Some(v) = f.versus.as_mut() {
                    let col = t.table().col("Cholesky");
                    let pushed = t.table().rows.iter().find(|r| r.key == key);
                    if let Some(e) = pushed.and_then(|r| r.values[col].estimate()) {
                        v.3 = e.clone();
                    }
                }
                findings.push(f);
            }
            Err(e) => t.push(row.fail(e.to_string()))?,
        }
    }
    t.caption(format!(
        "Jacobi: GL compute shader on the paper's flattened layout (f32, as the paper's float \
         arrays; inputs read from {reads}{as_paper}), x⁽⁰⁾ = 0, stopping test \
         ‖Δx‖/‖x‖ ≤ {tol:.0e} reduced on the GPU and read back every iteration; each solve is \
         capped by a wall-time budget. The (estimate) columns \
         extrapolate the iterations to {tol:.0e} from the last relative change, assuming it \
         keeps shrinking by exactly the spectral radius ρ = (1 + 3cos(π/(nx−1)))/4 of the \
         Jacobi matrix per iteration (the contraction fitted over the run's second half is \
         shown beside it: still faster, the run has not reached the asymptotic rate; an f32 \
         iterate may also stall before, see the notes). Residuals are ‖b − Ax‖/‖b‖ in f64. \
         Cholesky: faer's sparse Cholesky (symbolic + numeric + solve, f64, median of runs) in \
         the role of MATLAB's A\\b. Paper times are shown on the 2D rows (the paper does not \
         say which mesh). paper-implied µs/iter = paper GPU time / iterations to {tol:.0e}; \
         C1060 bound = compulsory bytes of one sweep / {bw} GB/s. Verified: one GPU sweep vs \
         the CPU sweep from the same iterate.",
        tol = c.tol,
        bw = c.c1060_bandwidth_gbs,
        reads = c.reads.describe(),
        as_paper = if c.reads == Reads::Texture {
            " (buffer textures: Fig. 5's tex1Dfetch)"
        } else {
            ", not Fig. 5's tex1Dfetch"
        },
    ));
    t.finish()?;
    notes::notes(s, c, &findings);
    Ok(())
}

fn solve_row(
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
        let (tm, res) = cholesky(c, &sys)?;
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
    let info = gpu.solve(&jacobi_params(c, budget))?;
    let work = gpu.work(info.iterations, info.history.len());
    let x = gpu.x()?;
    // Kernel check at this size: one more GPU sweep from x against the CPU sweep.
    let mut cpu = CpuJacobi::new(flat, threads());
    cpu.set_x(&x);
    cpu.step();
    gpu.step(false)?;
    let want: Vec<f64> = cpu.x().iter().map(|&v| v as f64).collect();
    let step_err = crate::util::max_rel_error(&gpu.x()?, &want);
    Ok((info, work, x, step_err))
}

/// The direct solve (Cholesky on the CPU): its time in seconds and its relative residual.
fn cholesky(c: &Table4Config, sys: &System) -> Result<(Estimate, f64), FemError> {
    let mut xd = Vec::new();
    let tm = measure_cpu(c.direct.plan(), || {
        xd = cholesky_solve(&sys.k, &sys.f)?;
        Ok::<(), FemError>(())
    })?;
    Ok((tm.est().map(|ms| ms / 1e3), sys.relative_residual(&xd)))
}

/// The finding of a reused row of the paper size `size` (index `si`) on `grid` (`dim`D),
/// from the row's cells as [`solve_row`] wrote them.
fn finding_of(
    t: &TableWriter,
    row: &Row,
    c: &Table4Config,
    (si, size, dim): (usize, usize, usize),
    grid: &Grid,
) -> Option<Finding> {
    let num = |col: &str| t.value(row, col);
    let stopped = t.text(row, "stopped by")?;
    let stop = [Stop::Converged, Stop::IterationCap, Stop::TimeBudget]
        .into_iter()
        .find(|s| s.describe() == stopped)?;
    let info = JacobiInfo {
        iterations: num("Jacobi iterations")? as usize,
        rel_change: num("final rel. change")?,
        stop,
        seconds: num("GPU total")?,
        history: vec![],
    };
    let (jacobi_res, rho) = (num("Jacobi residual")?, num("ρ exact")?);
    let fitted = num("ρ fitted");
    let needed = num(&format!("iterations to {:.0e} (estimate)", c.tol));
    let bound = num("C1060 bound µs/iter")?;
    let chol = row.values[t.table().col("Cholesky")].estimate().cloned();
    let on_paper_row = dim == 2 || c.dims.len() == 1;
    Some(Finding {
        text: describe(grid, dim, &info, jacobi_res, rho, fitted, needed, c.tol),
        feasibility: needed
            .zip(c.paper_gpu_s.get(si).copied())
            .map(|(k, p)| (size, p, k, bound)),
        converged: (stop == Stop::Converged).then(|| (grid.label(), info.iterations, jacobi_res)),
        versus: versus(si, grid, &info, needed, chol, on_paper_row),
    })
}

/// F5's numbers of a paper (2D) row: the GPU's seconds to the tolerance (the solve's own
/// where it converged, else its seconds per iteration × the iterations `needed`, an
/// estimate) against the direct solve's.
fn versus(
    si: usize,
    grid: &Grid,
    info: &JacobiInfo,
    needed: Option<f64>,
    chol: Option<Estimate>,
    on_paper_row: bool,
) -> Option<(usize, String, f64, Estimate)> {
    if !on_paper_row || info.iterations == 0 {
        return None;
    }
    let per_iteration = info.seconds / info.iterations as f64;
    let gpu = match info.stop {
        Stop::Converged => info.seconds,
        _ => needed? * per_iteration,
    };
    Some((si, grid.label(), gpu, chol?))
}

#[allow(clippy::too_many_arguments)]
fn describe(
    grid: &Grid,
    dim: usize,
    info: &JacobiInfo,
    jacobi_res: f64,
    rho: f64,
    fitted: Option<f64>,
    needed: Option<f64>,
    tol: f64,
) -> String {
    let mut text = format!(
        "{} ({} unknowns, {}D): {} Jacobi iterations in {:.1} s ({:.3} ms each, stopped by {}), \
         relative change {:.2e}, true residual {:.2e}",
        grid.label(),
        grid.nodes(),
        dim,
        info.iterations,
        info.seconds,
        info.ms_per_iteration(),
        info.stop.describe(),
        info.rel_change,
        jacobi_res
    );
    if let (false, Some(k)) = (info.stop == Stop::Converged, needed) {
        text.push_str(&format!(
            "; with the exact Jacobi spectral radius ρ = {rho:.7} (fitted over the run's second \
             half: {}) the estimate is {k:.2e} iterations for {tol:.0e} (≈ {:.2e} s here), \
             assuming the change keeps shrinking by ρ per iteration",
            fitted.map_or("—".to_string(), |r| format!("{r:.7}")),
            k * info.ms_per_iteration() / 1e3
        ));
    }
    text
}
