//! Tracing Kim & Lee 2005's Fig. 9: the `N²` tridiagonal systems of one ADI direction of an
//! `N×N×N` grid, tiled into one 2D texture ([`Tiling3d`]) and solved by [`FragmentCr::tiled`]
//! (the solver of the Fig. 9 experiment, switch method) with one draw call per pass: one quad
//! per tile column.

use super::error::TraceError;
use super::input::Input;
use super::record::Recorder;
use super::run::{Run, Trace};
use super::technique::Technique;
use crate::gl::Gl;
use crate::papers::tridiagonal::thomas_batch_f64;
use crate::papers::tridiagonal::tiled::Tiling3d;
use crate::papers::tridiagonal::{CrLayout, CrParams, FragmentCr, Systems, TridiagonalError};
use crate::stats::max_rel_error;

/// `trace cr-tiled`.
pub const TILED: Technique = Technique {
    name: "cr-tiled",
    about: "Kim & Lee 2005 Fig. 9: the N² systems of an N×N×N grid tiled, CR switch method",
    default_size: 4,
    default_batch: 1,
    check,
    run,
};

const MAX_G: usize = 5;

fn check(i: &Input) -> Result<(), String> {
    let what = format!(
        "the tiled trace takes an N×N×N grid with 3 ≤ N ≤ {MAX_G} (N² systems of N − 1 unknowns)"
    );
    super::input::check_size(i.size, 3..=MAX_G, &what)?;
    super::input::check_one(
        i.batch,
        "the grid fixes the systems (N²); leave --batch out",
    )
}

fn run(gl: &Gl, input: &Input) -> Result<Trace, TraceError> {
    let t = Tiling3d::new(input.size);
    let sys = Systems::random(t.n, t.systems(), false, input.seed);
    let tex = t.upload(gl, &sys)?;
    let err = |e: TridiagonalError| TraceError::Solver(e.to_string());
    let params = CrParams::new(crate::gl::PingPongMethod::Switch);
    let solver = || FragmentCr::tiled(gl, t.n, t.rows, t.cols, params).map_err(err);
    let mut rec = Recorder::default();
    let mut traced_solver = solver()?;
    let solver_out = traced_solver
        .solve_observed(&tex, Some(&mut rec))
        .map_err(err)?
        .read()?;
    let untraced = solver()?.solve_tiled(&tex).map_err(err)?.read()?;
    // A texture row is a system of one slice and line in each tile column, not a y.
    for snap in rec.passes.iter_mut().flat_map(|p| &mut p.panels) {
        snap.rows = "row";
    }
    let run = Run::of_last_panel(rec, "x (result)", &solver_out, untraced)?;
    let want = thomas_batch_f64(&sys).map_err(err)?;
    let e = max_rel_error(&t.untile(&run.traced), &want);
    let intro = intro(&t, input.seed, traced_solver.layout());
    Ok(run.finish(
        TILED.name,
        input,
        intro,
        format!(
            "max relative error of the {} systems (untiled) against Thomas in f64 (CPU): \
             {e:.2e}",
            t.systems()
        ),
    ))
}

/// The trace's introduction: the paper's Fig. 9 layout of `t`, each tile column's slices,
/// and the buffers' run layout `l`.
fn intro(t: &Tiling3d, seed: u64, l: &CrLayout) -> String {
    let (w, h) = t.size();
    let (g, per) = (t.g, t.rows / t.g);
    let slots = t.cols * per;
    let columns: Vec<String> = (0..t.cols)
        .map(|c| {
            let z0 = c * per;
            let z1 = (z0 + per).min(g);
            let held = if z0 >= g {
                "identity rows only".to_string()
            } else if z1 - z0 == 1 {
                format!("slice z = {z0}")
            } else {
                format!("slices z = {z0} … {}", z1 - 1)
            };
            format!(
                "tile column {c} (texels {} … {}): {held}",
                c * t.n,
                (c + 1) * t.n - 1
            )
        })
        .collect();
    format!(
        "Kim & Lee 2005, *Fast GPU Implementation for the Solution of Tridiagonal Matrix \
         Systems*, §3.2 and Fig. 9: a 3D problem's tridiagonal systems stored in one 2D \
         texture instead of a cube map (the paper: 2D textures perform better), solved by the \
         fragment cyclic reduction (§3.1–3.2, eq. 15–16; `trace cr-switch` shows one tile) \
         with the **switch method**.\n\n\
         Input: one ADI direction of an N×N×N grid, N = {g}: N² = {ns} random diagonally \
         dominant systems (seed {seed}) of N − 1 = {n} unknowns, one per (y, z) line. Each \
         slice z is an N×N 2D batch (one system per texture row, Fig. 7/8); the {g} slices \
         are tiles on a grid of {cols} tile columns of ⌈N/{cols}⌉ = {per} slices ({rows} \
         texture rows) each, cols = ⌈√N⌉ so the texture ({w} × {h}) is close to square. \
         System k = z·N + y sits in tile column ⌊k / {rows}⌋, texture row k mod {rows}: \
         {columns}.{unused}\n\n\
         Every buffer (P0, P1/P2, X1/X2, the result) holds the tile columns side by side, \
         each with its own run layout (P: {pw} texels per column, X: N' + 3 = {xw}); every \
         pass is **one draw call of {cols} quads**, one per tile column (outlined in red), \
         each doing the index mapping of a 2D batch. In the pictures: blue texels were \
         fetched, orange ones drawn; values the pass changed are dark red. The solver is \
         `FragmentCr::tiled` (`src/papers/tridiagonal/fragment_cr.rs`, with \
         `src/papers/tridiagonal/tiled.rs`), the one the Fig. 9 experiment times.",
        ns = t.systems(),
        n = t.n,
        cols = t.cols,
        rows = t.rows,
        columns = columns.join("; "),
        unused = if slots > g {
            format!(
                " The {} slots beyond the N² systems hold identity equations (0, 1, 0, 0).",
                (slots - g) * g
            )
        } else {
            String::new()
        },
        pw = l.p_width,
        xw = l.np + 3,
    )
}
