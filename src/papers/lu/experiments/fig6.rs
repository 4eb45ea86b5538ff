//! Fig. 6: GFLOPS of every configuration against N, ours and the paper's (recomputed from
//! its Table 4 times with its Table 2 flops).

use std::collections::HashMap;

use crate::report::{LineChart, Series};
use crate::runner::{RunError, Session};

use super::super::theory;
use super::compute;
use super::config::Config;
use super::forms::{configs, key};
use super::measured::{ComputeTimes, Measured, gflops};

pub(super) fn run(
    s: &Session,
    cfg: &Config,
    sizes: &[u32],
    measured: &HashMap<String, Measured>,
    compute_rows: &ComputeTimes,
) -> Result<(), RunError> {
    let mut chart = LineChart::new(
        "Fig. 6 — LU on this device: GFLOPS (Table 2 flops / A) vs N",
        "N",
        "GFLOPS",
    )
    .log_x();
    for (v, m) in configs() {
        let pts: Vec<_> = sizes
            .iter()
            .filter_map(|&n| {
                let x = measured.get(&key(n, v, m))?;
                Some((n as f64, x.gflops, gflops_interval(x)))
            })
            .collect();
        chart = chart.series(Series::measured(format!("{v} {m}"), pts));
    }
    let pts: Vec<_> = sizes
        .iter()
        .filter_map(|&n| {
            let gf = &compute_rows.get(&compute::key(n, false))?.1;
            Some((n as f64, gf.median, gf.has_ci().then_some((gf.lo, gf.hi))))
        })
        .collect();
    chart = chart.series(Series::measured("compute blocked (beyond)", pts));
    let p = &cfg.table4.paper;
    let mut paper = LineChart::new(
        "Fig. 6(b, c) — the paper's Quadro FX 3400, from its Table 4 (Table 2 flops / A)",
        "N",
        "GFLOPS",
    )
    .log_x();
    for (v, m) in configs() {
        let pts: Vec<(f64, f64)> = p
            .sizes
            .iter()
            .filter_map(|&n| {
                p.get(v, m, n)
                    .map(|a| (n as f64, gflops(theory::table2(v, n as f64).0, a[0])))
            })
            .collect();
        paper = paper.series(Series::paper(format!("{v} {m}"), pts));
    }
    // One y scale for both, from zero, so that ours and the paper's compare by eye.
    let top = [&chart, &paper]
        .iter()
        .filter_map(|c| c.data_range(false))
        .map(|(_, y)| y.1)
        .fold(0.0, f64::max);
    let chart = chart.y_range(0.0, top);
    let paper = paper.y_range(0.0, top);
    s.line_chart(
        "fig6.png",
        &chart,
        "Fig. 6 regenerated: every configuration's GFLOPS on this device (compute-shader LU beyond the paper), on the same y scale as `fig6_paper.png`; whiskers: the 95 % interval of A, mapped to GFLOPS (the compute line's: of its time, rows in `compute`).",
    )?;
    s.line_chart(
        "fig6_paper.png",
        &paper,
        "The paper's Fig. 6 (Quadro), recomputed from its Table 4 times with its Table 2 flops, on the same y scale as `fig6.png`.",
    )?;
    Ok(())
}

/// The 95 % interval of a configuration's GFLOPS: its flops over A's interval (GFLOPS is
/// flops / A, so A's ends map to GFLOPS's swapped).
fn gflops_interval(x: &Measured) -> Option<(f64, f64)> {
    let a = &x.a;
    (a.lo > 0.0 && a.hi >= a.lo).then(|| (x.gflops * a.median / a.hi, x.gflops * a.median / a.lo))
}
