//! Fig. 11: solve time of a batch of tridiagonal systems at the paper's grids (`N` systems
//! of `N − 1` unknowns): Thomas on the CPU, CG in fragment shaders with n = 1, 2, 4, 8
//! iterations and converged, the paper's fragment CR (copy and switch), and beyond the
//! paper CR and PCR in compute shaders. Every row is verified: direct solvers and the
//! converged CG against Thomas in f64; CG with a fixed n against CG in f64 run for the same
//! n from the same start (`cg::cg_fixed_f64`).

use serde::{Deserialize, Serialize};

use super::findings::{self, Fig11Times};
use super::grid::GridData;
use super::keys::{count, counts, grids, positive_f32, positive_f64};
use super::measure::{DIRECT_TOL, alg, time_solver};
use super::rows::{ERR, RATIO, TIME, thomas_row, time_cells, verified_row, with_work};
use super::tune::{KERNELS, Tuned, compute_solver};
use crate::gl::{Gl, Need, PingPongMethod};
use crate::papers::tridiagonal::batch::BatchSolver;
use crate::papers::tridiagonal::cg::{CgParams, FragmentCg, Packing, cg_fixed_f64};
use crate::papers::tridiagonal::cpu_thomas::CpuThomas;
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::fragment_cr::{CrParams, FragmentCr};
use crate::report::with_bound_columns;
use crate::report::{Column, Dot, DotChart, DotSeries, Table};
use crate::runner::{PerMode, Repeat, RunError, Session, Sizes, TableWriter};
use crate::stats::max_rel_error;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Fig11Config {
    #[serde(deserialize_with = "grids")]
    pub grids: Sizes,
    #[serde(deserialize_with = "counts")]
    cg_iterations: Vec<usize>,
    #[serde(deserialize_with = "positive_f64")]
    cg_tolerance: f64,
    #[serde(deserialize_with = "count")]
    cg_max_iterations: usize,
    #[serde(deserialize_with = "positive_f32")]
    heat_r: f32,
    repeat: PerMode<Repeat>,
}

/// CG to a residual of 1e-5: forward error ≤ κ·1e-5 ≤ 5e-5, plus f32 dot products over up
/// to 10^6 terms.
const CG_TOL: f64 = 1e-3;
/// f32 CG against f64 CG after the same n ≤ 8 iterations: the f32 dot products (a 2×2
/// reduction tree, ~20 ε relative over 10^6 terms) carried through n iterations on systems
/// of κ ≤ 5 stay near 1e-6; 1e-4 leaves room, and one iteration more or less (or a wrong
/// α, β) changes x by far more (the n = 8 iterate still moves by > 1e-4 per iteration).
pub(super) const CG_FIXED_TOL: f64 = 1e-4;

/// What a row is checked against.
#[derive(Clone, Copy)]
pub(super) enum Reference {
    Thomas(f64),
    CgF64(usize),
}

type Make<'a> = Box<dyn Fn() -> Result<Box<dyn BatchSolver>, TridiagonalError> + 'a>;

/// A solver of the figure, built when its row runs (one solver's buffers at a time).
pub(super) struct Entry<'a> {
    pub make: Make<'a>,
    pub reference: Reference,
    /// A compute-shader solver, beyond the paper (needs [`Need::Compute`]).
    pub beyond: bool,
    /// Its name where it cannot be built (the built solver names itself).
    pub label: &'static str,
}

impl Entry<'_> {
    /// What the solver needs from the device.
    pub fn needs(&self) -> &'static [Need] {
        if self.beyond { &[Need::Compute] } else { &[] }
    }
}

fn entry<'a, S: BatchSolver + 'static>(
    make: impl Fn() -> Result<S, TridiagonalError> + 'a,
    reference: Reference,
    beyond: bool,
) -> Entry<'a> {
    Entry {
        make: Box::new(move || Ok(Box::new(make()?) as Box<dyn BatchSolver>)),
        reference,
        beyond,
        label: "",
    }
}

/// The GL solvers of Fig. 11 for `batch` systems of `n` unknowns (CG only with `cg`), the
/// compute CR and PCR with `local` invocations per work group (tuned: [`super::tune`]).
pub(super) fn solvers<'a>(
    gl: &'a Gl,
    n: usize,
    batch: usize,
    cg: Option<&'a Fig11Config>,
    local: Tuned,
) -> Vec<Entry<'a>> {
    let direct = Reference::Thomas(DIRECT_TOL);
    let mut v = vec![entry(move || CpuThomas::new(gl, n, batch), direct, false)];
    for m in PingPongMethod::ALL {
        let mut p = CrParams::new(m);
        p.check_finite = false;
        v.push(entry(
            move || FragmentCr::with_params(gl, n, batch, p),
            direct,
            false,
        ));
    }
    if let Some(c) = cg {
        for packing in [Packing::Scalar, Packing::Rgba] {
            for &it in &c.cg_iterations {
                let mut p = CgParams::fixed(packing, it);
                p.check_finite = false;
                let make = move || FragmentCg::with_params(gl, n, batch, p);
                v.push(entry(make, Reference::CgF64(it), false));
            }
            let mut p = CgParams::converge(packing, c.cg_tolerance, c.cg_max_iterations);
            p.check_finite = false;
            let make = move || FragmentCg::with_params(gl, n, batch, p);
            v.push(entry(make, Reference::Thomas(CG_TOL), false));
        }
    }
    for (kernel, label) in KERNELS.into_iter().enumerate() {
        v.push(Entry {
            make: Box::new(move || compute_solver(gl, n, batch, kernel, local[kernel])),
            reference: direct,
            beyond: true,
            label,
        });
    }
    v
}

/// The error column of a CG row with a fixed iteration count.
const ERR_CG: &str = "max rel error vs CPU CG f64 (same n)";

pub(super) fn run(s: &Session, c: &Fig11Config, local: Tuned) -> Result<Vec<Fig11Times>, RunError> {
    let mut t = table(s, c, local)?;
    let mut all = vec![];
    for &g in c.grids.pick(s.mode) {
        let mut grid = Grid::new(g);
        let name = grid.name.clone();
        let th = thomas_row(&mut t, &name, &[], c.repeat.pick(s.mode), || {
            let d = grid.data(&s.gl, c)?;
            Ok((&d.sys, d.want.as_slice()))
        })?;
        let mut times = Fig11Times::new(g, th.0);
        for e in solvers(&s.gl, grid.n, grid.batch, Some(c), local) {
            solver_row(s, &mut t, c, &mut grid, &e, th, &mut times)?;
        }
        findings::claims(s, &times);
        all.push(times);
    }
    let table = t.finish()?;
    for times in &all {
        chart(s, times, &table)?;
    }
    findings::cr_vs_thomas(s, &all);
    Ok(all)
}

/// The figure's table and its caption.
fn table(s: &Session, c: &Fig11Config, local: Tuned) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "fig11",
        "Fig. 11 — solve time of a batch of tridiagonal systems (N×N grid: N systems of N − 1 unknowns)",
        with_bound_columns(vec![
            Column::key("grid"),
            Column::key("solver"),
            Column::ours(TIME).unit("ms").fixed(2),
            Column::ours(RATIO).fixed(2),
            Column::ours(ERR).sci(2),
            Column::beyond("beyond the paper").text(),
            Column::ours(ERR_CG).sci(2),
        ]),
        &(c, local),
    )?;
    t.caption(format!(
        "Repetitions: {}.",
        c.repeat.pick(s.mode).rule("run", "solver")
    ));
    t.caption(
        "Thomas CPU f32: single-threaded Thomas on host data (no transfers). Thomas via \
         texture: the same, plus reading the systems back and uploading x (the paper's CPU \
         path when the data live on the GPU). GPU times: median [95 % interval] of \
         glFinish-bracketed solves on systems already in a texture; each solver is timed \
         interleaved with CPU Thomas f32 (rounds of the two, a shuffled order per round), and \
         its × Thomas is the median of the per-round ratios with its interval. CG n = k: k fixed iterations from x = 0, verified \
         against the same k iterations of CG in f64 from the same start (its distance to the \
         exact solution is in the Thomas column, not a failure).",
    );
    Ok(t)
}

/// One grid of the figure: `N` systems of `N − 1` unknowns, their data made at the first
/// row that is measured (not where `--resume` reuses every row).
struct Grid {
    n: usize,
    batch: usize,
    seed: u64,
    /// `N×N`, the first cell of the grid's rows.
    name: String,
    data: Option<GridData>,
}

impl Grid {
    fn new(g: u32) -> Grid {
        Grid {
            n: g as usize - 1,
            batch: g as usize,
            seed: 1000 + g as u64,
            name: format!("{g}×{g}"),
            data: None,
        }
    }

    fn data(&mut self, gl: &Gl, c: &Fig11Config) -> Result<&GridData, RunError> {
        GridData::get(
            &mut self.data,
            gl,
            (self.n, self.batch),
            c.heat_r,
            self.seed,
        )
    }
}

/// The row of solver `e` on `grid` (`th`: CPU Thomas's time and whether its row was
/// reused): skipped where the device lacks what it needs, reused, or measured; its verified
/// time joins `times`.
fn solver_row(
    s: &Session,
    t: &mut TableWriter,
    c: &Fig11Config,
    grid: &mut Grid,
    e: &Entry,
    (th_ms, reused_th): (f64, bool),
    times: &mut Fig11Times,
) -> Result<(), RunError> {
    s.check_interrupt()?;
    if let Some(why) = s.lacks(e.needs()) {
        let key = format!("{} {}", grid.name, e.label);
        let row = t.row(&key).text("grid", &grid.name).text("solver", e.label);
        t.push(row.skip(why))?;
        return Ok(());
    }
    // Built before its row is looked up: the row's key is the solver's name.
    let mut solver = (e.make)().map_err(alg)?;
    let name = match solver.name() {
        "Thomas CPU f32" => "Thomas via texture (read back, solve, upload)".to_string(),
        other => other.to_string(),
    };
    let key = format!("{} {name}", grid.name);
    let keep = |ms: f64| ms.is_finite() && !name.starts_with("Thomas via");
    if reused_th && let Some(row) = t.reuse(&key)? {
        // A reused row is one that did not fail: its time joins the findings as a
        // measured one would.
        if let Some(ms) = t.value(&row, TIME).filter(|&ms| keep(ms)) {
            times.push(&name, ms, e.beyond);
            let est = |c: &str| row.values[t.table().col(c)].estimate().cloned();
            times.push_est(&name, est(TIME), est(RATIO));
        }
        return Ok(());
    }
    t.start(&key);
    let d = grid.data(&s.gl, c)?;
    let (reference, tol) = match e.reference {
        Reference::Thomas(tol) => (None, tol),
        Reference::CgF64(it) => (Some(cg_fixed_f64(&d.sys, it)), CG_FIXED_TOL),
    };
    let m = time_solver(
        &s.gl,
        solver.as_mut(),
        &d.tex,
        reference.as_ref().unwrap_or(&d.want),
        c.repeat.pick(s.mode),
        Some(&d.sys),
    )?;
    let thomas_err = match (&m.err, &reference) {
        (Ok(_), Some(_)) => Some(max_rel_error(
            &solver.solve(&d.tex).map_err(alg)?.read()?,
            &d.want,
        )),
        (Ok(e), None) => Some(*e),
        (Err(_), _) => None,
    };
    let row = time_cells(t.row(&key), &m, th_ms)
        .text("grid", &grid.name)
        .text("solver", &name)
        .opt(ERR, thomas_err)
        .text(
            "beyond the paper",
            if e.beyond { "compute shader" } else { "" },
        )
        .opt(ERR_CG, reference.as_ref().and(m.err.as_ref().ok().copied()))
        .runs(m.runs);
    let row = verified_row(with_work(row, &m, Some(&grid.name)), &m.err, tol);
    let ok = !row.row().status.failed();
    t.push(row)?;
    if ok && keep(m.ms) {
        times.push(&name, m.ms, e.beyond);
        times.push_est(&name, Some(m.timing.est()), m.ratio.clone());
    }
    Ok(())
}

/// The dot chart of one grid: Thomas (CPU) and every verified GL solver, each time with its
/// 95 % interval, on a log axis (the times span two decades; `table`: Thomas's interval).
fn chart(s: &Session, times: &Fig11Times, table: &Table) -> Result<(), RunError> {
    let g = times.grid;
    let thomas = table
        .rows
        .iter()
        .find(|r| r.key == format!("{g}×{g} Thomas CPU f32"))
        .and_then(|r| r.values.get(table.col(TIME)))
        .and_then(|v| v.interval());
    let mut dots = vec![("Thomas CPU".to_string(), Dot::new(times.thomas_ms, thomas))];
    dots.extend(times.solvers.iter().map(|(n, ms, _)| {
        let iv = times.time_est(n).map(|e| (e.lo, e.hi));
        (n.replace("fragment ", ""), Dot::new(*ms, iv))
    }));
    let chart = DotChart {
        title: format!("Fig. 11 — solve time, N = {g}×{g} (this machine)"),
        category_label: "solver".into(),
        value_label: "time (ms, log; whiskers: 95 % interval)".into(),
        log: true,
        categories: dots.iter().map(|d| d.0.clone()).collect(),
        series: vec![DotSeries {
            name: "ours".into(),
            dots: dots.iter().map(|d| Some(d.1)).collect(),
            paper: false,
        }],
    };
    s.dot_chart(
        &format!("fig11_{g}.png"),
        &chart,
        &format!("Fig. 11 at {g}×{g}: Thomas (CPU), CG with n iterations, CR (switch and copy), and the compute variants; median time with its 95 % interval"),
    )?;
    Ok(())
}
