//! Beyond the paper: the compute-shader LU (blocked right-looking, trailing update as a tiled
//! matmul), without and with partial pivoting on the GPU (the paper's §5.3 open problem).
//!
//! Its panel width is tuned on the device first ([`tune`]): every width of
//! `[compute] blocks` factors the order-`tune_n` matrix without pivoting (median of the
//! table's repetitions), verified against the f64 factors; the fastest verified width runs in
//! the table, and every candidate is a row of the `tuning` table.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::gl::steady::warm_run;
use crate::gl::timing::{Rounds, TimingPlan, rounds};
use crate::report::{Column, with_bound_columns};
use crate::runner::tuning::Candidate;
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;

use super::super::compute::{ComputeInfo, ComputeLu, ComputeParams, compute_work};
use super::super::theory;
use super::config::Config;
use super::measured::{ComputeTimes, reference};
use crate::papers::lu::cpu::Reference;
use crate::papers::lu::error::LuError;

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
    let block = tune(s, cfg, refs)?;
    let mut t = s.table(
        "compute",
        "Beyond the paper — compute-shader LU (blocked right-looking, trailing update as a tiled matmul), without and with GPU partial pivoting",
        columns(),
        &(&cfg.compute, block),
    )?;
    captions(&mut t, cfg, block);
    t.expect_rows(sizes.len() * 2);
    let mut out = ComputeTimes::new();
    for &n in sizes {
        s.check_interrupt()?;
        let r = &refs[&n];
        let keys = [key(n, false), key(n, true)];
        if let Some(rows) = t.reuse_all(&keys)? {
            let (ti, gi) = (t.table().col("time"), t.table().col("GFLOPS"));
            for (k, row) in keys.iter().zip(&rows) {
                if let (Some(ms), Some(gf)) = (row.values[ti].as_f64(), row.values[gi].estimate()) {
                    out.insert(k.clone(), (ms, gf.clone()));
                }
            }
            continue;
        }
        size_rows(s, &mut t, cfg, (n, r), block, &keys, &mut out)?;
    }
    t.finish()?;
    Ok(out)
}

fn columns() -> Vec<Column> {
    with_bound_columns(vec![
        Column::key("N").int(),
        Column::key("pivoting").text(),
        Column::beyond("time").unit("ms"),
        Column::beyond("GFLOPS"),
        Column::beyond("partial / none").fixed(2),
        Column::beyond("dispatches").int(),
        Column::beyond("row swaps").int(),
        Column::ours("error vs f64").sci(2),
    ])
}

fn captions(t: &mut TableWriter, cfg: &Config, block: u32) {
    let rep = &cfg.compute.repeat;
    t.caption(format!(
        "Panel width {block}, tuned on this device (the `tuning` table)."
    ));
    t.caption("GFLOPS = 2N(N²−1)/3 / time. Pivoting: an argmax reduction per column and a row swap, on the GPU. On these diagonally dominant matrices partial pivoting swaps nothing, so both are checked against the same f64 factors (tolerance as in table4, without the bit-identity: the blocked order of operations differs from the loop's); tests check pivoting on matrices that need it.");
    t.caption(format!(
        "Interleaved: at each order the two variants (no pivoting, partial pivoting) factor the same matrix in rounds (each round both, in a shuffled order): {}; one round from N = {} on. time = median [95 % interval] over the rounds (glFinish on both sides, upload and readback excluded; `*`: fewer than 6 rounds, [min, max]); GFLOPS carries its interval; partial / none = the paired ratio of the two variants' times (per-round ratios, median and interval).",
        rep.rule("round", "variant"),
        cfg.table4.single_run_from
    ));
}

/// Order `n`'s two rows (no pivoting, partial pivoting; `keys`), factored interleaved in
/// rounds and checked against `r`'s f64 factors; their times and GFLOPS go into `out`.
fn size_rows(
    s: &Session,
    t: &mut TableWriter,
    cfg: &Config,
    (n, r): (u32, &Reference),
    block: u32,
    keys: &[String; 2],
    out: &mut ComputeTimes,
) -> Result<(), RunError> {
    let rep = &cfg.compute.repeat;
    for k in keys {
        t.start(k);
    }
    let mut plan = rep.plan();
    if n >= cfg.table4.single_run_from {
        plan = TimingPlan::new(plan.warmup, 1, Duration::ZERO);
    }
    let rows: Vec<_> = [false, true]
        .iter()
        .zip(keys)
        .map(|(&pivot, k)| {
            t.row(k)
                .num("N", n as f64)
                .text("pivoting", if pivot { "partial" } else { "none" })
        })
        .collect();
    match factor_rounds(s, r, n, block, plan) {
        Err(e) => {
            for row in rows {
                t.push(row.fail(e.to_string()))?;
            }
        }
        Ok((infos, timed, factors)) => {
            let ratio = timed.ratio(1, 0);
            for (i, row) in rows.into_iter().enumerate() {
                let pivot = i == 1;
                let (info, timing, f) = (&infos[i], &timed.timings[i], &factors[i]);
                let err = max_rel_error(f, &r.f64);
                let gf = timing.rate(theory::lu_flops(n as f64) / 1e9);
                out.insert(keys[i].clone(), (timing.median_ms, gf.clone()));
                let row = row
                    .timed("time", timing)
                    .est("GFLOPS", gf)
                    .opt_est("partial / none", if pivot { ratio.clone() } else { None })
                    .num("dispatches", info.dispatches as f64)
                    .num("row swaps", info.swaps as f64)
                    .num("error vs f64", err)
                    .work_timed(
                        if pivot {
                            "compute (pivoting)"
                        } else {
                            "compute"
                        },
                        compute_work(n as usize, block as usize, pivot, info.swaps),
                        timing,
                    );
                let row = if pivot {
                    row
                } else {
                    row.versus(super::table4::VERSUS, format!("N = {n}"))
                };
                t.push(row.runs(timing.runs).verify(err, r.tol))?;
            }
        }
    }
    Ok(())
}

/// Factors `r`'s order-`n` matrix without and with pivoting, interleaved in rounds under
/// `plan` (a fresh upload before each run, outside the time): each variant's last run's info
/// (the counts; the same every run), the rounds, and each variant's factors.
fn factor_rounds(
    s: &Session,
    r: &Reference,
    n: u32,
    block: u32,
    plan: TimingPlan,
) -> Result<Factored, LuError> {
    let mut lus = [false, true]
        .into_iter()
        .map(|pivoting| ComputeLu::new(&s.gl, &r.a, n as usize, ComputeParams { block, pivoting }))
        .collect::<Result<Vec<_>, _>>()?;
    let mut infos = vec![ComputeInfo::default(); 2];
    let timed = rounds(plan, 2, |i| -> Result<f64, LuError> {
        infos[i] = warm_run(&s.gl, || {
            lus[i].upload(&r.a)?;
            lus[i].run()
        })?;
        Ok(infos[i].ms)
    })?;
    let factors = lus
        .iter()
        .map(|lu| lu.factors())
        .collect::<Result<Vec<_>, _>>()?;
    Ok((infos, timed, factors))
}

/// The panel width of the compute LU, tuned on this device (see the module docs).
fn tune(s: &Session, cfg: &Config, refs: &BTreeMap<u32, Reference>) -> Result<u32, RunError> {
    let n = *cfg.compute.tune_n.pick(s.mode);
    let built;
    let r = match refs.get(&n) {
        Some(r) => r,
        None => {
            built = reference(cfg, n)?;
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
         pivoting.",
        cfg.compute.blocks
    ));
    tuner.rounds_caption("The widths'", "upload + factorization", &cfg.compute.repeat);
    let block = tuner.pick_interleaved(
        s,
        "compute",
        &format!("N = {n}"),
        &candidates,
        r.tol,
        plan,
        |&b| {
            let p = ComputeParams {
                block: b,
                pivoting: false,
            };
            let lu = std::rc::Rc::new(std::cell::RefCell::new(
                ComputeLu::new(&s.gl, &r.a, n as usize, p).map_err(RunError::algorithm)?,
            ));
            let (run_lu, check_lu) = (lu.clone(), lu);
            Ok(Candidate {
                run: Box::new(move || {
                    let mut lu = run_lu.borrow_mut();
                    lu.upload(&r.a).map_err(RunError::algorithm)?;
                    lu.run().map_err(RunError::algorithm)?;
                    Ok(())
                }),
                check: Box::new(move || {
                    let f = check_lu.borrow().factors().map_err(RunError::algorithm)?;
                    Ok(max_rel_error(&f, &r.f64))
                }),
                work: compute_work(n as usize, b as usize, false, 0),
            })
        },
    )?;
    tuner.finish()?;
    s.note(format!(
        "Tuned on this device at N = {n} (the `tuning` table): the compute LU factors with \
         panel width {block}."
    ));
    Ok(block)
}
/// Per configuration: the median run's info, the rounds' timings, the last run's factors.
type Factored = (Vec<ComputeInfo>, Rounds, Vec<Vec<f32>>);
