//! Finding 4: GPU and CPU results differ, mainly from the GPU's division error — on this
//! device's own arithmetic (table5) and under the 2005 arithmetic model (sec5_1_2005).

use crate::report::{Finding, Point, Verdict};
use crate::runner::Session;

use super::results::Results;
use crate::papers::lu::arith2005::{Arith2005, Member};
use crate::papers::lu::cpu::MatrixClass;
use crate::papers::lu::experiments::config::Config;
use crate::papers::lu::experiments::family::Cell;
use crate::papers::lu::experiments::sec5_1_2005::{Distance, ModelRow};
use crate::papers::lu::ulp;

/// How far `lead` moves the factors beyond the farthest of `others`: the smaller of its two
/// distance ratios (normwise, mean ULP) to the largest of theirs, so above 1 exactly when it
/// moves them further by both distances (finding 4b's rule; ∞ where the others move nothing,
/// which the forest plot leaves out).
fn lead_ratio(lead: &Distance, others: &[&Distance]) -> f64 {
    let r = |f: fn(&Distance) -> f64| f(lead) / others.iter().map(|d| f(d)).fold(0.0, f64::max);
    r(|d| d.normwise).min(r(|d| d.mean_ulps))
}

/// (4) GPU != CPU, mainly division.
pub(super) fn finding4(s: &Session, cfg: &Config, r: &Results) {
    let fs = &r.ulps.fragment;
    let ieee = fs.iter().all(|x| x.min >= -0.5 && x.max <= 0.5);
    // The plotted statistic: the divide's largest error in ULP against correct rounding's
    // half ULP, the paper's from its Table 5.
    let widest = |[lo, hi]: [f64; 2]| lo.abs().max(hi.abs());
    let mut point = Point::exact(widest([fs[3].min, fs[3].max]), 0.5, true);
    point.paper = cfg.table5.paper.get(ulp::OPS[3]).map(|&p| widest(p));
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
        .point(Some(point))
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
    let points = rows
        .iter()
        .map(|x| {
            let others: Vec<&Distance> = (0..abl.len())
                .filter(|&k| k != div)
                .map(|k| &x.ablation[k])
                .collect();
            Point::exact(lead_ratio(&x.ablation[div], &others), 1.0, true)
        })
        .collect();
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
        .points(points)
        .threshold(format!(
            "division alone moves the factors further than ± alone and × alone, by both \
             distances, at every N > {} (exact, not timed)",
            cfg.sec51.paper_equal_up_to
        ))
        .why(format!(
            "Ablation on {} + copy: held when emulating division alone moves the factors further from the CPU's IEEE f32 loop than emulating ± alone and × alone, by both distances, at every order N > {} of the table (division leads at {} of {} orders); every GPU factorization equals the CPU twin's running the same model bit for bit, so the differences are the arithmetic. The model itself is fitted to Table 5 (its 'emulated 2005' columns), so the verdict holds for that model.",
            crate::papers::lu::experiments::forms::ABLATION_VARIANT,
            cfg.sec51.paper_equal_up_to,
            div_leads.iter().filter(|&&b| b).count(),
            div_leads.len()
        )),
    );
}

/// The cells of `cells` where `f` holds, as `member | class` names (or "none").
fn cells_where(cells: &[&Cell], f: impl Fn(&Cell) -> bool) -> String {
    let v: Vec<String> = cells
        .iter()
        .filter(|&&c| f(c))
        .map(|c| format!("{} | {}", c.member.name(), c.class.name()))
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join("; ")
    }
}

/// Each member's first differing N over the classes in [`MatrixClass::ALL`] order
/// (`fitted: 2 / 4 / 2 / 4; …`, `—` for none within the scan).
fn first_per_member(cells: &[&Cell]) -> String {
    Member::FAMILY
        .iter()
        .map(|m| {
            let v: Vec<String> = MatrixClass::ALL
                .iter()
                .map(|k| {
                    cells
                        .iter()
                        .find(|c| c.member == *m && c.class == *k)
                        .and_then(|c| c.first_diff)
                        .map_or("—".into(), |f| f.to_string())
                })
                .collect();
            format!("{}: {}", m.name(), v.join(" / "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Held when `f` holds in every cell, not held in none, inconclusive otherwise.
fn verdict_over(cells: &[&Cell], f: impl Fn(&Cell) -> bool) -> Verdict {
    let k = cells.iter().filter(|&&c| f(c)).count();
    match k {
        _ if cells.is_empty() => Verdict::NotTested,
        0 => Verdict::NotHeld,
        k if k == cells.len() => Verdict::Held,
        _ => Verdict::Inconclusive,
    }
}

/// Finding 4 split in two (issue 38) over the model family × matrix classes
/// (`sec5_1_family`): 4a "GPU and CPU results differ" and 4b "mainly from division", each
/// judged per cell whose GPU factorizations all equalled their CPU twins' bits.
pub(super) fn finding4_family(s: &Session, cfg: &Config, cells: &[Cell]) {
    let ok: Vec<&Cell> = cells.iter().filter(|c| c.twin).collect();
    let paper = cfg.sec51.paper_equal_up_to;
    let n = ok.first().map_or(0, |c| c.n);
    let early = |c: &Cell| c.first_diff.is_some_and(|k| k <= paper);
    s.finding(
        Finding::new(
            "sec5_1_family",
            "GPU and CPU results differ (finding 4a, per 2005-model member and matrix class)",
        )
        .paper(format!("GPU and CPU factors equal up to N = {paper}, never beyond"))
        .ours(format!(
            "whole model ≠ CPU IEEE f32 at N = {n} in {} of {} cells; first differing N per member ({}) — {}; at N ≤ {paper} already in {} of {} cells",
            ok.iter().filter(|c| c.differ()).count(),
            ok.len(),
            MatrixClass::ALL.map(|c| c.name()).join(" / "),
            first_per_member(&ok),
            ok.iter().filter(|c| early(c)).count(),
            ok.len(),
        ))
        .verdict(verdict_over(&ok, Cell::differ))
        .point(Some(Point::exact(
            ok.iter().filter(|c| c.differ()).count() as f64 / ok.len().max(1) as f64,
            1.0,
            true,
        )))
        .threshold(format!(
            "held when the emulated factors differ from the CPU's IEEE f32 loop at N = {n} in every member × class cell (exact, not timed)"
        ))
        .why(format!(
            "Rests on: the 2005 arithmetic being one of {} guessed members (none measured on a Quadro), emulated bit for bit (every GPU run = its CPU twin) on I1 + copy, and the four matrix classes. The paper's equality up to N = {paper} is a second test: a member × class whose first difference comes at N ≤ {paper} contradicts it.",
            Member::FAMILY.len()
        )),
    );
    let leads = cells_where(&ok, Cell::div_leads);
    s.finding(
        Finding::new(
            "sec5_1_family",
            "GPU and CPU results differ mainly from the GPU's division (finding 4b, per 2005-model member and matrix class)",
        )
        .paper("mainly from division (reciprocal + multiply, Table 5)")
        .ours(format!(
            "÷ alone moves the factors furthest in {} of {} cells: {leads}",
            ok.iter().filter(|c| c.div_leads()).count(),
            ok.len()
        ))
        .verdict(verdict_over(&ok, Cell::div_leads))
        .points(
            ok.iter()
                .map(|c| {
                    let [d, a, m] = &c.ablation;
                    Point::exact(lead_ratio(d, &[a, m]), 1.0, true)
                })
                .collect(),
        )
        .threshold(format!(
            "held when, at N = {n}, emulating ÷ alone moves the factors further from the CPU's IEEE f32 loop than ± alone and × alone by both distances (normwise, mean ULP) in every cell; not held in none; inconclusive otherwise (exact, not timed)"
        ))
        .why(
            "Rests on the member (how ± picks its rule, whether the product is chopped, whether the update's MAD is fused — then × alone leaves the update IEEE —, how the quotient is formed) and on the matrix (its multipliers' size: max |l| per cell in the table, since a division's error lands in L and scales the update by l). The verdict is the model family's, not the Quadro's: no member is measured on the hardware.",
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(normwise: f64, mean_ulps: f64) -> Distance {
        Distance {
            normwise,
            mean_ulps,
            differing: 1.0,
        }
    }

    #[test]
    fn the_lead_ratio_is_above_one_exactly_when_division_leads_by_both_distances() {
        let (a, m) = (d(2.0, 4.0), d(1.0, 8.0));
        // Further by both distances: the smaller ratio (3/2 against 10/8) above 1.
        assert_eq!(lead_ratio(&d(3.0, 10.0), &[&a, &m]), 1.25);
        // Further by one distance only: below 1, as finding 4b's rule says "not leading".
        assert_eq!(lead_ratio(&d(3.0, 6.0), &[&a, &m]), 0.75);
        // The others move nothing: ∞ (left out of the plot), on the claim's side.
        assert!(lead_ratio(&d(1.0, 1.0), &[&d(0.0, 0.0)]).is_infinite());
    }
}
