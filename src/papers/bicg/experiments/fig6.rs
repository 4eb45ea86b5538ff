//! Fig. 6 (§V.2): GPU solve time against threads per block — here the local work-group size
//! every kernel is built for ([`crate::papers::bicg::gpu::LOCAL_SIZES`], within the device's
//! limit).

use super::config::Config;
use super::solve::{SOLVE_KERNEL, cpu_reference, gpu_solve, solution_tolerance, time_gpu, warm_up};
use crate::papers::bicg::cpu::{BicgParams, Stop};
use crate::papers::bicg::gpu::GpuOptions;
use crate::papers::bicg::poisson::fig4_problem;
use crate::report::{Column, LineChart, Series, with_bound_columns};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let params = &cfg.solver.params();
    let mesh = cfg.fig6.mesh.pick(s.mode).0;
    let sys = fig4_problem(&mesh);
    let (cx, _) = cpu_reference(&sys, params)?;
    let limit = s.gl.info().max_work_group_invocations.max(0) as u32;
    let sizes: Vec<u32> = cfg
        .fig6
        .local_sizes
        .iter()
        .copied()
        .filter(|&l| limit == 0 || l <= limit)
        .collect();
    let mut t = table(s, cfg, params, &mesh.label(), sizes.len())?;
    for &l in &sizes {
        s.check_interrupt()?;
        let key = l.to_string();
        if t.reuse(&key)?.is_some() {
            continue;
        }
        t.start(&key);
        let opts = GpuOptions {
            local_size: l,
            ..GpuOptions::default()
        };
        warm_up(s, opts)?;
        let runs = time_gpu(&s.gl, cfg.fig6.repeat.plan(), || {
            gpu_solve(&s.gl, &sys, params, opts)
        })?;
        let (gx, info, gw) = runs.median();
        let tm = runs.timing();
        let row = t
            .row(&key)
            .num("Local size", l as f64)
            .num("Iterations", info.iterations as f64)
            .timed("GPU time", &tm)
            .est(
                "Per iteration",
                tm.est().map(|ms| ms / info.iterations.max(1) as f64),
            )
            .runs(tm.runs)
            .work_timed(SOLVE_KERNEL, *gw, &tm);
        t.push(if info.stop == Stop::Converged {
            row.verify(max_rel_error(gx, &cx), solution_tolerance(params.tol))
        } else {
            row.fail(info.stop.describe())
        })?;
    }
    let table = t.finish()?;
    s.line_chart(
        "fig6.png",
        &LineChart::new(
            &format!(
                "Fig. 6 — solve time vs local work-group size ({})",
                mesh.label()
            ),
            "invocations per work group",
            "time (ms)",
        )
        .log_x()
        .series(Series::measured(
            "GL fp64 Bi-CG",
            table.measured_series("Local size", "GPU time"),
        ))
        .y_from_zero(),
        "Fig. 6: solve time against threads per work group (the paper's threads per block); \
         median with its 95 % interval.",
    )
}

/// The figure's table and its captions (`sizes`: how many rows it expects).
fn table(
    s: &Session,
    cfg: &Config,
    params: &BicgParams,
    mesh: &str,
    sizes: usize,
) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "fig6",
        &format!("Fig. 6 — GPU solve time vs threads per work group ({mesh})"),
        with_bound_columns(vec![
            Column::key("Local size").int(),
            Column::ours("Iterations").int(),
            Column::ours("GPU time").unit("ms").fixed(1),
            Column::ours("Per iteration").unit("ms").fixed(2),
        ]),
        &(&cfg.fig6, params),
    )?;
    t.expect_rows(sizes);
    t.caption(
        "Same solve as Fig. 4 with every kernel built for the given local size. Verified: \
         solution vs the CPU reference.",
    );
    t.caption(format!(
        "GPU time: {}, one local size after the other; per iteration carries its interval.",
        super::solve::rule(&cfg.fig6.repeat)
    ));
    Ok(t)
}
