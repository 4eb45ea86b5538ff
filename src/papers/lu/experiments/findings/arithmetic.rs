//! Finding 4: GPU and CPU results differ, mainly from the GPU's division error — on this
//! device's own arithmetic (table5) and under the 2005 arithmetic model (sec5_1_2005).

use crate::report::{Finding, Verdict};
use crate::runner::Session;

use super::Results;
use crate::papers::lu::arith2005::Arith2005;
use crate::papers::lu::experiments::Config;
use crate::papers::lu::experiments::sec5_1_2005::{Distance, ModelRow};

/// (4) GPU != CPU, mainly division.
pub(super) fn finding4(s: &Session, r: &Results) {
    let fs = &r.ulps.fragment;
    let ieee = fs.iter().all(|x| x.min >= -0.5 && x.max <= 0.5);
    s.finding(
        Finding::new(
            "table5",
            "GPU and CPU results differ, mainly from the GPU's division error (finding 4)",
        )
        .paper("results differ; division is not correctly rounded (Table 5)")
        .ours(format!(
            "{}; divide error [{:.3}, {:.3}] ULP ({:.2}% correctly rounded)",
            match r.first_diff {
                Some(k) => format!("GPU and CPU factors first differ at N = {k}"),
                None => "GPU and CPU factors bit-identical at every scanned N".into(),
            },
            fs[3].min,
            fs[3].max,
            100.0 * fs[3].correctly_rounded,
        ))
        .verdict(Verdict::of(!ieee || r.first_diff.is_some()))
        .threshold(
            "GPU and CPU factors differ at some scanned N, or the divide error leaves \
             [−0.5, 0.5] ULP (exact counts, not timed)",
        )
        .why(format!(
            "This device's fragment shader: multiply [{:.3}, {:.3}] ULP, add [{:.3}, {:.3}] — {}.",
            fs[2].min,
            fs[2].max,
            fs[0].min,
            fs[0].max,
            if ieee {
                "IEEE-correct rounding, so the 2005 cause is gone"
            } else {
                "not IEEE-correct rounding"
            }
        )),
    );
}

/// Order `x.n`'s distances (normwise / mean ULP) under the whole model and each operation
/// alone, and which moves the factors furthest by ULP (`div` where none does).
fn ablation_at(x: &ModelRow, div: usize) -> String {
    let abl = Arith2005::ABLATION;
    let largest = |x: &ModelRow| {
        let k = (0..abl.len())
            .max_by(|&a, &b| x.ablation[a].mean_ulps.total_cmp(&x.ablation[b].mean_ulps))
            .unwrap_or(div);
        abl[k].name()
    };
    let parts: Vec<String> = abl
        .iter()
        .zip(&x.ablation)
        .map(|(m, d)| format!("{} {:.2e} / {:.2}", m.name(), d.normwise, d.mean_ulps))
        .collect();
    format!(
        "N={}: all {:.2e} / {:.2}, {} (largest by ULP: {})",
        x.n,
        x.all.normwise,
        x.all.mean_ulps,
        parts.join(", "),
        largest(x)
    )
}

/// Finding 4's second verdict, "under the 2005 arithmetic model" (issue 25): the emulated GPU
/// factors differ from the CPU's IEEE loop (the paper's observation), and the ablation says
/// which operation accounts for it. At each order of `sec5_1_2005` beyond the paper's
/// `paper_equal_up_to` (rows whose GPU factors equalled the CPU twin's bits), division "leads"
/// when emulating it alone moves the factors further from the CPU's than emulating ± alone
/// and × alone, by both distances of the table (normwise, and mean ULP per entry, which
/// weighs the small `L` entries where a division's error lands first). Held when division
/// leads at every such order; not held when it leads at none; inconclusive otherwise.
pub(super) fn finding4_under_model(s: &Session, cfg: &Config, r: &Results) {
    let abl = Arith2005::ABLATION;
    let div = abl
        .iter()
        .position(|m| *m == Arith2005::DIV)
        .expect("the ablation holds division alone");
    let rows: Vec<_> = r
        .model
        .rows
        .iter()
        .filter(|x| x.twin && x.n as usize > cfg.sec51.paper_equal_up_to)
        .collect();
    let leads = |x: &&ModelRow, f: &dyn Fn(&Distance) -> f64| {
        (0..abl.len())
            .filter(|&k| k != div)
            .all(|k| f(&x.ablation[div]) > f(&x.ablation[k]))
    };
    let div_leads: Vec<bool> = rows
        .iter()
        .map(|x| leads(x, &|d| d.normwise) && leads(x, &|d| d.mean_ulps))
        .collect();
    let per_n: Vec<String> = rows.iter().map(|x| ablation_at(x, div)).collect();
    let verdict = if rows.is_empty() {
        Verdict::NotTested
    } else if div_leads.iter().all(|&b| b) {
        Verdict::Held
    } else if div_leads.iter().all(|&b| !b) {
        Verdict::NotHeld
    } else {
        Verdict::Inconclusive
    };
    let first = r.model.first_diff[0];
    s.finding(
        Finding::new(
            "sec5_1_2005",
            "GPU and CPU results differ, mainly from the GPU's division error (finding 4, under the 2005 arithmetic model)",
        )
        .paper(format!(
            "factors never equal for N > {}; mainly division (reciprocal + multiply, Table 5)",
            cfg.sec51.paper_equal_up_to
        ))
        .ours(format!(
            "{}; distance from the CPU's IEEE f32 loop (normwise / mean ULP per entry) with one operation emulated alone — {}",
            match first {
                Some(k) => format!("emulated GPU and CPU factors first differ at N = {k}"),
                None => format!(
                    "emulated GPU and CPU factors bit-identical up to N = {}",
                    cfg.sec51.scan
                ),
            },
            per_n.join("; ")
        ))
        .verdict(verdict)
        .threshold(format!(
            "division alone moves the factors further than ± alone and × alone, by both \
             distances, at every N > {} (exact, not timed)",
            cfg.sec51.paper_equal_up_to
        ))
        .why(format!(
            "Ablation on {} + copy: held when emulating division alone moves the factors further from the CPU's IEEE f32 loop than emulating ± alone and × alone, by both distances, at every order N > {} of the table (division leads at {} of {} orders); every GPU factorization equals the CPU twin's running the same model bit for bit, so the differences are the arithmetic. The model itself is fitted to Table 5 (its 'emulated 2005' columns), so the verdict holds for that model.",
            crate::papers::lu::experiments::ABLATION_VARIANT,
            cfg.sec51.paper_equal_up_to,
            div_leads.iter().filter(|&&b| b).count(),
            div_leads.len()
        )),
    );
}
