//! The paper's derived numbers, recomputed from its raw columns: Table 4's C = A − G − T,
//! §4.1's best GFLOPS, §4.3's fractions, and the closed forms of eqs. (1)–(7).

use crate::gl::PingPongMethod;
use crate::report::Audit;
use crate::runner::Session;

use super::super::theory;
use super::config::Config;
use super::forms::configs;
use super::measured::gflops;
use crate::papers::lu::fragment::Variant;

/// Table 4 prints whole milliseconds: A − G − T of three rounded numbers may be off by
/// three half-milliseconds.
const ROUNDING_MS: f64 = 1.5;

pub(super) fn run(s: &Session, cfg: &Config) {
    let p = &cfg.table4.paper;
    let mut bad = vec![];
    let (mut entries, mut off_by_one) = (0, 0);
    for (v, m) in configs() {
        for &n in &p.sizes {
            if let Some([a, g, c, t]) = p.get(v, m, n) {
                entries += 1;
                let r = a - g - t;
                if r != 0.0 {
                    s.audit(Audit::new(
                        format!("Table 4 C = A − G − T, {v} {m}, N = {n}"),
                        c,
                        r,
                        ROUNDING_MS / r.abs(),
                    ));
                }
                if (c - r).abs() > ROUNDING_MS {
                    bad.push(format!("{v} {m} N={n}: C = {c}, A − G − T = {r}"));
                } else if c != r {
                    off_by_one += 1;
                }
            }
        }
    }
    if bad.is_empty() {
        s.note(format!("Paper's Table 4: C = A − G − T holds for all {entries} entries within the ±{ROUNDING_MS} ms that printing whole milliseconds allows ({off_by_one} entries differ by 1 ms)."));
    } else {
        s.note(format!(
            "Paper's Table 4: C ≠ A − G − T beyond rounding in {} of {entries} entries: {}.",
            bad.len(),
            bad.join("; ")
        ));
    }
    let best_n = 1024;
    if let Some([a, ..]) = p.get(Variant::I3, PingPongMethod::Switch, best_n) {
        let g = gflops(theory::table2(Variant::I3, best_n as f64).0, a);
        if !s.audit(Audit::new(
            format!(
                "§4.1: best GFLOPS, I3 + switch, Quadro, N = {best_n} (Table 2 flops / Table 4 A)"
            ),
            p.best_gflops_n1024,
            g,
            0.1,
        )) {
            let top = p.top();
            let at_top = p
                .get(Variant::I3, PingPongMethod::Switch, top)
                .map(|t| {
                    format!(
                        " (and {:.2} at N = {top})",
                        gflops(theory::table2(Variant::I3, top as f64).0, t[0])
                    )
                })
                .unwrap_or_default();
            s.note(format!("§4.1 says I3 + switch reaches about {} GFLOPS on the Quadro at N = {best_n}; its own Table 2 flops over its Table 4 A ({a} ms) give {g:.2} GFLOPS{at_top}. Fig. 6 is printed without numbers, so we cannot tell which flop count it used.", p.best_gflops_n1024));
        }
    }
    let b = &cfg.bandwidth;
    for (card, fraction, gbps, cache_gbps) in [
        ("Quadro", b.paper_fraction, b.paper_gbps, b.paper_cache_gbps),
        (
            "GeForce",
            b.paper_geforce_fraction,
            b.paper_geforce_gbps,
            b.paper_geforce_cache_gbps,
        ),
    ] {
        s.audit(Audit::new(
            format!("§4.3: {card} fraction {gbps} / {cache_gbps} GB/s"),
            fraction,
            gbps / cache_gbps,
            0.02,
        ));
    }
    closed_forms(s, p.top());
}

/// §3.6: the closed forms of eqs. (1)–(3), (6)–(7) and Tables 1–2 against their sums, at the
/// paper's largest order.
fn closed_forms(s: &Session, top: u32) {
    let n = top as f64;
    let steps = || (1..=top).map(|i| n - i as f64);
    let sl: f64 = steps().sum();
    let su: f64 = steps().map(|x| x * x).sum();
    let s3: f64 = steps().map(|x| x * (x + 1.0)).sum();
    let at = format!("N = {top}");
    s.audit(Audit::new(
        format!("eq. (1) S_L = N(N−1)/2, {at}"),
        n * (n - 1.0) / 2.0,
        sl,
        1e-12,
    ));
    s.audit(Audit::new(
        format!("eq. (2) S_U = N(2N²−3N+1)/6, {at}"),
        n * (2.0 * n * n - 3.0 * n + 1.0) / 6.0,
        su,
        1e-12,
    ));
    s.audit(Audit::new(
        format!("eq. (3) Σ(N−i)(N−i+1) = N(N²−1)/3, {at}"),
        n * (n * n - 1.0) / 3.0,
        s3,
        1e-12,
    ));
    s.audit(Audit::new(
        format!("Table 2 I1 flops 2S_L + 2S_U = 2N(N²−1)/3, {at}"),
        theory::table2(Variant::I1, n).0,
        2.0 * sl + 2.0 * su,
        1e-12,
    ));
    s.audit(Audit::new(
        format!("Table 2 I1 bytes 16(2S_L + 3S_U) = 8N(2N²−N−1), {at}"),
        theory::table2(Variant::I1, n).1,
        16.0 * (2.0 * sl + 3.0 * su),
        1e-12,
    ));
    s.audit(Audit::new(
        format!("Table 1 I1 copied bytes vs 16(S_L + S_U), {at}"),
        theory::table1(Variant::I1, n).3,
        16.0 * (sl + su),
        1e-6,
    ));
    s.audit(Audit::new(
        format!("Table 2 I3 flops: eqs. (6) + (7) = 2N(N²−1)/3, {at}"),
        theory::table2(Variant::I3, n).0,
        n * (n - 1.0) + n * (2.0 * n * n - 3.0 * n + 1.0) / 3.0,
        1e-12,
    ));
}
