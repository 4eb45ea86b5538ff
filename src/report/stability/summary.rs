//! The summary of two runs of one commit: the verdicts, winners, limiters and values that
//! agree or differ ([`Summary`]), and the rules that judge each.

use std::cmp::Ordering;

use crate::report::table::{Source, Table, Value};

use crate::report::table::tuning::{BEST_FEW, BEST_TIE, TIE, is_chosen};
/// The `tuning` table and its columns ([`crate::report::table::tuning`]).
pub(super) use crate::report::table::tuning::{CHOSEN, KERNEL, TABLE as TUNING};
/// The `versus` table and its columns ([`crate::report::table::versus`]).
pub(super) use crate::report::table::versus::{FASTER, RATIO, TABLE as VERSUS};
use crate::report::table::versus::{FEW_RUNS, TIE as EVEN};
pub(super) const SIDES: [&str; 2] = ["legacy kernel", "compute kernel"];
const LIMITER: &str = "limiter";
/// Two values are "more than 10 % apart" beyond this ratio.
pub const APART: f64 = 1.1;
/// The share of values with intervals in both runs whose intervals should overlap on a stable
/// machine (issue 23's bar).
pub const MIN_OVERLAP: f64 = 0.9;

/// The counts of a comparison and the items behind them.
#[derive(Debug, Default)]
pub struct Summary {
    pub values: usize,
    /// Values with an interval in both runs.
    pub with_ci: usize,
    pub overlap: usize,
    /// Of `with_ci`, those whose repetitions' intervals alone overlap (the between-run term
    /// taken out: [`crate::stats::Estimate::within`]); equal to `overlap` without a term.
    pub overlap_within: usize,
    /// `|ln(b / a)|` of every value with an interval in both runs and positive medians: how
    /// far the runs moved, against the between-run terms their intervals include.
    pub moved: Vec<f64>,
    /// Both medians inside the other run's interval.
    pub inside: usize,
    /// Values more than 10 % apart (of `values`).
    pub ten_percent: usize,
    pub apart: Vec<String>,
    pub findings: usize,
    pub decisive: Vec<String>,
    pub inconclusive: Vec<String>,
    pub other_verdicts: Vec<String>,
    pub winners: usize,
    pub winner_flips: Vec<String>,
    pub tie_flips: Vec<String>,
    pub variants: usize,
    pub variant_changes: Vec<String>,
    /// Changes of a pipeline's fastest variant where the runs name one in common (`A ≈ B`).
    pub variant_tie_changes: Vec<String>,
    pub limiters: usize,
    pub limiter_flips: Vec<String>,
    pub limiter_changes: Vec<String>,
    /// `(key, unit, a, b)` of every roof both runs measured.
    pub roofs: Vec<(String, String, f64, f64)>,
    /// Either run was measured on a noisy machine (its provenance says so).
    pub noisy: bool,
}

/// An interval worth comparing: an estimate with more than one sample or a non-empty interval.
fn interval(v: &Value) -> Option<(f64, f64)> {
    v.estimate()
        .filter(|e| e.n > 1 || e.hi > e.lo)
        .map(|e| e.interval())
}

/// Whether two numbers are more than 10 % apart (see the module docs).
pub fn ten_percent_apart(a: f64, b: f64) -> bool {
    let (x, y) = (a.abs().min(b.abs()), a.abs().max(b.abs()));
    if y == 0.0 {
        return false;
    }
    x == 0.0 || y / x > APART
}

/// The names a cell joins with `≈`: the limiters of a `limiter` cell (`bandwidth ≈ fp32` →
/// both), the tied variants of a `versus` kernel cell.
fn tied_names(s: &str) -> Vec<&str> {
    s.split(crate::work::TIED.trim())
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect()
}

/// The kind of change between two verdict names.
fn verdict_class(a: &str, b: &str) -> Option<usize> {
    let decisive = |v: &str| v == "held" || v == "not held";
    if a == b {
        None
    } else if decisive(a) && decisive(b) {
        Some(0)
    } else if (a == "inconclusive" && decisive(b)) || (b == "inconclusive" && decisive(a)) {
        Some(1)
    } else {
        Some(2)
    }
}

fn text_of<'t>(t: &'t Table, row: usize, column: &str) -> Option<&'t str> {
    let j = t.find_col(column)?;
    match t.rows.get(row)?.values.get(j)? {
        Value::Text(s) => Some(s),
        _ => None,
    }
}

fn num_of(t: &Table, row: usize, column: &str) -> Option<f64> {
    let j = t.find_col(column)?;
    t.rows.get(row)?.values.get(j)?.as_f64()
}

pub(super) fn short(x: f64) -> String {
    format!("{x:.3e}")
        .parse::<f64>()
        .map(|r| format!("{r}"))
        .unwrap_or_default()
}

impl Summary {
    /// A measured cell both runs have (`what` names it for the lists).
    pub fn value(&mut self, what: &str, a: &Value, b: &Value) {
        let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else {
            return;
        };
        if !x.is_finite() || !y.is_finite() {
            return;
        }
        self.values += 1;
        if ten_percent_apart(x, y) {
            self.ten_percent += 1;
        }
        if let (Some(ia), Some(ib)) = (interval(a), interval(b)) {
            self.with_ci += 1;
            if x > 0.0 && y > 0.0 {
                self.moved.push((y / x).ln().abs());
            }
            let within = |v: &Value| v.estimate().map(|e| e.within().interval());
            if let (Some(wa), Some(wb)) = (within(a), within(b))
                && crate::stats::separated(wa, wb).is_none()
            {
                self.overlap_within += 1;
            }
            if crate::stats::separated(ia, ib).is_none() {
                self.overlap += 1;
            } else {
                self.apart.push(format!(
                    "{what}: A {} [{}, {}], B {} [{}, {}] (B / A {:.3})",
                    short(x),
                    short(ia.0),
                    short(ia.1),
                    short(y),
                    short(ib.0),
                    short(ib.1),
                    if x != 0.0 { y / x } else { f64::NAN }
                ));
            }
            let within = |v: f64, (lo, hi): (f64, f64)| lo <= v && v <= hi;
            if within(x, ib) && within(y, ia) {
                self.inside += 1;
            }
        }
    }

    /// A finding both runs judge, by the verdicts' names.
    pub fn finding(&mut self, what: &str, a: &str, b: &str) {
        self.findings += 1;
        let line = format!("{what}: {a} → {b}");
        match verdict_class(a, b) {
            Some(0) => self.decisive.push(line),
            Some(1) => self.inconclusive.push(line),
            Some(_) => self.other_verdicts.push(line),
            None => {}
        }
    }

    /// The `limiter` cells of one row in both runs.
    pub fn limiter(&mut self, what: &str, a: &str, b: &str) {
        let (na, nb) = (tied_names(a), tied_names(b));
        if na.is_empty() || nb.is_empty() {
            return;
        }
        self.limiters += 1;
        if na.iter().all(|n| !nb.contains(n)) {
            self.limiter_flips.push(format!("{what}: {a} → {b}"));
        } else if a.trim() != b.trim() {
            self.limiter_changes.push(format!("{what}: {a} → {b}"));
        }
    }

    /// The winners of a table both runs have (`tuning`, `versus`; other tables have none).
    pub fn winners(&mut self, paper: &str, a: &Table, b: &Table) {
        match a.id.as_str() {
            TUNING => self.tuning(paper, a, b),
            VERSUS => self.versus(paper, a, b),
            _ => {}
        }
    }

    fn tuning(&mut self, paper: &str, a: &Table, b: &Table) {
        // The tuned kernels, in the order of run A.
        let mut kernels: Vec<&str> = Vec::new();
        for i in 0..a.rows.len() {
            if let Some(k) = text_of(a, i, KERNEL)
                && !kernels.contains(&k)
            {
                kernels.push(k);
            }
        }
        let chosen = |t: &Table, kernel: &str| {
            (0..t.rows.len()).find(|&i| {
                text_of(t, i, KERNEL) == Some(kernel)
                    && text_of(t, i, CHOSEN).is_some_and(is_chosen)
            })
        };
        // Whether `t` calls its row `key` tied with its chosen one.
        let tied = |t: &Table, key: &str| {
            t.rows
                .iter()
                .position(|r| r.key == key)
                .and_then(|i| text_of(t, i, CHOSEN))
                .is_some_and(|c| c == TIE || c == BEST_TIE)
        };
        for k in kernels {
            let (Some(ia), Some(ib)) = (chosen(a, k), chosen(b, k)) else {
                continue;
            };
            self.winners += 1;
            let (ka, kb) = (&a.rows[ia].key, &b.rows[ib].key);
            if ka == kb {
                continue;
            }
            let line = format!("`{paper}/{TUNING}` {k}: `{ka}` → `{kb}`");
            // A tie in A: B's winner tied with A's; a tie in B: A's winner tied with B's; or
            // either choice rests on too few rounds to beat anything at 95 % (no winner
            // contradicted the other, as `versus`'s `too few runs`).
            let few = text_of(a, ia, CHOSEN) == Some(BEST_FEW)
                || text_of(b, ib, CHOSEN) == Some(BEST_FEW);
            if few || (tied(a, kb) && tied(a, ka)) || (tied(b, ka) && tied(b, kb)) {
                self.tie_flips.push(line);
            } else {
                self.winner_flips.push(line);
            }
        }
    }

    fn versus(&mut self, paper: &str, a: &Table, b: &Table) {
        // The faster pipeline of a row: its `faster` cell, else the ratio against 1.
        let faster = |t: &Table, i: usize| -> Option<String> {
            if let Some(f) = text_of(t, i, FASTER) {
                return Some(f.to_string());
            }
            let r = num_of(t, i, RATIO)?;
            Some(match r.partial_cmp(&1.0)? {
                Ordering::Greater => "compute".into(),
                Ordering::Less => "legacy".into(),
                Ordering::Equal => EVEN.into(),
            })
        };
        for (ia, row) in a.rows.iter().enumerate() {
            let Some(ib) = b.rows.iter().position(|r| r.key == row.key) else {
                continue;
            };
            if let (Some(fa), Some(fb)) = (faster(a, ia), faster(b, ib)) {
                self.winners += 1;
                if fa != fb {
                    let line = format!("`{paper}/{VERSUS}` {}: faster {fa} → {fb}", row.key);
                    // A tie, or too few runs to name a winner, in either run: no winner
                    // contradicted the other.
                    let open = |f: &str| f == EVEN || f == FEW_RUNS;
                    if open(&fa) || open(&fb) {
                        self.tie_flips.push(line);
                    } else {
                        self.winner_flips.push(line);
                    }
                }
            }
            for side in SIDES {
                if let (Some(va), Some(vb)) = (text_of(a, ia, side), text_of(b, ib, side)) {
                    self.variants += 1;
                    let line = format!("`{paper}/{VERSUS}` {}, {side}: `{va}` → `{vb}`", row.key);
                    let (na, nb) = (tied_names(va), tied_names(vb));
                    if na.iter().all(|n| !nb.contains(n)) {
                        self.variant_changes.push(line);
                    } else if va != vb {
                        self.variant_tie_changes.push(line);
                    }
                }
            }
        }
    }

    /// Every roof of both runs' `device.json` texts (see [`roofs_of`]).
    pub fn roofs(&mut self, a: &str, b: &str) {
        let (ra, rb) = (roofs_of(a), roofs_of(b));
        for (key, unit, x) in &ra {
            if let Some((_, _, y)) = rb.iter().find(|(k, _, _)| k == key) {
                self.roofs.push((key.clone(), unit.clone(), *x, *y));
            }
        }
    }

    /// Where the two runs' benches are of two states of the device: the median factor
    /// `exp(median |ln(B / A)|)` (the lower median, as every median here) over the roofs both
    /// measured, and their count, when that factor is beyond [`crate::stats::STATE_FACTOR`]
    /// (at least three roofs: one or two decide nothing). The median, so that one roof's
    /// spell does not make a state.
    pub fn two_states(&self) -> Option<(f64, usize)> {
        let mut ln: Vec<f64> = self
            .roofs
            .iter()
            .filter(|(_, _, a, b)| *a > 0.0 && *b > 0.0)
            .map(|(_, _, a, b)| (b / a).ln().abs())
            .collect();
        if ln.len() < 3 {
            return None;
        }
        ln.sort_by(f64::total_cmp);
        let n = ln.len();
        let factor = ln[crate::stats::median_index(n)].exp();
        (factor > crate::stats::STATE_FACTOR).then_some((factor, n))
    }

    /// Roofs whose B / A is beyond ±10 %.
    pub fn roofs_moved(&self) -> usize {
        self.roofs
            .iter()
            .filter(|(_, _, a, b)| ten_percent_apart(*a, *b))
            .count()
    }
}

/// The measurements of a `device.json` text as `(key, unit, value)`, read loosely so that
/// profiles of every version compare: `measurements[]` with a `key` and a `value` that is a
/// number or an object with a `median`; measurements without a value (failed) are left out.
/// An unreadable text gives none.
pub fn roofs_of(text: &str) -> Vec<(String, String, f64)> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return vec![];
    };
    let Some(ms) = v.get("measurements").and_then(|m| m.as_array()) else {
        return vec![];
    };
    ms.iter()
        .filter_map(|m| {
            let key = m.get("key")?.as_str()?.to_string();
            let unit = m
                .get("unit")
                .and_then(|u| u.as_str())
                .unwrap_or_default()
                .to_string();
            let value = m.get("value")?;
            let x = value
                .as_f64()
                .or_else(|| value.get("median").and_then(|x| x.as_f64()))?;
            x.is_finite().then_some((key, unit, x))
        })
        .collect()
}

/// Whether a column's cells are measured values the summary compares.
pub fn measured(source: Source) -> bool {
    matches!(source, Source::Ours | Source::Beyond)
}

/// Whether a column is the `limiter` column.
pub fn is_limiter(name: &str) -> bool {
    name == LIMITER
}
