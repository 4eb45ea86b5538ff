//! Table 1 and `table1_kernels`, size by size: reused, skipped over the cap, or measured;
//! then Fig. 3, the notes and the findings from the finished tables.

use super::captions;
use super::columns::{cols, kernel_cols, kernel_keys};
use super::measure::{KERNEL_NAMES, KERNEL_VARIANTS, Kernels, measure_row};
use super::notes;
use super::predict::Predict;
use crate::papers::matmul::experiments::config::Table1Config;
use crate::papers::matmul::experiments::fig3;
use crate::papers::matmul::experiments::kernels::KERNELS;
use crate::papers::matmul::experiments::tune::Tuned;
use crate::runner::{RunError, Session, TableWriter};

pub fn run(s: &Session, cfg: &Table1Config, tuned: Tuned) -> Result<(), RunError> {
    let sizes = cfg.sizes.pick(s.mode).to_vec();
    let k = Kernels::new(&s.gl, tuned)?;
    let mut t = s.table(
        "table1",
        "Table 1 — CPU (Algorithm 3) vs GPU (Algorithms 1+2), N×N",
        cols(),
        &(cfg, &sizes, tuned),
    )?;
    captions::table1(&mut t, s, cfg, tuned);
    t.expect_rows(sizes.len());
    let mut kt = s.table(
        "table1_kernels",
        "Table 1's GPU kernels against this device's limits, N×N",
        kernel_cols(),
        &(cfg, &sizes, tuned),
    )?;
    captions::kernels(&mut kt);
    kt.expect_rows(sizes.len() * KERNELS.len());
    let mut predict = Predict::default();
    for &n in &sizes {
        s.check_interrupt()?;
        size_rows(s, cfg, n, &k, &mut predict, (&mut t, &mut kt))?;
    }
    let kernels = kt.finish()?;
    let table = t.finish()?;
    fig3::run(s, &table, &cfg.published)?;
    notes::notes(s, &table, cfg);
    notes::bound_notes(s, &kernels, &sizes);
    crate::papers::matmul::experiments::findings::judge(s, &table, cfg);
    Ok(())
}

/// Size `n`'s row of Table 1 and its kernels' rows of `table1_kernels` (`t`, `kt`): reused
/// under --resume, skipped where one run is predicted over the mode's cap, else measured.
fn size_rows(
    s: &Session,
    cfg: &Table1Config,
    n: u32,
    k: &Kernels,
    predict: &mut Predict,
    (t, kt): (&mut TableWriter, &mut TableWriter),
) -> Result<(), RunError> {
    let key = format!("{n}");
    // The as-printed launch's row may have been skipped over the cap while the others ran.
    if t.reusable(&key).is_some()
        && let Some(rows) = kt.reuse_all_with_skips(&kernel_keys(n))?
    {
        t.reuse(&key)?;
        let times = rows.iter().map(|r| kt.value(r, "time"));
        predict.reused(n as usize, KERNEL_NAMES.into_iter().zip(times));
        return Ok(());
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
        return Ok(());
    }
    t.start(&format!("N = {n}"));
    let row = t.row(&key).num("N", n as f64);
    let row = match measure_row(s, cfg, n as usize, k, predict, row.clone()) {
        Ok((r, kernels)) => {
            let rows = kernels.into_iter().zip(kernel_keys(n));
            for (((name, run), key), variant) in rows.zip(KERNEL_VARIANTS) {
                let row = kt.row(key).num("N", n as f64).text("kernel", name);
                let (work, tm, err) = match run {
                    Ok(run) => run,
                    Err(why) => {
                        kt.push(row.skip(why))?;
                        continue;
                    }
                };
                kt.push_variant(
                    row.timed("time", &tm)
                        .est("GFLOPS", tm.rate(2.0 * (n as f64).powi(3) / 1e9))
                        .num("error", err)
                        .runs(tm.runs)
                        .work_timed(name, work, &tm)
                        .versus("matrix multiply (f32)", format!("N = {n}"))
                        .verify(err, cfg.tolerance),
                    variant,
                )?;
            }
            r
        }
        Err(e) => row.fail(format!("{e}")),
    };
    t.push(row)
}
