//! Fig. 9: the `N²` systems of one ADI direction of an `N×N×N` grid tiled into one 2D
//! texture ([`Tiling3d`]), solved by the fragment CR with one draw call per level over the
//! whole texture, timed in Fig. 11's style against CPU Thomas and verified against Thomas
//! in f64. Beside it, where the device's texture height allows, the same `N²` systems as one
//! untiled column (`N²` rows): what the tiling costs or saves.

use serde::{Deserialize, Serialize};

use super::keys::{grids, positive_f32};
use super::limits::check_size;
use super::measure::{Measured, alg, kernel_name};
use super::rows::{ERR, RATIO, TIME, thomas_row, timed_row};
use crate::gl::PingPongMethod;
use crate::gl::measure::{once_cpu, once_gpu};
use crate::gl::timing::rounds;
use crate::papers::tridiagonal::batch::{BatchSolver, upload};
use crate::papers::tridiagonal::cpu::{Systems, thomas_batch_f32, thomas_batch_f64};
use crate::papers::tridiagonal::fragment_cr::{CrParams, FragmentCr};
use crate::papers::tridiagonal::layout::levels_for;
use crate::papers::tridiagonal::tiled::Tiling3d;
use crate::report::Column;
use crate::report::with_bound_columns;
use crate::runner::{Mode, Repeat, RunError, Session, Sizes, TableWriter};
use crate::stats::max_rel_error;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Fig9Config {
    /// `N` of the `N×N×N` grids.
    #[serde(deserialize_with = "grids")]
    grids: Sizes,
    #[serde(deserialize_with = "positive_f32")]
    heat_r: f32,
    repeat: Repeat,
}

/// Refuses grids the device or the host cannot hold (before anything is allocated).
pub(super) fn check(
    info: &crate::gl::DeviceInfo,
    c: &Fig9Config,
    mode: Mode,
) -> Result<(), RunError> {
    for &g in c.grids.pick(mode) {
        let tl = Tiling3d::new(g as usize);
        let (w, h) = tl.size();
        let xw = (w / tl.n.max(1)) as u64 * ((1u64 << levels_for(tl.n)) + 3);
        let unknowns = (tl.n * tl.systems()) as u64;
        check_size(
            info,
            "fig9",
            g as usize,
            xw.max(w as u64),
            h as u64,
            unknowns,
        )?;
    }
    Ok(())
}

/// `systems` heat systems of `n` unknowns and their solution by Thomas in f64, made at the
/// first call (not where `--resume` reuses every row of the grid).
fn grid_data(
    slot: &mut Option<(Systems, Vec<f64>)>,
    n: usize,
    systems: usize,
    r: f32,
    seed: u64,
) -> Result<(&Systems, &[f64]), RunError> {
    if slot.is_none() {
        let sys = Systems::heat(n, systems, r, seed);
        let want = thomas_batch_f64(&sys).map_err(alg)?;
        *slot = Some((sys, want));
    }
    let (sys, want) = slot.as_ref().expect("made above");
    Ok((sys, want))
}

pub(super) fn run(s: &Session, c: &Fig9Config) -> Result<(), RunError> {
    let mut t = table(s, c)?;
    for &g in c.grids.pick(s.mode) {
        let tl = Tiling3d::new(g as usize);
        let systems = tl.systems();
        let mut grid = Grid {
            name: format!("{g}×{g}×{g}"),
            data: None,
            seed: 7000 + g as u64,
        };
        let cells = [("texture", "—")];
        let th = thomas_row(&mut t, &grid.name, &cells, &c.repeat, || {
            grid_data(&mut grid.data, tl.n, systems, c.heat_r, grid.seed)
        })?;
        let max_h = s.gl.info().max_rectangle_texture_size.max(0) as usize;
        let layouts = [
            (
                format!("CR fragment (switch), tiled ({} columns)", tl.cols),
                tl.cols,
                tl.rows,
            ),
            ("CR fragment (switch), untiled".to_string(), 1, systems),
        ];
        for (name, cols, rows) in layouts {
            if cols == 1 && rows > max_h {
                continue; // one column of N² rows does not fit this device
            }
            s.check_interrupt()?;
            let key = format!("{} {name}", grid.name);
            if th.1 && t.reuse(&key)?.is_some() {
                continue;
            }
            t.start(&key);
            let (m, (w, h)) = measure(s, c, &tl, &mut grid, (&name, cols, rows))?;
            let row = t.row(&key).text("grid", &grid.name).text("solver", &name);
            t.push(timed_row(
                row.text("texture", format!("{w}×{h}")),
                &m,
                th.0,
                None,
            ))?;
        }
    }
    t.finish()?;
    Ok(())
}

/// The figure's table and its caption.
fn table(s: &Session, c: &Fig9Config) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "fig9",
        "Fig. 9 — 3D batches tiled into one 2D texture (N×N×N grid: N² systems of N − 1 unknowns)",
        with_bound_columns(vec![
            Column::key("grid"),
            Column::key("solver"),
            Column::ours("texture").text(),
            Column::ours(TIME).unit("ms").fixed(2),
            Column::ours(RATIO).fixed(2),
            Column::ours(ERR).sci(2),
        ]),
        c,
    )?;
    t.caption(
        "The N slices (N×N each) are tiles on a ⌈√N⌉-column grid of one texture; every \
         reduction and fill level is one draw call over the whole texture (one quad per tile \
         column). Untiled: the N² systems as one column of N² rows (only where the device's \
         texture height allows). Times: median of glFinish-bracketed solves on systems \
         already in a texture; Thomas: single-threaded f32 on host data.",
    );
    t.caption(format!("Repetitions: {}.", c.repeat.rule("run", "solver")));
    Ok(t)
}

/// One `N×N×N` grid: its name (the first cell of its rows) and its systems, made at the
/// first row that is measured.
struct Grid {
    name: String,
    data: Option<(Systems, Vec<f64>)>,
    seed: u64,
}

/// The fragment CR `name` on `cols` tile columns of `rows` systems (one column: untiled),
/// verified against Thomas in f64 and timed in rounds with CPU Thomas f32 (× Thomas is a
/// paired ratio); with the size of its texture.
fn measure(
    s: &Session,
    c: &Fig9Config,
    tl: &Tiling3d,
    grid: &mut Grid,
    (name, cols, rows): (&str, usize, usize),
) -> Result<(Measured, (u32, u32)), RunError> {
    let gl = &s.gl;
    let n = tl.n;
    let (sys, want) = grid_data(&mut grid.data, n, tl.systems(), c.heat_r, grid.seed)?;
    let tex = if cols == 1 {
        upload(gl, sys)?
    } else {
        tl.upload(gl, sys)?
    };
    let (w, h) = (tex.width(), tex.height());
    let params = CrParams::new(PingPongMethod::Switch);
    let mut cr = FragmentCr::tiled(gl, n, rows, cols, params).map_err(alg)?;
    let got = match cr.solve_tiled(&tex) {
        Ok(out) => {
            let x = out.read()?;
            Ok(max_rel_error(
                &if cols == 1 { x } else { tl.untile(&x) },
                want,
            ))
        }
        Err(e) => Err(e.to_string()),
    };
    cr.set_check_finite(false);
    // The tiled CR and CPU Thomas f32 in rounds: × Thomas is a paired ratio.
    let timed = match &got {
        Ok(_) => {
            let mut x = vec![0f32; sys.n * sys.batch];
            Some(rounds(c.repeat.plan(), 2, |i| -> Result<f64, RunError> {
                let ((), ms) = if i == 0 {
                    once_gpu(gl, || cr.solve_tiled(&tex).map(drop))
                } else {
                    once_cpu(|| thomas_batch_f32(sys, &mut x))
                }
                .map_err(alg)?;
                Ok(ms)
            })?)
        }
        Err(_) => None,
    };
    let ratio = timed.as_ref().and_then(|r| r.ratio(0, 1));
    let timing = timed.map(|r| r.timings[0].clone());
    let m = Measured {
        ms: timing.as_ref().map_or(f64::NAN, |t| t.median_ms),
        runs: timing.as_ref().map_or(0, |t| t.runs),
        timing: timing.unwrap_or_default(),
        err: got,
        work: cr.work().map(|w| (kernel_name(name), w)),
        ratio,
    };
    Ok((m, (w, h)))
}
