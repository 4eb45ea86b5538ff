//! Findings 1 and 2 (table4's timings of the eight configurations, paired by round) and the
//! performance notes beside them.

use crate::gl::PingPongMethod;
use crate::report::{Finding, Verdict};
use crate::runner::Session;
use crate::stats::{Decision, Estimate, decide, paired_ratio};

use super::{Results, show};
use crate::papers::lu::experiments::{Config, compute, configs, key};
use crate::papers::lu::{LuInfo, Variant};

/// Finding 1 is judged held when the switch method's A is at most this fraction of the copy
/// method's, averaged over I1–I4 ("halves", with some slack).
const SWITCH_HALVES: f64 = 0.6;

impl Results<'_> {
    fn info(&self, v: Variant, m: PingPongMethod, n: u32) -> Option<LuInfo> {
        self.measured.get(&key(n, v, m)).map(|x| x.info)
    }

    /// A's median at order `n`.
    fn a(&self, v: Variant, m: PingPongMethod, n: u32) -> Option<f64> {
        self.info(v, m, n).map(|i| i.a_ms)
    }

    /// A's samples, one per round of table4 (the eight configurations of an order pair by
    /// index).
    fn rounds(&self, v: Variant, m: PingPongMethod, n: u32) -> Option<&[f64]> {
        self.measured
            .get(&key(n, v, m))
            .map(|x| x.a.samples.as_slice())
    }

    /// A(`one`) / A(`other`) at order `n`, paired by round.
    fn paired(
        &self,
        (v1, m1): (Variant, PingPongMethod),
        (v2, m2): (Variant, PingPongMethod),
        n: u32,
    ) -> Option<Estimate> {
        paired_ratio(self.rounds(v1, m1, n)?, self.rounds(v2, m2, n)?)
    }
}

/// The order findings 1 and 2 compare all eight configurations at, timed in the same rounds.
pub(super) struct Compared {
    n: u32,
    /// No order had all eight with enough rounds for a 95 % interval.
    few_rounds: bool,
}

impl Compared {
    /// The largest order where all ran with enough rounds for a 95 % interval (else the
    /// largest where all ran, and the verdicts are inconclusive).
    pub(super) fn of(r: &Results) -> Compared {
        let top = *r.sizes.last().expect("validated: sizes are not empty");
        let all_ran = |n: u32| configs().iter().all(|&(v, m)| r.a(v, m, n).is_some());
        let with_ci = |n: u32| {
            configs().iter().all(|&(v, m)| {
                r.rounds(v, m, n)
                    .is_some_and(|x| x.len() >= crate::stats::MIN_SAMPLES_FOR_CI)
            })
        };
        let n_ci = r
            .sizes
            .iter()
            .copied()
            .filter(|&n| all_ran(n) && with_ci(n))
            .max();
        let n = n_ci
            .or_else(|| r.sizes.iter().copied().filter(|&n| all_ran(n)).max())
            .unwrap_or(top);
        Compared {
            n,
            few_rounds: n_ci.is_none(),
        }
    }

    /// `v`, made inconclusive (with the reason) where too few rounds ran.
    fn few_why(&self, v: Verdict) -> (Verdict, String) {
        if self.few_rounds && v != Verdict::NotTested {
            (
                Verdict::Inconclusive,
                format!(
                    " Inconclusive: no order had all eight configurations timed in at least {} \
                     rounds (the fewest with a 95 % interval).",
                    crate::stats::MIN_SAMPLES_FOR_CI
                ),
            )
        } else {
            (v, String::new())
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
    crate::papers::against_bounds(s, &sides)
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
    let (decisions, shown, rests) = branch_pairs(r, n);
    let verdict = if decisions.is_empty() {
        Verdict::NotTested
    } else if decisions.iter().all(|d| *d == Decision::Holds) {
        Verdict::Held
    } else if decisions.iter().all(|d| *d == Decision::Fails) {
        Verdict::NotHeld
    } else {
        Verdict::Inconclusive
    };
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
            "each paired ratio A(GPU branching) / A(CPU branching) ≥ 1 (whole 95 % interval): \
             held when all four pairs are, not held when all four are below 1, else inconclusive",
        )
        .verdict(verdict)
        .why(format!(
            "Ratios > 1 mean the GPU-branching variant is slower; each is paired by round of \
             table4 (median [95 % interval]).{few} {}. By order — {}.{}",
            rests.join("; "),
            per_n.join(" | "),
            bounds(s, n),
        )),
    );
}

/// Finding 2's four pairs at order `n` (GPU / CPU branching, each method): per pair its
/// decision, the ratio as shown, and what it rests on.
fn branch_pairs(r: &Results, n: u32) -> (Vec<Decision>, Vec<String>, Vec<String>) {
    let pairs = [(Variant::I1, Variant::I2), (Variant::I3, Variant::I4)];
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
            decisions.push(d);
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
    (decisions, shown, rests)
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
    let at_top: Vec<(Variant, PingPongMethod, &super::Measured)> = configs()
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
            comp.map(|c| format!(" The compute-shader blocked LU (beyond the paper): {:.0} ms, {:.2} GFLOPS, {:.3} of faer on one thread, {:.3} on all threads.", c.0, c.1, one / c.0, all / c.0)).unwrap_or_default()
        ));
    }
}
