//! Precision (§V.2): the paper ran double precision throughout because single precision
//! "often failed to converge" on this problem. The same GL Bi-CG built in fp64 and fp32, at
//! the same tolerance, the fp32 solve capped at a multiple of the fp64 iteration count.

use super::config::Config;
use super::solve::{cpu_reference, solution_tolerance};
use crate::gl::Need;
use crate::papers::bicg::cpu::Stop;
use crate::papers::bicg::cpu::{self, BicgParams};
use crate::papers::bicg::gpu::{GpuBicg, GpuOptions};
use crate::papers::bicg::poisson::{PoissonSystem, fig4_problem};
use crate::report::{Column, Finding, LineChart, Row, Series, Verdict};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;

/// Verification tolerance of the fp32 solution: what fp32 storage of x holds on this
/// conditioning.
pub(crate) const FP32_TOLERANCE: f64 = 1e-3;

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let (params, opts) = (&cfg.solver.params(), cfg.solver.gpu_options());
    let mesh = cfg.precision.mesh.pick(s.mode).0;
    let sys = fig4_problem(&mesh);
    let x0 = vec![0.0; mesh.nodes()];
    let (cx, cinfo) = cpu_reference(&sys, params)?;
    let mut t = table(s, cfg, &mesh.label())?;
    let cap = cfg.precision.cap_factor * cinfo.iterations.max(1);
    t.caption(format!(
        "Same tolerance {:.0e}; the fp32 build is capped at {}× the fp64 iteration count ({cap}). \
         Estimate: NR's itol = 4 error estimate. Verified: fp64 against the CPU solution \
         (≤ {:.0e}); fp32 against the same within {FP32_TOLERANCE:.0e} (what fp32 storage of x \
         can hold on this conditioning).",
        params.tol,
        cfg.precision.cap_factor,
        solution_tolerance(params.tol)
    ));
    let p = BicgParams {
        max_iter: cap,
        ..*params
    };
    // With `--resume` the rows of the builds this device runs are reused together, and only
    // where the chart of their histories (which rows do not hold) is still there from the run
    // that measured them. The CPU solve above runs either way: it sets the fp32 cap of the
    // caption.
    let lacks_fp64 = s.lacks(&[Need::Fp64]);
    let builds: Vec<String> = ["fp64", "fp32"]
        .into_iter()
        .filter(|&b| b == "fp32" || lacks_fp64.is_none())
        .map(String::from)
        .collect();
    if let Some(why) = &lacks_fp64 {
        t.push(t.row("fp64").text("Build", "fp64").skip(why.clone()))?;
    }
    if s.dir().join(CHART).exists()
        && let Some(rows) = t.reuse_all(&builds)?
    {
        reused_notes(s, &t, &mesh.label(), &builds, &rows);
        let table = t.finish()?;
        fp64_needed(s, &table, params.tol);
        s.add_plot(CHART, CAPTION);
        return Ok(());
    }
    let problem = Problem {
        sys: &sys,
        x0: &x0,
        cx: &cx,
        mesh: mesh.label(),
    };
    let mut hist = Vec::new();
    for build in ["fp64", "fp32"] {
        s.check_interrupt()?;
        if build == "fp64" && lacks_fp64.is_some() {
            continue; // its row says why, above
        }
        let history = build_row(s, &mut t, build, &problem, &p, params.tol, opts)?;
        hist.push((build, history));
    }
    let table = t.finish()?;
    fp64_needed(s, &table, params.tol);
    chart(s, &problem.mesh, hist, cap, params.tol)
}

/// B5, "fp64 is needed: with fp32 the solver often fails to converge" (§VI), on Fig. 4's
/// Laplace system — the rule of the charged systems' cases ([`super::precision_charged`]):
/// *held* where the fp64 build meets the tolerance `tol` (its error against the CPU's f64
/// solution) and the fp32 build either stops without converging or errs by more than
/// [`FP32_TOLERANCE`] (what fp32 storage of x holds; an error between `tol` and it is fp32's
/// rounding floor, not a failure to converge). Nothing random: one solve each, exact values.
fn fp64_needed(s: &Session, table: &crate::report::Table, tol: f64) {
    let (err, stop) = (table.col("Error vs f64 CPU"), table.col("Stop"));
    let find = |b: &str| table.rows.iter().find(|r| r.key == b);
    let (Some(r64), Some(r32)) = (find("fp64"), find("fp32")) else {
        return;
    };
    let (Some(e64), Some(e32)) = (r64.values[err].as_f64(), r32.values[err].as_f64()) else {
        return;
    };
    let stop32 = match &r32.values[stop] {
        crate::report::Value::Text(t) => t.as_str(),
        _ => "—",
    };
    let f = Finding::new(
        "precision",
        "fp64 is needed: the fp32 build fails where the fp64 build converges",
    )
    .paper("fp32 often fails to converge; fp64 used (§VI, abstract)");
    let f = if e64 > tol {
        f.verdict(Verdict::Inconclusive).why(format!(
            "The fp64 build itself misses the tolerance (error {e64:.2e} > {tol:.0e}): the \
             two builds are not told apart by it."
        ))
    } else if stop32 != Stop::Converged.describe() {
        f.verdict(Verdict::Held)
            .ours(format!("fp32: {stop32}, error {e32:.2e}"))
            .why(format!(
                "The fp32 build stopped without converging ({stop32}); fp64: error {e64:.2e} \
                 ≤ {tol:.0e}."
            ))
    } else {
        let f = f.exact("fp32 error vs f64 CPU", e32, FP32_TOLERANCE, true);
        let why = format!(
            "{} fp64: error {e64:.2e} ≤ {tol:.0e}. The fp32 solver converged by its own \
             estimate; an error below {FP32_TOLERANCE:.0e} is fp32's rounding, not a failure \
             to converge.",
            f.why
        );
        f.why(why)
    };
    s.finding(f);
}

/// The table (its row count set; the caption, which needs the CPU solve, is the caller's).
fn table(s: &Session, cfg: &Config, mesh: &str) -> Result<TableWriter, RunError> {
    let (params, opts) = (&cfg.solver.params(), cfg.solver.gpu_options());
    let t = s.table(
        "precision",
        &format!("Precision — the same GL Bi-CG in fp64 and fp32 ({mesh})"),
        vec![
            Column::key("Build").text(),
            Column::ours("Iterations").int(),
            Column::ours("Stop").text(),
            Column::ours("Final estimate").sci(2),
            Column::ours("Best estimate").sci(2),
            Column::ours("True residual").sci(2),
            Column::ours("Error vs f64 CPU").sci(2),
        ],
        &(&cfg.precision, params, opts),
    )?;
    t.expect_rows(2);
    Ok(t)
}

/// The notes of reused rows, as the run that measured them wrote them.
fn reused_notes(s: &Session, t: &TableWriter, mesh: &str, builds: &[String], rows: &[Row]) {
    for (build, row) in builds.iter().zip(rows) {
        let num = |c: &str| t.value(row, c).unwrap_or(f64::NAN);
        note(
            s,
            mesh,
            build,
            t.text(row, "Stop").unwrap_or("—"),
            num("Iterations"),
            [num("Final estimate"), num("Best estimate")],
            [num("True residual"), num("Error vs f64 CPU")],
        );
    }
}

/// The problem both builds solve: the system, the start, the CPU solution in f64 and the
/// mesh's label.
struct Problem<'a> {
    sys: &'a PoissonSystem,
    x0: &'a [f64],
    cx: &'a [f64],
    mesh: String,
}

/// The row of `build` ("fp64" or "fp32"): the GL solve with `p`, verified against the CPU
/// solution (fp64 within the solution tolerance of `tol`), and its note; returns the error
/// estimate's history.
fn build_row(
    s: &Session,
    t: &mut TableWriter,
    build: &str,
    pr: &Problem,
    p: &BicgParams,
    tol: f64,
    opts: GpuOptions,
) -> Result<Vec<f64>, RunError> {
    let (sys, x0) = (pr.sys, pr.x0);
    t.start(build);
    let (x, info) = if build == "fp64" {
        GpuBicg::<f64>::new(&s.gl, &sys.a, true, opts).and_then(|mut g| g.solve(&sys.b, x0, p))
    } else {
        let a32 = sys.a.map(|v| v as f32);
        GpuBicg::<f32>::new(&s.gl, &a32, true, opts).and_then(|mut g| g.solve(&sys.b, x0, p))
    }
    .map_err(RunError::algorithm)?;
    let err = max_rel_error(&x, pr.cx);
    let best = info.history.iter().cloned().fold(f64::INFINITY, f64::min);
    let residual = cpu::true_residual(&sys.a, &sys.b, &x);
    let row = t
        .row(build)
        .text("Build", build)
        .num("Iterations", info.iterations as f64)
        .text("Stop", info.stop.describe())
        .num("Final estimate", info.err)
        .num("Best estimate", best)
        .num("True residual", residual)
        .num("Error vs f64 CPU", err);
    let row = match (build, info.stop) {
        ("fp64", Stop::Converged) => row.verify(err, solution_tolerance(tol)),
        ("fp64", stop) => row.fail(stop.describe()),
        _ => row.verify(err, FP32_TOLERANCE),
    };
    t.push(row)?;
    note(
        s,
        &pr.mesh,
        build,
        info.stop.describe(),
        info.iterations as f64,
        [info.err, best],
        [residual, err],
    );
    Ok(info.history)
}

/// The error estimate per iteration of each build, with the tolerance `tol`; the x axis
/// ends at the longest history (`cap` where there is none).
fn chart(
    s: &Session,
    mesh: &str,
    mut hist: Vec<(&str, Vec<f64>)>,
    cap: usize,
    tol: f64,
) -> Result<(), RunError> {
    let mut chart = LineChart::new(
        &format!("Bi-CG error estimate per iteration, fp64 vs fp32 ({mesh})"),
        "iteration",
        "estimated relative error of x (max norm)",
    )
    .log_y();
    // The x axis ends at the longest history. fp64 first, drawn under as a wide pale band,
    // and fp32 over it as a thin line: where they coincide the fp32 line runs inside the
    // band, where they part both show.
    let last = hist
        .iter()
        .map(|(_, h)| h.len())
        .max()
        .unwrap_or(cap)
        .max(2);
    hist.sort_by_key(|(b, _)| *b != "fp64");
    for (b, h) in hist {
        let curve = Series::ours(
            format!("GL {b}"),
            h.iter()
                .enumerate()
                .map(|(i, e)| ((i + 1) as f64, *e))
                .collect(),
        );
        chart = chart.series(if b == "fp64" { curve.under() } else { curve });
    }
    chart = chart.series(Series::paper(
        format!("tolerance {tol:.0e}"),
        vec![(1.0, tol), (last as f64, tol)],
    ));
    s.line_chart(CHART, &chart, CAPTION)
}

const CHART: &str = "precision.png";
const CAPTION: &str = "Precision: the error estimate of the same GL Bi-CG in fp64 (wide pale band) and in \
     fp32 (thin line over it), per iteration (Numerical Recipes' `itol = 4` estimate: the \
     relative change of x in the max norm).";

/// The note of one build's solve: `estimates` = (final, best), `errors` = (true residual,
/// error vs the f64 CPU solution).
fn note(
    s: &Session,
    mesh: &str,
    build: &str,
    stop: &str,
    iterations: f64,
    [last, best]: [f64; 2],
    [residual, err]: [f64; 2],
) {
    s.note(format!(
        "Precision ({mesh}): {build} {stop} after {iterations} iterations (final estimate \
         {last:.2e}, best {best:.2e}); true residual ‖b − Ax‖∞/‖b‖∞ = {residual:.2e}, error vs \
         the f64 CPU solution {err:.2e}. NR's estimate is built from the solver's own (here \
         {build}) norms, so an fp32 solve can 'converge' by its estimate while its true \
         residual stays at the fp32 floor.",
    ));
}
