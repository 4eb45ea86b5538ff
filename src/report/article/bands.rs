//! The article's "Band rules" item: every rule that asks a statistic to lie *inside* a band
//! ("about as long", "about ¼"), set against how wide the statistic's interval is on this
//! device. A band narrower than the statistic's between-run spread cannot be decided by any
//! run of the device — more repetitions narrow the repetitions' part of the interval, never
//! the between-run part — so such a rule would be a rule no measurement can meet (issue 37).
//! The item names every band case with the three widths, each a factor (`hi / lo`):
//!
//! * the band's, `hi / lo` of the rule ([`Point::band`]);
//! * the between-run spread's, `exp(2h)` — the term `h` (log units) the interval carries on
//!   each side ([`Point::between`]; 1 for a statistic paired by round, whose pairing cancels
//!   the drift);
//! * the interval's own, `hi / lo` of the statistic's 95 % interval (repetitions and term).
//!
//! A band wider than the between-run spread is decidable here; one wider than the interval
//! too was decidable by this run.

use crate::report::finding::{Finding, Point};
use crate::report::table::Fmt;
use crate::report::table::value::Value;

/// One band case: where it is, its point, and the three widths as factors.
struct BandCase<'a> {
    paper: &'a str,
    claim: &'a str,
    band: [f64; 2],
    /// The between-run term (log units, each side).
    h: f64,
    interval: Option<f64>,
}

impl BandCase<'_> {
    fn of<'a>(paper: &'a str, claim: &'a str, p: &Point) -> Option<BandCase<'a>> {
        let band = p.band?;
        Some(BandCase {
            paper,
            claim,
            band,
            h: p.between,
            interval: (p.lo > 0.0 && p.hi >= p.lo).then(|| p.hi / p.lo),
        })
    }

    fn width(&self) -> f64 {
        self.band[1] / self.band[0]
    }

    /// Whether the band is narrower than the between-run spread (no run could decide it).
    fn too_narrow(&self) -> bool {
        crate::stats::band_narrower_than_spread((self.band[0], self.band[1]), self.h)
    }

    fn line(&self) -> String {
        let v = |x: f64| Value::Num(x).render(Fmt::Sig(3));
        let interval = match self.interval {
            Some(w) if w > self.width() => format!(
                "its interval ×{} wide, wider than the band: this run could not place it \
                 inside",
                v(w)
            ),
            Some(w) => format!("its interval ×{} wide", v(w)),
            None => "no interval".into(),
        };
        format!(
            "`{}` {}: band [{}, {}], ×{} wide; between-run spread ×{}{}; {interval}",
            self.paper,
            self.claim,
            v(self.band[0]),
            v(self.band[1]),
            v(self.width()),
            v((2.0 * self.h).exp()),
            if self.too_narrow() {
                " — **the band is narrower: no run on this device can decide it**"
            } else {
                ""
            },
        )
    }
}

/// The "Band rules" item for `findings` (each with its paper's key); empty where no rule of
/// the run is a band.
pub(super) fn bands<'a>(findings: impl IntoIterator<Item = (&'a str, &'a Finding)>) -> String {
    let cases: Vec<BandCase> = findings
        .into_iter()
        .flat_map(|(paper, f)| {
            f.point
                .iter()
                .chain(&f.points)
                .filter_map(move |p| BandCase::of(paper, &f.claim, p))
        })
        .collect();
    if cases.is_empty() {
        return String::new();
    }
    let narrow = cases.iter().filter(|c| c.too_narrow()).count();
    let head = if narrow == 0 {
        format!(
            "no band is narrower than its statistic's between-run spread on this device \
             ({} band case{}), so each can be decided here",
            cases.len(),
            if cases.len() == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "{narrow} of {} bands are narrower than their statistic's between-run spread on \
             this device: those cases are inconclusive whatever a run shows",
            cases.len()
        )
    };
    let lines: Vec<String> = cases.iter().map(|c| format!("  - {}", c.line())).collect();
    format!(
        "- **Band rules.** A rule that asks a statistic to lie inside a band is decidable \
         only where the band is wider than the spread the statistic has between runs (the \
         between-run term its interval carries, both sides; none for a ratio paired by \
         round): {head}. Widths are factors, `hi / lo`.\n{}\n\n",
        lines.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Estimate;

    fn six(v: f64) -> Estimate {
        Estimate::of(&[v * 0.99, v, v * 1.01, v, v * 0.995, v * 1.005]).unwrap()
    }

    #[test]
    fn a_band_narrower_than_the_between_run_spread_is_named_and_a_wide_one_is_not() {
        let wide = Finding::new("t", "about as long").judge_band("r", &six(1.0), (0.8, 1.25));
        // A term of ±20 % each side: exp(0.4) ≈ 1.49 > 1.25 / 0.95.
        let narrow =
            Finding::new("t", "levels off").judge_band("g", &six(1.0).widen(0.2), (0.95, 1.25));
        let item = bands([("p", &wide)]);
        assert!(item.contains("no band is narrower"), "{item}");
        assert!(
            !item.contains("no run on this device can decide it"),
            "{item}"
        );
        let item = bands([("p", &wide), ("q", &narrow)]);
        assert!(item.contains("1 of 2 bands are narrower"), "{item}");
        assert!(
            item.contains("`q` levels off: band [0.950, 1.25]") && item.contains("can decide it"),
            "{item}"
        );
        // The decision function agrees: the narrow band's case is inconclusive.
        assert_eq!(
            narrow.verdict,
            crate::report::finding::Verdict::Inconclusive
        );
    }

    #[test]
    fn a_run_without_band_rules_has_no_item() {
        let f = Finding::new("t", "faster").judge("r", &six(0.5), 1.0, false);
        assert_eq!(bands([("p", &f)]), "");
    }
}
