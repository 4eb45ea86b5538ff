//! A paper's claims inventory: every claim of its abstract, results and conclusion, quoted in
//! the paper's language with an English rendering and its section, the quantity that tests
//! it, where the paper made it, and the rule with its reason. Each paper declares its
//! inventory in its own folder (`papers/<paper>/claims.rs`); the run's [`Finding`]s are the
//! claim's *cases* (one per size or variant), matched to it by the words they open with
//! ([`Claim::cases`]). The report's summary counts claims, each with its cases nested
//! ([`judge`], the one function that turns the cases into the claim's verdict and its
//! sentence).

use super::finding::{Finding, Verdict};

/// The claims' forest plot's file name in a device folder (drawn by the index, shown by the
/// article).
pub const FOREST_PNG: &str = "claims.png";

/// Which devices can test a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A ratio of the technique's own variants, a count, a precision: every device.
    Any,
    /// A GPU against a CPU (or an absolute GPU speed): not on a software rasterizer, whose
    /// "GPU" is the CPU.
    GpuVsCpu,
    /// No device of this project can test it; what would.
    Never(&'static str),
}

/// What a device needs for a [`Scope::GpuVsCpu`] claim.
pub const NEEDS_GPU: &str = "a GPU whose graphics pipeline is not the CPU";

/// One claim of a paper, as the paper states it.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    /// Short id within the paper, e.g. "T1".
    pub id: &'static str,
    /// Where the paper makes it: "abstract", "§4.2", "§VI (conclusion)".
    pub section: &'static str,
    /// The paper's words, in its language (Korean, Japanese, English), quoted from the paper.
    pub quote: &'static str,
    /// Our English rendering of the quote.
    pub english: &'static str,
    /// The claim in a few words, for the summary table.
    pub short: &'static str,
    /// The quantity that tests it and the size or condition where the paper made it.
    pub quantity: &'static str,
    /// The rule, with why that threshold (our reading of the words).
    pub rule: &'static str,
    /// Which devices can test it.
    pub scope: Scope,
    /// The findings that are its cases: a finding whose claim text starts with one of these.
    pub cases: &'static [&'static str],
}

impl Claim {
    /// Whether `f` is one of this claim's cases.
    pub fn has_case(&self, f: &Finding) -> bool {
        self.cases.iter().any(|p| f.claim.starts_with(p))
    }
}

/// The claim's verdict with its sentence, both from the same cases.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimVerdict {
    pub verdict: Verdict,
    pub sentence: String,
}

/// The claim's verdict from its cases (`software`: the device is a software rasterizer):
/// *held* when every decided case held and none was inconclusive, *not held* when every
/// decided case failed and none was inconclusive, *inconclusive* when the cases disagree or
/// one is undecided; with no decided case, *not testable here* when the device cannot test
/// it (the scope, or a case marked so), else *not tested*.
pub fn judge(c: &Claim, cases: &[&Finding], software: bool) -> ClaimVerdict {
    let n = |v: Verdict| cases.iter().filter(|f| f.verdict == v).count();
    let (held, not, inc, untestable) = (
        n(Verdict::Held),
        n(Verdict::NotHeld),
        n(Verdict::Inconclusive),
        n(Verdict::NotTestable),
    );
    let counts = |verdict: Verdict, sentence: String| ClaimVerdict { verdict, sentence };
    if let Scope::Never(what) = c.scope {
        return counts(Verdict::NotTestable, format!("needs {what}"));
    }
    let decided = held + not + inc;
    if decided == 0 {
        if untestable > 0 || (software && c.scope == Scope::GpuVsCpu) {
            let would = if untestable > 0 {
                format!(
                    "; {untestable} case{} measured, shown on the paper's page",
                    plural(untestable)
                )
            } else {
                String::new()
            };
            return counts(Verdict::NotTestable, format!("needs {NEEDS_GPU}{would}"));
        }
        return counts(
            Verdict::NotTested,
            if cases.is_empty() && c.cases.is_empty() {
                "no case judged in this run (no rule implemented for it yet)".into()
            } else if cases.is_empty() {
                "no case judged in this run: none of its inputs is in this run's experiment \
                 files (a quick run leaves the paper's largest out)"
                    .into()
            } else {
                format!("{} case{}, none ran", cases.len(), plural(cases.len()))
            },
        );
    }
    let tally = format!(
        "{held} held, {not} not held, {inc} inconclusive of {decided} decided case{}",
        plural(decided)
    );
    let verdict = if inc > 0 || (held > 0 && not > 0) {
        Verdict::Inconclusive
    } else {
        Verdict::of(held > 0)
    };
    let why = match verdict {
        Verdict::Held => "every case held",
        Verdict::NotHeld => "every case failed",
        _ if inc > 0 => "a case is undecided",
        _ => "the cases disagree",
    };
    counts(verdict, format!("{why} ({tally})"))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Whether the run's device is a software rasterizer (its "GPU" is the CPU).
pub fn software(p: &super::provenance::Provenance) -> bool {
    p.egl_device.contains("[software]") || crate::gl::is_cpu_rasterizer(&p.gl_renderer)
}

/// The cases of `c` among `findings`.
pub fn cases_of<'a>(c: &Claim, findings: &'a [Finding]) -> Vec<&'a Finding> {
    findings.iter().filter(|f| c.has_case(f)).collect()
}

/// `s` cut to at most `max` characters (an ellipsis marks the cut).
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The claims in full, for the paper's page: quote, rendering, quantity, rule, verdict and
/// each case (findings that match no claim follow, listed as they are).
pub fn page_section(claims: &[Claim], findings: &[Finding], software: bool) -> String {
    let mut s = String::from("<a id=\"claims\"></a><a id=\"findings\"></a>\n## Claims\n\n");
    for c in claims {
        let cases = cases_of(c, findings);
        let v = judge(c, &cases, software);
        s.push_str(&format!(
            "### {} — {} — **{}**\n\n> {}\n>\n> *{}* ({})\n\n- Tested by: {}.\n- Rule: {}.\n- Verdict: **{}**, {}.\n",
            c.id, c.short, v.verdict, c.quote, c.english, c.section, c.quantity, c.rule, v.verdict, v.sentence
        ));
        for f in cases {
            s.push_str(&format!("- Case: {}\n", f.to_markdown()));
        }
        s.push('\n');
    }
    let loose: Vec<&Finding> = findings
        .iter()
        .filter(|f| !claims.iter().any(|c| c.has_case(f)))
        .collect();
    if !loose.is_empty() {
        s.push_str("### Other findings\n\n");
        for f in loose {
            s.push_str(&format!("- {}\n", f.to_markdown()));
        }
        s.push('\n');
    }
    s
}

/// The colour of a verdict in the forest plot.
fn verdict_color(v: Verdict) -> (u8, u8, u8) {
    match v {
        Verdict::Held => (0, 130, 60),
        Verdict::NotHeld => (200, 30, 30),
        Verdict::Inconclusive => (220, 130, 0),
        Verdict::NotTestable => (110, 110, 110),
        Verdict::NotTested => (170, 170, 170),
    }
}

/// `x` on the forest plot's scale: divided by the rule's threshold and turned so that the
/// claim's side is above 1; `None` where the threshold cannot scale it.
fn oriented(x: f64, p: &super::finding::Point) -> Option<f64> {
    // A count equal to its threshold (B6's |calls − (5k − 2)| = 0) sits on the line.
    if x == p.threshold {
        return Some(1.0);
    }
    let r = if p.at_least {
        x / p.threshold
    } else {
        p.threshold / x
    };
    (p.threshold > 0.0 && r.is_finite() && r > 0.0).then_some(r)
}

/// One forest-plot row per claim (`claims` with the findings of its paper's run, `key` the
/// paper): its cases that carry numbers, oriented (`oriented`), the paper's values, the
/// verdict and its colour.
pub fn forest_rows(
    key: &str,
    claims: &[Claim],
    findings: &[Finding],
    software: bool,
) -> Vec<super::plot::ForestRow> {
    claims
        .iter()
        .map(|c| {
            let cases = cases_of(c, findings);
            let v = judge(c, &cases, software);
            let points: Vec<&super::finding::Point> = cases
                .iter()
                .flat_map(|f| f.point.iter().chain(&f.points))
                .collect();
            super::plot::ForestRow {
                label: clip(&format!("{key} {} {}", c.id, c.short), 64),
                verdict: v.verdict.to_string(),
                color: verdict_color(v.verdict),
                cases: points
                    .iter()
                    .filter_map(|p| {
                        let (a, b) = (oriented(p.lo, p)?, oriented(p.hi, p)?);
                        Some((oriented(p.median, p)?, a.min(b), a.max(b)))
                    })
                    .collect(),
                paper: points
                    .iter()
                    .filter_map(|p| oriented(p.paper?, p))
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: Claim = Claim {
        id: "X1",
        section: "§1",
        quote: "q",
        english: "e",
        short: "s",
        quantity: "t",
        rule: "r",
        scope: Scope::Any,
        cases: &["x"],
    };

    fn case(v: Verdict) -> Finding {
        Finding::new("t", "x, 1").verdict(v)
    }

    fn of(c: &Claim, vs: &[Verdict], software: bool) -> ClaimVerdict {
        let fs: Vec<Finding> = vs.iter().map(|&v| case(v)).collect();
        let refs: Vec<&Finding> = fs.iter().collect();
        judge(c, &refs, software)
    }

    #[test]
    fn held_only_when_every_case_held_and_the_sentence_says_so() {
        let v = of(&C, &[Verdict::Held, Verdict::Held], false);
        assert_eq!(v.verdict, Verdict::Held);
        assert!(
            v.sentence
                .starts_with("every case held (2 held, 0 not held")
        );
    }

    #[test]
    fn not_held_when_every_case_failed() {
        let v = of(&C, &[Verdict::NotHeld], false);
        assert_eq!(v.verdict, Verdict::NotHeld);
        assert!(v.sentence.contains("0 held, 1 not held"), "{}", v.sentence);
    }

    #[test]
    fn inconclusive_when_cases_disagree_or_one_is_undecided() {
        let v = of(&C, &[Verdict::Held, Verdict::NotHeld], false);
        assert_eq!(v.verdict, Verdict::Inconclusive);
        assert!(v.sentence.starts_with("the cases disagree"));
        let v = of(&C, &[Verdict::Held, Verdict::Inconclusive], false);
        assert_eq!(v.verdict, Verdict::Inconclusive);
        assert!(v.sentence.starts_with("a case is undecided"));
    }

    #[test]
    fn not_testable_by_scope_or_by_its_cases_not_tested_when_nothing_ran() {
        let gpu = Claim {
            scope: Scope::GpuVsCpu,
            ..C
        };
        let v = of(&gpu, &[], true);
        assert_eq!(v.verdict, Verdict::NotTestable);
        assert!(v.sentence.contains(NEEDS_GPU));
        // On a hardware device the same claim with no case is not tested, and says why: its
        // inputs were not in this run, or it has no rule to find its cases by.
        let v = of(&gpu, &[], false);
        assert_eq!(v.verdict, Verdict::NotTested);
        assert!(v.sentence.contains("none of its inputs"), "{}", v.sentence);
        let v = of(&Claim { cases: &[], ..gpu }, &[], false);
        assert!(v.sentence.contains("no rule"), "{}", v.sentence);
        let v = of(&C, &[Verdict::NotTestable], true);
        assert_eq!(v.verdict, Verdict::NotTestable);
        let never = Claim {
            scope: Scope::Never("two hosts"),
            ..C
        };
        let v = of(&never, &[Verdict::Held], false);
        assert_eq!(
            (v.verdict, v.sentence.as_str()),
            (Verdict::NotTestable, "needs two hosts")
        );
    }

    #[test]
    fn the_forest_draws_every_statistic_of_a_case_and_a_count_at_its_threshold() {
        let p = |median: f64, threshold: f64, at_least: bool| super::super::finding::Point {
            median,
            lo: median,
            hi: median,
            threshold,
            at_least,
            paper: None,
            band: None,
            between: 0.0,
        };
        // A verdict on two ratios (each ≥ 1 held): two dots, oriented; an exact count equal
        // to its threshold of 0 sits on the line.
        let pairs = Finding::new("t", "x, pairs")
            .verdict(Verdict::Held)
            .points(vec![p(2.0, 1.0, true), p(0.5, 1.0, true)]);
        let mut count = Finding::new("t", "x, count").exact("|a − b|", 0.0, 0.0, false);
        count.why.clear();
        let rows = forest_rows("k", &[C], &[pairs, count], false);
        let cases: Vec<f64> = rows[0].cases.iter().map(|c| c.0).collect();
        assert_eq!(cases, [2.0, 0.5, 1.0]);
    }

    #[test]
    fn cases_match_by_their_opening_words_and_clip_marks_its_cut() {
        let fs = [Finding::new("t", "x, 2"), Finding::new("t", "y")];
        assert_eq!(cases_of(&C, &fs).len(), 1);
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
    }
}
