//! Table 1: Algorithm 3 (CPU) against Algorithms 1 + 2 (GPU) for N×N matrices, with the
//! labelled variants in the same table: Algorithm 1 as printed (a full 64×64 grid on every
//! dispatch), and beyond the paper the register-blocked compute kernel, the multipass
//! fragment kernel and a tuned CPU SGEMM. GFLOPS by eq. (2): 2N³ / (10⁶ · ms).
//!
//! Timing (§4: "10회 측정하여 평균"): every variant of a row is timed interleaved
//! ([`rounds`]): warm-up, then rounds (each variant once per round, a shuffled order) until
//! each has at least the paper's 10 runs and its median's 95 % interval is within the file's
//! `ci_target` (or the cap, or the budget); the table shows the median with its interval and
//! the mean (the paper's statistic); the ratios are medians of paired per-round ratios. The
//! warm-up is skipped where the previous size, scaled by N³, predicts one run longer than
//! the whole budget.

use std::collections::HashMap;

use super::tune::Tuned;
use super::{KERNELS, Published, Table1Config, at, fig3};
use crate::bench::Work;
use crate::gl::timing::{measure_gpu, rounds};
use crate::gl::{Timing, TimingPlan};
use crate::papers::matmul::gpu::{Blocked, Park2019, Park2019Params};
use crate::papers::matmul::multipass::Multipass;
use crate::papers::matmul::{Matrix, cpu, gflops};
use crate::report::{Column, OF_BOUND, RowBuilder, Table, bound_columns};
use crate::runner::{RunError, Session};
use std::time::Instant;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn cols() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::ours("CPU").unit("ms"),
        Column::ours("CPU rows timed").int(),
        Column::ours("CPU GFLOPS").fixed(2),
        Column::ours("GPU").unit("ms"),
        Column::ours("GPU mean").unit("ms"),
        Column::ours("GPU GFLOPS").fixed(2),
        Column::ours("speed-up").fixed(2),
        Column::ours("GPU error").sci(1),
        Column::ours("work groups").int(),
        Column::paper("Table 1 CPU").unit("ms"),
        Column::paper("Table 1 CPU GFLOPS").fixed(2),
        Column::paper("Table 1 GPU").unit("ms"),
        Column::paper("Table 1 GPU GFLOPS").fixed(2),
        Column::paper("Table 1 speed-up").int(),
        Column::audit("speed-up from times").fixed(1),
        Column::ours("as printed GFLOPS").fixed(2),
        Column::ours("as printed work groups").int(),
        Column::beyond("blocked GFLOPS").fixed(2),
        Column::beyond("blocked / paper kernel").fixed(1),
        Column::beyond("fragment GFLOPS").fixed(2),
        Column::beyond("SGEMM GFLOPS").fixed(2),
        Column::beyond("best GPU / SGEMM").fixed(2),
        Column::beyond("variants error").sci(1),
    ]
    .into_iter()
    .chain(bound_columns())
    .collect()
}

/// Every GPU kernel of a Table 1 row against the device's limits (Table 1 itself can carry
/// one kernel's bound: the paper's).
fn kernel_cols() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::key("kernel").text(),
        Column::ours("time").unit("ms"),
        Column::ours("GFLOPS").fixed(2),
        Column::ours("error").sci(1),
    ]
    .into_iter()
    .chain(bound_columns())
    .collect()
}

fn kernel_keys(n: u32) -> Vec<String> {
    KERNELS.iter().map(|k| format!("{n} {k}")).collect()
}

/// One GPU kernel of a row: its roofline name, work, timed runs and error.
type KernelRun = (&'static str, Work, Timing, f64);

/// The kernels of a row.
struct Kernels {
    paper: Park2019,
    as_printed: Park2019,
    blocked: Blocked,
    multipass: Multipass,
    /// The parameters `blocked` and `multipass` were built with.
    tuned: Tuned,
}

/// The last (N, ms) of each kernel, to predict the next size's run time (∝ N³).
#[derive(Default)]
struct Predict(HashMap<&'static str, (usize, f64)>);

impl Predict {
    /// `plan` without its warm-up when one run is predicted to exceed the whole budget.
    fn plan(&self, kernel: &'static str, n: usize, plan: TimingPlan) -> TimingPlan {
        let budget_ms = plan.budget.as_secs_f64() * 1e3;
        match self.0.get(kernel) {
            Some(&(n0, ms)) if ms * (n as f64 / n0 as f64).powi(3) > budget_ms => {
                TimingPlan { warmup: 0, ..plan }
            }
            _ => plan,
        }
    }

    /// Why size `n` is not run: one run of the paper's kernel predicted (∝ N³ from the last
    /// size) over `cap_s`.
    fn over_cap(&self, n: usize, cap_s: Option<f64>) -> Option<String> {
        let (n0, ms) = *self.0.get("paper")?;
        let predicted_s = ms * (n as f64 / n0 as f64).powi(3) / 1e3;
        let cap = cap_s?;
        let sig = |x: f64| crate::report::Value::Num(x).render(crate::report::Fmt::Sig(3));
        (predicted_s > cap).then(|| {
            format!(
                "one run of the paper's kernel is predicted at {} s (N = {n0}'s {} ms × \
                 (N / {n0})³), over this mode's max_run_s = {cap} s",
                sig(predicted_s),
                sig(ms)
            )
        })
    }
}

pub fn run(s: &Session, cfg: &Table1Config, tuned: Tuned) -> Result<(), RunError> {
    let gl = &s.gl;
    let sizes = cfg.sizes.pick(s.mode).to_vec();
    let repeat = cfg.repeat.pick(s.mode);
    let k = Kernels {
        paper: Park2019::new(gl, Park2019Params::default()).map_err(RunError::algorithm)?,
        as_printed: Park2019::new(gl, Park2019Params::as_printed()).map_err(RunError::algorithm)?,
        blocked: Blocked::new(gl, tuned.blocked).map_err(RunError::algorithm)?,
        multipass: Multipass::new(gl, tuned.k_chunk).map_err(RunError::algorithm)?,
        tuned,
    };
    let mut t = s.table(
        "table1",
        "Table 1 — CPU (Algorithm 3) vs GPU (Algorithms 1+2), N×N",
        cols(),
        &(cfg, &sizes, tuned),
    )?;
    t.caption(format!(
        "Times: median of the timed runs with its 95 % interval [lo, hi] (distribution-free, \
         order statistics); at least {} timed runs (the paper's count, §4) after {} warm-up \
         run(s), then more until the interval's half-width is within {:.0} % of the median or \
         {} runs, within a {:.0} s budget per variant and row ({} mode); `runs` = timed runs \
         of the paper's kernel. `GPU mean` is the paper's statistic (mean). Interleaved: each \
         row's CPU loop, paper kernel, blocked and fragment kernels and SGEMM are timed in \
         rounds (the as-printed launch, seconds per run, on its own after them) (every variant once per round, a shuffled order per \
         round); speed-up = CPU ms / GPU ms, `blocked / paper kernel` and `best GPU / SGEMM` \
         are medians of the per-round ratios with their intervals. The warm-up is skipped \
         where N³ scaling of the previous size predicts one run longer than the budget. \
         `glFinish` on both sides of each GPU run; upload and readback excluded. GFLOPS = \
         2N³/(10⁶·ms), eq. (2).",
        repeat.repetitions,
        repeat.warmup,
        repeat.ci_target * 100.0,
        repeat.max_runs(),
        repeat.budget_s,
        s.mode.name(),
    ));
    t.caption(format!(
        "The paper's kernel: Algorithm 2 with the work groups its matrix needs (§2.2: matrix \
         size / 32), at most 64×64 per dispatch (§3.1), sub-matrices beyond. `as printed`: \
         Algorithm 1's `glDispatchCompute(64, 64, 1)` on every dispatch whatever N (the same \
         launch where N is a multiple of {}, where it is not timed twice).",
        full_edge()
    ));
    t.caption(format!(
        "CPU: Algorithm 3 (naive i-j-k, f32, one thread); above N = {} only the first {} rows \
         of R are timed and the time is scaled by N/rows (`CPU rows timed`).",
        cfg.cpu_rows_max, cfg.cpu_rows_max
    ));
    t.caption(format!(
        "Errors: max|R − R₆₄| / max|R₆₄| against an f64 product of the same f32 inputs; \
         tolerance {:.0e}. `variants error` is the largest over the as-printed, blocked, \
         fragment and SGEMM results.",
        cfg.tolerance
    ));
    t.caption(format!(
        "Beyond the paper, each with the parameters tuned on this device (the `tuning` \
         table): `blocked` = register-blocked compute kernel ({}×{} vec4 per invocation, {}×{} \
         work groups, A and B read from {}); `fragment` = multipass fragment-shader matmul on \
         RGBA32F textures, {} k per pass, switch method; `SGEMM` = matrixmultiply::sgemm, one \
         thread.",
        tuned.blocked.tm,
        tuned.blocked.tn,
        tuned.blocked.wg_x,
        tuned.blocked.wg_y,
        tuned.blocked.reads.describe(),
        Multipass::chunk(tuned.k_chunk)
    ));
    t.caption(
        "Bound (the paper's kernel; every GPU kernel in `table1_kernels`): its work counted \
         from the tiling (src/papers/matmul/gpu.rs) against the median time and its interval.",
    );
    t.expect_rows(sizes.len());
    let mut kt = s.table(
        "table1_kernels",
        "Table 1's GPU kernels against this device's limits, N×N",
        kernel_cols(),
        &(cfg, &sizes, tuned),
    )?;
    kt.caption(
        "Each GPU kernel of Table 1 per N: time (median [95 % interval] from the rounds of \
         Table 1's row), GFLOPS = 2N³ / time, and the bound of its work counted from the \
         kernel (src/papers/matmul/gpu.rs: \
         tiles of A and B once per k-step and R stored every step for Algorithm 2; all \
         launched groups' multiply-adds for the as-printed grid; each SSBO access or texture \
         fetch once, no cache model).",
    );
    kt.expect_rows(sizes.len() * KERNELS.len());
    let mut predict = Predict::default();
    for &n in &sizes {
        s.check_interrupt()?;
        let key = format!("{n}");
        if t.reusable(&key).is_some() && kt.reuse_all(&kernel_keys(n))?.is_some() {
            t.reuse(&key)?;
            continue;
        }
        let cap = cfg.max_run_s.as_ref().map(|c| *c.pick(s.mode));
        if let Some(why) = predict.over_cap(n as usize, cap) {
            t.push(t.row(&key).num("N", n as f64).skip(why.clone()))?;
            for (name, key) in KERNELS.iter().zip(kernel_keys(n)) {
                kt.push(
                    kt.row(key)
                        .num("N", n as f64)
                        .text("kernel", *name)
                        .skip(why.clone()),
                )?;
            }
            continue;
        }
        t.start(&format!("N = {n}"));
        let row = t.row(&key).num("N", n as f64);
        let row = match measure_row(s, cfg, n as usize, &k, &mut predict, row.clone()) {
            Ok((r, kernels)) => {
                for ((name, work, tm, err), key) in kernels.into_iter().zip(kernel_keys(n)) {
                    kt.push(
                        kt.row(key)
                            .num("N", n as f64)
                            .text("kernel", name)
                            .timed("time", &tm)
                            .est("GFLOPS", tm.rate(2.0 * (n as f64).powi(3) / 1e9))
                            .num("error", err)
                            .runs(tm.runs)
                            .work_timed(name, work, &tm)
                            .versus("matrix multiply (f32)", format!("N = {n}"))
                            .verify(err, cfg.tolerance),
                    )?;
                }
                r
            }
            Err(e) => row.fail(format!("{e}")),
        };
        t.push(row)?;
    }
    let kernels = kt.finish()?;
    let table = t.finish()?;
    fig3::run(s, &table, &cfg.published)?;
    notes(s, &table, cfg);
    bound_notes(s, &kernels, &sizes);
    super::findings::judge(s, &table, cfg);
    Ok(())
}

fn measure_row(
    s: &Session,
    cfg: &Table1Config,
    n: usize,
    k: &Kernels,
    predict: &mut Predict,
    row: RowBuilder,
) -> Result<(RowBuilder, Vec<KernelRun>), BoxError> {
    let gl = &s.gl;
    let plan = cfg.repeat.pick(s.mode).plan();
    let a = Matrix::random(n, n, cfg.seed ^ (n as u64) << 1);
    let b = Matrix::random(n, n, cfg.seed ^ ((n as u64) << 1 | 1));
    let reference = cpu::reference_f64(&a, &b);
    let err = |m: &Matrix| crate::util::max_rel_error(&m.data, &reference);

    // The row's variants are timed in rounds (each round: every variant once, in a
    // shuffled order), so that the ratios (speed-up, blocked / paper kernel, best GPU /
    // SGEMM) are paired. Where N fills whole 64×64-group dispatches the as-printed launch is
    // the paper's kernel's and is not timed twice.
    let rows = n.min(cfg.cpu_rows_max);
    let scale = n as f64 / rows as f64;
    let mut out = vec![0f32; n * n];
    let paper_ops = k.paper.upload(&a, &b)?;
    let print_ops = if n.is_multiple_of(full_edge()) {
        None
    } else {
        Some(k.as_printed.upload(&a, &b)?)
    };
    let blk_ops = k.blocked.upload(&a, &b)?;
    let mut frag_ops = k.multipass.upload(&a, &b)?;
    let mut sg = Matrix::zeros(0, 0);
    let (mut groups, mut print_groups) = (0, 0);
    // Variants: 0 CPU (Algorithm 3), 1 paper kernel, 2 (the as-printed launch, timed apart
    // below), 3 blocked, 4 fragment, 5 SGEMM.
    const CPU: usize = 0;
    const PAPER: usize = 1;
    const PRINTED: usize = 2;
    const BLOCKED: usize = 3;
    const FRAGMENT: usize = 4;
    const SGEMM: usize = 5;
    let names = ["cpu", "paper", "as printed", "blocked", "fragment", "sgemm"];
    let plan = names.iter().fold(plan, |p, name| TimingPlan {
        warmup: p.warmup.min(predict.plan(name, n, plan).warmup),
        ..p
    });
    let timed = rounds(plan, names.len(), |i| -> Result<f64, BoxError> {
        let gpu = |f: &mut dyn FnMut() -> Result<(), BoxError>| -> Result<f64, BoxError> {
            gl.finish();
            let t0 = Instant::now();
            f()?;
            gl.finish();
            Ok(t0.elapsed().as_secs_f64() * 1e3)
        };
        Ok(match i {
            CPU => {
                let t0 = Instant::now();
                cpu::naive_rows(&a, &b, 0..rows, &mut out);
                t0.elapsed().as_secs_f64() * 1e3
            }
            PAPER => gpu(&mut || {
                groups = k.paper.run(&paper_ops)?.groups;
                Ok(())
            })?,
            PRINTED => 0.0,
            BLOCKED => gpu(&mut || Ok(k.blocked.run(&blk_ops)?))?,
            FRAGMENT => gpu(&mut || Ok(k.multipass.run(&mut frag_ops).map(drop)?))?,
            _ => {
                let t0 = Instant::now();
                sg = cpu::sgemm(&a, &b);
                t0.elapsed().as_secs_f64() * 1e3
            }
        })
    })?;
    // The as-printed launch (seconds per run on a full 64×64 grid) is timed on its own
    // after the rounds: it is compared with nothing paired, and in the rounds it would eat
    // the others' budget.
    let print_timed = match &print_ops {
        None => None,
        Some(ops) => Some(measure_gpu(
            gl,
            predict.plan("as printed", n, cfg.repeat.pick(s.mode).plan()),
            || -> Result<(), BoxError> {
                print_groups = k.as_printed.run(ops)?.groups;
                Ok(())
            },
        )?),
    };
    for (name, t) in names.iter().zip(&timed.timings) {
        predict.0.insert(name, (n, t.min_ms));
    }
    if let Some(t) = &print_timed {
        predict.0.insert("as printed", (n, t.min_ms));
    }
    let t = |i: usize| &timed.timings[i];
    let cpu_err = cpu::rows_error(&out, &reference, n, 0..rows);
    drop(out);
    let gpu_err = err(&k.paper.read(&paper_ops)?);
    let (print_t, print_err, print_groups) = match (&print_ops, print_timed) {
        (Some(ops), Some(pt)) => (pt, err(&k.as_printed.read(ops)?), print_groups),
        _ => (t(PAPER).clone(), gpu_err, groups),
    };
    let blk_err = err(&k.blocked.read(&blk_ops)?);
    let frag_err = err(&k.multipass.read(&frag_ops)?);
    let sg_err = err(&sg);
    drop((paper_ops, print_ops, blk_ops, frag_ops));

    let gf = |ms: f64| gflops(n, n, n, ms);
    let rate = |t: &Timing| t.rate(2.0 * (n as f64).powi(3) / 1e9);
    let cpu_est = t(CPU).est().map(|ms| ms * scale);
    let p: Option<&Published> = cfg.published.iter().find(|p| p.n as usize == n);
    // The fastest GPU kernel by median, against SGEMM from paired rounds (a GFLOPS ratio is
    // the inverse time ratio).
    let best = [PAPER, BLOCKED, FRAGMENT]
        .into_iter()
        .min_by(|&x, &y| t(x).median_ms.total_cmp(&t(y).median_ms))
        .unwrap_or(PAPER);
    let variants_err = print_err.max(blk_err).max(frag_err).max(sg_err);
    let all_err = variants_err.max(gpu_err).max(cpu_err);
    let paper_work = Park2019Params::default().work(n, n, n);
    let kernels = vec![
        (KERNELS[0], paper_work, t(PAPER).clone(), gpu_err),
        (
            KERNELS[1],
            Park2019Params::as_printed().work(n, n, n),
            print_t.clone(),
            print_err,
        ),
        (
            KERNELS[2],
            k.tuned.blocked.work(n, n, n),
            t(BLOCKED).clone(),
            blk_err,
        ),
        (
            KERNELS[3],
            Multipass::work(k.tuned.k_chunk, n, n, n),
            t(FRAGMENT).clone(),
            frag_err,
        ),
    ];
    let row = row
        .est("CPU", cpu_est.clone())
        .num("CPU rows timed", rows as f64)
        .est("CPU GFLOPS", cpu_est.map(gf))
        .timed("GPU", t(PAPER))
        .num("GPU mean", t(PAPER).mean_ms)
        .est("GPU GFLOPS", rate(t(PAPER)))
        .opt_est(
            "speed-up",
            timed.ratio(CPU, PAPER).map(|r| r.map(|x| x * scale)),
        )
        .num("GPU error", gpu_err)
        .num("work groups", groups as f64)
        .opt("Table 1 CPU", p.map(|p| p.cpu_ms.value))
        .opt("Table 1 CPU GFLOPS", p.map(|p| p.cpu_gflops.value))
        .opt("Table 1 GPU", p.map(|p| p.gpu_ms.value))
        .opt("Table 1 GPU GFLOPS", p.map(|p| p.gpu_gflops.value))
        .opt("Table 1 speed-up", p.map(|p| p.speedup.value))
        .opt(
            "speed-up from times",
            p.map(|p| p.cpu_ms.value / p.gpu_ms.value),
        )
        .est("as printed GFLOPS", rate(&print_t))
        .num("as printed work groups", print_groups as f64)
        .est("blocked GFLOPS", rate(t(BLOCKED)))
        .opt_est("blocked / paper kernel", timed.ratio(PAPER, BLOCKED))
        .est("fragment GFLOPS", rate(t(FRAGMENT)))
        .est("SGEMM GFLOPS", rate(t(SGEMM)))
        .opt_est("best GPU / SGEMM", timed.ratio(SGEMM, best))
        .num("variants error", variants_err)
        .runs(t(PAPER).runs)
        .work_timed(KERNELS[0], paper_work, t(PAPER))
        .verify(all_err, cfg.tolerance);
    Ok((row, kernels))
}

/// The matrix edge one full dispatch covers (32 × 64 = 2048 in the paper): from a multiple
/// of it on, the needed groups are the printed full grid.
fn full_edge() -> usize {
    let p = Park2019Params::default();
    (p.block * p.max_groups) as usize
}

fn notes(s: &Session, t: &Table, cfg: &Table1Config) {
    let pp = Park2019Params::default();
    let edge = (pp.block * pp.max_groups) as f64;
    if let Some(p0) = cfg.published.iter().min_by_key(|p| p.n) {
        let tflop = 2.0 * edge * edge * p0.n as f64 / 1e12;
        s.note(format!(
            "Which grid is the paper's kernel: §2.2 sets the number of work groups to the \
             matrix size divided by the work-group size, §3.1 caps it at {g}×{g} (Windows TDR) \
             and cuts larger matrices into sub-matrices; Algorithm 1 as printed dispatches the \
             full {g}×{g} grid every time. The paper's own times rule the printed launch out at \
             small N: at N = {n} it is 2·{e}²·{n} = {tflop:.3} TFLOP of work, {:.2} TFLOPS in \
             the paper's {} ms. The needed-groups launch is therefore the paper's kernel here; \
             the printed launch is the labelled `as printed` variant.",
            tflop / (p0.gpu_ms.value * 1e-3),
            String::from(p0.gpu_ms),
            g = pp.max_groups,
            n = p0.n,
            e = edge,
        ));
    }
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
    for r in &t.rows {
        let n: u32 = r.key.parse().unwrap_or(0);
        if let (Some(f), Some(pr)) = (at(t, n, "GPU GFLOPS"), at(t, n, "as printed GFLOPS"))
            && !(n as usize).is_multiple_of(full_edge())
        {
            s.note(format!(
                "N = {n}: the paper's kernel {f:.2} GFLOPS, Algorithm 1 as printed \
                     {pr:.2} GFLOPS ({:.1}× slower: its {} work groups against {}).",
                f / pr,
                at(t, n, "as printed work groups").unwrap_or(f64::NAN),
                at(t, n, "work groups").unwrap_or(f64::NAN)
            ));
        }
    }
    let sizes = cfg.sizes.pick(s.mode);
    let mid = sizes.iter().copied().filter(|&n| n <= 1024).max();
    if let Some(n) = mid
        && let (Some(f), Some(b), Some(fr)) = (
            at(t, n, "GPU GFLOPS"),
            at(t, n, "blocked GFLOPS"),
            at(t, n, "fragment GFLOPS"),
        )
    {
        s.note(format!(
            "At N = {n} the paper's kernel reaches {f:.2} GFLOPS on this device, the \
                 register-blocked kernel {b:.2} GFLOPS ({:.1}× the paper's kernel) and the \
                 fragment multipass {fr:.2} GFLOPS (blocked / fragment = {:.2}).",
            b / f,
            b / fr
        ));
    }
    let largest = sizes.iter().copied().max().unwrap_or(0);
    if let (Some(ours), Some(p)) = (
        at(t, largest, "GPU GFLOPS"),
        cfg.published.iter().find(|p| p.n == largest),
    ) {
        s.note(format!(
            "At N = {largest}: the paper's kernel gives {ours:.2} GFLOPS here against the \
             paper's {} GFLOPS on a Quadro 4000 ({:.3}×).",
            String::from(p.gpu_gflops),
            ours / p.gpu_gflops.value
        ));
    }
}

/// Kernel `k`'s fraction of its bound at size `n`, from `table1_kernels`.
fn fraction(kt: &Table, n: u32, k: &str) -> Option<f64> {
    kt.rows
        .iter()
        .find(|r| r.key == format!("{n} {k}"))
        .and_then(|r| r.values[kt.col(OF_BOUND)].as_f64())
}

/// Whether each side of a comparison is within half of its bound; where not, the comparison
/// says more about the implementations than about the algorithms (issue 13).
pub fn within_half(name: &str, f: Option<f64>) -> String {
    match f {
        Some(f) if f >= 0.5 => format!("{name} at {f:.2} of its bound (within half)"),
        Some(f) => format!(
            "{name} at {f:.2} of its bound ({:.1}× from it: implementation-bound)",
            1.0 / f
        ),
        None => format!("{name} without a bound"),
    }
}

/// Table 1's comparisons (paper kernel vs as printed, blocked and fragment vs the paper's
/// kernel) read against each side's bound at the largest size measured.
fn bound_notes(s: &Session, kt: &Table, sizes: &[u32]) {
    let Some(&n) = sizes.iter().max() else {
        return;
    };
    let sides: Vec<String> = KERNELS
        .iter()
        .map(|k| within_half(k, fraction(kt, n, k)))
        .collect();
    if KERNELS.iter().all(|k| fraction(kt, n, k).is_none()) {
        return;
    }
    s.note(format!(
        "Table 1's comparisons against the bounds at N = {n} (table1_kernels): {}. A \
         comparison between two kernels that are not both within half of their bounds ranks \
         their implementations on this device, not the algorithms.",
        sides.join("; ")
    ));
}

#[cfg(test)]
mod tests {
    use super::Predict;

    #[test]
    fn a_size_is_skipped_only_when_its_predicted_run_exceeds_the_cap() {
        let mut p = Predict::default();
        assert_eq!(p.over_cap(256, Some(0.1)), None, "nothing measured yet");
        p.0.insert("paper", (128, 18.0));
        // 18 ms × 2³ = 0.144 s.
        let why = p.over_cap(256, Some(0.1)).expect("0.144 s > 0.1 s");
        assert!(
            why.contains("0.144 s") && why.contains("max_run_s = 0.1 s"),
            "{why}"
        );
        assert_eq!(p.over_cap(256, Some(1.0)), None);
        assert_eq!(p.over_cap(256, None), None, "no cap");
    }
}
