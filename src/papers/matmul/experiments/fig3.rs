//! Fig. 3: GFLOPS of the CPU and GPU algorithms against N (left axis in the paper) and the
//! speed-up (right axis), drawn from Table 1's rows and the paper's printed Table 1.
//!
//! Like with like: the paper's CPU GFLOPS are drawn both as printed and as recomputed from
//! its printed times with its eq. (2) (the printed ones are twice eq. (2), see the audit);
//! speed-ups are time ratios on both sides (CPU ms / GPU ms), with the paper's printed
//! speed-up (a ratio of GFLOPS, half its time ratio) drawn beside them, labelled.

use super::published::Published;
use crate::papers::matmul::matrix::gflops;
use crate::report::{LineChart, Series, Table};
use crate::runner::{RunError, Session};

/// Points (N, f(row)) of the paper's Table 1.
fn paper(published: &[Published], f: impl Fn(&Published) -> f64) -> Vec<(f64, f64)> {
    published.iter().map(|p| (p.n as f64, f(p))).collect()
}

pub fn run(s: &Session, t: &Table, published: &[Published]) -> Result<(), RunError> {
    let mut chart = LineChart::new(
        "Fig. 3 — matrix multiply GFLOPS vs N",
        "N (matrix N×N)",
        "GFLOPS",
    )
    .log_x()
    .log_y();
    for (name, column) in [
        ("GPU, paper's kernel (this device)", "GPU GFLOPS"),
        (
            "GPU, Algorithm 1 as printed (64×64 grid)",
            "as printed GFLOPS",
        ),
        ("CPU, Algorithm 3 (this machine)", "CPU GFLOPS"),
        ("+ GPU blocked kernel", "blocked GFLOPS"),
        ("+ GPU fragment multipass", "fragment GFLOPS"),
        ("+ CPU SGEMM (matrixmultiply)", "SGEMM GFLOPS"),
    ] {
        chart = chart.series(Series::measured(name, t.measured_series("N", column)));
    }
    for (name, points) in [
        (
            "paper: GPU, Quadro 4000",
            paper(published, |p| p.gpu_gflops.value),
        ),
        (
            "paper: CPU, as printed",
            paper(published, |p| p.cpu_gflops.value),
        ),
        (
            "paper: CPU, eq. (2) from its times",
            paper(published, |p| {
                let n = p.n as usize;
                gflops(n, n, n, p.cpu_ms.value)
            }),
        ),
    ] {
        chart = chart.series(Series::paper(name, points));
    }
    s.line_chart(
        "fig3_gflops.png",
        &chart,
        "Fig. 3 (left axis): GFLOPS of every variant vs N; dashed: the paper's Table 1, its CPU \
         GFLOPS both as printed and recomputed from its CPU times with its eq. (2); ours: median \
         with its 95 % interval",
    )?;
    let speed = LineChart::new(
        "Fig. 3 — speed-up of the GPU over Algorithm 3 (time ratio)",
        "N (matrix N×N)",
        "CPU time / GPU time (×)",
    )
    .log_x()
    .log_y()
    .series(Series::measured(
        "this device / this CPU",
        t.measured_series("N", "speed-up"),
    ))
    .series(Series::paper(
        "paper: Quadro 4000 / CPU, from its times",
        paper(published, |p| p.cpu_ms.value / p.gpu_ms.value),
    ))
    .series(Series::paper(
        "paper: as printed (GFLOPS ratio = half its time ratio)",
        paper(published, |p| p.speedup.value),
    ));
    s.line_chart(
        "fig3_speedup.png",
        &speed,
        "Fig. 3 (right axis): speed-up of the paper's GPU kernel over the naive CPU loop as \
         CPU ms / GPU ms on both sides (ours: median with its 95 % interval); the paper's \
         printed speed-ups (GFLOPS ratios) beside",
    )?;
    Ok(())
}
