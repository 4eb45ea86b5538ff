//! The paper's claims about Table 1 as findings, judged on this run's rows (every number from
//! the table or from `experiments/matmul.toml`).
//!
//! 1. "The GPU is far faster than the CPU, and more so as N grows" (Table 1, §4): the paper's
//!    printed speed-up grows from its smallest to its largest N. Held here when the paper's
//!    kernel's speed-up (CPU ms / GPU ms) at the largest N measured exceeds the one at the
//!    smallest N and is "far": at least the paper's own smallest printed speed-up (its
//!    smallest N), the yardstick the paper itself calls far faster. Faster but by less is not
//!    the claim.
//! 2. "The GPU's throughput levels off from N = 1024 on" (Table 1: GFLOPS nearly constant at
//!    the three largest N): judged as the growth of the paper's kernel's GFLOPS from the
//!    second-largest to the largest N measured against the paper's growth over the same two
//!    sizes; the verdict is *held* when ours changes by no more than the paper's own
//!    (|ln ours| ≤ |ln paper|: the paper's flattening is the yardstick), *not held* when it
//!    still rises or falls by more.
//!
//! Both verdicts rest on intervals ([`Finding::judge`]): the speed-up is the paired ratio of
//! the interleaved CPU and GPU runs with its 95 % interval; a verdict is *held* / *not held*
//! only where the whole interval is on one side of the rule, else *inconclusive*.
//!
//! Each finding names what it rests on: the device (on a software rasterizer the "GPU" is
//! the CPU's own cores) and how close the paper's kernel comes to its bound.

use super::cells::{at, at_est};
use super::config::Table1Config;
use super::published::Published;
use crate::report::{Finding, OF_BOUND, Table, Verdict};
use crate::runner::Session;
use crate::stats::Estimate;

/// What the device is, for a speed verdict.
fn device_note(s: &Session) -> String {
    let info = s.gl.info();
    if info.software {
        format!(
            "on {}, a software rasterizer: the GPU kernel runs on the same CPU cores as the \
             CPU loop (one thread there), so the ratio compares two programs on one \
             processor, not a GPU with a CPU",
            info.renderer
        )
    } else {
        format!("on {} against one core of {}", info.renderer, info.cpu)
    }
}

/// "attains 0.12 of its bound (fp32)" for the paper's kernel at `n`, when the row has one.
fn bound_note(t: &Table, n: u32) -> String {
    if !t.columns.iter().any(|c| c.name == OF_BOUND) {
        return String::new();
    }
    match at(t, n, OF_BOUND) {
        Some(f) => format!(
            " At N = {n} the paper's kernel attains {f:.2} of its bound on this device{}.",
            if f < 0.5 {
                " — under half, so the ratio measures this implementation as much as the device"
            } else {
                ""
            }
        ),
        None => String::new(),
    }
}

pub fn judge(s: &Session, t: &Table, cfg: &Table1Config) {
    // The sizes with a verified row of the paper's kernel and its speed-up.
    let measured: Vec<u32> = t
        .rows
        .iter()
        .filter(|r| !r.status.failed())
        .filter_map(|r| r.key.parse().ok())
        .filter(|&n| at(t, n, "speed-up").is_some())
        .collect();
    if speedup_grows(s, t, cfg, &measured) {
        levels_off(s, t, cfg, &measured);
    }
}

/// Claim 1, "far faster, more so as N grows", on the speed-up's intervals at the smallest
/// and the largest measured N; false where there is nothing to judge it on (then claim 2 is
/// not judged either).
fn speedup_grows(s: &Session, t: &Table, cfg: &Table1Config, measured: &[u32]) -> bool {
    // The largest N whose speed-up has a 95 % interval (enough paired rounds): a verdict
    // rests on an interval, never on one run.
    let with_ci: Vec<u32> = measured
        .iter()
        .copied()
        .filter(|&n| at_est(t, n, "speed-up").is_some_and(|e| e.has_ci()))
        .collect();
    let (Some(&lo), Some(&hi)) = (measured.iter().min(), with_ci.iter().max()) else {
        s.finding(
            Finding::new(
                "table1",
                "the GPU is far faster than the CPU, more so as N grows (Table 1)",
            )
            .why(
                "no verified row of the paper's kernel with enough timed runs for a 95 % \
                 interval of its speed-up in this run",
            ),
        );
        return false;
    };
    let (p_lo, p_hi) = (
        cfg.published.iter().min_by_key(|p| p.n),
        cfg.published.iter().max_by_key(|p| p.n),
    );
    let paper = paper_speedups(p_lo, p_hi);
    // "Far faster", by the paper's own smallest printed speed-up, on the interval of the
    // paired speed-up at the largest N; "more so as N grows": the two sizes' intervals
    // separate upwards.
    let far = p_lo.map_or(f64::INFINITY, |p| p.speedup.value);
    let claim1 = "the GPU is far faster than the CPU, more so as N grows (Table 1)";
    let (Some(s_lo), Some(s_hi)) = (at_est(t, lo, "speed-up"), at_est(t, hi, "speed-up")) else {
        return false;
    };
    let f =
        Finding::new("table1", claim1).judge(&format!("speed-up at N = {hi}"), &s_hi, far, true);
    let verdict = far_and_growing(f.verdict, &s_lo, &s_hi);
    let iv = |e: &crate::stats::Estimate| format!("{:.2}× [{:.2}, {:.2}]", e.median, e.lo, e.hi);
    let rule = format!(
        "{} and speed-up at N = {hi} > at N = {lo} (intervals separate)",
        f.threshold
    );
    s.finding(
        f.paper(paper)
            .ours(format!(
                "speed-up {} at N = {lo} → {} at N = {hi}",
                iv(&s_lo),
                iv(&s_hi)
            ))
            .verdict(verdict)
            .threshold(rule)
            .why(format!(
                "Speed-up = CPU ms / GPU ms of the paper's kernel against the naive CPU loop \
                 (Algorithm 3), the median of per-round ratios (the two timed interleaved) \
                 with its 95 % interval; judged at the largest N whose speed-up has such an \
                 interval; held when the interval there lies wholly \
                 at or above \"far\", the paper's smallest printed speed-up ({far}×), and lies \
                 wholly above the interval at the smallest N; not held when either lies \
                 wholly on the other side; else inconclusive; {}.{}",
                device_note(s),
                bound_note(t, hi)
            ))
            .gpu_vs_cpu(s.gl.info().software),
    );
    true
}

/// The paper's speed-ups at its smallest (`a`) and largest (`b`) printed N: as printed, and
/// from its times.
fn paper_speedups(a: Option<&Published>, b: Option<&Published>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!(
            "speed-up {}× at N = {} → {}× at N = {} (as printed; its times give {:.0}× → {:.0}×)",
            String::from(a.speedup),
            a.n,
            String::from(b.speedup),
            b.n,
            a.cpu_ms.value / a.gpu_ms.value,
            b.cpu_ms.value / b.gpu_ms.value
        ),
        _ => "—".into(),
    }
}

/// Claim 1's verdict: "far faster" (`far`, judged at the largest N) and "more so as N
/// grows" (the speed-up's interval at the largest N, `hi`, wholly above the smallest's, `lo`).
fn far_and_growing(far: Verdict, lo: &Estimate, hi: &Estimate) -> Verdict {
    let grows = match crate::stats::separated(hi.interval(), lo.interval()) {
        Some(std::cmp::Ordering::Greater) => Verdict::Held,
        Some(_) => Verdict::NotHeld,
        None => Verdict::Inconclusive,
    };
    match (far, grows) {
        (Verdict::NotHeld, _) | (_, Verdict::NotHeld) => Verdict::NotHeld,
        (Verdict::Held, Verdict::Held) => Verdict::Held,
        _ => Verdict::Inconclusive,
    }
}

/// Claim 2, "the throughput levels off at large N": the GFLOPS change between the two largest
/// sizes both measured and printed, against the paper's own change there.
/// The levelling-off rule: growth at large N / growth at small N at most this (whole
/// interval), i.e. the two growths' intervals separate.
pub(super) const LEVELS_OFF: f64 = 1.0;

fn levels_off(s: &Session, t: &Table, cfg: &Table1Config, measured: &[u32]) {
    let printed = |n: u32| cfg.published.iter().find(|p| p.n == n);
    // Claim 2 needs three sizes the paper printed and we measured.
    let both: Vec<u32> = measured
        .iter()
        .copied()
        .filter(|&n| printed(n).is_some())
        .collect();
    let claim = "the GPU's throughput levels off at large N (read from Table 1)";
    if both.len() < 3 {
        s.finding(Finding::new("table1", claim).why(format!(
            "needs three sizes both measured and printed; this run has {}",
            both.len()
        )));
        return;
    }
    let g = |n: u32| at_est(t, n, "GPU GFLOPS");
    let pg = |n: u32| printed(n).map_or(f64::NAN, |p| p.gpu_gflops.value);
    let (a, b) = (both[0], both[1]);
    let (y, z) = (both[both.len() - 2], both[both.len() - 1]);
    let (Some(ga), Some(gb), Some(gy), Some(gz)) = (g(a), g(b), g(y), g(z)) else {
        return;
    };
    // Restated from Table 1 (the paper has no sentence for it): growth at the two largest
    // sizes below growth at the two smallest, intervals separate. Each growth comes from two
    // separate rows (unpaired, [lo(z)/hi(y), hi(z)/lo(y)]), and their quotient too: held when
    // its whole interval is below 1 (the growths' intervals separate).
    let growth = crate::stats::Estimate::ratio_unpaired;
    let (first, last) = (growth(&gb, &ga), growth(&gz, &gy));
    let name = format!("growth N = {y} → {z} / growth N = {a} → {b}");
    let paper_q = (pg(z) / pg(y)) / (pg(b) / pg(a));
    let iv = |e: &crate::stats::Estimate| format!("×{:.2} [{:.2}, {:.2}]", e.median, e.lo, e.hi);
    let f = Finding::new("table1", claim)
        .judge(&name, &growth(&last, &first), LEVELS_OFF, false)
        .paper_value(paper_q);
    let why = format!(
        "{} Read from Table 1 (the paper states no sentence): the GFLOPS growth between the \
         two largest sizes below that between the two smallest, over the whole interval of \
         their quotient (the rows are timed apart: unpaired intervals); {}.{}",
        f.why,
        device_note(s),
        bound_note(t, z)
    );
    s.finding(
        f.paper(format!(
            "GFLOPS ×{:.2} from N = {a} to {b}, ×{:.2} from N = {y} to {z} (read from Table 1)",
            pg(b) / pg(a),
            pg(z) / pg(y)
        ))
        .ours(format!(
            "GFLOPS {} from N = {a} to {b}, {} from N = {y} to {z}",
            iv(&first),
            iv(&last)
        ))
        .why(why),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The levelling-off rule on the paper's own Table 1 (`experiments/matmul.toml`) gives
    /// the paper's side: its growth 1024 → 2048 is below its growth 128 → 256.
    #[test]
    fn the_levelling_off_rule_on_the_papers_table_1_holds() {
        let cfg: super::super::config::Config =
            toml::from_str(include_str!("../../../../experiments/matmul.toml")).expect("parses");
        let g = |n: u32| {
            let p = cfg
                .table1
                .published
                .iter()
                .find(|p| p.n == n)
                .expect("printed");
            p.gpu_gflops.value
        };
        let q = (g(2048) / g(1024)) / (g(256) / g(128));
        assert_eq!(
            crate::stats::decide((q, q), LEVELS_OFF, false),
            crate::stats::Decision::Holds,
            "{q}"
        );
    }
}
