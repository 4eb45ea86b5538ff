//! The audit of the paper's Table 1: every derived column recomputed from the printed raw
//! columns with the paper's own formulas — GFLOPS from the times with eq. (2),
//! GFLOPS = 2n³ / (10⁶ · ms), and the speed-up both as a ratio of GFLOPS (what the paper
//! prints, §4: "CPU 대비 GPU의 GFLOPS 값을 속도비로") and as a ratio of times.
//!
//! **Within the printed precision.** Every printed number stands for the interval of its
//! last digit (0.40 = [0.395, 0.405]). A recomputed value is the range of the formula over
//! its inputs' intervals; a check agrees when that range meets the printed value's interval.
//! The [`Audit`] tolerance is that distance relative to the recomputed midpoint, so
//! "188 vs 74.42 / 0.40 = 186.05" agrees (74.42 / 0.395… = 188.4 is in range).

use super::published::{Printed, Published};
use crate::papers::matmul::matrix::gflops;
use crate::report::Audit;
use crate::runner::Session;

/// The range of `f` over the corners of its inputs' printed intervals (`f` is monotone in
/// each input): (value at the printed inputs, largest distance of a corner from it).
pub fn over_printed(inputs: &[Printed], f: impl Fn(&[f64]) -> f64) -> (f64, f64) {
    let mid = f(&inputs.iter().map(|p| p.value).collect::<Vec<_>>());
    let mut spread = 0f64;
    for corner in 0..1u32 << inputs.len() {
        let x: Vec<f64> = inputs
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let sign = if (corner >> i) & 1 == 1 { 1.0 } else { -1.0 };
                p.value + sign * p.half_unit()
            })
            .collect();
        spread = spread.max((f(&x) - mid).abs());
    }
    (mid, spread)
}

/// One check: `printed` against `f` over `inputs`, within both printed precisions.
pub fn check(
    what: String,
    printed: Printed,
    inputs: &[Printed],
    f: impl Fn(&[f64]) -> f64,
) -> Audit {
    let (mid, spread) = over_printed(inputs, f);
    let tol = (spread + printed.half_unit()) / mid.abs().max(f64::MIN_POSITIVE);
    Audit::new(what, printed.value, mid, tol)
}

/// The kinds of checks, in the order of [`checks`].
pub const KINDS: [&str; 4] = [
    "CPU GFLOPS from CPU ms (eq. 2)",
    "GPU GFLOPS from GPU ms (eq. 2)",
    "speed-up from GFLOPS",
    "speed-up from times",
];

/// The four checks of one published row.
pub fn checks(p: &Published) -> [Audit; 4] {
    let n = p.n as usize;
    let eq2 = move |x: &[f64]| gflops(n, n, n, x[0]);
    let what = |k: usize| format!("Table 1, N = {}: {}", p.n, KINDS[k]);
    [
        check(what(0), p.cpu_gflops, &[p.cpu_ms], eq2),
        check(what(1), p.gpu_gflops, &[p.gpu_ms], eq2),
        check(what(2), p.speedup, &[p.gpu_gflops, p.cpu_gflops], |x| {
            x[0] / x[1]
        }),
        check(what(3), p.speedup, &[p.cpu_ms, p.gpu_ms], |x| x[0] / x[1]),
    ]
}

/// Records every check and writes one note per kind of disagreement, and the finding on
/// the CPU GFLOPS when it holds at every N.
pub fn run(s: &Session, published: &[Published]) {
    let mut bad: Vec<Vec<(u32, f64)>> = vec![Vec::new(); KINDS.len()];
    let mut cpu_ratios = Vec::new();
    for p in published {
        for (k, a) in checks(p).into_iter().enumerate() {
            let ratio = a.printed / a.recomputed;
            if k == 0 {
                cpu_ratios.push(ratio);
            }
            if !s.audit(a) {
                bad[k].push((p.n, ratio));
            }
        }
    }
    s.note(
        "Audit precision: each printed number of Table 1 stands for the interval of its last \
         printed digit (0.40 = [0.395, 0.405]); a recomputed value is the range of the formula \
         over its inputs' intervals, and a check agrees when the two meet. Each audit's \
         tolerance is that distance relative to the recomputed value.",
    );
    for (k, rows) in bad.iter().enumerate().filter(|(_, b)| !b.is_empty()) {
        let (lo, hi) = rows
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(_, r)| {
                (lo.min(r), hi.max(r))
            });
        let ns: Vec<String> = rows.iter().map(|(n, _)| n.to_string()).collect();
        s.note(format!(
            "Audit: Table 1's `{}` disagrees beyond its printed precision at N = {}: printed / \
             recomputed = {lo:.3}–{hi:.3} (see the audit table).",
            KINDS[k],
            ns.join(", ")
        ));
    }
    let last = published.iter().max_by_key(|p| p.n);
    let twice = !cpu_ratios.is_empty() && cpu_ratios.iter().all(|r| (r - 2.0).abs() < 0.05);
    if let (true, Some(last)) = (twice, last) {
        let (lo, hi) = cpu_ratios
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &r| {
                (lo.min(r), hi.max(r))
            });
        s.note(format!(
            "Audit finding: at every N the printed CPU GFLOPS is {lo:.3}–{hi:.3} times what \
             eq. (2) gives from the printed CPU time (as if the CPU's flops were counted 4n³, \
             or its time halved), while the GPU GFLOPS follow eq. (2). The printed speed-ups \
             are ratios of GFLOPS, so they are half the ratios of the printed times: by the \
             paper's own times the GPU is {:.0}× (not {}×) faster than its CPU loop at \
             N = {}. Our speed-up column and Fig. 3's speed-up curves are time ratios on both \
             sides (the paper's printed speed-up is drawn too, labelled).",
            last.cpu_ms.value / last.gpu_ms.value,
            String::from(last.speedup),
            last.n
        ));
    }
}
