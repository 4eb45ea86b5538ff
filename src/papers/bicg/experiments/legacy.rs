//! Beyond the paper: the fp32 Bi-CG as render-to-texture fragment passes
//! ([`FragmentBicg`], GL 3.3) against the compute fp32 build ([`GpuBicg`]`<f32>`, GL 4.3) —
//! the paper's kernels and the fused variant — on the same matrix: the legacy pipeline and
//! compute on one algorithm and one input.
//!
//! fp32 because that is what a fragment pipeline offers (no fp64 render targets); the paper's
//! own fp64 solve does not converge in fp32 on this problem (see `precision`), so each solver
//! runs a fixed number of iterations from x₀ = 0 (tolerance 0), as the per-iteration table
//! does, and its iterate is compared with the CPU f64 iterate after the same iterations. The
//! timed region is the per-iteration table's: b and x₀ uploaded, the iterations (with their
//! three scalar read-backs each), the iterate read back; the matrix is resident. Median of
//! `[legacy] repeat` runs.

use super::config::Config;
use super::solve::cpu_reference;
use crate::gl::Need;
use crate::gl::measure::rounds_gpu;
use crate::gl::timing::Rounds;
use crate::papers::bicg::cpu::{BicgInfo, BicgParams};
use crate::papers::bicg::ellpack::EllpackR;
use crate::papers::bicg::fragment::FragmentBicg;
use crate::papers::bicg::gpu::{GpuBicg, GpuOptions};
use crate::papers::bicg::poisson::{Mesh, fig4_problem};
use crate::report::{Column, RowBuilder, with_bound_columns};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;

/// The algorithm every row runs, for the legacy-vs-compute table.
const VERSUS: &str = "Bi-CG iterations (fp32)";
const MS: &str = "ms/iteration";
const GBS: &str = "GB/s (modelled bytes)";
const RATIO: &str = "time / fragment time";
const ERROR: &str = "error vs CPU f64";
/// An f32 iterate against the f64 one after the same few iterations: rounding of the
/// scalars and vectors, amplified by the iteration (about 1e-6 per step on these meshes).
const TOL: f64 = 1e-4;

/// The three solvers of a mesh: (key suffix, label, roofline kernel, compute options —
/// `None` for the fragment build).
const SOLVERS: [(&str, &str, &str, Option<bool>); 3] = [
    (
        "fragment",
        "fragment fp32 (render-to-texture)",
        "Bi-CG fp32 fragment",
        None,
    ),
    (
        "compute",
        "compute fp32 (the paper's kernels)",
        "Bi-CG fp32 compute",
        Some(false),
    ),
    (
        "compute fused",
        "compute fp32 fused (beyond the paper)",
        "Bi-CG fp32 compute (fused)",
        Some(true),
    ),
];

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let opts = cfg.solver.gpu_options();
    let k = cfg.legacy.iterations;
    let columns = with_bound_columns(vec![
        Column::key("Mesh").text(),
        Column::key("solver").text(),
        Column::ours(MS).fixed(2),
        Column::ours(GBS).fixed(2),
        Column::ours(RATIO).fixed(2),
        Column::ours(ERROR).sci(1),
    ]);
    let mut t = s.table(
        "legacy",
        &format!("{k} fp32 Bi-CG iterations: fragment (render-to-texture) vs compute, same matrix"),
        columns,
        &(&cfg.legacy, opts),
    )?;
    let lacks = s.lacks(&[Need::Compute]);
    let meshes = cfg.legacy.meshes.pick(s.mode);
    t.expect_rows(meshes.len() * SOLVERS.len());
    for spec in meshes {
        let mesh = spec.0;
        let keys: Vec<String> = SOLVERS
            .iter()
            .filter(|sv| lacks.is_none() || sv.3.is_none())
            .map(|sv| format!("{} {}", mesh.label(), sv.0))
            .collect();
        if t.reuse_all(&keys)?.is_none() {
            measure(s, &mut t, cfg, &mesh, opts, lacks.as_deref())?;
        } else if let Some(why) = &lacks {
            for sv in SOLVERS.iter().filter(|sv| sv.3.is_some()) {
                t.push(skipped(&t, &mesh, sv.0, sv.1, why))?;
            }
        }
    }
    t.caption(format!(
        "{k} iterations from x₀ = 0 without stopping (tolerance 0) on the Fig. 4 problem, fp32 \
         values (the f64 matrix rounded), {} threads per work group for the compute builds. \
         Timed (glFinish-bracketed): b and x₀ upload, the iterations with their three scalar \
         read-backs each, the iterate read back; the matrix resident. \
         Fragment: every vector an R32F texture near-square, ELLPACK-R's slots stacked in one \
         texture, ten vector passes and five 2×2 reduction chains per iteration (see \
         src/papers/bicg/fragment.rs); compute: `glsl/bicg/*.comp` as in Fig. 4, or fused. \
         GB/s: the modelled bytes of every pass or dispatch (bound columns) over the time. \
         Error: max-norm difference from the CPU f64 iterate after the same iterations, \
         relative to its max norm (tolerance {TOL:.0e}).",
        opts.local_size
    ));
    let rep = cfg.legacy.repeat.pick(s.mode);
    t.caption(format!(
        "Interleaved: per mesh the solvers run in rounds on the same matrix (each round every \
         solver once, in a shuffled order): {}. {MS} = median [95 % interval] over the rounds \
         / iterations (distribution-free order-statistic interval; `*`: fewer than 6 rounds, \
         [min, max]); GB/s carries the time's interval; {RATIO} = the paired ratio (per-round \
         ratios, median and interval).",
        rep.rule("round", "solver")
    ));
    if let Some(why) = &lacks {
        t.caption(format!("Compute rows skipped: the compute stage {why}."));
    }
    t.finish()?;
    Ok(())
}

/// A solver of the rounds.
enum Solver {
    Fragment(FragmentBicg),
    Compute(GpuBicg<f32>),
}

/// A solver's index in [`SOLVERS`] and the solver, or why it could not be built.
type Built = (usize, Result<Solver, String>);

/// The three rows of one mesh.
fn measure(
    s: &Session,
    t: &mut TableWriter,
    cfg: &Config,
    mesh: &Mesh,
    opts: GpuOptions,
    lacks: Option<&str>,
) -> Result<(), RunError> {
    let k = cfg.legacy.iterations;
    let plan = cfg.legacy.repeat.pick(s.mode).plan();
    let sys = fig4_problem(mesh);
    let n = mesh.nodes();
    let a32 = sys.a.map(|v| v as f32);
    let p = BicgParams::iterations(k);
    let x0 = vec![0.0; n];
    let (want, _) = cpu_reference(&sys, &p)?;
    let mut built = build(s, t, mesh, &a32, opts, lacks)?;
    // Time them interleaved: each round every solver once, in a shuffled order.
    let mut last: Vec<Option<Solved>> = vec![None; built.len()];
    let timed = rounds_gpu(&s.gl, plan, built.len(), |j| -> Result<(), RunError> {
        s.check_interrupt()?;
        if matches!(last[j], Some(Err(_))) {
            return Ok(());
        }
        let out = match &mut built[j].1 {
            Err(_) => return Ok(()),
            Ok(Solver::Fragment(f)) => {
                f.reset_work();
                f.solve(&sys.b, &x0, &p).map_err(|e| e.to_string())
            }
            Ok(Solver::Compute(g)) => {
                g.reset_work();
                g.solve(&sys.b, &x0, &p).map_err(|e| e.to_string())
            }
        };
        last[j] = Some(out);
        Ok(())
    })?;
    rows(t, mesh, k, &built, &last, &timed, &want)
}

/// The rows of the `built` solvers after `k` iterations: `last` their solutions, `timed`
/// their rounds; the error against the CPU iterate `want`, × fragment as a paired ratio.
fn rows(
    t: &mut TableWriter,
    mesh: &Mesh,
    k: usize,
    built: &[Built],
    last: &[Option<Solved>],
    timed: &Rounds,
    want: &[f64],
) -> Result<(), RunError> {
    let fragment = built.iter().position(|(i, _)| *i == 0);
    for (j, (i, solver)) in built.iter().enumerate() {
        let (suffix, label, kernel, _) = SOLVERS[*i];
        let key = format!("{} {suffix}", mesh.label());
        let row = t.row(&key).text("Mesh", mesh.label()).text("solver", label);
        let solver = match solver {
            Err(why) => {
                t.push(row.fail(why.clone()))?;
                continue;
            }
            Ok(solver) => solver,
        };
        let (x, info) = match &last[j] {
            Some(Ok(r)) => r,
            Some(Err(why)) => {
                t.push(row.fail(why.clone()))?;
                continue;
            }
            None => {
                t.push(row.fail("not run"))?;
                continue;
            }
        };
        let (work, detail) = match solver {
            Solver::Fragment(f) => {
                let (w, h) = f.layout();
                (f.work(), format!(", {w}×{h} texels"))
            }
            Solver::Compute(g) => (g.work(), String::new()),
        };
        let timing = &timed.timings[j];
        let err = max_rel_error(x, want);
        let iters = info.iterations.max(1) as f64;
        let ratio = match fragment {
            Some(f) if f == j => Some(crate::stats::Estimate::exact(1.0)),
            Some(f) => timed.ratio(j, f),
            None => None,
        };
        t.push(
            row.text("solver", format!("{label}{detail}"))
                .est(MS, timing.est().map(|ms| ms / iters))
                .est(GBS, timing.rate(work.bytes.total() / 1e9))
                .opt_est(RATIO, ratio)
                .num(ERROR, err)
                .runs(timing.runs)
                .work_timed(kernel, work, timing)
                .versus(VERSUS, format!("{}, {k} iterations", mesh.label()))
                .verify(err, TOL),
        )?;
    }
    Ok(())
}

/// Builds every solver this device runs (their index in [`SOLVERS`]); the rows of those
/// that cannot be built fail, those the device cannot run are skipped.
fn build(
    s: &Session,
    t: &mut TableWriter,
    mesh: &Mesh,
    a32: &EllpackR<f32>,
    opts: GpuOptions,
    lacks: Option<&str>,
) -> Result<Vec<Built>, RunError> {
    let mut built: Vec<Built> = Vec::new();
    for (i, (suffix, label, _, fused)) in SOLVERS.into_iter().enumerate() {
        s.check_interrupt()?;
        let key = format!("{} {suffix}", mesh.label());
        if let (Some(_), Some(why)) = (fused, lacks) {
            t.push(skipped(t, mesh, suffix, label, why))?;
            continue;
        }
        t.start(&key);
        built.push((
            i,
            match fused {
                None => FragmentBicg::new(&s.gl, a32, true).map(Solver::Fragment),
                Some(fused) => GpuBicg::<f32>::new(&s.gl, a32, true, GpuOptions { fused, ..opts })
                    .map(Solver::Compute),
            }
            .map_err(|e| e.to_string()),
        ));
    }
    Ok(built)
}
fn skipped(t: &TableWriter, mesh: &Mesh, suffix: &str, label: &str, why: &str) -> RowBuilder {
    t.row(format!("{} {suffix}", mesh.label()))
        .text("Mesh", mesh.label())
        .text("solver", label)
        .skip(why.to_string())
}
/// A solver's last solution and its info, or why it failed.
type Solved = Result<(Vec<f64>, BicgInfo), String>;
