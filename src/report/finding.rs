//! A paper's claim re-tested on a run, one case of it (a size, a variant): the claim in short
//! with where the paper makes it, the paper's number, ours, the verdict and what it rests on,
//! and the table the numbers come from. Findings are the cases of the claims inventories
//! ([`super::claim`]): `REPORT.md` counts claims, each paper's page lists every case in full;
//! `compare` lists the verdicts that change. Each rule type has one decision function that
//! writes the verdict and its sentence from the same numbers: [`decide`] (one side of a
//! threshold), [`decide_band`] (inside a band), [`Finding::exact`] (a count).
//!
//! **What a device can test.** A claim is of one of two kinds:
//! * about the *technique's own ratios* — switch vs copy, CPU vs GPU branching, CR vs CG on
//!   the same device, orientation, storage counts, precision: testable on every device, the
//!   software rasterizers included (both sides run on the same processor either way);
//! * about a *GPU against a CPU* — "CR is considerably faster than Thomas", "the GPU is far
//!   faster than the CPU": on a software rasterizer (llvmpipe, softpipe) the "GPU" passes
//!   run on the same CPU cores as the CPU side, so the run cannot refute or confirm the
//!   claim. [`Finding::gpu_vs_cpu`] marks such a finding *not testable here* on those
//!   devices; its numbers are still shown, with what they alone would read.

use serde::{Deserialize, Serialize};

/// Whether this run bears the claim out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Held,
    NotHeld,
    /// The run cannot decide (e.g. both sides implementation-bound, or too close to call).
    Inconclusive,
    /// The rows the claim needs were not run or did not verify.
    NotTested,
    /// The claim compares a GPU with a CPU and this device is a software rasterizer (its
    /// "GPU" is the CPU): the numbers are shown, no verdict is drawn ([`Finding::gpu_vs_cpu`]).
    NotTestable,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Held => "held",
            Verdict::NotHeld => "not held",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotTested => "not tested",
            Verdict::NotTestable => "not testable here",
        }
    }

    /// `Held` when `held`, else `NotHeld`.
    pub fn of(held: bool) -> Verdict {
        if held {
            Verdict::Held
        } else {
            Verdict::NotHeld
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One claim of a paper, judged on this run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The claim in the paper's words, short, with where it is made: "CR is considerably
    /// faster than Thomas (abstract)".
    pub claim: String,
    /// The paper's number for it (from the experiment file), or "—".
    pub paper: String,
    /// Ours, from this run's rows.
    pub ours: String,
    pub verdict: Verdict,
    /// What the verdict rests on and what qualifies it (the device, the bound).
    pub why: String,
    /// The rule the verdict applies, e.g. "CR / Thomas ≤ 1 (the whole 95 % interval)".
    #[serde(default)]
    pub threshold: String,
    /// The table the numbers come from (its id in the paper's folder).
    pub table: String,
    /// The statistic the verdict rests on, as numbers (the claims' forest plot); set by
    /// [`Finding::judge`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<Point>,
    /// A verdict that rests on several statistics at once (every one must hold: LU finding
    /// 2's pairs) has each here, one dot each in the forest plot; `point` is then unset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<Point>,
}

/// A verdict's statistic as numbers: ours with its 95 % interval, the rule's threshold and
/// side, and the paper's value of the same statistic where it printed one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub median: f64,
    pub lo: f64,
    pub hi: f64,
    pub threshold: f64,
    /// The claim holds at or above the threshold (else at or below).
    pub at_least: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<f64>,
    /// A band rule's band `[lo, hi]` ([`Finding::judge_band`]; `threshold` is then its nearer
    /// end), so that the article can set the band's width against the statistic's spread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<[f64; 2]>,
    /// The between-run half-width (log units) the statistic's interval includes
    /// ([`crate::stats::Estimate::between`]; 0 for a paired or exact statistic).
    #[serde(default, skip_serializing_if = "crate::stats::is_zero")]
    pub between: f64,
}

impl Point {
    /// `stat` (its median and 95 % interval) against `threshold` on the claim's side
    /// (`at_least`), without the paper's value.
    pub fn of(stat: &crate::stats::Estimate, threshold: f64, at_least: bool) -> Point {
        Point {
            median: stat.median,
            lo: stat.lo,
            hi: stat.hi,
            threshold,
            at_least,
            paper: None,
            band: None,
            between: stat.between,
        }
    }

    /// An exact value (a count, a ratio of exact distances) against `threshold`: no
    /// interval, so its dot has no whiskers.
    pub fn exact(value: f64, threshold: f64, at_least: bool) -> Point {
        Point {
            median: value,
            lo: value,
            hi: value,
            threshold,
            at_least,
            paper: None,
            band: None,
            between: 0.0,
        }
    }
}

impl Finding {
    /// A finding whose numbers come from `table`.
    pub fn new(table: &str, claim: impl Into<String>) -> Finding {
        Finding {
            claim: claim.into(),
            paper: "—".into(),
            ours: "—".into(),
            verdict: Verdict::NotTested,
            why: String::new(),
            threshold: String::new(),
            table: table.into(),
            point: None,
            points: Vec::new(),
        }
    }

    /// The rule the verdict applies (the findings table prints it).
    pub fn threshold(mut self, v: impl Into<String>) -> Finding {
        self.threshold = v.into();
        self
    }

    /// Judges the claim "`stat` ≥ `threshold`" (`at_least`; else "≤") on the statistic's
    /// 95 % interval ([`crate::stats::decide`]): *held* when the whole interval is on the
    /// claim's side, *not held* when the whole interval is on the other side, *inconclusive*
    /// when it contains the threshold — and *inconclusive* too when the statistic rests on
    /// fewer runs than a 95 % interval needs ([`crate::stats::Estimate::has_ci`]: a single run
    /// never decides a claim). Sets the verdict, `ours` (`median [lo, hi]`, `name`
    /// first) and the threshold (`name ≥ threshold`).
    pub fn judge(
        self,
        name: &str,
        stat: &crate::stats::Estimate,
        threshold: f64,
        at_least: bool,
    ) -> Finding {
        let (verdict, sentence) = decide(name, stat, threshold, at_least);
        let v =
            |x: f64| super::table::value::Value::Num(x).render(crate::report::table::Fmt::Sig(3));
        let ours = if stat.hi > stat.lo {
            format!(
                "{name} = {} [{}, {}]",
                v(stat.median),
                v(stat.lo),
                v(stat.hi)
            )
        } else {
            format!("{name} = {}", v(stat.median))
        };
        let op = if at_least { "≥" } else { "≤" };
        let mut f = self;
        f.point = Some(Point::of(stat, threshold, at_least));
        if f.why.is_empty() {
            f.why = sentence;
        }
        f.verdict(verdict).ours(ours).threshold(format!(
            "{name} {op} {} (whole 95 % interval)",
            v(threshold)
        ))
    }
    /// Judges a two-sided claim "`lo` ≤ `stat` ≤ `hi`" ("about as long") on the statistic's
    /// 95 % interval ([`decide_band`]); sets the verdict, its sentence (`why`), `ours`, the
    /// rule and the plotted point (against the band's nearer end).
    pub fn judge_band(
        mut self,
        name: &str,
        stat: &crate::stats::Estimate,
        band: (f64, f64),
    ) -> Finding {
        let (verdict, sentence) = decide_band(name, stat, band);
        let v =
            |x: f64| super::table::value::Value::Num(x).render(crate::report::table::Fmt::Sig(3));
        let (threshold, at_least) = if stat.median >= (band.0 * band.1).sqrt() {
            (band.1, false)
        } else {
            (band.0, true)
        };
        self.point = Some(Point {
            band: Some([band.0, band.1]),
            ..Point::of(stat, threshold, at_least)
        });
        self.why = sentence;
        self.verdict(verdict)
            .ours(format!(
                "{name} = {} [{}, {}]",
                v(stat.median),
                v(stat.lo),
                v(stat.hi)
            ))
            .threshold(format!(
                "{} ≤ {name} ≤ {} (whole 95 % interval)",
                v(band.0),
                v(band.1)
            ))
    }

    /// Judges an exact claim "`value` ≥ `threshold`" (`at_least`; else "≤") on a count
    /// (storage entries, fetches, calls): no interval, the verdict is exact — *held* or *not
    /// held* — and its sentence, `ours`, the rule and the plotted point come from the same
    /// numbers.
    pub fn exact(mut self, name: &str, value: f64, threshold: f64, at_least: bool) -> Finding {
        // A whole count as an integer, a ratio of counts to 4 significant digits.
        let v = |x: f64| {
            if x.fract() == 0.0 && x.abs() < 1e15 {
                format!("{x:.0}")
            } else {
                super::table::value::Value::Num(x).render(crate::report::table::Fmt::Sig(4))
            }
        };
        let held = if at_least {
            value >= threshold
        } else {
            value <= threshold
        };
        let (op, other) = if at_least { ("≥", "<") } else { ("≤", ">") };
        self.point = Some(Point::exact(value, threshold, at_least));
        self.why = format!(
            "Exact count: {name} = {} {} {} (no interval: nothing random in a count).",
            v(value),
            if held { op } else { other },
            v(threshold)
        );
        self.verdict(Verdict::of(held))
            .ours(format!("{name} = {} (exact)", v(value)))
            .threshold(format!("{name} {op} {} (exact)", v(threshold)))
    }

    /// The statistics a verdict rests on together ([`Finding::points`]), one dot each.
    pub fn points(mut self, points: Vec<Point>) -> Finding {
        self.points = points;
        self
    }

    /// Marks a claim about a GPU against a CPU: on a software rasterizer (`software`) the
    /// verdict becomes [`Verdict::NotTestable`], and `why` opens with the reason and what the
    /// numbers alone would read (see the module docs). Call it after the verdict and `why`
    /// are set; elsewhere it changes nothing.
    pub fn gpu_vs_cpu(mut self, software: bool) -> Finding {
        if software && self.verdict != Verdict::NotTested {
            self.why = format!(
                "Not testable on a software rasterizer: its \"GPU\" runs on the same CPU \
                 cores as the CPU side, so the run compares two algorithms on one processor, \
                 not a GPU with a CPU (the numbers alone would read: {}). {}",
                self.verdict, self.why
            );
            self.verdict = Verdict::NotTestable;
        }
        self
    }
    /// The paper's own value of the judged statistic (after [`Finding::judge`]; the forest
    /// plot marks it).
    pub fn paper_value(mut self, v: f64) -> Finding {
        if let Some(p) = self.point.as_mut() {
            p.paper = Some(v);
        }
        self
    }
    /// The judged statistic as numbers (where known), for a verdict decided by a rule of its
    /// own (e.g. two intervals that separate): the forest plot shows it.
    pub fn point(mut self, p: Option<Point>) -> Finding {
        self.point = p;
        self
    }
    pub fn paper(mut self, v: impl Into<String>) -> Finding {
        self.paper = v.into();
        self
    }
    pub fn ours(mut self, v: impl Into<String>) -> Finding {
        self.ours = v.into();
        self
    }
    pub fn verdict(mut self, v: Verdict) -> Finding {
        self.verdict = v;
        self
    }
    pub fn why(mut self, v: impl Into<String>) -> Finding {
        self.why = v.into();
        self
    }

    /// Whether `other` judges the same claim (on another run or device): the claim's words,
    /// which name the size or variant it was judged at, are its identity.
    pub fn same_claim(&self, other: &Finding) -> bool {
        self.claim == other.claim
    }

    /// The full text, for the paper's section.
    pub fn to_markdown(&self) -> String {
        let mut s = format!(
            "**{}** — **{}**. Paper: {}. Ours: {}.",
            self.claim, self.verdict, self.paper, self.ours
        );
        if !self.threshold.is_empty() {
            s.push_str(&format!(" Rule: {}.", self.threshold));
        }
        if !self.why.is_empty() {
            s.push(' ');
            s.push_str(&self.why);
        }
        s.push_str(&format!(" (table `{}`)", self.table));
        s
    }
}

/// The decision of a rule "`stat` ≥ `threshold`" (`at_least`; else "≤") on the statistic's
/// 95 % interval, with its sentence, both from the same numbers: *held* / *not held* when
/// the whole interval is on one side, *inconclusive* when it contains the threshold, and
/// *inconclusive* for too few runs when the statistic rests on fewer samples than a 95 %
/// interval needs ([`crate::stats::Estimate::has_ci`]).
pub fn decide(
    name: &str,
    stat: &crate::stats::Estimate,
    threshold: f64,
    at_least: bool,
) -> (Verdict, String) {
    use crate::stats::Decision;
    let v = |x: f64| super::table::value::Value::Num(x).render(crate::report::table::Fmt::Sig(3));
    let iv = format!("{name}'s 95 % interval [{}, {}]", v(stat.lo), v(stat.hi));
    let (op, other) = if at_least { ("≥", "<") } else { ("≤", ">") };
    let t = v(threshold);
    if !stat.has_ci() {
        let rests = match stat.n {
            0 => "rests on fewer runs than".to_string(),
            1 => "rests on 1 run,".to_string(),
            k => format!("rests on {k} runs,"),
        };
        return (
            Verdict::Inconclusive,
            format!(
                "Too few runs: {name} {rests} a 95 % interval needs {}; no verdict.",
                crate::stats::MIN_SAMPLES_FOR_CI
            ),
        );
    }
    match crate::stats::decide(stat.interval(), threshold, at_least) {
        Decision::Holds => (
            Verdict::Held,
            format!("{iv} lies wholly on the claim's side ({op} {t})."),
        ),
        Decision::Fails => (
            Verdict::NotHeld,
            format!("{iv} lies wholly on the other side ({other} {t})."),
        ),
        Decision::Undecided => (
            Verdict::Inconclusive,
            format!("{iv} contains the threshold {t}: too close to call."),
        ),
    }
}

/// The decision of a band rule "`lo` ≤ `stat` ≤ `hi`" with its sentence: *held* when the
/// whole 95 % interval is inside the band, *not held* when wholly outside it, *inconclusive*
/// when it straddles an end, and *inconclusive* for too few runs (as [`decide`]).
pub fn decide_band(
    name: &str,
    stat: &crate::stats::Estimate,
    (lo, hi): (f64, f64),
) -> (Verdict, String) {
    let v = |x: f64| super::table::value::Value::Num(x).render(crate::report::table::Fmt::Sig(3));
    let (verdict, s) = decide(name, stat, lo, true);
    if verdict == Verdict::Inconclusive && !stat.has_ci() {
        return (verdict, s);
    }
    let iv = format!("{name}'s 95 % interval [{}, {}]", v(stat.lo), v(stat.hi));
    let band = format!("[{}, {}]", v(lo), v(hi));
    if stat.lo >= lo && stat.hi <= hi {
        (
            Verdict::Held,
            format!("{iv} lies wholly inside the band {band}."),
        )
    } else if stat.hi < lo || stat.lo > hi {
        (
            Verdict::NotHeld,
            format!("{iv} lies wholly outside the band {band}."),
        )
    } else if crate::stats::band_narrower_than_spread((lo, hi), stat.between) {
        // The interval carries the between-run term on each side: no run can place it
        // inside a band narrower than that (issue 37).
        (
            Verdict::Inconclusive,
            format!(
                "{iv} straddles an end of the band {band}, which is narrower than the \
                 statistic's between-run spread (the term its interval carries on each side): \
                 no run on this device could place the interval inside it."
            ),
        )
    } else {
        (
            Verdict::Inconclusive,
            format!("{iv} straddles an end of the band {band}: too close to call."),
        )
    }
}

/// Every claim judged in any of `runs` (each a run's findings, e.g. one per device), in
/// first-seen order, with each run's finding of it ([`Finding::same_claim`]): the matching
/// `compare` and the device index's verdict table share.
pub fn by_claim<'a>(runs: &[Vec<&'a Finding>]) -> Vec<(&'a Finding, Vec<Option<&'a Finding>>)> {
    let mut out: Vec<(&Finding, Vec<Option<&Finding>>)> = Vec::new();
    for run in runs {
        for f in run {
            if !out.iter().any(|(g, _)| g.same_claim(f)) {
                let each = runs
                    .iter()
                    .map(|r| r.iter().copied().find(|g| g.same_claim(f)))
                    .collect();
                out.push((f, each));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gpu_against_cpu_claim_is_not_testable_on_a_software_rasterizer_only() {
        let held = || Finding::new("t", "the GPU is faster").verdict(Verdict::Held);
        let f = held().why("rests on a ratio").gpu_vs_cpu(true);
        assert_eq!(f.verdict, Verdict::NotTestable);
        assert!(f.why.contains("would read: held") && f.why.ends_with("rests on a ratio"));
        assert_eq!(held().gpu_vs_cpu(false).verdict, Verdict::Held);
        // A claim whose rows did not run stays not tested: there are no numbers to show.
        let untested = Finding::new("t", "c").gpu_vs_cpu(true);
        assert_eq!(untested.verdict, Verdict::NotTested);
        assert_eq!(Verdict::NotTestable.name(), "not testable here");
    }

    fn est(samples: &[f64]) -> crate::stats::Estimate {
        crate::stats::Estimate::of(samples).expect("samples")
    }

    #[test]
    fn each_verdict_and_its_sentence_come_from_the_same_interval() {
        let six = |x: f64| est(&[x, x * 1.01, x * 0.99, x * 1.02, x * 0.98, x]);
        let (v, s) = decide("r", &six(0.5), 0.6, false);
        assert_eq!(v, Verdict::Held);
        assert!(s.contains("wholly on the claim's side (≤ 0.600)"), "{s}");
        let (v, s) = decide("r", &six(0.9), 0.6, false);
        assert_eq!(v, Verdict::NotHeld);
        assert!(s.contains("wholly on the other side (> 0.600)"), "{s}");
        let (v, s) = decide("r", &est(&[0.5, 0.7, 0.55, 0.65, 0.6, 0.62]), 0.6, false);
        assert_eq!(v, Verdict::Inconclusive);
        assert!(s.contains("contains the threshold"), "{s}");
        // One run: no interval, and the sentence says so rather than "contains".
        let (v, s) = decide("r", &est(&[0.5]), 0.6, false);
        assert_eq!(v, Verdict::Inconclusive);
        assert!(
            s.starts_with("Too few runs") && !s.contains("contains"),
            "{s}"
        );
        let f = Finding::new("t", "c").judge("r", &six(0.5), 0.6, false);
        assert_eq!(f.verdict, Verdict::Held);
        assert!(f.why.contains("claim's side") && f.point.is_some());
    }

    #[test]
    fn a_band_holds_inside_fails_outside_and_needs_six_runs() {
        let six = |x: f64| est(&[x, x * 1.01, x * 0.99, x * 1.02, x * 0.98, x]);
        let band = (0.8, 1.25);
        assert_eq!(decide_band("r", &six(1.0), band).0, Verdict::Held);
        let (v, s) = decide_band("r", &six(2.0), band);
        assert_eq!(v, Verdict::NotHeld);
        assert!(s.contains("wholly outside"), "{s}");
        assert_eq!(decide_band("r", &six(1.25), band).0, Verdict::Inconclusive);
        let (v, s) = decide_band("r", &est(&[1.0, 1.0]), band);
        assert_eq!(v, Verdict::Inconclusive);
        assert!(s.starts_with("Too few runs"), "{s}");
        // A between-run term wider than the band: held is impossible, and the sentence says
        // why; a term within it leaves "too close to call".
        let (v, s) = decide_band("r", &six(1.0).widen(0.3), band);
        assert_eq!(v, Verdict::Inconclusive);
        assert!(
            s.contains("narrower than the statistic's between-run spread"),
            "{s}"
        );
        let (_, s) = decide_band("r", &six(1.25).widen(0.05), band);
        assert!(s.ends_with("too close to call."), "{s}");
    }

    #[test]
    fn an_exact_count_is_held_or_not_held_and_says_which() {
        let f = Finding::new("t", "c").exact("n", 5.0, 5.0, false);
        assert_eq!(f.verdict, Verdict::Held);
        assert!(f.why.contains("n = 5 ≤ 5"), "{}", f.why);
        let f = Finding::new("t", "c").exact("n", 6.0, 5.0, false);
        assert_eq!(f.verdict, Verdict::NotHeld);
        assert!(f.why.contains("n = 6 > 5"), "{}", f.why);
        assert_eq!(f.point.map(|p| (p.lo, p.hi)), Some((6.0, 6.0)));
    }

    #[test]
    fn claims_are_matched_across_runs_by_their_words() {
        let a = Finding::new("t", "x").verdict(Verdict::Held);
        let b = Finding::new("t", "y");
        let a2 = Finding::new("t", "x").verdict(Verdict::NotHeld);
        let m = by_claim(&[vec![&a, &b], vec![&a2]]);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].1[1].map(|f| f.verdict), Some(Verdict::NotHeld));
        assert!(m[1].1[1].is_none(), "y only in the first run");
    }
}
