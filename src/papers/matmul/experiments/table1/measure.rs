//! One row of Table 1: every variant timed in rounds (the CPU loop, the paper's kernel, the
//! blocked and fragment kernels, SGEMM), the as-printed launch on its own after them, each
//! result checked against an f64 product, and the row and its kernels' runs built from them.

use super::super::config::Table1Config;
use super::super::kernels::KERNELS;
use super::super::published::Published;
use super::edge::full_edge;
use super::predict::{AS_PRINTED, Predict};
use crate::bench::Work;
use crate::gl::measure::{measure_gpu, once_cpu, once_gpu};
use crate::gl::timing::{Rounds, rounds_retiring};
use crate::gl::{Gl, Timing, TimingPlan};
use crate::papers::matmul::cpu;
use crate::papers::matmul::experiments::tune::Tuned;
use crate::papers::matmul::gpu::{Blocked, BlockedOperands, Operands, Park2019, Park2019Params};
use crate::papers::matmul::matrix::{Matrix, gflops};
use crate::papers::matmul::multipass::{Multipass, TextureOperands};
use crate::report::RowBuilder;
use crate::runner::{RunError, Session};
use crate::stats::Estimate;

pub(super) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One GPU kernel of a row: its roofline name, and its work, timed runs and error, or why it
/// was not run.
pub(super) type KernelRun = (&'static str, Result<(Work, Timing, f64), String>);

/// The kernels of a row.
pub(super) struct Kernels {
    pub(super) paper: Park2019,
    pub(super) as_printed: Park2019,
    pub(super) blocked: Blocked,
    pub(super) multipass: Multipass,
    /// The parameters `blocked` and `multipass` were built with.
    pub(super) tuned: Tuned,
}

impl Kernels {
    /// The paper's kernel (needed groups and as printed) and the tuned ones.
    pub(super) fn new(gl: &Gl, tuned: Tuned) -> Result<Kernels, RunError> {
        Ok(Kernels {
            paper: Park2019::new(gl, Park2019Params::default()).map_err(RunError::algorithm)?,
            as_printed: Park2019::new(gl, Park2019Params::as_printed())
                .map_err(RunError::algorithm)?,
            blocked: Blocked::new(gl, tuned.blocked).map_err(RunError::algorithm)?,
            multipass: Multipass::new(gl, tuned.k_chunk).map_err(RunError::algorithm)?,
            tuned,
        })
    }
}

// Variants: 0 CPU (Algorithm 3), 1 paper kernel, 2 (the as-printed launch, timed apart
// below), 3 blocked, 4 fragment, 5 SGEMM.
const CPU: usize = 0;
const PAPER: usize = 1;
const PRINTED: usize = 2;
const BLOCKED: usize = 3;
const FRAGMENT: usize = 4;
/// The variant in the rounds of each of [`Measured::kernels`]' runs, in its order (`None`:
/// the as-printed launch, timed on its own): the row each profiled run belongs to.
pub(super) const KERNEL_VARIANTS: [Option<usize>; 4] =
    [Some(PAPER), None, Some(BLOCKED), Some(FRAGMENT)];
const SGEMM: usize = 5;
const NAMES: [&str; 6] = ["cpu", "paper", AS_PRINTED, "blocked", "fragment", "sgemm"];
/// The predictor's name of each of [`Measured::kernels`]' runs (`table1_kernels`' rows), in
/// its order.
pub(super) const KERNEL_NAMES: [&str; 4] = [
    NAMES[PAPER],
    NAMES[PRINTED],
    NAMES[BLOCKED],
    NAMES[FRAGMENT],
];

/// A row's inputs: A, B and their f64 product.
struct Inputs {
    a: Matrix,
    b: Matrix,
    reference: Vec<f64>,
}

impl Inputs {
    fn new(seed: u64, n: usize) -> Inputs {
        let a = Matrix::random(n, n, seed ^ (n as u64) << 1);
        let b = Matrix::random(n, n, seed ^ ((n as u64) << 1 | 1));
        let reference = cpu::reference_f64(&a, &b);
        Inputs { a, b, reference }
    }

    fn err(&self, m: &Matrix) -> f64 {
        crate::stats::max_rel_error(&m.data, &self.reference)
    }
}

/// Every kernel's operands on the GPU. Where N fills whole 64×64-group dispatches the
/// as-printed launch is the paper's kernel's and is not timed twice; where one run of it is
/// predicted over the mode's cap it is not run (`print: None` in both cases).
struct Uploaded {
    paper: Operands,
    print: Option<Operands>,
    blk: BlockedOperands,
    frag: TextureOperands,
}

impl Uploaded {
    fn new(k: &Kernels, x: &Inputs, n: usize, printed: bool) -> Result<Uploaded, BoxError> {
        let (a, b) = (&x.a, &x.b);
        let paper = k.paper.upload(a, b)?;
        let print = if !printed || n.is_multiple_of(full_edge()) {
            None
        } else {
            Some(k.as_printed.upload(a, b)?)
        };
        let blk = k.blocked.upload(a, b)?;
        let frag = k.multipass.upload(a, b)?;
        Ok(Uploaded {
            paper,
            print,
            blk,
            frag,
        })
    }
}

/// What the rounds leave: the times, the CPU loop's rows, SGEMM's product and the paper
/// kernel's work groups.
struct Timed {
    rounds: Rounds,
    out: Vec<f32>,
    sg: Matrix,
    groups: u64,
}

/// The row's variants timed in rounds (each round: every variant once, in a shuffled
/// order), so that the ratios (speed-up, blocked / paper kernel, best GPU / SGEMM) are
/// paired. The two CPU variants leave the rounds once their own times are settled
/// ([`rounds_retiring`]): on the H200 run's host one run of the CPU loop took seconds where
/// the GPU kernels took milliseconds, and a GPU kernel's wide interval kept every variant in
/// the rounds up to their cap (`figures/nvidia-h200-pcie-sse2/README.md`).
fn time_rounds(
    gl: &Gl,
    plan: TimingPlan,
    k: &Kernels,
    x: &Inputs,
    ops: &mut Uploaded,
    rows: usize,
) -> Result<Timed, BoxError> {
    let n = x.a.rows;
    let (a, b) = (&x.a, &x.b);
    let mut out = vec![0f32; n * n];
    let mut sg = Matrix::zeros(0, 0);
    let mut groups = 0;
    let run = |i| -> Result<f64, BoxError> {
        let gpu = |f: &mut dyn FnMut() -> Result<(), BoxError>| once_gpu(gl, f).map(|((), ms)| ms);
        let host = |f: &mut dyn FnMut()| {
            once_cpu(|| {
                f();
                Ok::<_, BoxError>(())
            })
            .map(|((), ms)| ms)
        };
        match i {
            CPU => host(&mut || cpu::naive_rows(a, b, 0..rows, &mut out)),
            PAPER => gpu(&mut || {
                groups = k.paper.run(&ops.paper)?.groups;
                Ok(())
            }),
            PRINTED => Ok(0.0),
            BLOCKED => gpu(&mut || Ok(k.blocked.run(&ops.blk)?)),
            FRAGMENT => gpu(&mut || Ok(k.multipass.run(&mut ops.frag).map(drop)?)),
            _ => host(&mut || sg = cpu::sgemm(a, b)),
        }
    };
    let timed = rounds_retiring(plan, NAMES.len(), &[CPU, SGEMM], run)?;
    Ok(Timed {
        rounds: timed,
        out,
        sg,
        groups,
    })
}

/// The as-printed launch (seconds per run on a full 64×64 grid), timed on its own after the
/// rounds: it is compared with nothing paired, and in the rounds it would eat the others'
/// budget. Its time and work groups; `None` where it is the paper kernel's launch.
fn time_printed(
    gl: &Gl,
    plan: TimingPlan,
    k: &Kernels,
    ops: &Uploaded,
) -> Result<Option<(Timing, u64)>, BoxError> {
    let Some(o) = &ops.print else {
        return Ok(None);
    };
    let mut groups = 0;
    let t = measure_gpu(gl, plan, || -> Result<(), BoxError> {
        groups = k.as_printed.run(o)?.groups;
        Ok(())
    })?;
    Ok(Some((t, groups)))
}

/// The as-printed launch: its time, error and work groups.
struct Printed {
    t: Timing,
    err: f64,
    groups: u64,
}

/// Every result's error against the f64 product.
struct Errors {
    cpu: f64,
    paper: f64,
    blocked: f64,
    fragment: f64,
    sgemm: f64,
}

/// Everything a row is built from.
struct Measured {
    n: usize,
    rows: usize,
    rounds: Rounds,
    /// The paper kernel's work groups.
    groups: u64,
    /// The as-printed launch, or why it was not run.
    printed: Result<Printed, String>,
    errs: Errors,
}

pub(super) fn measure_row(
    s: &Session,
    cfg: &Table1Config,
    n: usize,
    k: &Kernels,
    predict: &mut Predict,
    row: RowBuilder,
) -> Result<(RowBuilder, Vec<KernelRun>), BoxError> {
    let cap = cfg.max_run_s.as_ref().map(|c| *c.pick(s.mode));
    let m = measure(s, cfg, (n, cap), k, predict)?;
    Ok((m.row(row, cfg), m.kernels(k)))
}

/// Times every variant of size `n` and checks every result; the as-printed launch only where
/// one run of it is predicted within `cap` (s).
fn measure(
    s: &Session,
    cfg: &Table1Config,
    (n, cap): (usize, Option<f64>),
    k: &Kernels,
    predict: &mut Predict,
) -> Result<Measured, BoxError> {
    let gl = &s.gl;
    let plan = cfg.repeat.pick(s.mode).plan();
    let x = Inputs::new(cfg.seed, n);
    let rows = n.min(cfg.cpu_rows_max);
    // Predicted from its own last size before the rounds; at its first size, from the
    // paper's kernel timed in them (`Predict::printed_over_cap`).
    let over_before = predict.printed_over_cap(n, cap);
    let mut ops = Uploaded::new(k, &x, n, over_before.is_none())?;
    // The rounds' warm-up: skipped where any variant in them would exceed the budget (the
    // as-printed launch is not in them).
    let in_rounds = NAMES.iter().filter(|&&name| name != AS_PRINTED);
    let plan_all = in_rounds.fold(plan, |p, name| TimingPlan {
        warmup: p.warmup.min(predict.plan(name, n, plan).warmup),
        ..p
    });
    let timed = time_rounds(gl, plan_all, k, &x, &mut ops, rows)?;
    // The rounds' as-printed slot is a placeholder (timed apart below, or not run).
    for (name, t) in NAMES.iter().zip(&timed.rounds.timings) {
        if *name != AS_PRINTED {
            predict.0.insert(name, (n, t.min_ms));
        }
    }
    let printed_over_cap = over_before.or_else(|| predict.printed_over_cap(n, cap));
    if printed_over_cap.is_some() {
        ops.print = None;
    }
    let print_timed = time_printed(gl, predict.plan(AS_PRINTED, n, plan), k, &ops)?;
    if let Some((t, _)) = &print_timed {
        predict.0.insert(AS_PRINTED, (n, t.min_ms));
    }
    let cpu_err = cpu::rows_error(&timed.out, &x.reference, n, 0..rows);
    let gpu_err = x.err(&k.paper.read(&ops.paper)?);
    let printed = match (&ops.print, print_timed, printed_over_cap) {
        (Some(o), Some((pt, print_groups)), _) => Ok(Printed {
            t: pt,
            err: x.err(&k.as_printed.read(o)?),
            groups: print_groups,
        }),
        (_, _, Some(why)) => Err(why),
        _ => Ok(Printed {
            t: timed.rounds.timings[PAPER].clone(),
            err: gpu_err,
            groups: timed.groups,
        }),
    };
    let errs = Errors {
        cpu: cpu_err,
        paper: gpu_err,
        blocked: x.err(&k.blocked.read(&ops.blk)?),
        fragment: x.err(&k.multipass.read(&ops.frag)?),
        sgemm: x.err(&timed.sg),
    };
    drop(ops);
    Ok(Measured {
        n,
        rows,
        rounds: timed.rounds,
        groups: timed.groups,
        printed,
        errs,
    })
}

impl Measured {
    fn t(&self, i: usize) -> &Timing {
        &self.rounds.timings[i]
    }

    fn rate(&self, t: &Timing) -> Estimate {
        t.rate(2.0 * (self.n as f64).powi(3) / 1e9)
    }

    /// The largest error over the as-printed (where run), blocked, fragment and SGEMM
    /// results.
    fn variants_err(&self) -> f64 {
        let e = &self.errs;
        let printed = self.printed.as_ref().map_or(0.0, |p| p.err);
        printed.max(e.blocked).max(e.fragment).max(e.sgemm)
    }

    /// Every GPU kernel of the row: its roofline name, work, times and error.
    fn kernels(&self, k: &Kernels) -> Vec<KernelRun> {
        let n = self.n;
        let printed = self.printed.as_ref().map_err(String::clone).map(|p| {
            let work = Park2019Params::as_printed().work(n, n, n);
            (work, p.t.clone(), p.err)
        });
        vec![
            (
                KERNELS[0],
                Ok((
                    Park2019Params::default().work(n, n, n),
                    self.t(PAPER).clone(),
                    self.errs.paper,
                )),
            ),
            (KERNELS[1], printed),
            (
                KERNELS[2],
                Ok((
                    k.tuned.blocked.work(n, n, n),
                    self.t(BLOCKED).clone(),
                    self.errs.blocked,
                )),
            ),
            (
                KERNELS[3],
                Ok((
                    Multipass::work(k.tuned.k_chunk, n, n, n),
                    self.t(FRAGMENT).clone(),
                    self.errs.fragment,
                )),
            ),
        ]
    }

    /// Table 1's row: ours, the paper's, and the variants beyond it.
    fn row(&self, row: RowBuilder, cfg: &Table1Config) -> RowBuilder {
        let n = self.n;
        let scale = n as f64 / self.rows as f64;
        let gf = |ms: f64| gflops(n, n, n, ms);
        let t = |i: usize| self.t(i);
        let timed = &self.rounds;
        let cpu_est = t(CPU).est().map(|ms| ms * scale);
        let p: Option<&Published> = cfg.published.iter().find(|p| p.n as usize == n);
        // The fastest GPU kernel by median, against SGEMM from paired rounds (a GFLOPS ratio
        // is the inverse time ratio).
        let best = [PAPER, BLOCKED, FRAGMENT]
            .into_iter()
            .min_by(|&x, &y| t(x).median_ms.total_cmp(&t(y).median_ms))
            .unwrap_or(PAPER);
        let variants_err = self.variants_err();
        let all_err = variants_err.max(self.errs.paper).max(self.errs.cpu);
        let paper_work = Park2019Params::default().work(n, n, n);
        row.est("CPU", cpu_est.clone())
            .num("CPU rows timed", self.rows as f64)
            .num("CPU runs", t(CPU).runs as f64)
            .est("CPU GFLOPS", cpu_est.map(gf))
            .timed("GPU", t(PAPER))
            .num("GPU mean", t(PAPER).mean_ms)
            .est("GPU GFLOPS", self.rate(t(PAPER)))
            .opt_est(
                "speed-up",
                timed.ratio(CPU, PAPER).map(|r| r.map(|x| x * scale)),
            )
            .num("GPU error", self.errs.paper)
            .num("work groups", self.groups as f64)
            .opt("Table 1 CPU", p.map(|p| p.cpu_ms.value))
            .opt("Table 1 CPU GFLOPS", p.map(|p| p.cpu_gflops.value))
            .opt("Table 1 GPU", p.map(|p| p.gpu_ms.value))
            .opt("Table 1 GPU GFLOPS", p.map(|p| p.gpu_gflops.value))
            .opt("Table 1 speed-up", p.map(|p| p.speedup.value))
            .opt(
                "speed-up from times",
                p.map(|p| p.cpu_ms.value / p.gpu_ms.value),
            )
            .opt_est(
                "as printed GFLOPS",
                self.printed.as_ref().ok().map(|p| self.rate(&p.t)),
            )
            .opt(
                "as printed work groups",
                self.printed.as_ref().ok().map(|p| p.groups as f64),
            )
            .est("blocked GFLOPS", self.rate(t(BLOCKED)))
            .opt_est("blocked / paper kernel", timed.ratio(PAPER, BLOCKED))
            .est("fragment GFLOPS", self.rate(t(FRAGMENT)))
            .est("SGEMM GFLOPS", self.rate(t(SGEMM)))
            .num("SGEMM runs", t(SGEMM).runs as f64)
            .opt_est("best GPU / SGEMM", timed.ratio(SGEMM, best))
            .num("variants error", variants_err)
            .runs(t(PAPER).runs)
            .work_timed(KERNELS[0], paper_work, t(PAPER))
            .verify(all_err, cfg.tolerance)
    }
}
