//! The paper's claims about Fig. 11 as findings, each with a verdict and its numbers taken
//! from this run's rows, qualified by the device:
//! - "CR is considerably faster than Thomas" (abstract) — [`cr_vs_thomas`];
//! - "CR beats CG with 2 iterations" and "for 256×256, CG on the GPU gains nothing over the
//!   CPU" (§4, Fig. 11) — [`claims`];
//! - for Fig. 14's "the simulation results follow Fig. 11": [`Fig11Times::from_table`] reads
//!   Fig. 11's verified times back and [`same_order`] compares two rankings of solvers.

use crate::report::{Finding, Point, Status, Table, Value, Verdict};
use crate::runner::Session;
use crate::stats::Estimate;

/// The verified times of one grid of Fig. 11.
#[derive(Clone, Debug, PartialEq)]
pub struct Fig11Times {
    pub grid: u32,
    /// Single-threaded CPU Thomas in f32 on host data.
    pub thomas_ms: f64,
    /// `(solver name, ms, beyond the paper)` of every verified GL solver.
    pub solvers: Vec<(String, f64, bool)>,
    /// `(solver name, time, × Thomas)` with their 95 % intervals, where the row has them
    /// (the × Thomas from rounds with CPU Thomas: paired).
    pub estimates: Vec<(String, Estimate, Option<Estimate>)>,
}

impl Fig11Times {
    pub fn new(grid: u32, thomas_ms: f64) -> Fig11Times {
        Fig11Times {
            grid,
            thomas_ms,
            solvers: vec![],
            estimates: vec![],
        }
    }
    /// Records `name`'s time and × Thomas with their intervals.
    pub fn push_est(&mut self, name: &str, time: Option<Estimate>, ratio: Option<Estimate>) {
        if let Some(t) = time {
            self.estimates.push((name.to_string(), t, ratio));
        }
    }
    /// `name`'s time with its interval.
    pub fn time_est(&self, name: &str) -> Option<&Estimate> {
        self.estimates.iter().find(|e| e.0 == name).map(|e| &e.1)
    }
    /// `name`'s × Thomas with its interval (paired), else the ratio of the medians.
    pub fn ratio_est(&self, name: &str) -> Option<Estimate> {
        self.estimates
            .iter()
            .find(|e| e.0 == name)
            .and_then(|e| e.2.clone())
            .or_else(|| {
                self.get(name)
                    .map(|ms| Estimate::exact(ms / self.thomas_ms))
            })
    }
    pub fn push(&mut self, name: &str, ms: f64, beyond: bool) {
        self.solvers.push((name.to_string(), ms, beyond));
    }
    /// The time of the solver called `name`.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.solvers.iter().find(|s| s.0 == name).map(|s| s.1)
    }
    /// The faster of the paper's fragment CRs (copy, switch): `(name, ms)`.
    pub fn best_fragment_cr(&self) -> Option<(&str, f64)> {
        self.fastest(|n, beyond| !beyond && n.starts_with("CR fragment"))
    }
    /// The fastest solver whose `(name, beyond)` passes `keep`.
    pub fn fastest(&self, keep: impl Fn(&str, bool) -> bool) -> Option<(&str, f64)> {
        self.solvers
            .iter()
            .filter(|s| keep(&s.0, s.2))
            .map(|s| (s.0.as_str(), s.1))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Fig. 11's verified rows, per grid, from its table (e.g. `fig11.json` of a run).
    pub fn from_table(t: &Table) -> Vec<Fig11Times> {
        let (g, s, ms, b) = (
            t.col("grid"),
            t.col("solver"),
            t.col("time"),
            t.col("beyond the paper"),
        );
        let rc = t.col(super::rows::RATIO);
        let mut out: Vec<Fig11Times> = vec![];
        for r in t
            .rows
            .iter()
            .filter(|r| matches!(r.status, Status::Verified { .. }))
        {
            let text = |i: usize| match &r.values[i] {
                Value::Text(v) => v.clone(),
                _ => String::new(),
            };
            let (Some(grid), Some(time)) = (
                text(g)
                    .split('×')
                    .next()
                    .and_then(|v| v.parse::<u32>().ok()),
                r.values[ms].as_f64(),
            ) else {
                continue;
            };
            let name = text(s);
            if out.last().is_none_or(|l| l.grid != grid) {
                out.push(Fig11Times::new(grid, f64::NAN));
            }
            let last = out.last_mut().expect("pushed above");
            match name.as_str() {
                "Thomas CPU f32" => last.thomas_ms = time,
                n if n.starts_with("Thomas via") => {}
                n => {
                    last.push(n, time, !text(b).is_empty());
                    last.push_est(
                        n,
                        r.values[ms].estimate().cloned(),
                        r.values[rc].estimate().cloned(),
                    );
                }
            }
        }
        out
    }
}

/// The bound sentence of Fig. 11 solvers `names` at grid `g` (their rows' 'of bound'), with a
/// leading space; empty without bounds.
fn bounds(s: &Session, g: u32, names: &[&str]) -> String {
    let keys: Vec<String> = names.iter().map(|n| format!("{g}×{g} {n}")).collect();
    let sides: Vec<(&str, &str, &str)> = names
        .iter()
        .zip(&keys)
        .map(|(n, k)| (*n, "fig11", k.as_str()))
        .collect();
    crate::papers::bounds::against_bounds(s, &sides)
        .map(|t| format!(" {t}"))
        .unwrap_or_default()
}

/// What the device is, for a verdict about speed.
fn device_words(s: &Session) -> String {
    let info = s.gl.info();
    if info.software {
        format!(
            "on {}, a software rasterizer: the \"GPU\" passes run on the same CPU cores as \
             Thomas, so this compares the algorithms on one processor, not a GPU with a CPU \
             (the paper: GeForce 6800 against a Pentium IV 3.0 GHz)",
            info.renderer
        )
    } else {
        format!("on {} against one core of {}", info.renderer, info.cpu)
    }
}

/// The abstract's "CR is considerably faster than Thomas", at every grid of the run.
pub fn cr_vs_thomas(s: &Session, all: &[Fig11Times]) {
    for t in all {
        let g = t.grid;
        let f = Finding::new(
            "fig11",
            format!("CR is considerably faster than Thomas (abstract), {g}×{g}"),
        )
        .paper("faster (Fig. 11's bars; no number printed)");
        let Some((cr, cr_ms)) = t.best_fragment_cr() else {
            s.finding(f.why("no verified fragment CR row in this run"));
            continue;
        };
        let Some(r) = t.ratio_est(cr) else {
            s.finding(f.why("no ratio to Thomas for the fragment CR"));
            continue;
        };
        let any = t
            .fastest(|_, _| true)
            .map(|(n, ms)| {
                let x = t
                    .ratio_est(n)
                    .map(|r| format!(" ({:.2}× Thomas, the paired ratio's median)", r.median))
                    .unwrap_or_default();
                format!(" The fastest verified GL solver of any kind is {n} at {ms:.2} ms{x}.")
            })
            .unwrap_or_default();
        s.finding(
            f.judge(&format!("{cr} time / Thomas time"), &r, 1.0, false)
                .why(format!(
                    "Held when the whole 95 % interval of the paired per-round ratio (the CR \
                     and CPU Thomas timed interleaved) lies at or below 1; not held when it \
                     lies wholly above; else inconclusive. Medians: {cr} {cr_ms:.2} ms, Thomas \
                     {:.2} ms; {}.{any}{}",
                    t.thomas_ms,
                    device_words(s),
                    bounds(s, g, &[cr])
                ))
                .gpu_vs_cpu(s.gl.info().software),
        );
    }
}

/// Fig. 11's two claims at one grid.
pub(super) fn claims(s: &Session, t: &Fig11Times) {
    let g = t.grid;
    let Some((cr, cr_ms)) = t.best_fragment_cr() else {
        return;
    };
    for packing in ["scalar", "RGBA"] {
        let cg_name = format!("CG fragment {packing} n=2");
        if let Some(cg2) = t.get(&cg_name) {
            s.finding(
                Finding::new(
                    "fig11",
                    format!("CR beats CG with 2 iterations (Fig. 11), {g}×{g}, {packing} CG"),
                )
                .paper("CR faster (Fig. 11's bars)")
                .ours(match (t.time_est(cr), t.time_est(&cg_name)) {
                    (Some(a), Some(b)) => format!(
                        "{cr} {:.2} ms [{:.2}, {:.2}], CG n=2 {:.2} ms [{:.2}, {:.2}]",
                        a.median, a.lo, a.hi, b.median, b.lo, b.hi
                    ),
                    _ => format!("{cr} {cr_ms:.2} ms, CG n=2 {cg2:.2} ms"),
                })
                .verdict(faster(t.time_est(cr), t.time_est(&cg_name), cr_ms < cg2))
                .threshold("CR's time interval wholly below CG n=2's (95 % intervals)")
                .point(separation(t.time_est(cr), t.time_est(&cg_name)))
                .why(format!(
                    "Held / not held only where the two 95 % intervals of the times separate, \
                     else inconclusive; {}.{}",
                    device_words(s),
                    bounds(s, g, &[cr, &cg_name])
                )),
            );
        }
    }
    if g <= 256
        && let Some((cg, cg_ms)) = t.fastest(|n, _| n.starts_with("CG") && n.ends_with("n=1"))
    {
        s.finding(
            Finding::new(
                "fig11",
                format!("for 256×256, CG on the GPU gains nothing over the CPU (Fig. 11), {g}×{g}"),
            )
            .paper("GPU CG no faster than CPU Thomas (Fig. 11's bars)")
            .judge(
                &format!("{cg} time / Thomas time"),
                &t.ratio_est(cg)
                    .unwrap_or(Estimate::exact(cg_ms / t.thomas_ms)),
                1.0,
                true,
            )
            .why(format!(
                "Even one iteration is compared with the whole CPU solve (the two timed \
                 interleaved, the paired per-round ratio's 95 % interval; medians {cg_ms:.2} \
                 ms against Thomas {:.2} ms), {}.{}",
                t.thomas_ms,
                device_words(s),
                bounds(s, g, &[cg])
            ))
            .gpu_vs_cpu(s.gl.info().software),
        );
    }
}

/// The rule "`a`'s interval wholly below `b`'s" as one statistic for the forest plot:
/// `a / b` of the medians, between `a.lo / b.hi` and `a.hi / b.lo`, against 1 from below —
/// its upper end is below 1 exactly when `a.hi < b.lo` (held), its lower end above 1 exactly
/// when `a.lo > b.hi` (not held).
fn separation(a: Option<&Estimate>, b: Option<&Estimate>) -> Option<Point> {
    let (a, b) = (a?, b?);
    (b.median > 0.0 && b.lo > 0.0 && b.hi > 0.0).then(|| Point {
        median: a.median / b.median,
        lo: a.lo / b.hi,
        hi: a.hi / b.lo,
        threshold: 1.0,
        at_least: false,
        paper: None,
        band: None,
        between: a.between.hypot(b.between),
    })
}

/// `a` faster than `b` by their 95 % intervals: held where `a`'s lies wholly below `b`'s,
/// not held where wholly above, else inconclusive; without intervals, `by_median`.
fn faster(a: Option<&Estimate>, b: Option<&Estimate>, by_median: bool) -> Verdict {
    match (a, b) {
        (Some(a), Some(b)) => match crate::stats::separated(a.interval(), b.interval()) {
            Some(std::cmp::Ordering::Less) => Verdict::Held,
            Some(_) => Verdict::NotHeld,
            None => Verdict::Inconclusive,
        },
        _ => Verdict::of(by_median),
    }
}

/// Whether two measurements rank the solvers they share in the same order (lower value =
/// faster: pass times, or 1/FPS). `None` when they share fewer than two solvers; else the
/// verdict and both orders written out, e.g. for Fig. 14's "the simulation results follow
/// Fig. 11".
pub fn same_order(a: &[(String, f64)], b: &[(String, f64)]) -> Option<(bool, String)> {
    let common: Vec<&String> = a
        .iter()
        .map(|x| &x.0)
        .filter(|n| b.iter().any(|y| &y.0 == *n))
        .collect();
    if common.len() < 2 {
        return None;
    }
    let order = |v: &[(String, f64)]| -> Vec<(String, f64)> {
        let mut o: Vec<(String, f64)> = v
            .iter()
            .filter(|x| common.contains(&&x.0))
            .map(|x| (x.0.clone(), x.1))
            .collect();
        o.sort_by(|x, y| x.1.total_cmp(&y.1));
        o
    };
    let (oa, ob) = (order(a), order(b));
    let same = oa.iter().zip(&ob).all(|(x, y)| x.0 == y.0);
    let show = |o: &[(String, f64)]| {
        o.iter()
            .map(|x| x.0.as_str())
            .collect::<Vec<_>>()
            .join(" < ")
    };
    Some((same, format!("{} | {}", show(&oa), show(&ob))))
}
