//! Fig. 11 as a curve: solve time against the grid size `N` (N systems of N − 1 unknowns)
//! for CPU Thomas, the paper's fragment CR (copy and switch) and the compute CR/PCR.

use serde::{Deserialize, Serialize};

use super::fig11::solvers;
use super::{DIRECT_TOL, alg, grids, positive_f32, repeat, time_solver, upload, verified_row};
use crate::gl::timing::measure_cpu;
use crate::papers::tridiagonal::cpu::{Systems, thomas_batch_f32, thomas_batch_f64};
use crate::report::{Column, LineChart, Series};
use crate::runner::{Repeat, RunError, Session, Sizes};
use crate::util::max_rel_error;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SweepConfig {
    #[serde(deserialize_with = "grids")]
    pub grids: Sizes,
    #[serde(deserialize_with = "positive_f32")]
    heat_r: f32,
    #[serde(deserialize_with = "repeat")]
    repeat: Repeat,
}

const NAMES: [&str; 5] = [
    "Thomas CPU f32",
    "CR fragment (copy)",
    "CR fragment (switch)",
    "CR compute",
    "PCR compute",
];

pub(super) fn run(s: &Session, c: &SweepConfig) -> Result<(), RunError> {
    let gl = &s.gl;
    let grids = c.grids.pick(s.mode).to_vec();
    let (time, ratio, err) = ("time", "× Thomas CPU f32", "max rel error vs Thomas f64");
    let mut t = s.table(
        "sweep",
        "Fig. 11 (sweep) — solve time against grid size (N systems of N − 1 unknowns)",
        vec![
            Column::key("grid N"),
            Column::key("solver"),
            Column::ours(time).unit("ms").fixed(3),
            Column::ours(ratio).fixed(2),
            Column::ours(err).sci(2),
        ],
        c,
    )?;
    let mut series: Vec<Vec<(f64, f64)>> = vec![vec![]; NAMES.len()];
    t.expect_rows(grids.len() * NAMES.len());
    for &g in &grids {
        let (n, batch) = (g as usize - 1, g as usize);
        let sys = Systems::heat(n, batch, c.heat_r, 5000 + g as u64);
        let want = thomas_batch_f64(&sys).map_err(alg)?;
        let tex = upload(gl, &sys)?;
        let mut x = vec![0f32; n * batch];
        thomas_batch_f32(&sys, &mut x).map_err(alg)?;
        let th_err = max_rel_error(&x, &want);
        let th = measure_cpu(c.repeat.plan(), || thomas_batch_f32(&sys, &mut x)).map_err(alg)?;
        // (median ms, timed runs, error, why it was skipped on this device)
        let mut results = vec![(th.median_ms, th.runs, Ok(th_err), None)];
        // The GL solvers of Fig. 11 without CG, skipping "Thomas via texture".
        for e in solvers(gl, n, batch, None).into_iter().skip(1) {
            s.check_interrupt()?;
            if let Some(why) = s.lacks(e.needs()) {
                results.push((f64::NAN, 0, Err(why.clone()), Some(why)));
                continue;
            }
            let mut solver = (e.make)().map_err(alg)?;
            let m = time_solver(gl, solver.as_mut(), &tex, &want, &c.repeat)?;
            results.push((m.ms, m.runs, m.err, None));
        }
        for (i, (ms, runs, e, skipped)) in results.into_iter().enumerate() {
            let key = format!("{g} {}", NAMES[i]);
            let row = t
                .row(&key)
                .text("grid N", g.to_string())
                .text("solver", NAMES[i]);
            if let Some(why) = skipped {
                t.push(row.skip(why))?;
                continue;
            }
            let row = row
                .num(time, ms)
                .num(ratio, ms / th.median_ms)
                .opt(err, e.as_ref().ok().copied())
                .runs(runs);
            t.push(verified_row(row, &e, DIRECT_TOL))?;
            if ms.is_finite() {
                series[i].push(((g as f64) * (g as f64 - 1.0), ms));
            }
        }
    }
    t.finish()?;
    let mut chart = LineChart::new(
        "Fig. 11 (sweep): solve time vs unknowns (N systems × (N − 1))",
        "unknowns in the batch",
        "time (ms)",
    )
    .log_x()
    .log_y();
    for (name, pts) in NAMES.iter().zip(series) {
        chart = chart.series(Series::ours(*name, pts));
    }
    s.line_chart(
        "fig11_sweep.png",
        &chart,
        "Solve time against problem size: CPU Thomas, the paper's fragment CR (copy and switch) and the compute-shader CR/PCR",
    )
}
