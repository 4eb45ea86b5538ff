//! Beyond the paper: the compute-shader LU (blocked right-looking, trailing update as a tiled
//! matmul), without and with partial pivoting on the GPU (the paper's §5.3 open problem).
//!
//! Its panel width is tuned on the device first ([`tune`]): every width of
//! `[compute] blocks` factors the order-`tune_n` matrix without pivoting (median of the
//! table's repetitions), verified against the f64 factors; the fastest verified width runs in
//! the table, and every candidate is a row of the `tuning` table.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::gl::Timing;
use crate::gl::timing::{TimingPlan, repeat};
use crate::report::{Column, bound_columns};
use crate::runner::tuning::Trial;
use crate::runner::{RunError, Session};
use crate::util::max_rel_error;

use super::super::compute::{ComputeInfo, ComputeLu, ComputeParams, compute_work};
use super::super::{LuError, theory};
use super::{ComputeTimes, Config, Reference, gflops};

/// The key of a compute row.
pub(super) fn key(n: u32, pivoting: bool) -> String {
    format!("N={n} {}", if pivoting { "partial" } else { "none" })
}

pub(super) fn run(
    s: &Session,
    cfg: &Config,
    sizes: &[u32],
    refs: &BTreeMap<u32, Reference>,
) -> Result<ComputeTimes, RunError> {
    let rep = &cfg.compute.repeat;
    let block = tune(s, cfg, refs)?;
    let mut t = s.table(
        "compute",
        "Beyond the paper — compute-shader LU (blocked right-looking, trailing update as a tiled matmul), without and with GPU partial pivoting",
        vec![
            Column::key("N").int(),
            Column::key("pivoting").text(),
            Column::beyond("time").unit("ms"),
            Column::beyond("GFLOPS"),
            Column::beyond("dispatches").int(),
            Column::beyond("row swaps").int(),
            Column::ours("error vs f64").sci(2),
        ]
        .into_iter()
        .chain(bound_columns())
        .collect(),
        &(&cfg.compute, block),
    )?;
    t.caption(format!(
        "Panel width {block}, tuned on this device (the `tuning` table)."
    ));
    t.caption("GFLOPS = 2N(N²−1)/3 / time. Pivoting: an argmax reduction per column and a row swap, on the GPU. On these diagonally dominant matrices partial pivoting swaps nothing, so both are checked against the same f64 factors (tolerance as in table4, without the bit-identity: the blocked order of operations differs from the loop's); tests check pivoting on matrices that need it.");
    t.caption(format!("Median time over the timed runs (the shared repetition loop: {} warm-up, up to {} runs within {} s; one timed run from N = {} on), glFinish on both sides, upload and readback excluded.", rep.warmup, rep.repetitions, rep.budget_s, cfg.table4.single_run_from));
    t.expect_rows(sizes.len() * 2);
    let mut out = ComputeTimes::new();
    for &n in sizes {
        let r = &refs[&n];
        for pivot in [false, true] {
            s.check_interrupt()?;
            let k = key(n, pivot);
            if let Some(row) = t.reuse(&k)? {
                let (ti, gi) = (t.table().col("time"), t.table().col("GFLOPS"));
                if let (Some(ms), Some(gf)) = (row.values[ti].as_f64(), row.values[gi].as_f64()) {
                    out.insert(k, (ms, gf));
                }
                continue;
            }
            t.start(&k);
            let p = ComputeParams {
                block,
                pivoting: pivot,
            };
            let row = t
                .row(&k)
                .num("N", n as f64)
                .text("pivoting", if pivot { "partial" } else { "none" });
            let mut plan = rep.plan();
            if n >= cfg.table4.single_run_from {
                plan = TimingPlan::new(plan.warmup, 1, Duration::ZERO);
            }
            let res = factor_timed(s, r, n, p, plan);
            match res {
                Ok((info, timing, f)) => {
                    let runs = timing.runs;
                    let err = max_rel_error(&f, &r.f64);
                    let gf = gflops(theory::lu_flops(n as f64), info.ms);
                    out.insert(k.clone(), (info.ms, gf));
                    let row = row
                        .num("time", info.ms)
                        .num("GFLOPS", gf)
                        .num("dispatches", info.dispatches as f64)
                        .num("row swaps", info.swaps as f64)
                        .num("error vs f64", err)
                        .work(
                            if pivot {
                                "compute (pivoting)"
                            } else {
                                "compute"
                            },
                            compute_work(n as usize, p.block as usize, pivot, info.swaps),
                            info.ms,
                        );
                    let row = if pivot {
                        row
                    } else {
                        row.versus(super::table4::VERSUS, format!("N = {n}"))
                    };
                    t.push(row.runs(runs).verify(err, r.tol))?;
                }
                Err(e) => t.push(row.fail(e.to_string()))?,
            }
        }
    }
    t.finish()?;
    Ok(out)
}

/// Factors `r`'s order-`n` matrix `plan` times (upload inside each run, as the table times
/// it): the median run's info, the number of timed runs and the last run's factors.
fn factor_timed(
    s: &Session,
    r: &Reference,
    n: u32,
    p: ComputeParams,
    plan: TimingPlan,
) -> Result<(ComputeInfo, Timing, Vec<f32>), LuError> {
    let mut lu = ComputeLu::new(&s.gl, &r.a, n as usize, p)?;
    let samples = repeat(plan, || -> Result<_, LuError> {
        lu.upload(&r.a)?;
        let info = lu.run()?;
        Ok((info, info.ms))
    })?;
    Ok((*samples.median(), samples.timing(), lu.factors()?))
}

/// The panel width of the compute LU, tuned on this device (see the module docs).
fn tune(s: &Session, cfg: &Config, refs: &BTreeMap<u32, Reference>) -> Result<u32, RunError> {
    let n = *cfg.compute.tune_n.pick(s.mode);
    let built;
    let r = match refs.get(&n) {
        Some(r) => r,
        None => {
            built = Reference::of(cfg, n)?;
            &built
        }
    };
    let candidates: Vec<(String, u32)> = cfg
        .compute
        .blocks
        .iter()
        .map(|&b| (format!("block={b}"), b))
        .collect();
    let plan = cfg.compute.repeat.plan();
    let mut tuner = s.tuner(&(&cfg.compute, n))?;
    tuner.caption(format!(
        "compute LU: panel width ∈ {:?}, each factoring the order-{n} matrix without \
             pivoting, timed as the `compute` table times it.",
        cfg.compute.blocks
    ));
    let block = tuner.pick(
        s,
        "compute",
        &format!("N = {n}"),
        &candidates,
        r.tol,
        |&b| {
            let p = ComputeParams {
                block: b,
                pivoting: false,
            };
            let (info, timing, f) = factor_timed(s, r, n, p, plan).map_err(RunError::algorithm)?;
            Ok(Trial::timed(
                timing,
                max_rel_error(&f, &r.f64),
                compute_work(n as usize, b as usize, false, info.swaps),
            ))
        },
    )?;
    tuner.finish()?;
    s.note(format!(
        "Tuned on this device at N = {n} (the `tuning` table): the compute LU factors with \
         panel width {block}."
    ));
    Ok(block)
}
