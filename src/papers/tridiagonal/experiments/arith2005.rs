//! Beyond the paper (issue 25): does 2005 arithmetic change the accuracy claims? The fragment
//! CR (Fig. 11's error column: against Thomas in f64) and the fragment CG with a fixed number
//! of iterations (against CG in f64 after the same iterations, `cg::cg_fixed_f64`) built once
//! with IEEE arithmetic and once with every `+ − × ÷` of their shaders through the 2005
//! arithmetic model of the Quadro FX 3400 (the LU paper's
//! [`crate::papers::lu::arith2005`], fitted to that paper's Table 5), on the same systems.

use serde::{Deserialize, Serialize};

use super::fig11::CG_FIXED_TOL;
use super::grid::GridData;
use super::keys::{counts, grids, positive_f32};
use super::measure::{DIRECT_TOL, alg};
use crate::gl::{Gl, PingPongMethod};
use crate::papers::lu::arith2005::Arith2005;
use crate::papers::tridiagonal::batch::BatchSolver;
use crate::papers::tridiagonal::cg::{CgParams, FragmentCg, Packing, cg_fixed_f64};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::fragment_cr::{CrParams, FragmentCr};
use crate::report::Column;
use crate::runner::{RunError, Session, Sizes};
use crate::stats::max_rel_error;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Arith2005Config {
    /// Grids (`N` systems of `N − 1` unknowns, heat systems as Fig. 11's).
    #[serde(deserialize_with = "grids")]
    pub grids: Sizes,
    /// CG iteration counts (Fig. 11's "CG n").
    #[serde(deserialize_with = "counts")]
    cg_iterations: Vec<usize>,
    #[serde(deserialize_with = "positive_f32")]
    heat_r: f32,
}

/// One solver of the table, built for `arith`.
type Make<'a> = Box<dyn Fn(Arith2005) -> Result<Box<dyn BatchSolver>, TridiagonalError> + 'a>;

pub(super) fn run(s: &Session, c: &Arith2005Config) -> Result<(), RunError> {
    let mut t = s.table(
        "arith2005",
        "Beyond the paper (issue 25) — the fragment CR and CG under the 2005 arithmetic model: does it change their accuracy?",
        vec![
            Column::key("grid"),
            Column::key("solver"),
            Column::ours("error IEEE").sci(2),
            Column::ours("error emulated 2005").sci(2),
            Column::ours("emulated / IEEE").fixed(2),
        ],
        c,
    )?;
    t.caption("'emulated 2005': every + − × ÷ of the solver's shaders through glsl/common/arith2005.glsl (ARITH_2005 = 7), the model of the Quadro FX 3400's arithmetic fitted to the LU paper's Table 5 (src/papers/lu/arith2005.rs; lu's table5 'emulated 2005' columns); 'IEEE': the same shaders with this device's arithmetic. Errors as Fig. 11's: CR against Thomas in f64 (max relative error), CG n against CG in f64 after the same n iterations from the same start. Each row is verified with Fig. 11's tolerance for that solver, on the emulated error.");
    // (solver, emulated / IEEE error, within the tolerance) of the rows measured now.
    let mut ratios: Vec<(String, f64, bool)> = vec![];
    for &g in c.grids.pick(s.mode) {
        let (n, batch) = (g as usize - 1, g as usize);
        let grid = format!("{g}×{g}");
        let gl = &s.gl;
        let solvers = solvers(gl, (n, batch), &c.cg_iterations);
        let mut data = None;
        for (name, cg, make) in solvers {
            let key = format!("{grid} {name}");
            if t.reuse(&key)?.is_some() {
                continue;
            }
            let d = GridData::get(&mut data, gl, (n, batch), c.heat_r, 1000 + g as u64)?;
            let (want, tol) = match cg {
                Some(it) => (cg_fixed_f64(&d.sys, it), CG_FIXED_TOL),
                None => (d.want.clone(), DIRECT_TOL),
            };
            let err = |arith| -> Result<f64, RunError> {
                let mut solver = make(arith).map_err(alg)?;
                let x = solver.solve(&d.tex).map_err(alg)?.read()?;
                Ok(max_rel_error(&x, &want))
            };
            let (ieee, emulated) = (err(Arith2005::IEEE)?, err(Arith2005::ALL)?);
            ratios.push((name.clone(), emulated / ieee, emulated <= tol));
            t.push(
                t.row(&key)
                    .text("grid", &grid)
                    .text("solver", &name)
                    .num("error IEEE", ieee)
                    .num("error emulated 2005", emulated)
                    .num("emulated / IEEE", emulated / ieee)
                    .verify(emulated, tol),
            )?;
        }
    }
    t.finish()?;
    note(s, &ratios);
    Ok(())
}

/// The solvers of one grid, each with its CG iteration count (`None`: the CR) and built
/// for an arithmetic: the fragment CR (switch) and the RGBA CG for each of `cg_iterations`.
fn solvers<'a>(
    gl: &'a Gl,
    (n, batch): (usize, usize),
    cg_iterations: &[usize],
) -> Vec<(String, Option<usize>, Make<'a>)> {
    let mut solvers: Vec<(String, Option<usize>, Make)> = vec![(
        "CR fragment (switch)".into(),
        None,
        Box::new(move |arith| {
            let mut p = CrParams::new(PingPongMethod::Switch);
            p.arith = arith;
            Ok(Box::new(FragmentCr::with_params(gl, n, batch, p)?) as Box<dyn BatchSolver>)
        }),
    )];
    for &it in cg_iterations {
        solvers.push((
            format!("CG fragment RGBA n = {it}"),
            Some(it),
            Box::new(move |arith| {
                let mut p = CgParams::fixed(Packing::Rgba, it);
                p.arith = arith;
                Ok(Box::new(FragmentCg::with_params(gl, n, batch, p)?) as Box<dyn BatchSolver>)
            }),
        ));
    }
    solvers
}

/// The note: how much the 2005 model changes the errors (`ratios`: solver, emulated / IEEE
/// error, within the tolerance, of the rows measured now).
fn note(s: &Session, ratios: &[(String, f64, bool)]) {
    if !ratios.is_empty() {
        let (lo, hi) = ratios
            .iter()
            .fold((f64::INFINITY, 0f64), |(l, h), r| (l.min(r.1), h.max(r.1)));
        let within = ratios.iter().filter(|r| r.2).count();
        s.note(format!(
            "Under the 2005 arithmetic model (issue 25, table arith2005) the fragment CR's and CG's errors are {lo:.2}–{hi:.2}× those with this device's IEEE arithmetic; {within} of {} solves stay within Fig. 11's tolerances, so the model {} the accuracy the paper's comparison rests on.",
            ratios.len(),
            if within == ratios.len() { "does not change" } else { "changes" }
        ));
    }
}
