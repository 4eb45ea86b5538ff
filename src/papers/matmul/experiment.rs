//! Table 1 and Fig. 3 regenerated, with the variants beyond the paper in the same table, and
//! the audit of the paper's own Table 1.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::cpu;
use super::gpu::{Blocked, BlockedParams, Multipass, Park2019, Park2019Params};
use super::{Matrix, gflops};
use crate::gl::timing::{TimingPlan, measure_cpu, measure_gpu};
use crate::gl::{Gl, Timing};
use crate::report::{Audit, Column, Legend, LineChart, Row, Series};
use crate::runner::{Repeat, RunError, Session, Sizes};

/// `experiments/matmul.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub table1: Table1Config,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table1Config {
    pub sizes: Sizes,
    pub repeat: Repeat,
    pub cpu_rows_max: usize,
    pub tolerance: f64,
    pub seed: u64,
    pub blocked: BlockedParams,
    pub multipass_k_chunk: u32,
    pub published: Vec<Published>,
}

/// One row of the paper's Table 1.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    pub n: u32,
    pub cpu_ms: f64,
    pub cpu_gflops: f64,
    pub gpu_ms: f64,
    pub gpu_gflops: f64,
    pub speedup: f64,
}

/// Runs the paper's experiments.
pub fn run(s: &Session) -> Result<(), RunError> {
    let cfg: Config = s.config()?;
    audit_paper(s, &cfg.table1.published);
    table1(s, &cfg.table1)
}

/// Times `f` on the GPU: the first run is timed cold; if it used half the budget it is the
/// only sample (the largest sizes), else the plan's repetitions follow.
fn gpu_time<E>(
    gl: &Gl,
    plan: TimingPlan,
    mut f: impl FnMut() -> Result<(), E>,
) -> Result<Timing, E> {
    gl.finish();
    let t0 = Instant::now();
    f()?;
    gl.finish();
    let first = t0.elapsed();
    if first * 2 > plan.budget {
        return Ok(Timing::from_samples(&[first.as_secs_f64() * 1e3]));
    }
    measure_gpu(gl, TimingPlan { warmup: 0, ..plan }, f)
}

fn cols() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::ours("CPU").unit("ms"),
        Column::ours("CPU rows timed").int(),
        Column::ours("CPU GFLOPS").fixed(2),
        Column::ours("GPU").unit("ms"),
        Column::ours("GPU median").unit("ms"),
        Column::ours("GPU GFLOPS").fixed(2),
        Column::ours("speed-up").fixed(1),
        Column::ours("GPU error").sci(1),
        Column::paper("CPU").unit("ms"),
        Column::paper("CPU GFLOPS").fixed(2),
        Column::paper("GPU").unit("ms"),
        Column::paper("GPU GFLOPS").fixed(2),
        Column::paper("speed-up").int(),
        Column::beyond("trimmed-grid GFLOPS").fixed(2),
        Column::beyond("blocked GFLOPS").fixed(2),
        Column::beyond("blocked / paper kernel").fixed(1),
        Column::beyond("fragment GFLOPS").fixed(2),
        Column::beyond("SGEMM GFLOPS").fixed(2),
        Column::beyond("best GPU / SGEMM").fixed(2),
        Column::beyond("variants error").sci(1),
    ]
}

fn table1(s: &Session, cfg: &Table1Config) -> Result<(), RunError> {
    let gl = &s.gl;
    let sizes = cfg.sizes.pick(s.mode).to_vec();
    let plan = cfg.repeat.plan();
    let cpu_plan = TimingPlan { warmup: 0, ..plan };
    let faithful = Park2019::new(gl, Park2019Params::default()).map_err(RunError::algorithm)?;
    let trimmed = Park2019::new(
        gl,
        Park2019Params {
            full_grid: false,
            ..Default::default()
        },
    )
    .map_err(RunError::algorithm)?;
    let blocked = Blocked::new(gl, cfg.blocked).map_err(RunError::algorithm)?;
    let multipass = Multipass::new(gl, cfg.multipass_k_chunk).map_err(RunError::algorithm)?;

    let mut t = s.table(
        "table1",
        "Table 1 — CPU (Algorithm 3) vs GPU (Algorithms 1+2), N×N",
        cols(),
        &(cfg, &sizes),
    )?;
    t.caption(format!(
        "Times: mean of up to {} timed runs (the paper's count), capped by a {:.0} s budget per \
         measurement (`runs` = timed runs of the paper's GPU kernel); `glFinish` on both sides \
         of the dispatch loop; upload and readback excluded. GFLOPS = 2N³/(10⁶·ms), eq. (2).",
        cfg.repeat.repetitions, cfg.repeat.budget_s
    ));
    t.caption(format!(
        "CPU: Algorithm 3 (naive i-j-k, f32, one thread); above N = {} only the first {} rows \
         of R are timed and the time is scaled by N/rows (`CPU rows timed`).",
        cfg.cpu_rows_max, cfg.cpu_rows_max
    ));
    t.caption(format!(
        "Errors: max|R − R₆₄| / max|R₆₄| against an f64 product of the same f32 inputs; \
         tolerance {:.0e}. `variants error` is the largest over the trimmed-grid, blocked, \
         fragment and SGEMM results.",
        cfg.tolerance
    ));
    t.caption(format!(
        "Beyond the paper: `trimmed-grid` = the paper's kernel dispatching only the work \
         groups the matrix needs; `blocked` = register-blocked compute kernel ({}×{} vec4 per \
         invocation, {}×{} work groups); `fragment` = multipass fragment-shader matmul on RGBA32F \
         textures, {} k per pass, switch method; `SGEMM` = matrixmultiply::sgemm, one thread.",
        cfg.blocked.tm, cfg.blocked.tn, cfg.blocked.wg_x, cfg.blocked.wg_y, cfg.multipass_k_chunk
    ));
    t.expect_rows(sizes.len());
    for &n in &sizes {
        s.check_interrupt()?;
        let key = format!("{n}");
        if t.reuse(&key)?.is_some() {
            continue;
        }
        t.start(&format!("N = {n}"));
        let row = match measure_row(
            s,
            cfg,
            n as usize,
            plan,
            cpu_plan,
            (&faithful, &trimmed, &blocked, &multipass),
        ) {
            Ok(r) => r,
            Err(e) => {
                // A failed measurement: the size, then empty cells, and the reason.
                let mut r = Row::new(&key).num(n as f64).fail(format!("{e}"));
                r.values.resize(cols().len(), crate::report::Value::Missing);
                r
            }
        };
        t.push(row)?;
    }
    let table = t.finish()?;
    figure3(s, &table, cfg)?;
    notes(s, &table, cfg);
    Ok(())
}

type Kernels<'a> = (&'a Park2019, &'a Park2019, &'a Blocked, &'a Multipass);

fn measure_row(
    s: &Session,
    cfg: &Table1Config,
    n: usize,
    plan: TimingPlan,
    cpu_plan: TimingPlan,
    (faithful, trimmed, blocked, multipass): Kernels,
) -> Result<Row, Box<dyn std::error::Error + Send + Sync>> {
    let gl = &s.gl;
    let a = Matrix::random(n, n, cfg.seed ^ (n as u64) << 1);
    let b = Matrix::random(n, n, cfg.seed ^ ((n as u64) << 1 | 1));
    let reference = cpu::reference_f64(&a, &b);
    let err = |m: &Matrix| crate::util::max_rel_error(&m.data, &reference);

    // Algorithm 3 on the CPU (possibly a subset of rows, scaled).
    let rows = n.min(cfg.cpu_rows_max.max(1));
    let mut out = vec![0f32; n * n];
    let cpu_t = measure_cpu::<std::convert::Infallible>(cpu_plan, || {
        cpu::naive_rows(&a, &b, 0..rows, &mut out);
        Ok(())
    })?;
    let cpu_ms = cpu_t.mean_ms * n as f64 / rows as f64;
    let cpu_err = cpu::rows_error(&out, &reference, n, 0..rows);

    // Algorithms 1 + 2 on the GPU.
    let ops = faithful.upload(&a, &b)?;
    let gpu_t = gpu_time(gl, plan, || faithful.run(&ops).map(drop))?;
    let gpu_err = err(&faithful.read(&ops)?);
    drop(ops);

    // From N = 2048 on the matrix fills whole 64×64-group dispatches: the trimmed grid is the
    // same launch, so its measurement would repeat the paper's (minutes at N = 4096).
    let (trim_t, trim_err) = if n % (32 * 64) == 0 {
        (gpu_t, gpu_err)
    } else {
        let ops = trimmed.upload(&a, &b)?;
        let t = gpu_time(gl, plan, || trimmed.run(&ops).map(drop))?;
        let e = err(&trimmed.read(&ops)?);
        (t, e)
    };

    let ops = blocked.upload(&a, &b)?;
    let blk_t = gpu_time(gl, plan, || blocked.run(&ops))?;
    let blk_err = err(&blocked.read(&ops)?);
    drop(ops);

    let mut ops = multipass.upload(&a, &b)?;
    let frag_t = gpu_time(gl, plan, || multipass.run(&mut ops).map(drop))?;
    let frag_err = err(&multipass.read(&ops)?);
    drop(ops);

    let mut sg = Matrix::zeros(0, 0);
    let sg_t = measure_cpu::<std::convert::Infallible>(plan, || {
        sg = cpu::sgemm(&a, &b);
        Ok(())
    })?;
    let sg_err = err(&sg);

    let gf = |ms: f64| gflops(n, n, n, ms);
    let p = cfg.published.iter().find(|p| p.n as usize == n);
    let best_gpu = gf(gpu_t.mean_ms)
        .max(gf(trim_t.mean_ms))
        .max(gf(blk_t.mean_ms))
        .max(gf(frag_t.mean_ms));
    let variants_err = trim_err.max(blk_err).max(frag_err).max(sg_err);
    let all_err = variants_err.max(gpu_err).max(cpu_err);
    Ok(Row::new(format!("{n}"))
        .num(n as f64)
        .num(cpu_ms)
        .num(rows as f64)
        .num(gf(cpu_ms))
        .num(gpu_t.mean_ms)
        .num(gpu_t.median_ms)
        .num(gf(gpu_t.mean_ms))
        .num(cpu_ms / gpu_t.mean_ms)
        .num(gpu_err)
        .opt(p.map(|p| p.cpu_ms))
        .opt(p.map(|p| p.cpu_gflops))
        .opt(p.map(|p| p.gpu_ms))
        .opt(p.map(|p| p.gpu_gflops))
        .opt(p.map(|p| p.speedup))
        .num(gf(trim_t.mean_ms))
        .num(gf(blk_t.mean_ms))
        .num(gpu_t.mean_ms / blk_t.mean_ms)
        .num(gf(frag_t.mean_ms))
        .num(gf(sg_t.mean_ms))
        .num(best_gpu / gf(sg_t.mean_ms))
        .num(variants_err)
        .runs(gpu_t.runs)
        .verify(all_err, cfg.tolerance))
}

fn figure3(s: &Session, t: &crate::report::Table, cfg: &Table1Config) -> Result<(), RunError> {
    let pub_pts = |f: fn(&Published) -> f64| -> Vec<(f64, f64)> {
        cfg.published.iter().map(|p| (p.n as f64, f(p))).collect()
    };
    let chart = LineChart::new(
        "Fig. 3 — matrix multiply GFLOPS vs N",
        "N (matrix N×N)",
        "GFLOPS",
    )
    .log_x()
    .log_y()
    .legend(Legend::LowerRight)
    .series(Series::ours(
        "GPU, paper's kernel (this device)",
        t.series("N", "GPU GFLOPS"),
    ))
    .series(Series::ours(
        "+ GPU, paper's kernel, trimmed grid",
        t.series("N", "trimmed-grid GFLOPS"),
    ))
    .series(Series::ours(
        "CPU, Algorithm 3 (this machine)",
        t.series("N", "CPU GFLOPS"),
    ))
    .series(Series::ours(
        "+ GPU blocked kernel",
        t.series("N", "blocked GFLOPS"),
    ))
    .series(Series::ours(
        "+ GPU fragment multipass",
        t.series("N", "fragment GFLOPS"),
    ))
    .series(Series::ours(
        "+ CPU SGEMM (matrixmultiply)",
        t.series("N", "SGEMM GFLOPS"),
    ))
    .series(Series::paper(
        "paper: GPU, Quadro 4000",
        pub_pts(|p| p.gpu_gflops),
    ))
    .series(Series::paper("paper: CPU", pub_pts(|p| p.cpu_gflops)));
    s.line_chart(
        "fig3_gflops.png",
        &chart,
        "Fig. 3 (left axis): GFLOPS of every variant vs N; dashed: the paper's Table 1",
    )?;
    let speed = LineChart::new(
        "Fig. 3 — speed-up of the GPU over Algorithm 3",
        "N (matrix N×N)",
        "speed-up (×)",
    )
    .log_x()
    .log_y()
    .series(Series::ours(
        "this device / this CPU",
        t.series("N", "speed-up"),
    ))
    .series(Series::paper(
        "paper: Quadro 4000 / CPU",
        pub_pts(|p| p.speedup),
    ));
    s.line_chart(
        "fig3_speedup.png",
        &speed,
        "Fig. 3 (right axis): speed-up of the paper's GPU kernel over the naive CPU loop",
    )?;
    Ok(())
}

/// The audit of Table 1: GFLOPS from the times with eq. (2), speed-ups from both. Each
/// disagreeing kind of check becomes one note with the range of printed / recomputed ratios.
fn audit_paper(s: &Session, published: &[Published]) {
    let kinds = [
        "CPU GFLOPS from CPU ms",
        "GPU GFLOPS from GPU ms",
        "speed-up from GFLOPS",
        "speed-up from times",
    ];
    let mut ratios: Vec<Vec<(u32, f64)>> = vec![Vec::new(); kinds.len()];
    for p in published {
        let n = p.n as usize;
        let checks = [
            (p.cpu_gflops, gflops(n, n, n, p.cpu_ms), 0.01),
            (p.gpu_gflops, gflops(n, n, n, p.gpu_ms), 0.01),
            // Speed-ups are printed as integers: allow the rounding.
            (
                p.speedup,
                p.gpu_gflops / p.cpu_gflops,
                0.5 / p.speedup + 0.005,
            ),
            (p.speedup, p.cpu_ms / p.gpu_ms, 0.5 / p.speedup + 0.005),
        ];
        for (k, (printed, recomputed, tol)) in checks.into_iter().enumerate() {
            let a = Audit::new(
                format!("Table 1, N = {}: {}", p.n, kinds[k]),
                printed,
                recomputed,
                tol,
            );
            if !s.audit(a) {
                ratios[k].push((p.n, printed / recomputed));
            }
        }
    }
    for (k, bad) in ratios.iter().enumerate().filter(|(_, b)| !b.is_empty()) {
        let (lo, hi) = bad
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(_, r)| {
                (lo.min(r), hi.max(r))
            });
        let ns: Vec<String> = bad.iter().map(|(n, _)| n.to_string()).collect();
        s.note(format!(
            "Audit: Table 1's `{}` disagrees with the paper's own eq. (2) at N = {}: printed / \
             recomputed = {lo:.3}–{hi:.3} (see the audit table).",
            kinds[k],
            ns.join(", ")
        ));
    }
    let cpu_ratio: Vec<f64> = published
        .iter()
        .map(|p| p.cpu_gflops / gflops(p.n as usize, p.n as usize, p.n as usize, p.cpu_ms))
        .collect();
    let last = published.iter().max_by_key(|p| p.n);
    if let (true, Some(last)) = (cpu_ratio.iter().all(|r| (r - 2.0).abs() < 0.05), last) {
        s.note(format!(
            "Audit finding: at every N the printed CPU GFLOPS is twice what eq. (2) gives from \
             the printed CPU time (as if the CPU's flops were counted 4n³, or its time halved), \
             while the GPU GFLOPS follow eq. (2). The printed speed-ups are ratios of GFLOPS, so \
             they are half the ratios of the printed times: by the paper's own times the GPU is \
             {:.0}× (not {:.0}×) faster than its CPU loop at N = {}. Our speed-up column is CPU ms \
             / GPU ms (= the GFLOPS ratio with both computed by eq. (2)).",
            last.cpu_ms / last.gpu_ms,
            last.speedup,
            last.n
        ));
    }
}

fn notes(s: &Session, t: &crate::report::Table, cfg: &Table1Config) {
    s.note(
        "Algorithm 1 as printed dispatches the full 64×64 grid of work groups for every \
         sub-matrix, even when the matrix needs fewer (N < 2048): the extra groups load zero \
         tiles and store nothing. We run it as printed (`GPU` columns) and with only the needed \
         groups (`trimmed-grid`), so the cost of that choice is measured, not guessed.",
    );
    s.note(
        "Algorithm 2 as printed stores Rsub inside the tile loop (every tile step writes the \
         partial sum; the last one leaves the final value). The semantics are unchanged and we \
         time the kernel as printed. The helper `__memoryBarrierShared` is renamed `sync_shared` \
         (GLSL reserves identifiers containing `__`).",
    );
    s.note(
        "The paper's wrapper calls map to GL as: glOpenBuffer = glGenBuffers; glWriteBuffer = \
         glBindBuffer + glBufferData + glBindBufferBase; glReadBuffer = glGetBufferSubData; \
         glCloseBuffer = glBindBufferBase(0) + glDeleteBuffers (src/papers/matmul/gpu.rs).",
    );
    s.note(
        "The paper does not say whether its GPU times include the transfers; ours time the \
         dispatch loop only (glFinish on both sides), matching its description of the \
         measured \"computing time\" of Algorithm 2.",
    );
    let at = |n: f64, col: &str| {
        t.rows
            .iter()
            .find(|r| r.values[0].as_f64() == Some(n))
            .and_then(|r| r.values[t.col(col)].as_f64())
    };
    if let (Some(f), Some(b)) = (at(1024.0, "GPU GFLOPS"), at(1024.0, "blocked GFLOPS")) {
        s.note(format!(
            "At N = 1024 the paper's kernel reaches {f:.2} GFLOPS on this device and the \
             register-blocked kernel {b:.2} GFLOPS ({:.1}× the paper's kernel; the issue's target \
             is ≥ 20× on llvmpipe).",
            b / f
        ));
    }
    let largest = cfg.sizes.pick(s.mode).iter().copied().max().unwrap_or(0) as f64;
    if let (Some(ours), Some(p)) = (
        at(largest, "GPU GFLOPS"),
        cfg.published
            .iter()
            .find(|p| p.n as f64 == largest)
            .map(|p| p.gpu_gflops),
    ) {
        s.note(format!(
            "At N = {largest}: the paper's kernel gives {ours:.2} GFLOPS here against the paper's \
             {p:.2} GFLOPS on a Quadro 4000 ({:.3}×).",
            ours / p
        ));
    }
}

/// Checked by the runner before any work starts (the paper's own ranges go here).
impl crate::runner::Experiments for Config {}
