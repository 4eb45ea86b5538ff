//! The rows every Fig. 11-style table (fig11, sweep, fig9) shares: their columns, CPU
//! Thomas f32's row (every ratio's denominator) and a timed solver's cells.

use super::measure::{DIRECT_TOL, Measured, time_thomas_cpu};
use crate::papers::tridiagonal::cpu::Systems;
use crate::report::RowBuilder;
use crate::runner::{Repeat, RunError, TableWriter};

/// The columns every Fig. 11-style table (fig11, sweep, fig9) shares.
pub(super) const TIME: &str = "time";
pub(super) const RATIO: &str = "× Thomas CPU f32";
pub(super) const ERR: &str = "max rel error vs Thomas f64";

/// `row` (its key cells filled) completed with measurement `m` checked against Thomas f64:
/// its time, the ratio to CPU Thomas's `th_ms`, the error and the timed runs, verified within
/// [`DIRECT_TOL`]. `input` names the systems solved, for the legacy-vs-compute table (the
/// fragment and compute CR of one input meet there).
pub(super) fn timed_row(
    row: RowBuilder,
    m: &Measured,
    th_ms: f64,
    input: Option<&str>,
) -> RowBuilder {
    let row = time_cells(row, m, th_ms)
        .opt(ERR, m.err.as_ref().ok().copied())
        .runs(m.runs);
    verified_row(with_work(row, m, input), &m.err, DIRECT_TOL)
}

/// `row` with `m`'s time (median [95 % interval]) and its ratio to CPU Thomas's `th_ms`: the
/// paired ratio where the two were timed in rounds, else the ratio of the medians (CPU
/// Thomas's own row: 1).
pub(super) fn time_cells(row: RowBuilder, m: &Measured, th_ms: f64) -> RowBuilder {
    let row = if m.timing.runs > 0 {
        row.timed(TIME, &m.timing)
    } else {
        row.num(TIME, m.ms)
    };
    match &m.ratio {
        Some(r) => row.est(RATIO, r.clone()),
        None => row.num(RATIO, m.ms / th_ms),
    }
}

/// `row` with `m`'s work and time recorded for the bound columns (GPU solvers that were
/// timed; CPU rows and failed solves get none); a CR kernel (fragment or compute) of a named
/// `input` also joins the legacy-vs-compute table.
pub(super) fn with_work(row: RowBuilder, m: &Measured, input: Option<&str>) -> RowBuilder {
    match &m.work {
        Some((kernel, w)) if m.ms.is_finite() => {
            let row = row.work_timed(kernel.clone(), *w, &m.timing);
            match input {
                Some(i) if kernel.starts_with("CR ") => row.versus("cyclic reduction", i),
                _ => row,
            }
        }
        _ => row,
    }
}

/// Pure CPU Thomas f32 on a grid's systems, the denominator of every ratio of the grid, and
/// whether its row (`<grid> Thomas CPU f32`, then the key cells `cells`) was reused: with
/// `--resume` the grid's other rows are reused only together with it, so that every ratio
/// has the same denominator. `data` makes the systems and their f64 solution, only where the
/// row is measured.
pub(super) fn thomas_row<'d>(
    t: &mut TableWriter,
    grid: &str,
    cells: &[(&str, &str)],
    repeat: &Repeat,
    data: impl FnOnce() -> Result<(&'d Systems, &'d [f64]), RunError>,
) -> Result<(f64, bool), RunError> {
    let key = format!("{grid} Thomas CPU f32");
    let reused = t.reuse(&key)?.and_then(|row| t.value(&row, TIME));
    let ms = match reused {
        Some(ms) => ms,
        None => {
            t.start(&key);
            let (sys, want) = data()?;
            let th = time_thomas_cpu(sys, want, repeat)?;
            let mut row = t.row(&key).text("grid", grid);
            for (name, v) in [("solver", "Thomas CPU f32")].iter().chain(cells) {
                row = row.text(name, *v);
            }
            t.push(timed_row(row, &th, th.ms, None))?;
            th.ms
        }
    };
    Ok((ms, reused.is_some()))
}

/// `row` verified against its tolerance, or failed with the solver's error.
pub(super) fn verified_row(row: RowBuilder, err: &Result<f64, String>, tol: f64) -> RowBuilder {
    match err {
        Ok(e) => row.verify(*e, tol),
        Err(e) => row.fail(e.clone()),
    }
}
