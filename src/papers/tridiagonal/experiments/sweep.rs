//! Fig. 11 as a curve: solve time against the grid size `N` (N systems of N − 1 unknowns)
//! for CPU Thomas, the paper's fragment CR (copy and switch), the compute CR/PCR and the CR
//! passes as compute dispatches.

use serde::{Deserialize, Serialize};

use super::fig11::solvers;
use super::grid::GridData;
use super::keys::{grids, positive_f32};
use super::measure::{Measured, alg, time_solver, time_thomas_cpu};
use super::rows::{ERR, RATIO, TIME, timed_row};
use crate::report::with_bound_columns;
use crate::report::{Column, LineChart, Row, Series};
use crate::runner::{Repeat, RunError, Session, Sizes, TableWriter};

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SweepConfig {
    #[serde(deserialize_with = "grids")]
    pub grids: Sizes,
    #[serde(deserialize_with = "positive_f32")]
    heat_r: f32,
    repeat: Repeat,
}

const NAMES: [&str; 6] = [
    "Thomas CPU f32",
    "CR fragment (copy)",
    "CR fragment (switch)",
    "CR compute",
    "PCR compute",
    "CR compute (passes)",
];

/// Adds the row of solver `NAMES[i]` at grid `g`: its measurement and its ratio to Thomas's
/// time `th_ms`.
fn push(
    t: &mut TableWriter,
    key: &str,
    g: u32,
    i: usize,
    m: &Measured,
    th_ms: f64,
) -> Result<(), RunError> {
    let row = t.row(key).text("grid N", g.to_string());
    t.push(timed_row(
        row.text("solver", NAMES[i]),
        m,
        th_ms,
        Some(&format!("{g} systems × {g}, sweep")),
    ))
}

pub(super) fn run(s: &Session, c: &SweepConfig, local: super::tune::Tuned) -> Result<(), RunError> {
    let gl = &s.gl;
    let grids = c.grids.pick(s.mode).to_vec();
    let mut t = table(s, c, local)?;
    let mut series: Vec<Vec<Point>> = vec![vec![]; NAMES.len()];
    t.expect_rows(grids.len() * NAMES.len());
    for &g in &grids {
        let (n, batch) = (g as usize - 1, g as usize);
        let (mut data, seed) = (None, 5000 + g as u64);
        let unknowns = (g as f64) * (g as f64 - 1.0);
        let keys = NAMES.map(|name| format!("{g} {name}"));
        // CPU Thomas f32, every ratio's denominator: with `--resume` the GL rows of a grid are
        // reused only together with it, so that their ratios share one denominator.
        let reused_th = t.reuse(&keys[0])?.and_then(|row| point(&t, &row, unknowns));
        let th_ms = match reused_th {
            Some(p) => {
                series[0].push(p);
                p.1
            }
            None => {
                let d = GridData::get(&mut data, gl, (n, batch), c.heat_r, seed)?;
                let th = time_thomas_cpu(&d.sys, &d.want, &c.repeat)?;
                push(&mut t, &keys[0], g, 0, &th, th.ms)?;
                let e = th.timing.est();
                series[0].push((unknowns, th.ms, Some((e.lo, e.hi))));
                th.ms
            }
        };
        // The GL solvers of Fig. 11 without CG, skipping "Thomas via texture".
        for (i, e) in solvers(gl, n, batch, None, local)
            .into_iter()
            .enumerate()
            .skip(1)
        {
            s.check_interrupt()?;
            if let Some(why) = s.lacks(e.needs()) {
                let row = t.row(&keys[i]).text("grid N", g.to_string());
                t.push(row.text("solver", NAMES[i]).skip(why))?;
                continue;
            }
            if reused_th.is_some()
                && let Some(row) = t.reuse(&keys[i])?
            {
                series[i].extend(point(&t, &row, unknowns));
                continue;
            }
            t.start(&keys[i]);
            let d = GridData::get(&mut data, gl, (n, batch), c.heat_r, seed)?;
            let mut solver = (e.make)().map_err(alg)?;
            let m = time_solver(
                gl,
                solver.as_mut(),
                &d.tex,
                &d.want,
                &c.repeat,
                Some(&d.sys),
            )?;
            push(&mut t, &keys[i], g, i, &m, th_ms)?;
            if m.ms.is_finite() {
                let e = m.timing.est();
                series[i].push((unknowns, m.ms, Some((e.lo, e.hi))));
            }
        }
    }
    t.finish()?;
    chart(s, series)
}

/// The table of the sweep.
fn table(s: &Session, c: &SweepConfig, local: super::tune::Tuned) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "sweep",
        "Fig. 11 (sweep) — solve time against grid size (N systems of N − 1 unknowns)",
        with_bound_columns(vec![
            Column::key("grid N"),
            Column::key("solver"),
            Column::ours(TIME).unit("ms").fixed(3),
            Column::ours(RATIO).fixed(2),
            Column::ours(ERR).sci(2),
        ]),
        &(c, local),
    )?;
    t.caption(format!(
        "Times, ratios and errors as in Fig. 11's table. Repetitions: {}.",
        c.repeat.rule("run", "solver")
    ));
    Ok(t)
}

/// A point of the chart: unknowns, median ms and its 95 % interval.
type Point = (f64, f64, Option<(f64, f64)>);

/// The point of a reused `row` at `unknowns`: its time with the interval, if it has a time.
fn point(t: &TableWriter, row: &Row, unknowns: f64) -> Option<Point> {
    let c = t.table().col(TIME);
    let iv = row.values.get(c).and_then(|v| v.interval());
    Some((unknowns, t.value(row, TIME)?, iv))
}

/// Solve time against the unknowns of the batch, one series per solver of [`NAMES`], each
/// point with its 95 % interval.
fn chart(s: &Session, series: Vec<Vec<Point>>) -> Result<(), RunError> {
    let mut chart = LineChart::new(
        "Fig. 11 (sweep): solve time vs unknowns (N systems × (N − 1))",
        "unknowns in the batch",
        "time (ms)",
    )
    .log_x()
    .log_y();
    for (name, pts) in NAMES.iter().zip(series) {
        chart = chart.series(Series::measured(*name, pts));
    }
    s.line_chart(
        "fig11_sweep.png",
        &chart,
        "Solve time against problem size: CPU Thomas, the paper's fragment CR (copy and switch), \
         the compute-shader CR/PCR and the CR passes as compute dispatches; median with its \
         95 % interval",
    )
}
