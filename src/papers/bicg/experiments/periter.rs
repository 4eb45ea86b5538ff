//! A fixed number of Bi-CG iterations at the paper's largest mesh (128³ in a full run), GL
//! fp64 against the single-threaded CPU: the per-iteration cost behind Fig. 4, beside the
//! paper's whole-solve ratio at its largest mesh (read from `fig4.paper`); and the same for
//! the fused variant (beyond the paper, [`GpuOptions::fused`]).

use super::config::{Config, PaperTime};
use super::solve::{FUSED_KERNEL, SOLVE_KERNEL, cpu_solve, time_cpu, time_gpu};
use crate::gl::TimingPlan;
use crate::papers::bicg::cpu::BicgParams;
use crate::papers::bicg::gpu::{GpuBicg, GpuOptions};
use crate::papers::bicg::poisson::{Mesh, fig4_problem};
use crate::report::{Column, with_bound_columns};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let opts = cfg.solver.gpu_options();
    let mesh = cfg.periter.mesh.pick(s.mode).0;
    let k = cfg.periter.iterations;
    // The paper's ratio at its largest mesh.
    let paper = cfg.fig4.paper.iter().max_by_key(|p| p.mesh.0.nodes());
    let mut t = table(s, cfg, opts, &mesh.label(), paper)?;
    let fused = GpuOptions {
        fused: true,
        ..opts
    };
    let label = mesh.label();
    for (key, text, opts) in [
        (label.clone(), label.clone(), opts),
        (
            format!("{label} fused"),
            format!("{label} fused (beyond the paper)"),
            fused,
        ),
    ] {
        s.check_interrupt()?;
        if let Some(row) = t.reuse(&key)? {
            // The note of the run that measured the row, from its cells.
            if let Some(p) = paper {
                let [g, c] = ["GPU per iteration", "CPU per iteration"]
                    .map(|col| t.value(&row, col).unwrap_or(f64::NAN));
                note(s, &text, g, c, p);
            }
            continue;
        }
        let (tg, tc) = measure(s, &mut t, &mesh, k, (&key, &text), opts, paper)?;
        if let Some(p) = paper {
            note(s, &text, tg / k as f64, tc / k as f64, p);
        }
    }
    let table = t.finish()?;
    fused_note(s, &table);
    Ok(())
}

/// The table and its caption (`paper`: the paper's largest mesh's times).
fn table(
    s: &Session,
    cfg: &Config,
    opts: GpuOptions,
    mesh: &str,
    paper: Option<&PaperTime>,
) -> Result<TableWriter, RunError> {
    let k = cfg.periter.iterations;
    let mut t = s.table(
        "periter",
        &format!("Time for {k} Bi-CG iterations at {mesh} — GL fp64 vs single-thread CPU"),
        with_bound_columns(vec![
            Column::key("Mesh").text(),
            Column::ours("Iterations").int(),
            Column::ours("GPU time").unit("ms").fixed(1),
            Column::ours("CPU time").unit("ms").fixed(1),
            Column::ours("GPU/CPU").fixed(2),
            Column::ours("GPU per iteration").unit("ms").fixed(1),
            Column::ours("CPU per iteration").unit("ms").fixed(1),
            Column::paper("Paper GPU/CPU (whole solve)").fixed(3),
        ]),
        &(&cfg.periter, opts),
    )?;
    t.expect_rows(2);
    t.caption(format!(
        "Both solvers run exactly this many iterations (tolerance 0) from x₀ = 0; GPU time: b \
         and x₀ upload, the iterations, the solution readback (the matrix is already \
         resident); one run each. The fused row (beyond the paper) runs the same iteration in 12 \
         dispatches instead of 20: SpMV with its dot product, ρ with the preconditioner, both \
         directions in one pass, the x/r/r̄/z updates with their max-norms in two. Paper: its whole-solve GPU/CPU time at {}. Verified: GPU vs \
         CPU iterate after the last iteration.",
        paper.map_or("—".into(), |p| p.mesh.0.label())
    ));
    Ok(t)
}

/// The row `key` (labelled `text`): `k` iterations of the GL build with `opts` and of the
/// CPU from x₀ = 0, one run each; returns their times (ms).
fn measure(
    s: &Session,
    t: &mut TableWriter,
    mesh: &Mesh,
    k: usize,
    (key, text): (&str, &str),
    opts: GpuOptions,
    paper: Option<&PaperTime>,
) -> Result<(f64, f64), RunError> {
    t.start(key);
    let sys = fig4_problem(mesh);
    let p = BicgParams::iterations(k);
    let x0 = vec![0.0; mesh.nodes()];
    let mut g = GpuBicg::<f64>::new(&s.gl, &sys.a, true, opts).map_err(RunError::algorithm)?;
    let gpu = time_gpu(&s.gl, TimingPlan::once(), || {
        g.reset_work();
        g.solve(&sys.b, &x0, &p).map_err(RunError::algorithm)
    })?;
    let work = g.work();
    drop(g);
    let cpu = time_cpu(TimingPlan::once(), || cpu_solve(&sys, &p))?;
    let ((gx, ginfo), (cx, _)) = (gpu.last(), cpu.last());
    let (tg, tc) = (gpu.timing().median_ms, cpu.timing().median_ms);
    let ratio = tg / tc;
    t.push(
        t.row(key)
            .text("Mesh", text)
            .num("Iterations", ginfo.iterations as f64)
            .num("GPU time", tg)
            .num("CPU time", tc)
            .num("GPU/CPU", ratio)
            .num("GPU per iteration", tg / k as f64)
            .num("CPU per iteration", tc / k as f64)
            .opt(
                "Paper GPU/CPU (whole solve)",
                paper.map(|p| p.gpu_ms / p.cpu_ms),
            )
            .runs(1)
            .work(
                if opts.fused {
                    FUSED_KERNEL
                } else {
                    SOLVE_KERNEL
                },
                work,
                tg,
            )
            // The same iteration with a different summation order in the dot products.
            .verify(max_rel_error(gx, cx), 1e-10),
    )?;
    Ok((tg, tc))
}

/// The paper's solve against the fused variant, each read against its bound (issue 13).
fn fused_note(s: &Session, t: &crate::report::Table) {
    let at = |k: &str| {
        t.rows
            .iter()
            .find(|r| r.attained.as_ref().is_some_and(|a| a.kernel == k))
            .and_then(|r| {
                let ms = r.values[t.col("GPU time")].as_f64()?;
                Some((ms, r.values[t.col(crate::report::OF_BOUND)].as_f64()))
            })
    };
    let (Some((paper, fp)), Some((fused, ff))) = (at(SOLVE_KERNEL), at(FUSED_KERNEL)) else {
        return;
    };
    let side = |name: &str, f: Option<f64>| match f {
        Some(f) if f >= 0.5 => format!("{name} at {f:.2} of its bound (within half)"),
        Some(f) => format!(
            "{name} at {f:.2} of its bound ({:.1}× from it: implementation-bound)",
            1.0 / f
        ),
        None => format!("{name} without a bound"),
    };
    s.note(format!(
        "Per-iteration table, paper vs fused: the fused solve takes {:.2}× the paper's time; {}; \
         {}. Where a side is not within half of its bound, the ratio ranks the \
         implementations on this device (the fixed cost per dispatch, mostly), not the \
         algorithms.",
        fused / paper,
        side(SOLVE_KERNEL, fp),
        side(FUSED_KERNEL, ff)
    ));
}

/// The note on one row: GPU and CPU ms per iteration beside the paper's whole-solve ratio.
fn note(s: &Session, text: &str, gpu_ms: f64, cpu_ms: f64, p: &PaperTime) {
    s.note(format!(
        "Per iteration at {text}: GL fp64 {gpu_ms:.0} ms, single-thread CPU {cpu_ms:.0} ms, \
         GPU/CPU = {:.2}. The paper's whole-solve GPU/CPU at {} is {:.3} ({} ms on the GTX 285 \
         vs {} ms on the Core 2 Duo).",
        gpu_ms / cpu_ms,
        p.mesh.0.label(),
        p.gpu_ms / p.cpu_ms,
        p.gpu_ms,
        p.cpu_ms
    ));
}
