//! CPU baselines: `faer`'s f32 LU on one thread (`Par::Seq`) and on all threads, and the
//! paper's Fig. 2 loop in f32 and f64 (single-threaded).

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use crate::gl::measure::measure_cpu;
use crate::gl::timing::TimingPlan;
use crate::report::Column;
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;

use super::super::cpu::{Threads, faer_lu_f32, faer_lu_f32_in_place, lu_f32, lu_f64_of};
use super::super::theory;
use super::config::Config;
use crate::papers::lu::cpu::Reference;

/// faer's median times by order: (one thread, all threads), ms.
pub(super) type FaerTimes = HashMap<u32, (f64, f64)>;

pub(super) fn run(
    s: &Session,
    cfg: &Config,
    sizes: &[u32],
    refs: &BTreeMap<u32, Reference>,
) -> Result<FaerTimes, RunError> {
    let all = Threads::All.count();
    let mut t = s.table(
        "cpu",
        "CPU baselines — faer's f32 LU (partial pivoting) on one thread and on all threads, and the Fig. 2 loop in f32 and f64",
        columns(),
        &(&cfg.cpu, all),
    )?;
    captions(&mut t, cfg, all);
    t.expect_rows(sizes.len());
    let mut faer_ms = FaerTimes::new();
    let plan = cfg.cpu.repeat.plan();
    let big = TimingPlan::new(plan.warmup, 1, Duration::ZERO);
    for &n in sizes {
        s.check_interrupt()?;
        let k = format!("N={n}");
        let r = &refs[&n];
        if let Some(row) = t.reuse(&k)? {
            let (a, b) = (
                t.table().col("faer f32"),
                t.table().col("faer f32 all threads"),
            );
            if let (Some(x), Some(y)) = (row.values[a].as_f64(), row.values[b].as_f64()) {
                faer_ms.insert(n, (x, y));
            }
            continue;
        }
        t.start(&k);
        let times = size_row(&mut t, cfg, (n, r), (plan, big))?;
        faer_ms.insert(n, times);
    }
    t.finish()?;
    Ok(faer_ms)
}

fn columns() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::ours("faer f32").unit("ms"),
        Column::ours("faer GFLOPS"),
        Column::ours("faer f32 all threads").unit("ms"),
        Column::ours("faer all threads GFLOPS"),
        Column::ours("loop f32").unit("ms"),
        Column::ours("loop f32 GFLOPS"),
        Column::ours("loop f64").unit("ms"),
        Column::ours("faer error vs f64").sci(2),
    ]
}

fn captions(t: &mut TableWriter, cfg: &Config, all: usize) {
    t.caption(format!("faer f32: one thread (faer::Par::Seq, given explicitly). faer f32 all threads: faer::Par::rayon, {all} threads on this machine. The loops are single-threaded. GFLOPS = 2N(N²−1)/3 / time; faer's LU swaps no rows on these matrices (checked), so its factors (one thread) are compared with the unpivoted f64 ones, within the tolerance of table4."));
    let rep = &cfg.cpu.repeat;
    t.caption(format!("Each time = median [95 % interval] of its own timed runs (distribution-free order-statistic interval; `*`: fewer than 6 runs, [min, max]): {}; the loops one run from N = {} on. The four are not compared with each other here, so they are timed one after the other; GFLOPS carry their time's interval.", rep.rule("run", "variant"), cfg.table4.single_run_from));
}

/// Order `n`'s row: faer on one thread and on all, the f32 and f64 loops (one run from
/// `single_run_from` on: `big`), faer's factors checked; faer's two median times.
fn size_row(
    t: &mut TableWriter,
    cfg: &Config,
    (n, r): (u32, &Reference),
    (plan, big): (TimingPlan, TimingPlan),
) -> Result<(f64, f64), RunError> {
    let k = format!("N={n}");
    let nn = n as usize;
    let m = faer::Mat::<f32>::from_fn(nn, nn, |j, c| r.a[j * nn + c]);
    let faer_time = |threads| {
        measure_cpu(plan, || -> Result<(), RunError> {
            let mut c = m.clone();
            std::hint::black_box(faer_lu_f32_in_place(&mut c, threads));
            Ok(())
        })
    };
    let one = faer_time(Threads::One)?;
    let many = faer_time(Threads::All)?;
    let loop_plan = if n >= cfg.table4.single_run_from {
        big
    } else {
        plan
    };
    let tl = measure_cpu(loop_plan, || -> Result<(), RunError> {
        let mut c = r.a.clone();
        lu_f32(&mut c, nn).map_err(RunError::algorithm)
    })?;
    let td = measure_cpu(loop_plan, || -> Result<(), RunError> {
        lu_f64_of(&r.a, nn).map_err(RunError::algorithm)?;
        Ok(())
    })?;
    let (f, identity) = faer_lu_f32(&r.a, nn, Threads::One);
    let err = max_rel_error(&f, &r.f64);
    let fl = theory::lu_flops(n as f64);
    let row = t
        .row(&k)
        .num("N", n as f64)
        .timed("faer f32", &one)
        .est("faer GFLOPS", one.rate(fl / 1e9))
        .timed("faer f32 all threads", &many)
        .est("faer all threads GFLOPS", many.rate(fl / 1e9))
        .timed("loop f32", &tl)
        .est("loop f32 GFLOPS", tl.rate(fl / 1e9))
        .timed("loop f64", &td)
        .num("faer error vs f64", err)
        .runs(one.runs);
    t.push(if identity {
        row.verify(err, r.tol)
    } else {
        row.fail("faer pivoted: the test matrix is not diagonally dominant by columns")
    })?;
    Ok((one.median_ms, many.median_ms))
}
