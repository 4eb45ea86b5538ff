//! The between-run term: what a second run of the same commit on the same device may show,
//! which one run's repetitions cannot — the one statement of the model every timed interval
//! of the project follows.
//!
//! # Why
//! The repetitions of one row are taken within a second or so; their interval
//! ([`super::Estimate::of`]) describes the device's speed in that spell. A shared or software
//! device changes speed between minutes while its load counters stay at zero (llvmpipe on
//! two cores: the same row 2× apart in two runs back to back, each with a ±2 % interval). In
//! the terms of ISO 5725 the within-run interval is *repeatability*; a reproduction needs
//! *reproducibility*, the agreement of independent runs.
//!
//! # The measure: a reproducibility limit per group of bench rows
//! The bench makes every measurement once per pass, the passes apart in time
//! ([`crate::bench`]); for every measurement with two passes or more, each pair of passes
//! gives `dᵢ = |ln(a / b)|`, a between-spell difference of one quantity. Over a group of
//! measurements, the empirical 95th percentile of their differences (the order statistic
//! `d₍⌈0.95·n⌉₎`, no distribution assumed) is the group's **reproducibility limit** `R`: two
//! runs' values of one of its quantities differ by a factor of at most `e^R` in 95 % of
//! cases. One value's share of it is `h = R / √2`, in log units (ISO 5725-6's
//! reproducibility limit is `1.96·√2·σ_R ≈ 2.8·σ_R` for the difference of two results; one
//! result's 95 % share is `1.96·σ_R`). A group with fewer than [`MIN_PAIRS`] differences has
//! no term of its own.
//!
//! # Which passes
//! A row with three passes or more gives the pairs of its passes **less the one farthest
//! from their median** ([`crate::bench::passes::spread_passes`]; of three, the two that
//! agree best). Why: the intervals the term widens are of values robust to one spell — a
//! paper's row is the median over its rounds — while one bench pass can meet a spell in
//! either direction that no paper row sees whole: a slow spell of the shared host, or a
//! swept row whose largest common size sat in a cache in that pass (issue 36: on this
//! project's 2-core llvmpipe machine one such pass per bench set the memory terms). A spell that met two passes of three still sets it;
//! passes spread evenly give the closer pair, which can read low (half the range).
//!
//! # Per limiter, not per device
//! Different limits move differently between spells: on llvmpipe the host transfers
//! (`upload.*`, `readback.*`) and the all-CPU fixed costs move far more than the shader
//! roofs, and on a GPU whose clocks fall between passes the memory and the arithmetic roofs
//! do not fall alike. One pooled `R` for the device lets the noisiest group set every
//! interval. So the terms are kept **per limiter** ([`BetweenTerms`]): the bench's rows are
//! grouped by what they measure (each memory access kind, the memory roofs together, the FMA
//! roofs, the fixed costs, the host transfers, and the pool of every device-bound row: all
//! but the transfers and the fixed costs), each group's `R` comes from its own rows' passes
//! only, and a group with too few pairs takes the term of the group named as its fallback
//! (an access kind → the memory roofs → the device-bound pool; FMA, fixed costs, transfers →
//! the device-bound pool). Which groups there are and which rows feed them is the bench's
//! to say ([`crate::bench::DeviceProfile::between_terms`]); how they resolve is
//! [`BetweenTerms::resolve`].
//!
//! # Which interval carries which term
//! - **A timed row with a bound** (its work and the device's limits give its limiter,
//!   [`crate::work::Bound`]) carries the term of its limiter's group: a bandwidth-bound row
//!   that of the access kind setting its bound, an fp32/fp64-bound row the FMA term, a
//!   fixed-cost row the fixed-cost term; a row whose bound names a close runner-up
//!   (`bandwidth ≈ fp32`) takes the larger of the two terms, since either may set its time
//!   in another spell.
//! - **Any other timed interval** (a row without work, a time used outside a table) carries
//!   the **default** term, the device-bound pool's ([`between_run`]).
//! - **Paired ratios carry none** ([`super::paired_ratio`], [`super::per_round`]): variants
//!   timed in the same rounds (each round runs every variant once, shuffled) meet the same
//!   spell round by round, so their ratio's interval already holds what drift does to them;
//!   a between-run term would count the spell twice and turn real differences into ties.
//!   Verdicts between variants timed in the same rounds (a finding's ratio, a tuning
//!   decision: [`super::paired_winner`]) rest on the paired ratios alone.
//! - **Quantities measured apart** (legacy / compute from two tables,
//!   [`super::Estimate::ratio_unpaired`]; a fraction of a bound read from roofs the bench
//!   measured in another spell) carry both sides' terms in quadrature. A winner between two
//!   sides timed apart (`runner::versus`) must also hold in each half of their runs, a
//!   replication within the run that the terms, measured on the bench's long roofs, cannot
//!   stand in for: spells of a process hit many short passes more than one long launch.
//!
//! Every interval combines the repetitions' part and its term in quadrature on the log scale
//! (the GUM's root-sum-square of independent components):
//!
//! ```text
//! lo′ = m · exp(−√(ln(m / lo)² + h²)),    hi′ = m · exp(+√(ln(hi / m)² + h²))
//! ```
//!
//! # Two spans: the bench's minutes and the drift probes' hours
//! The bench's passes are minutes apart; a full run lasts an hour and a rerun comes hours or
//! days later. On this project's 2-core llvmpipe host two full runs of one commit an hour
//! apart moved their values by more than the bench's terms allowed (fewer intervals
//! overlapped than the stability bar asks: `figures/llvmpipe-intel-xeon-2cpu/previous.md` of
//! `36b56a9`, its summary and the terms in its `REPORT.md`): a host-wide change of
//! speed that no spell of minutes shows. The runner's drift probes ([`crate::runner`]'s
//! `drift`) re-measure a few roofs at a run's start and after its papers, the same one-pass
//! measurement each time; the probes of the run a new run replaces in its folder, and the new
//! run's start probe, are values of one roof hours apart. Their pairs are a group's **span
//! differences** ([`Group::span`]): the probes' roofs feed the groups their bench rows feed
//! (`ssbo.read.f32` the SSBO reads, the memory roofs and the device-bound pool), and a group
//! without enough probe pairs takes its fallback's span term, as with the passes. Each group
//! carries **the larger** of its two terms ([`LimiterTerm::carried`]): the reproducibility
//! limit over the longer span is at least the one over the shorter, and a probe, one quick pass,
//! adds its own noise, so the span term errs wide. The span is drift within one **state** of
//! the device, the one its bench measured: an earlier probe beyond a factor outside the range
//! the bench's passes measured for its roof (a virtual machine moved to another host keeps
//! its name and folder) is left out, and a reused bench the start probe contradicts is
//! measured afresh (`runner::drift`, "One state of the device"). A run with no earlier run in
//! its folder has one probe per roof and no span term; a quick run's two probes and the next
//! one's start make nine pairs, fewer than [`MIN_PAIRS`] even pooled, so quick runs carry the
//! bench's terms.
//!
//! The terms are the device's and the run's: set once, from the run's bench and the probes,
//! before the papers run ([`set_between_terms`]). Where the bench's passes and the probes
//! agree (a quiet dedicated GPU at steady clocks) `h` is small and the intervals stay those
//! of the repetitions.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

/// How far apart two measurements of one roof may lie (either way) and still be of one state
/// of the device. A virtual machine moved to another host, a CPU held at another frequency or
/// a GPU left at idle clocks keeps its name, and so its folder and its `device.json`, while
/// its roofs move by factors; within one state a roof's passes and probes lie well inside
/// this factor of each other, and a term of this model is of one state only. Read by the
/// run's state check (`runner::drift`, *One state of the device*) and by `compare`
/// (`report::stability`, *The reading*).
pub const STATE_FACTOR: f64 = 1.5;

/// The fewest pass pairs a term rests on; with fewer, no term is derived.
pub const MIN_PAIRS: usize = 10;

/// The quantile of the between-pass differences that is the reproducibility limit.
pub const LIMIT_QUANTILE: f64 = 0.95;

/// The between-run term of a device, from the bench's passes (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BetweenRun {
    /// `h`, added in quadrature to every timed interval's ends, in natural-log units.
    pub half_width: f64,
    /// `R`, the reproducibility limit: the 95th percentile of `|ln(a / b)|` over the pairs.
    pub limit: f64,
    /// How many pass pairs `R` rests on.
    pub pairs: usize,
}

impl BetweenRun {
    /// The term of the between-pass differences `d` (`|ln(a / b)|` of two passes of one
    /// quantity; non-finite ones ignored): `None` with fewer than [`MIN_PAIRS`].
    pub fn from_differences(d: &[f64]) -> Option<BetweenRun> {
        let mut d: Vec<f64> = d
            .iter()
            .map(|x| x.abs())
            .filter(|x| x.is_finite())
            .collect();
        if d.len() < MIN_PAIRS {
            return None;
        }
        d.sort_by(f64::total_cmp);
        let k = (LIMIT_QUANTILE * d.len() as f64).ceil() as usize; // 1-based
        let limit = d[k.clamp(1, d.len()) - 1];
        Some(BetweenRun {
            half_width: limit / std::f64::consts::SQRT_2,
            limit,
            pairs: d.len(),
        })
    }

    /// The term of every pair among each quantity's passes ([`pass_differences`]).
    pub fn from_passes<'a>(passes: impl IntoIterator<Item = &'a [f64]>) -> Option<BetweenRun> {
        Self::from_differences(&pass_differences(passes))
    }

    /// The half-width as a percentage of the median on the upper side (`e^h − 1`).
    pub fn percent(&self) -> f64 {
        100.0 * (self.half_width.exp() - 1.0)
    }

    /// One line for provenance and captions.
    pub fn describe(&self) -> String {
        format!(
            "between-run term ±{:.0} % (h = {:.3}: R/√2, R = {:.3} the 95th percentile of \
             |ln| between the bench's passes over {} pairs)",
            self.percent(),
            self.half_width,
            self.limit,
            self.pairs
        )
    }
}

/// The differences `|ln(a / b)|` of every pair among each quantity's passes (`passes[q]`
/// holds one quantity's values, one per pass; non-positive values ignored).
pub fn pass_differences<'a>(passes: impl IntoIterator<Item = &'a [f64]>) -> Vec<f64> {
    let mut d = Vec::new();
    for p in passes {
        let p: Vec<f64> = p.iter().copied().filter(|v| *v > 0.0).collect();
        for (i, a) in p.iter().enumerate() {
            d.extend(p[i + 1..].iter().map(|b| (a / b).ln().abs()));
        }
    }
    d
}

/// A group of bench rows (a limiter) whose passes give a term, before it is resolved: its
/// name, the group whose term stands in when it has too few pairs (named earlier in the
/// list), its rows' between-pass differences ([`pass_differences`]) and the differences
/// between the drift probes of its roofs (module docs: the span; empty without probes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Group {
    pub name: String,
    pub fallback: Option<String>,
    pub differences: Vec<f64>,
    pub span: Vec<f64>,
}

/// One limiter's between-run term (module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimiterTerm {
    /// The group: `bandwidth: SSBO read`, `bandwidth`, `fma`, `fixed cost`, `host transfer`,
    /// `device-bound`.
    pub limiter: String,
    /// How many pass pairs its own rows give.
    pub pairs: usize,
    /// The term its intervals carry: its own, or its fallback's; `None` when neither has
    /// enough pairs.
    pub term: Option<BetweenRun>,
    /// The group whose own term `term` is, where it is not this one's (too few pairs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The term over the drift probes' span (module docs), where there is one; absent in
    /// older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<SpanTerm>,
}

/// A group's term over the drift probes' span: its own probes' or its fallback's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpanTerm {
    /// How many probe pairs its own roofs give.
    pub pairs: usize,
    pub term: BetweenRun,
    /// Whether the term is its fallback's (too few probe pairs of its own).
    #[serde(default)]
    pub borrowed: bool,
}

impl LimiterTerm {
    /// The term its intervals carry: the larger of the bench's and the span's (module docs).
    pub fn carried(&self) -> Option<BetweenRun> {
        match (self.term, self.span.map(|s| s.term)) {
            (Some(b), Some(s)) => Some(if s.half_width > b.half_width { s } else { b }),
            (b, s) => b.or(s),
        }
    }

    /// Whether the span's term is the one carried.
    pub fn span_carried(&self) -> bool {
        self.span.is_some_and(|s| Some(s.term) == self.carried())
    }

    /// `h` of the term it carries (0 when none).
    pub fn half_width(&self) -> f64 {
        self.carried().map_or(0.0, |t| t.half_width)
    }

    /// One line: `fma: ±4 % (h = 0.039, R = 0.055 over 12 pairs)`, or with the fallback named.
    pub fn describe(&self) -> String {
        let own = match (&self.term, &self.from) {
            (None, _) => "none".to_string(),
            (Some(t), None) => format!(
                "±{:.1} % (h = {:.3}, R = {:.3} over {} pairs)",
                t.percent(),
                t.half_width,
                t.limit,
                t.pairs
            ),
            (Some(t), Some(f)) => format!(
                "±{:.1} % ({f}'s: {} of its own, fewer than {MIN_PAIRS})",
                t.percent(),
                match self.pairs {
                    1 => "1 pair".to_string(),
                    n => format!("{n} pairs"),
                }
            ),
        };
        let span = match self.span {
            None => String::new(),
            Some(s) => format!(
                "; over the drift probes ±{:.1} % (R = {:.3}, {}){}",
                s.term.percent(),
                s.term.limit,
                if s.borrowed {
                    format!("its fallback's: {} probe pairs of its own", s.pairs)
                } else {
                    format!("{} probe pairs", s.pairs)
                },
                if self.span_carried() {
                    ", the one carried"
                } else {
                    ""
                }
            ),
        };
        format!("{}: {own}{span}", self.limiter)
    }
}

/// The between-run terms of a device, per limiter (module docs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BetweenTerms {
    /// One per group, in the order resolved.
    pub terms: Vec<LimiterTerm>,
    /// The group whose term an interval with no known limiter carries.
    pub default: String,
}

impl BetweenTerms {
    /// Resolves `groups` in order: each takes its own term ([`BetweenRun::from_differences`])
    /// or, with fewer than [`MIN_PAIRS`] pairs, the term its fallback resolved to (a fallback
    /// must come earlier; an unknown one gives no term); the same for the span's differences,
    /// separately. `default` names the group of intervals with no known limiter.
    pub fn resolve(groups: &[Group], default: &str) -> BetweenTerms {
        let passes = resolve_one(groups, |g| &g.differences);
        let spans = resolve_one(groups, |g| &g.span);
        let terms = groups
            .iter()
            .zip(passes.into_iter().zip(spans))
            .map(|(g, (p, s))| LimiterTerm {
                limiter: g.name.clone(),
                pairs: p.pairs,
                term: p.term,
                from: p.from,
                span: s.term.map(|term| SpanTerm {
                    pairs: s.pairs,
                    term,
                    borrowed: s.from.is_some(),
                }),
            })
            .collect();
        BetweenTerms {
            terms,
            default: default.to_string(),
        }
    }

    /// The group called `limiter`.
    pub fn get(&self, limiter: &str) -> Option<&LimiterTerm> {
        self.terms.iter().find(|t| t.limiter == limiter)
    }

    /// The default group's term (intervals with no known limiter): the one it carries.
    pub fn default_term(&self) -> Option<BetweenRun> {
        self.get(&self.default).and_then(LimiterTerm::carried)
    }

    /// `h` of `limiter`'s term; the default's for a group that is not there.
    pub fn half_width(&self, limiter: &str) -> f64 {
        match self.get(limiter) {
            Some(t) => t.half_width(),
            None => self.default_term().map_or(0.0, |t| t.half_width),
        }
    }

    /// Whether any group has a term.
    pub fn any(&self) -> bool {
        self.terms.iter().any(|t| t.carried().is_some())
    }

    /// Whether any group's term comes from the drift probes' span.
    pub fn any_span(&self) -> bool {
        self.terms.iter().any(|t| t.span.is_some())
    }

    /// One line for provenance and captions: every group's term, `; `-separated.
    pub fn describe(&self) -> String {
        format!(
            "between-run terms per limiter (R/√2 of the 95th percentile of |ln| between the \
             bench's passes of the limiter's own rows, each row's outlier of three left out{}; \
             the default, for intervals with no limiter, is `{}`): {}",
            if self.any_span() {
                ", or between the drift probes of its roofs in the run this one replaced and \
                 at this run's start, where that is larger"
            } else {
                ""
            },
            self.default,
            self.terms
                .iter()
                .map(LimiterTerm::describe)
                .collect::<Vec<_>>()
                .join("; ")
        )
    }
}

/// One span's resolution of a group: its own pairs, the term, whose it is.
struct Resolved {
    pairs: usize,
    term: Option<BetweenRun>,
    from: Option<String>,
}

/// Resolves the differences `pick` gives of each group, in order, with the fallbacks
/// ([`BetweenTerms::resolve`]).
fn resolve_one(groups: &[Group], pick: impl Fn(&Group) -> &[f64]) -> Vec<Resolved> {
    let mut out: Vec<Resolved> = Vec::with_capacity(groups.len());
    for (i, g) in groups.iter().enumerate() {
        let d = pick(g);
        let pairs = d.iter().filter(|d| d.is_finite()).count();
        let (term, from) = match BetweenRun::from_differences(d) {
            Some(t) => (Some(t), None),
            // Too few pairs: the term the fallback (named earlier) resolved to, and whose.
            None => g
                .fallback
                .as_ref()
                .and_then(|f| groups[..i].iter().position(|e| &e.name == f))
                .filter(|&j| out[j].term.is_some())
                .map_or((None, None), |j| {
                    let f = &out[j];
                    (
                        f.term,
                        Some(f.from.clone().unwrap_or_else(|| groups[j].name.clone())),
                    )
                }),
        };
        out.push(Resolved { pairs, term, from });
    }
    out
}

thread_local! {
    static BETWEEN_TERMS: RefCell<BetweenTerms> = RefCell::new(BetweenTerms::default());
}

/// Sets the between-run terms that the timed intervals made on this thread from now on
/// include ([`between_run`], [`between_term`]); the empty default adds nothing. The runner
/// sets them once per run, from the run's bench, before the papers run (GL and its timing
/// live on one thread).
pub fn set_between_terms(terms: BetweenTerms) {
    BETWEEN_TERMS.with(|c| *c.borrow_mut() = terms);
}

/// The default half-width (log units) set on this thread: that of intervals with no known
/// limiter, which every [`crate::gl::Timing`] carries when made (0 when none is set).
pub fn between_run() -> f64 {
    BETWEEN_TERMS.with(|c| c.borrow().default_term().map_or(0.0, |t| t.half_width))
}

/// The half-width of `limiter`'s term set on this thread ([`BetweenTerms::half_width`]).
pub fn between_term(limiter: &str) -> f64 {
    BETWEEN_TERMS.with(|c| c.borrow().half_width(limiter))
}

/// `√(a² − h²)` clamped at 0: the within-run part of a combined log half-width `a`.
pub(super) fn remove_term(a: f64, h: f64) -> f64 {
    (a * a - h * h).max(0.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::super::estimate::Estimate;
    use super::*;

    #[test]
    fn the_limit_is_the_95th_percentile_order_statistic() {
        // 20 differences 0.01 … 0.20: ⌈0.95·20⌉ = 19th → 0.19.
        let d: Vec<f64> = (1..=20).map(|i| i as f64 / 100.0).collect();
        let b = BetweenRun::from_differences(&d).unwrap();
        assert!((b.limit - 0.19).abs() < 1e-12);
        assert!((b.half_width - 0.19 / 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(b.pairs, 20);
        // Signs do not matter; too few pairs give no term.
        let neg: Vec<f64> = d.iter().map(|x| -x).collect();
        assert_eq!(BetweenRun::from_differences(&neg), Some(b));
        assert_eq!(BetweenRun::from_differences(&d[..MIN_PAIRS - 1]), None);
    }

    #[test]
    fn passes_give_every_pair_of_each_quantity() {
        // Three passes of one quantity: 3 pairs; ln 2, ln 2, 0 …; two passes: 1 pair.
        let q: Vec<Vec<f64>> = (0..4)
            .map(|_| vec![1.0, 2.0, 1.0])
            .chain((0..3).map(|_| vec![5.0, 5.0]))
            .collect();
        let b = BetweenRun::from_passes(q.iter().map(Vec::as_slice)).unwrap();
        assert_eq!(b.pairs, 4 * 3 + 3);
        // 15 differences: 8 of ln 2, 7 of 0; the 15th (⌈14.25⌉) is ln 2.
        assert!((b.limit - 2f64.ln()).abs() < 1e-12);
        // One pass, or a failed (zero) value, gives no pair.
        let one = [vec![3.0], vec![0.0, 2.0]];
        assert_eq!(BetweenRun::from_passes(one.iter().map(Vec::as_slice)), None);
    }

    #[test]
    fn widening_adds_the_term_in_quadrature_on_the_log_scale() {
        // lo = m·e^−0.3, hi = m·e^0.4, h = 0.3.
        let e = Estimate::with_interval(10.0, 10.0 * (-0.3f64).exp(), 10.0 * 0.4f64.exp(), 0.96);
        let w = e.widen(0.3);
        assert!(((10.0 / w.lo).ln() - 0.18f64.sqrt()).abs() < 1e-12);
        assert!(((w.hi / 10.0).ln() - 0.5).abs() < 1e-12); // √(0.16 + 0.09)
        assert_eq!(w.median, 10.0);
        assert_eq!(w.between, 0.3);
        // Once only: a widened estimate is not widened again; 0 changes nothing.
        assert_eq!(w.widen(0.3), w);
        assert_eq!(e.widen(0.0), e);
        // The within-run part is recovered.
        assert!((w.within_rel_half_width() - (0.4f64.exp() - 1.0)).abs() < 1e-12);
        let back = w.within();
        assert!((back.lo - e.lo).abs() < 1e-12 && (back.hi - e.hi).abs() < 1e-12);
        assert_eq!(back.between, 0.0);
        // A point interval becomes ±h.
        let p = Estimate::with_interval(2.0, 2.0, 2.0, 0.96).widen(0.1);
        assert!(((p.hi / 2.0).ln() - 0.1).abs() < 1e-12 && ((2.0 / p.lo).ln() - 0.1).abs() < 1e-12);
    }

    #[test]
    fn an_unpaired_ratio_takes_both_terms_in_quadrature() {
        // a = 4 [2, 8] and b = 2 [1, 4] within; both widened by h = 0.3: the ratio's interval
        // is the within one, [2/4, 8/1] = [0.5, 8], widened by 0.3·√2.
        let a = Estimate::with_interval(4.0, 2.0, 8.0, 0.96).widen(0.3);
        let b = Estimate::with_interval(2.0, 1.0, 4.0, 0.96).widen(0.3);
        let r = Estimate::ratio_unpaired(&a, &b);
        let h = 0.3 * 2f64.sqrt();
        assert!((r.between - h).abs() < 1e-12);
        assert!(((2.0 / r.lo).ln() - (4f64.ln().powi(2) + h * h).sqrt()).abs() < 1e-12);
        assert!(((r.hi / 2.0).ln() - (4f64.ln().powi(2) + h * h).sqrt()).abs() < 1e-12);
        // Without terms: the plain conservative interval.
        let r0 = Estimate::ratio_unpaired(&a.within(), &b.within());
        assert!((r0.lo - 0.5).abs() < 1e-12 && (r0.hi - 8.0).abs() < 1e-12);
    }

    fn group(name: &str, fallback: Option<&str>, d: Vec<f64>) -> Group {
        Group {
            name: name.into(),
            fallback: fallback.map(String::from),
            differences: d,
            span: Vec::new(),
        }
    }

    /// `n` differences `step, 2·step, … n·step`: the 95th percentile is the `⌈0.95·n⌉`th.
    fn ramp(n: usize, step: f64) -> Vec<f64> {
        (1..=n).map(|i| i as f64 * step).collect()
    }

    #[test]
    fn each_limiter_takes_its_own_rows_term_or_its_fallbacks() {
        // device-bound: 20 pairs 0.01 … 0.20 → R = 0.19 (the 19th).
        // bandwidth: 10 pairs 0.001 … 0.010 → R = 0.010 (⌈9.5⌉ = 10th), its own.
        // bandwidth: SSBO read: 3 pairs → too few: bandwidth's term, named.
        // fma: 4 pairs, fallback device-bound → device-bound's.
        // host transfer: 20 pairs 0.1 … 2.0 → R = 1.9, its own, and nobody else's.
        // fixed cost: too few, no fallback → none.
        let t = BetweenTerms::resolve(
            &[
                group("device-bound", None, ramp(20, 0.01)),
                group("bandwidth", Some("device-bound"), ramp(10, 0.001)),
                group("bandwidth: SSBO read", Some("bandwidth"), ramp(3, 0.5)),
                group("fma", Some("device-bound"), ramp(4, 0.5)),
                group("host transfer", Some("device-bound"), ramp(20, 0.1)),
                group("fixed cost", None, ramp(9, 0.5)),
            ],
            "device-bound",
        );
        let r = |name: &str| t.get(name).unwrap().term.map(|b| b.limit);
        let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-12;
        assert!(close(r("device-bound"), 0.19));
        assert!(close(r("bandwidth"), 0.010));
        assert!(close(r("bandwidth: SSBO read"), 0.010));
        assert_eq!(
            t.get("bandwidth: SSBO read").unwrap().from.as_deref(),
            Some("bandwidth")
        );
        assert_eq!(t.get("bandwidth: SSBO read").unwrap().pairs, 3);
        assert!(close(r("fma"), 0.19));
        assert_eq!(t.get("fma").unwrap().from.as_deref(), Some("device-bound"));
        assert!(close(r("host transfer"), 1.9));
        assert_eq!(t.get("host transfer").unwrap().from, None);
        assert_eq!(r("fixed cost"), None);
        assert_eq!(t.half_width("fixed cost"), 0.0);
        // h = R/√2; an unknown limiter gets the default's.
        assert!((t.half_width("bandwidth") - 0.010 / 2f64.sqrt()).abs() < 1e-12);
        assert!((t.half_width("no such limiter") - 0.19 / 2f64.sqrt()).abs() < 1e-12);
        assert!((t.default_term().unwrap().limit - 0.19).abs() < 1e-12);
        // The transfers do not leak into the pool they are not part of.
        assert!(t.half_width("host transfer") > 9.0 * t.half_width("device-bound"));
    }

    #[test]
    fn a_fallback_chain_names_the_group_whose_own_term_is_used() {
        let t = BetweenTerms::resolve(
            &[
                group("pool", None, ramp(20, 0.01)),
                group("bandwidth", Some("pool"), vec![0.3]),
                group("bandwidth: copy", Some("bandwidth"), vec![0.3]),
                group("later", Some("not yet"), ramp(2, 0.1)),
            ],
            "pool",
        );
        let copy = t.get("bandwidth: copy").unwrap();
        assert_eq!(copy.from.as_deref(), Some("pool"));
        assert!((copy.term.unwrap().limit - 0.19).abs() < 1e-12);
        // A fallback that is not (yet) resolved gives none.
        assert_eq!(t.get("later").unwrap().term, None);
        assert!(t.any());
        assert!(!BetweenTerms::default().any());
        // The line names every group and the fallback.
        let line = t.describe();
        assert!(
            line.contains("bandwidth: copy: ±") && line.contains("pool's"),
            "{line}"
        );
    }

    #[test]
    fn each_group_carries_the_larger_of_its_passes_and_its_probes_span() {
        // device-bound: passes R = 0.19, probes 20 pairs 0.05 … 1.00 → R = 0.95: the span's.
        // fma: passes 20 pairs → R = 0.019, its own; no probes → device-bound's span (0.95).
        // bandwidth: passes R = 0.19 (20 pairs); probes 10 pairs 0.001 … 0.010 → R = 0.010:
        // the passes' is larger and carried.
        // fixed cost: neither has pairs, no fallback → none at all.
        let with_span = |mut g: Group, span: Vec<f64>| {
            g.span = span;
            g
        };
        let t = BetweenTerms::resolve(
            &[
                with_span(group("device-bound", None, ramp(20, 0.01)), ramp(20, 0.05)),
                group("fma", Some("device-bound"), ramp(20, 0.001)),
                with_span(
                    group("bandwidth", Some("device-bound"), ramp(20, 0.01)),
                    ramp(10, 0.001),
                ),
                group("fixed cost", None, vec![]),
            ],
            "device-bound",
        );
        let h = |r: f64| r / 2f64.sqrt();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        let dev = t.get("device-bound").unwrap();
        assert!(close(dev.term.unwrap().limit, 0.19));
        assert!(close(dev.half_width(), h(0.95)) && dev.span_carried());
        assert!(close(t.default_term().unwrap().limit, 0.95));
        let fma = t.get("fma").unwrap();
        assert!(close(fma.term.unwrap().limit, 0.019) && fma.from.is_none());
        let s = fma.span.unwrap();
        assert!(s.borrowed && s.pairs == 0 && close(s.term.limit, 0.95));
        assert!(close(t.half_width("fma"), h(0.95)));
        let bw = t.get("bandwidth").unwrap();
        assert!(close(bw.span.unwrap().term.limit, 0.010) && !bw.span.unwrap().borrowed);
        assert!(close(bw.half_width(), h(0.19)) && !bw.span_carried());
        assert_eq!(t.get("fixed cost").unwrap().carried(), None);
        assert_eq!(t.half_width("fixed cost"), 0.0);
        // The line says where the span term is carried and names the probes.
        let line = t.describe();
        assert!(
            line.contains("drift probes") && line.contains("the one carried"),
            "{line}"
        );
        // Without probes, no span anywhere: the terms of the passes alone, as before.
        let plain = BetweenTerms::resolve(
            &[group("device-bound", None, ramp(20, 0.01))],
            "device-bound",
        );
        assert!(!plain.any_span() && !plain.describe().contains("drift probes"));
    }

    #[test]
    fn pass_differences_pair_within_each_quantity_only() {
        // 1 → 2 → 4: ln 2, ln 4, ln 2; a second quantity 3, 3: 0. None across quantities.
        let q = [vec![1.0, 2.0, 4.0], vec![3.0, 3.0]];
        let mut d = pass_differences(q.iter().map(Vec::as_slice));
        d.sort_by(f64::total_cmp);
        let l2 = 2f64.ln();
        let want = [0.0, l2, l2, 2.0 * l2];
        assert_eq!(d.len(), 4);
        assert!(d.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
    }

    #[test]
    fn the_terms_are_per_thread_and_off_by_default() {
        std::thread::spawn(|| {
            assert_eq!(between_run(), 0.0);
            let t = BetweenTerms::resolve(
                &[
                    group("device-bound", None, ramp(20, 0.01)),
                    group("fma", None, ramp(20, 0.001)),
                ],
                "device-bound",
            );
            set_between_terms(t);
            assert!((between_run() - 0.19 / 2f64.sqrt()).abs() < 1e-12);
            assert!((between_term("fma") - 0.019 / 2f64.sqrt()).abs() < 1e-12);
            set_between_terms(BetweenTerms::default());
            assert_eq!(between_run(), 0.0);
        })
        .join()
        .unwrap();
        assert_eq!(between_run(), 0.0);
    }
}
