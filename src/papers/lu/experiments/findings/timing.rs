//! Findings 1 and 2 (table4's timings of the eight configurations, paired by round) and the
//! performance notes beside them.

use crate::gl::PingPongMethod;
use crate::report::{Finding, Point, Verdict};
use crate::runner::Session;
use crate::stats::{Decision, Estimate, decide, paired_ratio};

use super::results::{Results, show};
use crate::papers::lu::experiments::compute;
use crate::papers::lu::experiments::config::Config;
use crate::papers::lu::experiments::forms::{configs, key};
use crate::papers::lu::experiments::measured::Measured;
use crate::papers::lu::fragment::{LuInfo, Variant};

/// A part of a configuration's time over table4's rounds (A, G or T).
pub(super) type Part = fn(&Measured) -> &Estimate;

/// Finding 1 is judged held when the switch method's A is at most this fraction of the copy
/// method's, averaged over I1–I4 ("halves", with some slack).
const SWITCH_HALVES: f64 = 0.6;

impl Results<'_> {
    pub(super) fn info(&self, v: Variant, m: PingPongMethod, n: u32) -> Option<LuInfo> {
        self.measured.get(&key(n, v, m)).map(|x| x.info)
    }

    /// A's median at order `n`.
    fn a(&self, v: Variant, m: PingPongMethod, n: u32) -> Option<f64> {
        self.info(v, m, n).map(|i| i.a_ms)
    }

    /// A's samples, one per round of table4 (the eight configurations of an order pair by
    /// index).
    fn rounds(&self, v: Variant, m: PingPongMethod, n: u32) -> Option<&[f64]> {
        self.samples(|x| &x.a, v, m, n)
    }

    /// The samples of a part of the time (A, G or T, picked by `part`), one per round.
    fn samples(&self, part: Part, v: Variant, m: PingPongMethod, n: u32) -> Option<&[f64]> {
        self.measured
            .get(&key(n, v, m))
            .map(|x| part(x).samples.as_slice())
    }

    /// A(`one`) / A(`other`) at order `n`, paired by round.
    pub(super) fn paired(
        &self,
        one: (Variant, PingPongMethod),
        other: (Variant, PingPongMethod),
        n: u32,
    ) -> Option<Estimate> {
        self.paired_part(|x| &x.a, one, other, n)
    }

    /// The paired ratio of a part of the time (A, G or T, picked by `part`) of two
    /// configurations over table4's rounds.
    pub(super) fn paired_part(
        &self,
        part: Part,
        (v1, m1): (Variant, PingPongMethod),
        (v2, m2): (Variant, PingPongMethod),
        n: u32,
    ) -> Option<Estimate> {
        paired_ratio(
            self.samples(part, v1, m1, n)?,
            self.samples(part, v2, m2, n)?,
        )
    }
}

/// The order findings 1 and 2 compare all eight configurations at, timed in the same rounds:
/// the paper's own N (its Table 4's largest, where it states both findings), else — in a run
/// that did not reach it — the largest order where all eight ran, and the verdicts are
/// inconclusive (not the claim's condition).
pub(super) struct Compared {
    n: u32,
    /// The paper's N, where this run did not reach it.
    short_of: Option<u32>,
    /// Fewer rounds at `n` than a 95 % interval needs (the number of rounds).
    few_rounds: Option<usize>,
}

impl Compared {
    pub(super) fn of(r: &Results, paper_n: u32) -> Compared {
        let top = *r.sizes.last().expect("validated: sizes are not empty");
        let all_ran = |n: u32| configs().iter().all(|&(v, m)| r.a(v, m, n).is_some());
        let n = if all_ran(paper_n) {
            paper_n
        } else {
            r.sizes
                .iter()
                .copied()
                .filter(|&n| all_ran(n))
                .max()
                .unwrap_or(top)
        };
        let rounds = configs()
            .iter()
            .map(|&(v, m)| r.rounds(v, m, n).map_or(0, <[f64]>::len))
            .min()
            .unwrap_or(0);
        Compared {
            n,
            short_of: (n != paper_n).then_some(paper_n),
            few_rounds: (rounds < crate::stats::MIN_SAMPLES_FOR_CI).then_some(rounds),
        }
    }

    /// `v`, made inconclusive (with the reason) where the run is short of the paper's N or
    /// of the rounds a 95 % interval needs.
    fn few_why(&self, v: Verdict) -> (Verdict, String) {
        if v == Verdict::NotTested {
            return (v, String::new());
        }
        if let Some(p) = self.short_of {
            return (
                Verdict::Inconclusive,
                format!(
                    " Inconclusive: the paper states it at N = {p}, which this run did not \
                     reach (shown at N = {}, not the claim's condition).",
                    self.n
                ),
            );
        }
        match self.few_rounds {
            Some(k) => (
                Verdict::Inconclusive,
                format!(
                    " Inconclusive, too few rounds: N = {} ran {k} round{} of the eight \
                     configurations, a 95 % interval needs {}.",
                    self.n,
                    if k == 1 { "" } else { "s" },
                    crate::stats::MIN_SAMPLES_FOR_CI
                ),
            ),
            None => (v, String::new()),
        }
    }
}

/// Each configuration's row at order `n` against its bound (table4's 'of bound'), as a
/// sentence to append ("" where no bound is known).
fn bounds(s: &Session, n: u32) -> String {
    let keys: Vec<(String, String)> = configs()
        .into_iter()
        .map(|(v, m)| (format!("{v} {m}"), key(n, v, m)))
        .collect();
    let sides: Vec<(&str, &str, &str)> = keys
        .iter()
        .map(|k| (k.0.as_str(), "table4", k.1.as_str()))
        .collect();
    crate::papers::bounds::against_bounds(s, &sides)
        .map(|t| format!(" {t}"))
        .unwrap_or_default()
}

/// `I1 x, I2 y, …` of a value per variant (`—` where there is none).
fn list(f: &dyn Fn(Variant) -> Option<f64>) -> String {
    Variant::ALL
        .iter()
        .map(|&v| f(v).map_or(format!("{v} —"), |x| format!("{v} {x:.2}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `I1 m [lo, hi], …` of an estimate per variant.
fn list_est(f: &dyn Fn(Variant) -> Option<Estimate>) -> String {
    Variant::ALL
        .iter()
        .map(|&v| f(v).map_or(format!("{v} —"), |x| format!("{v} {}", show(&x))))
        .collect::<Vec<_>>()
        .join(", ")
}

/// (1) Switch vs copy, paired by round.
pub(super) fn finding1(s: &Session, cfg: &Config, r: &Results, c: &Compared) {
    let n = c.n;
    let p = &cfg.table4.paper;
    let (sw, cp) = (PingPongMethod::Switch, PingPongMethod::Copy);
    let paper_ratio = |v| Some(p.get(v, sw, p.top())?[0] / p.get(v, cp, p.top())?[0]);
    let ratio = |v| r.paired((v, sw), (v, cp), n);
    // The statistic: per round, the mean of the four ratios A(switch) / A(copy); its median
    // and interval over the rounds.
    let mean_per_round: Option<Estimate> = (|| {
        let per_v: Vec<(&[f64], &[f64])> = Variant::ALL
            .iter()
            .map(|&v| Some((r.rounds(v, sw, n)?, r.rounds(v, cp, n)?)))
            .collect::<Option<_>>()?;
        let k = per_v.iter().map(|(x, y)| x.len().min(y.len())).min()?;
        let means: Vec<f64> = (0..k)
            .map(|i| per_v.iter().map(|(x, y)| x[i] / y[i]).sum::<f64>() / per_v.len() as f64)
            .collect();
        crate::stats::per_round(&means)
    })();
    let f1 = Finding::new(
        "table4",
        format!("switching render targets instead of copying halves the time (finding 1), N = {n}"),
    )
    .paper(format!(
        "A(switch) / A(copy) at N = {}: {}",
        p.top(),
        list(&paper_ratio)
    ));
    let f1 = match &mean_per_round {
        None => f1.threshold(format!(
            "mean over I1–I4 of A(switch) / A(copy) ≤ {SWITCH_HALVES} (whole 95 % interval)"
        )),
        Some(e) => {
            let f = f1.judge(
                "mean over I1–I4 of A(switch) / A(copy)",
                e,
                SWITCH_HALVES,
                false,
            );
            let (v, few) = c.few_why(f.verdict);
            let ours = format!("{}; per implementation {}", f.ours, list_est(&ratio));
            f.verdict(v).ours(ours).why(few)
        }
    };
    let why = format!(
        "{} The ratios are paired: the eight configurations ran in the same rounds on the same \
         matrix, and the statistic is the per-round mean of the four ratios (median and 95 % \
         interval over the rounds); held when the whole interval is at most {SWITCH_HALVES} \
         (\"halves\", with some slack). Both methods in the paper's forms (issue 38): the \
         switch draws no texel twice, the copy copies each step's active block as Table 1 \
         counts; the labelled forms \"switch (carry)\" and \"copy (rendered only)\" stand \
         in table4.{}",
        f1.why,
        bounds(s, n),
    );
    s.finding(f1.why(why.trim_start().to_string()));
}

/// (2) CPU vs GPU branching, all four pairs, each a paired ratio.
pub(super) fn finding2(s: &Session, cfg: &Config, r: &Results, c: &Compared) {
    let n = c.n;
    let p = &cfg.table4.paper;
    let (decisions, shown, rests, points) = branch_pairs(r, n);
    let verdict = branching_verdict(&decisions);
    let (verdict, few) = c.few_why(verdict);
    let count = |want: Decision| decisions.iter().filter(|d| **d == want).count();
    let per_n = branch_by_order(r);
    s.finding(
        Finding::new(
            "table4",
            format!("CPU branching beats GPU branching for large N (finding 2), N = {n}"),
        )
        .paper(format!(
            "crossover near N = {} with the switch method",
            p.branch_crossover_n
        ))
        .ours(if decisions.is_empty() {
            "not all configurations ran".to_string()
        } else {
            format!(
                "{}: CPU branching faster on {}, slower on {}, undecided on {} of {} pairs",
                shown.join(", "),
                count(Decision::Holds),
                count(Decision::Fails),
                count(Decision::Undecided),
                decisions.len()
            )
        })
        .threshold(
            "at the paper's N, each counted paired ratio A(GPU branching) / A(CPU branching) \
             ≥ 1 (whole 95 % interval); a copy pair whose GPU branching copies less is exempt \
             (guideline 2 leaves it to the trade-off): held when all counted pairs are, not \
             held when all are below 1, else inconclusive",
        )
        .verdict(verdict)
        .why(format!(
            "Ratios > 1 mean the GPU-branching variant is slower; each is paired by round of \
             table4 (median [95 % interval]).{few} {}. By order — {}.{}",
            rests.join("; "),
            per_n.join(" | "),
            bounds(s, n),
        ))
        .points(points),
    );
}

/// Finding 2's four pairs at order `n` (GPU / CPU branching, each method): per pair its
/// decision, the ratio as shown, and what it rests on.
fn branch_pairs(r: &Results, n: u32) -> (Vec<Decision>, Vec<String>, Vec<String>, Vec<Point>) {
    let pairs = [(Variant::I1, Variant::I2), (Variant::I3, Variant::I4)];
    let mut points = vec![];
    let mut decisions = vec![];
    let mut shown = vec![];
    let mut rests = vec![];
    for m in PingPongMethod::ALL {
        for (cpu_b, gpu_b) in pairs {
            let (Some(ic), Some(ig), Some(ratio)) = (
                r.info(cpu_b, m, n),
                r.info(gpu_b, m, n),
                r.paired((gpu_b, m), (cpu_b, m), n),
            ) else {
                continue;
            };
            let d = decide(ratio.interval(), 1.0, true);
            if !counts_in_finding2(m, ic.copied_bytes, ig.copied_bytes) {
                shown.push(format!("{gpu_b}/{cpu_b} {m} {} (exempt)", show(&ratio)));
                rests.push(format!(
                    "{gpu_b}/{cpu_b} {m} exempt: {gpu_b} copies {} bytes against {cpu_b}'s {} \
                     (guideline 2: where GPU branching saves copies, the trade-off decides)",
                    ig.copied_bytes, ic.copied_bytes
                ));
                continue;
            }
            decisions.push(d);
            points.push(Point::of(&ratio, 1.0, true));
            shown.push(format!("{gpu_b}/{cpu_b} {m} {}", show(&ratio)));
            let mut why = format!(
                "{gpu_b}/{cpu_b} {m} = {} ({})",
                show(&ratio),
                match d {
                    Decision::Holds => "CPU branching faster",
                    Decision::Fails => "CPU branching slower",
                    Decision::Undecided => "interval contains 1: undecided",
                }
            );
            // The paper's forms (issue 38): the switch copies and carries nothing; the copy
            // copies each step's active block after each pass.
            why += &if m == PingPongMethod::Switch {
                " rests on the branches alone (no copies, no carried texels)".to_string()
            } else if ic.copied_bytes != ig.copied_bytes {
                format!(
                    " rests on the branches and on the copies: {} bytes for {cpu_b} vs {} for {gpu_b} (Table 1)",
                    ic.copied_bytes, ig.copied_bytes
                )
            } else {
                " rests on the branches alone plus equal copy work".to_string()
            };
            rests.push(why);
        }
    }
    (decisions, shown, rests, points)
}

/// Whether a GPU/CPU-branching pair counts in finding 2: the §4.1 guideline 2 exempts a pair
/// whose GPU-branching side copies less (I2 against I1 with the copy method), where the
/// paper leaves the choice to the trade-off between branch cost and copies saved.
pub(super) fn counts_in_finding2(m: PingPongMethod, cpu_copied: u64, gpu_copied: u64) -> bool {
    m == PingPongMethod::Switch || gpu_copied >= cpu_copied
}

/// Finding 2's verdict from its counted pairs' decisions: held when all hold, not held when
/// all fail, inconclusive otherwise, not tested when none ran.
pub(super) fn branching_verdict(decisions: &[Decision]) -> Verdict {
    if decisions.is_empty() {
        Verdict::NotTested
    } else if decisions.iter().all(|d| *d == Decision::Holds) {
        Verdict::Held
    } else if decisions.iter().all(|d| *d == Decision::Fails) {
        Verdict::NotHeld
    } else {
        Verdict::Inconclusive
    }
}

/// Finding 2's ratios I2/I1 and I4/I3 at every order, per method.
fn branch_by_order(r: &Results) -> Vec<String> {
    let mut per_n = vec![];
    for m in PingPongMethod::ALL {
        let text: Vec<String> = r
            .sizes
            .iter()
            .filter_map(|&nn| {
                let i2 = r.paired((Variant::I2, m), (Variant::I1, m), nn)?;
                let i4 = r.paired((Variant::I4, m), (Variant::I3, m), nn)?;
                Some(format!("N={nn}: I2/I1 {}, I4/I3 {}", show(&i2), show(&i4)))
            })
            .collect();
        per_n.push(format!("{m}: {}", text.join("; ")));
    }
    per_n
}

/// The paper's best configuration at its largest order, against its time.
pub(super) fn paper_best_note(s: &Session, cfg: &Config, r: &Results) {
    let p = &cfg.table4.paper;
    let sw = PingPongMethod::Switch;
    let pt = p.top();
    if let (Some(i3), Some(pa)) = (
        r.a(Variant::I3, sw, pt),
        p.get(Variant::I3, sw, pt).map(|x| x[0]),
    ) {
        s.note(format!(
            "Performance: I3 + switch at N = {pt} takes {i3:.0} ms here vs the paper's {pa} ms on the Quadro FX 3400 (ratio {:.2}: {} than the Quadro).",
            i3 / pa,
            if i3 <= pa { "faster" } else { "slower" }
        ));
    }
}

/// The fastest configuration at the top order; where its interval overlaps others' they tie,
/// and the note names them (the first in table4's order stands for them).
pub(super) fn best_note(s: &Session, r: &Results) {
    let top = *r.sizes.last().expect("validated: sizes are not empty");
    let at_top: Vec<(
        Variant,
        PingPongMethod,
        &crate::papers::lu::experiments::measured::Measured,
    )> = configs()
        .into_iter()
        .filter_map(|(v, m)| r.measured.get(&key(top, v, m)).map(|x| (v, m, x)))
        .collect();
    let pick = crate::stats::winner(
        &at_top
            .iter()
            .enumerate()
            .map(|(i, x)| (i, x.2.a.interval(), x.2.a.median))
            .collect::<Vec<_>>(),
    );
    let tied = pick
        .as_ref()
        .filter(|p| !p.clear())
        .map(|p| {
            let names: Vec<String> = p
                .tied
                .iter()
                .map(|&i| format!("{} + {}", at_top[i].0, at_top[i].1))
                .collect();
            format!(" (a tie within the 95 % intervals: {})", names.join(", "))
        })
        .unwrap_or_default();
    let best = pick.map(|p| {
        let x = &at_top[p.chosen];
        (x.0, x.1, x.2.a.median, x.2.gflops)
    });
    if let (Some((v, m, ms, gf)), Some(&(one, all))) = (best, r.cpu.get(&top)) {
        let comp = r.compute.get(&compute::key(top, false));
        s.note(format!(
            "Best fragment-shader configuration at N = {top}: {v} + {m}{tied}, {ms:.0} ms, {gf:.2} GFLOPS (Table 2 flops) — {:.3} of the speed of faer's f32 LU on one thread ({one:.1} ms) and {:.3} of faer on all threads ({all:.1} ms).{}",
            one / ms,
            all / ms,
            comp.map(|c| format!(" The compute-shader blocked LU (beyond the paper): {:.0} ms, {:.2} GFLOPS, {:.3} of faer on one thread, {:.3} on all threads.", c.0, c.1.median, one / c.0, all / c.0)).unwrap_or_default()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::papers::lu::fragment::Feed;
    use crate::papers::lu::theory::copied_bytes;

    /// The rules of findings 1 and 2, run on the paper's own Table 4 at its N (2048, from
    /// `experiments/lu.toml`), give the paper's side: a rule the original fails is wrong.
    #[test]
    fn the_rules_of_findings_1_and_2_on_the_papers_table_4_give_the_papers_side() {
        let cfg: Config = toml::from_str(include_str!("../../../../../experiments/lu.toml"))
            .expect("lu.toml parses");
        let p = &cfg.table4.paper;
        let n = p.top();
        assert_eq!(
            n, 2048,
            "the paper states findings 1 and 2 at its largest N"
        );
        let a = |v, m| p.get(v, m, n).expect("printed")[0];
        let (sw, cp) = (PingPongMethod::Switch, PingPongMethod::Copy);
        let mean = Variant::ALL
            .iter()
            .map(|&v| a(v, sw) / a(v, cp))
            .sum::<f64>()
            / 4.0;
        assert_eq!(
            decide((mean, mean), SWITCH_HALVES, false),
            Decision::Holds,
            "mean {mean}"
        );
        let mut d = vec![];
        let mut exempt = 0;
        for m in PingPongMethod::ALL {
            for (cpu, gpu) in [(Variant::I1, Variant::I2), (Variant::I3, Variant::I4)] {
                let bytes = |v| copied_bytes(v, Feed::Paper, u64::from(n), 16);
                if !counts_in_finding2(m, bytes(cpu), bytes(gpu)) {
                    exempt += 1;
                    continue;
                }
                let r = a(gpu, m) / a(cpu, m);
                d.push(decide((r, r), 1.0, true));
            }
        }
        assert_eq!(exempt, 1, "only I2/I1 with the copy method saves copies");
        assert_eq!(branching_verdict(&d), Verdict::Held, "{d:?}");
    }

    #[test]
    fn finding_2_is_inconclusive_on_mixed_pairs_and_not_tested_on_none() {
        use Decision::*;
        assert_eq!(branching_verdict(&[Holds, Fails]), Verdict::Inconclusive);
        assert_eq!(branching_verdict(&[Fails, Fails]), Verdict::NotHeld);
        assert_eq!(branching_verdict(&[]), Verdict::NotTested);
    }
}
