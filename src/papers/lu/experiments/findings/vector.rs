//! §4.2's two claims on the vector (RGBA) layout, at the paper's N with the copy method, as
//! the paper reads its Table 4: L5 "vector operations are essential" (A(I1) / A(I3), paired
//! by round) and L6 "RGBA cuts G and T to about ¼" (G(I3) / G(I1) and T(I3) / T(I1), paired
//! by round like L5, judged as a band).

use crate::gl::PingPongMethod;
use crate::papers::lu::experiments::config::Config;
use crate::papers::lu::fragment::Variant;
use crate::report::Finding;
use crate::runner::Session;

use super::results::Results;
use super::timing::Part;

/// "About ¼": within a factor 2 of ¼.
pub(super) const QUARTER_BAND: (f64, f64) = (0.125, 0.5);

/// L5 and L6 at the paper's N (its Table 4's largest); nothing where this run did not reach it.
pub(super) fn run(s: &Session, cfg: &Config, r: &Results) {
    let p = &cfg.table4.paper;
    let n = p.top();
    let cp = PingPongMethod::Copy;
    let paper = |v: Variant, i: usize| p.get(v, cp, n).map(|x| x[i]);
    if let Some(ratio) = r.paired((Variant::I1, cp), (Variant::I3, cp), n) {
        let f = Finding::new(
            "table4",
            format!("vector operations are essential (§4.2), I1 / I3 copy at N = {n}"),
        )
        .paper("I3's A shorter than I1's (Table 4)")
        .judge("A(I1) / A(I3)", &ratio, 1.0, true);
        let f = match paper(Variant::I1, 0).zip(paper(Variant::I3, 0)) {
            Some((a1, a3)) => f.paper_value(a1 / a3),
            None => f,
        };
        s.finding(f);
    }
    let parts: [(&str, usize, Part); 2] = [("G", 1, |m| &m.g), ("T", 3, |m| &m.t)];
    for (part, idx, pick) in parts {
        let Some(ratio) = r.paired_part(pick, (Variant::I3, cp), (Variant::I1, cp), n) else {
            continue;
        };
        let (lo, hi) = QUARTER_BAND;
        let mut f = Finding::new(
            "table4",
            format!("RGBA cuts G and T to about ¼ (§4.2), {part} at N = {n}, copy"),
        )
        .paper("about 1/4 (§4.2)")
        .judge_band(&format!("{part}(I3) / {part}(I1)"), &ratio, QUARTER_BAND);
        f.why = format!(
            "{} Band [{lo}, {hi}] (\"about ¼\" read as within a factor 2); paired by round \
             over table4's rounds.",
            f.why
        );
        s.finding(match paper(Variant::I3, idx).zip(paper(Variant::I1, idx)) {
            Some((a, b)) => f.paper_value(a / b),
            None => f,
        });
    }
}
