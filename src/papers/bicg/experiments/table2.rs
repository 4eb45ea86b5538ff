//! Table 2 (§V.2.d): the share of GPU time per kernel, from one profiled solve with every
//! kernel call bracketed by `glFinish` (the paper used the CUDA Visual Profiler). The notes
//! read the paper's shares back as call counts of NR's `linbcg` and list what fits and what
//! does not, every number computed from the experiment file and this run's rows.

use std::time::Instant;

use super::config::Config;
use super::solve::{cpu_reference, not_converged, solution_tolerance};
use super::table2_blocks::{self, BLOCKS, paper_share};
use crate::papers::bicg::gpu::{GpuBicg, Kernel};
use crate::papers::bicg::poisson::fig4_problem;
use crate::report::{
    Audit, Column, Dot, DotChart, DotSeries, Finding, Row, Source, Table, Value, with_bound_columns,
};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::Estimate;
use crate::stats::max_rel_error;

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let (params, opts) = (&cfg.solver.params(), cfg.solver.gpu_options());
    let mesh = cfg.table2.mesh.pick(s.mode).0;
    let sys = fig4_problem(&mesh);
    let n = mesh.nodes();
    let mut t = table(s, cfg, &mesh.label())?;
    s.check_interrupt()?;
    let keys = Kernel::ALL.map(|k| k.name().to_string());
    if let Some(rows) = t.reuse_all(&keys)? {
        // With `--resume` the notes read the calls and times from the reused rows (memcpyHtoD
        // less the matrix upload's call; its time includes the upload), and the iteration
        // count, which no row holds, from one unprofiled solve.
        // It is profiled: the SpMV-share case (B4) pairs the kernels' times block by block,
        // which no row holds.
        let x0 = vec![0.0; n];
        let mut g = GpuBicg::<f64>::new(&s.gl, &sys.a, true, opts).map_err(RunError::algorithm)?;
        g.set_profiling(true);
        let (_, ginfo) = g.solve(&sys.b, &x0, params).map_err(RunError::algorithm)?;
        if let Some(p) = g.profile() {
            table2_blocks::spmv_largest(s, cfg, p)?;
        }
        return from_rows(s, cfg, t, &rows, ginfo.iterations, &mesh.label());
    }
    let (cx, cinfo) = cpu_reference(&sys, params)?;
    // The kernels are compiled (warm_up); the profiled solve includes the upload.
    let x0 = vec![0.0; n];
    let upload_t0 = Instant::now();
    s.gl.finish();
    let mut g = GpuBicg::<f64>::new(&s.gl, &sys.a, true, opts).map_err(RunError::algorithm)?;
    s.gl.finish();
    let upload = upload_t0.elapsed().as_secs_f64();
    g.set_profiling(true);
    let (gx, ginfo) = g.solve(&sys.b, &x0, params).map_err(RunError::algorithm)?;
    let profile = g.profile().cloned().unwrap_or_default();
    let err = max_rel_error(&gx, &cx);
    let total = profile.total_seconds() + upload;
    let shares = block_shares(&profile, upload);
    for (k, share) in Kernel::ALL.into_iter().zip(shares) {
        let (mut secs, mut calls) = (profile.seconds(k), profile.calls(k));
        if k == Kernel::HtoD {
            secs += upload;
            calls += 1;
        }
        let share = share.unwrap_or_else(|| Estimate::exact(100.0 * secs / total));
        let row = kernel_row(&t, cfg, k, &g, (secs, calls), share);
        let row = match not_converged(&ginfo, &cinfo) {
            Some(why) => row.fail(why),
            None => row.verify(err, solution_tolerance(params.tol)),
        };
        t.push(row)?;
    }
    let table = t.finish()?;
    chart(s, cfg, &table, &mesh.label())?;
    audits(s, cfg);
    let top = top_kernel(|k| profile.seconds(k));
    table2_blocks::spmv_largest(s, cfg, &profile)?;
    notes(s, cfg, |k| profile.calls(k), top, ginfo.iterations);
    Ok(())
}

/// Each kernel's share of the solve time (%, in [`Kernel::ALL`] order) as the median over
/// [`BLOCKS`] stretches of the solve with its 95 % interval: in block `b` a kernel's time
/// (its calls cut into blocks of equal counts, as B4's) over all kernels' time in that
/// block. A kernel called fewer times than there are blocks, and the one-time `upload`
/// (memcpyHtoD's), count evenly in every block; such a kernel's share has no interval
/// (`None`). The kernels share each block's spell, so the ratio needs no between-run term.
fn block_shares(profile: &crate::papers::bicg::gpu::Profile, upload: f64) -> Vec<Option<Estimate>> {
    let blocks: Vec<Vec<f64>> = Kernel::ALL
        .iter()
        .map(|&k| {
            let mut b = profile.blocks(k, BLOCKS);
            if k == Kernel::HtoD {
                b.iter_mut().for_each(|x| *x += upload / BLOCKS as f64);
            }
            b
        })
        .collect();
    let even: f64 = Kernel::ALL
        .iter()
        .zip(&blocks)
        .filter(|(_, b)| b.is_empty())
        .map(|(&k, _)| profile.seconds(k) + if k == Kernel::HtoD { upload } else { 0.0 })
        .sum::<f64>()
        / BLOCKS as f64;
    let totals: Vec<f64> = (0..BLOCKS)
        .map(|i| even + blocks.iter().filter_map(|b| b.get(i)).sum::<f64>())
        .collect();
    blocks
        .iter()
        .map(|b| {
            let s: Vec<f64> = b.iter().zip(&totals).map(|(x, t)| 100.0 * x / t).collect();
            Estimate::of(&s)
        })
        .collect()
}

/// The table and its caption.
fn table(s: &Session, cfg: &Config, mesh: &str) -> Result<TableWriter, RunError> {
    let (params, opts) = (&cfg.solver.params(), cfg.solver.gpu_options());
    let mut t = s.table(
        "table2",
        &format!("Table 2 — share of GPU solve time per kernel ({mesh})"),
        with_bound_columns(vec![
            Column::key("Kernel").text(),
            Column::ours("Calls").int(),
            Column::ours("Time").unit("ms").fixed(1),
            Column::ours("Share").unit("%").fixed(2),
            Column::paper("Share").unit("%").fixed(2),
            Column::paper("Calls").int(),
        ]),
        &(&cfg.table2, params, opts),
    )?;
    t.expect_rows(Kernel::ALL.len());
    t.caption(format!(
        "Every kernel call of one profiled solve is bracketed by glFinish (the paper used the \
         CUDA Visual Profiler; llvmpipe's timer queries are not trustworthy); bound: the work \
         of all the kernel's dispatches in the solve (src/papers/bicg/gpu/work.rs; the \
         transfers have none) against its summed time; memcpyHtoD is the \
         matrix, b and x₀ upload plus the per-iteration α/β writes, memcpyDtoH the per-iteration \
         reduction results and the solution. Share: in each of {BLOCKS} stretches of the solve (each \
         kernel's calls cut into blocks of equal counts, as table2_blocks) the kernel's time \
         over all kernels' time there; the median over the stretches with its 95 % interval \
         (a kernel called fewer times than that, and the one-time upload, count evenly in \
         every stretch, and such a kernel's share is its whole-solve share). Verified: the \
         profiled solve's solution against the CPU reference."
    ));
    Ok(t)
}

/// With `--resume`: the chart, audits and notes from the reused `rows` (the calls and times)
/// and the `iterations` of an unprofiled solve.
fn from_rows(
    s: &Session,
    cfg: &Config,
    t: TableWriter,
    rows: &[Row],
    iterations: usize,
    mesh: &str,
) -> Result<(), RunError> {
    let index = |k: Kernel| Kernel::ALL.iter().position(|&x| x == k).expect("a kernel");
    let of = |col: &str| -> Vec<f64> {
        rows.iter()
            .map(|r| t.value(r, col).unwrap_or(0.0))
            .collect()
    };
    let (calls, times) = (of("Calls"), of("Time"));
    let calls = |k: Kernel| (calls[index(k)] as u64).saturating_sub(u64::from(k == Kernel::HtoD));
    let top = top_kernel(|k| times[index(k)]);
    let table = t.finish()?;
    chart(s, cfg, &table, mesh)?;
    audits(s, cfg);
    notes(s, cfg, calls, top, iterations);
    Ok(())
}

/// Kernel `k`'s row (not yet verified): its `calls` and `secs` in the profiled solve, its
/// `share` ([`block_shares`]), the work of its dispatches, and the paper's share and calls.
fn kernel_row(
    t: &TableWriter,
    cfg: &Config,
    k: Kernel,
    g: &GpuBicg<f64>,
    (secs, calls): (f64, u64),
    share: Estimate,
) -> Row {
    let paper = cfg.table2.paper.iter().find(|p| p.kernel == k.name());
    let mut row = t
        .row(k.name())
        .text("Kernel", k.name())
        .num("Calls", calls as f64)
        .num("Time", secs * 1e3)
        .est("Share", share);
    // The kernels' dispatches, all calls of the solve (the transfers dispatch nothing).
    let work = g.kernel_work(k);
    if work.dispatches > 0 {
        row = row.work(k.name(), work, secs * 1e3);
    }
    let mut row = row.build();
    // "Share" and "Calls" name two columns each (ours, then the paper's).
    row.values[paper_col(t, "Share")] = paper.map_or(Value::Missing, |p| Value::Num(p.share));
    row.values[paper_col(t, "Calls")] = paper
        .and_then(|p| p.calls)
        .map_or(Value::Missing, |c| Value::Num(c as f64));
    row
}

fn chart(s: &Session, cfg: &Config, table: &Table, mesh: &str) -> Result<(), RunError> {
    let theirs = Kernel::ALL
        .iter()
        .map(|k| paper_share(cfg, *k).map(|v| Dot::new(v, None)))
        .collect();
    // The first column called "Share" is ours.
    let (v, iv) = (table.numbers("Share"), table.intervals("Share"));
    let ours = v
        .iter()
        .zip(iv)
        .map(|(v, i)| Some(Dot::new((*v)?, i)))
        .collect();
    s.dot_chart(
        "table2.png",
        &DotChart {
            title: format!("Table 2 — share of GPU time per kernel, ours ({mesh}) vs the paper"),
            category_label: "kernel".into(),
            value_label: "share of solve time (%; whiskers: 95 % interval over the solve's blocks)"
                .into(),
            log: false,
            categories: Kernel::ALL.iter().map(|k| k.name().to_string()).collect(),
            series: vec![
                DotSeries {
                    name: format!("ours (GL fp64, {})", s.gl.info().label()),
                    dots: ours,
                    paper: false,
                },
                DotSeries {
                    name: "paper (GTX 285)".into(),
                    dots: theirs,
                    paper: true,
                },
            ],
        },
        &format!(
            "Table 2: share of solve time per kernel type, ours (the median over {BLOCKS} \
             stretches of the solve, with its 95 % interval) beside the paper's profile."
        ),
    )
}

/// The index of the paper's column called `name`.
fn paper_col(t: &TableWriter, name: &str) -> usize {
    t.table()
        .columns
        .iter()
        .position(|c| c.name == name && c.source == Source::Paper)
        .expect("table2 has the paper's column")
}

fn audits(s: &Session, cfg: &Config) {
    let sum: f64 = cfg.table2.paper.iter().map(|p| p.share).sum();
    s.audit(Audit::new(
        "Table 2: shares add up to 100 %",
        100.0,
        sum,
        0.005,
    ));
    if let (Some(text), Some(table)) = (cfg.table2.spmv_text_share, paper_share(cfg, Kernel::SpMV))
    {
        s.audit(Audit::new(
            format!("Table 2 vs §V.2.d text: SpMV share (text {text} %, table {table} %)"),
            text,
            table,
            1e-3,
        ));
    }
}

/// Half a unit of the last digit `v` is written with (0.005 for 4.46): the rounding of a
/// printed number.
fn printed_half_unit(v: f64) -> f64 {
    let text = format!("{v}");
    let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
    0.5 * 10f64.powi(-(decimals as i32))
}

/// The kernel with the largest `time`.
fn top_kernel(time: impl Fn(Kernel) -> f64) -> &'static str {
    Kernel::ALL
        .iter()
        .max_by(|a, b| time(**a).total_cmp(&time(**b)))
        .map_or("?", |k| k.name())
}

/// The paper's shares read as `linbcg` call counts: what fits and what does not (`calls`:
/// ours per kernel, `top`: our largest share, `iterations`: of our solve).
fn notes(s: &Session, cfg: &Config, calls: impl Fn(Kernel) -> u64, top: &str, iterations: usize) {
    let Some(vpb_calls) = cfg
        .table2
        .paper
        .iter()
        .find(|p| p.kernel == Kernel::VPlusBU.name())
        .and_then(|p| p.calls)
    else {
        return;
    };
    // linbcg: 5 V_plus_bU calls per iteration but the first (5k − 2 for k iterations).
    let k_paper = (vpb_calls + 2) as f64 / 5.0;
    let vpb = calls(Kernel::VPlusBU);
    // B6: the count is linbcg's structure — 5k − 2 for the solve's k iterations — which the
    // paper's own count fits with a whole k.
    let expected = (5 * iterations as i64 - 2) as f64;
    s.finding(
        Finding::new(
            "table2",
            "V_plus_bU runs many times: linbcg's 5k − 2 calls for k iterations",
        )
        .paper(format!(
            "{vpb_calls} calls (§V.2.d), = 5k − 2 at k = {k_paper}"
        ))
        .exact(
            "|V_plus_bU calls − (5k − 2)|",
            (vpb as f64 - expected).abs(),
            0.0,
            false,
        )
        .paper_value((vpb_calls as f64 - (5.0 * k_paper.round() - 2.0)).abs()),
    );
    let share = |k: Kernel| paper_share(cfg, k).unwrap_or(f64::NAN);
    let ratio = |a: Kernel, b: Kernel| share(a) / share(b);
    s.note(format!(
        "Table 2 call counts: NR linbcg makes 5 V_plus_bU calls per iteration except the first, \
         which copies p = z, p̄ = z̄ instead (5k − 2 calls for k iterations). Ours: {vpb} calls \
         for {iterations} iterations (5k − 2 = {}). The paper's {vpb_calls} calls give \
         k = ({vpb_calls} + 2)/5 = {k_paper}{}. Its ratios: MaxreduceKernel6/reduceKernel6 = \
         {:.2} (ours {:.2} max-norm stage-1 calls per dot-product stage-1 call); \
         V_plus_bU/V_mul_U = {:.2} (ours {:.2} calls per call).",
        5 * iterations as i64 - 2,
        if k_paper.fract() == 0.0 {
            " iterations exactly, consistent with this reading of its solver"
        } else {
            ", not a whole number of iterations"
        },
        ratio(Kernel::MaxReduce6, Kernel::Reduce6),
        calls(Kernel::MaxReduce6) as f64 / calls(Kernel::Reduce6).max(1) as f64,
        ratio(Kernel::VPlusBU, Kernel::VMulU),
        vpb as f64 / calls(Kernel::VMulU).max(1) as f64,
    ));
    // Each element-wise kernel's share as calls, a call costing in proportion to the vectors
    // it streams, with V_plus_bU's printed calls as the yardstick.
    let unit = share(Kernel::VPlusBU) / (vpb_calls as f64 * 3.0);
    let res = calls_table(s, cfg, &calls, iterations, (vpb_calls, k_paper, unit));
    if let Err(e) = res {
        s.note(format!(
            "Table 2's call-count reading could not be written: {e}"
        ));
    }
    s.note(format!(
        "Table 2 here: the largest share is {top}. A glFinish per call adds a fixed cost per \
         kernel (llvmpipe's thread pool wakes up per dispatch), which weighs on the many short \
         kernels (reductions' stage 2, the scalar transfers) more than a profiler's counters did."
    ));
}

/// Table 2's shares read as `linbcg` call counts: each element-wise kernel's share as calls,
/// a call costing `unit` per vector it streams (V_plus_bU's `vpb_calls` printed calls of 3
/// vectors as the yardstick), `k_paper` the paper's iterations read from them; beside
/// `calls`, ours in `iterations` iterations.
fn calls_table(
    s: &Session,
    cfg: &Config,
    calls: &impl Fn(Kernel) -> u64,
    iterations: usize,
    (vpb_calls, k_paper, unit): (u64, f64, f64),
) -> Result<(), RunError> {
    let ours_per_iter = |k: Kernel| calls(k) as f64 / iterations.max(1) as f64;
    let share = |k: Kernel| paper_share(cfg, k).unwrap_or(f64::NAN);
    let within = cfg.table2.fit_within;
    let mut t = s.table(
        "table2_calls",
        "Table 2's shares read as linbcg call counts",
        vec![
            Column::key("kernel").text(),
            Column::paper("share").unit("%").fixed(2),
            Column::ours("vectors streamed").int(),
            Column::audit("implied calls").fixed(1),
            Column::audit("implied per iteration").fixed(2),
            Column::ours("our calls").int(),
            Column::ours("our calls per iteration").fixed(3),
            Column::audit("implied / ours, low").fixed(2),
            Column::audit("implied / ours, high").fixed(2),
            Column::ours("fits").text(),
            Column::ours("linbcg calls it").text(),
        ],
        &(&cfg.table2, iterations, Kernel::ALL.map(&calls)),
    )?;
    t.caption(format!(
        "A call's cost taken as proportional to the vectors it streams, V_plus_bU's \
         {vpb_calls} printed calls of 3 vectors as the yardstick, k = {k_paper} iterations; \
         implied / ours over the printed share's rounding interval; a kernel fits when that \
         interval meets [1/{within}, {within}] (`table2.fit_within`). A misfit says the \
         paper's solver (or its kernels' costs) differs from linbcg there."
    ));
    for k in [Kernel::VMulU, Kernel::Asolve, Kernel::Copy, Kernel::Sub] {
        let Some(v) = k.vectors_streamed() else {
            continue;
        };
        if t.reuse(k.name())?.is_some() {
            continue;
        }
        let implied = share(k) / (unit * v as f64);
        let per_iter = implied / k_paper;
        let ours = ours_per_iter(k);
        // The printed share is rounded: it may lie anywhere within half its last digit.
        let half = printed_half_unit(share(k));
        let r_lo = (share(k) - half) / share(k) * per_iter / ours;
        let r_hi = (share(k) + half) / share(k) * per_iter / ours;
        let linbcg = match k {
            Kernel::VMulU => "one per dot product, two per iteration",
            Kernel::Asolve => "twice per iteration, z̄ = Ã⁻ᵀr̄ and z = Ã⁻¹r, plus two before",
            Kernel::Copy => "only before and in the first iteration: r̄ = r, p = z, p̄ = z̄",
            _ => "once per solve, r = b − Ax₀",
        };
        let fits = r_hi >= 1.0 / within && r_lo <= within;
        t.push(
            t.row(k.name())
                .text("kernel", k.name())
                .num("share", share(k))
                .num("vectors streamed", v as f64)
                .num("implied calls", implied)
                .num("implied per iteration", per_iter)
                .num("our calls", calls(k) as f64)
                .num("our calls per iteration", ours)
                .num("implied / ours, low", r_lo)
                .num("implied / ours, high", r_hi)
                .text("fits", if fits { "yes" } else { "no" })
                .text("linbcg calls it", linbcg)
                .unchecked("a reading of the paper's shares against our call counts"),
        )?;
    }
    t.finish()?;
    Ok(())
}
