//! Stability as a measured property: the summary `gpgpu-repro compare A B` opens with. Two
//! runs of one commit on one machine should tell the same story; this counts where they do
//! not. Everything is read from the two runs' files.
//!
//! # What is counted
//! - **Measured values**: every numeric cell of a measured column (ours, and `+` beyond the
//!   paper) of every row both runs have. Where both cells carry a 95 % interval (a
//!   `median [lo, hi]` cell with more than one sample or a non-empty interval), the value is
//!   **stable** when the two intervals overlap (touching ends overlap; [`crate::stats::separated`]),
//!   **apart** otherwise (each apart value is listed). Also counted: both medians inside the
//!   other run's interval (a stricter reading), and, for every measured value with or without
//!   an interval, those **more than 10 % apart**: `max(|a|, |b|) / min(|a|, |b|) > 1.1` (one of
//!   them zero and the other not counts as apart) — the measure of the older compares, for
//!   continuity. Cells without an interval (older runs, counts, errors) count only there.
//! - **Verdict flips** of the findings both runs judge (matched by claim): *held ↔ not held*
//!   (a decisive flip), flips **to or from inconclusive**, and other changes (e.g. *not
//!   tested*).
//! - **Winner flips**: in the `tuning` table, per tuned kernel, the chosen row (`chosen` =
//!   `best` or `best (tie)`); in the `versus` table, per algorithm and input, the faster
//!   pipeline (the `faster` column, else the ratio legacy / compute against 1). A flip where
//!   either run calls the two rows a tie (`tie` / `best (tie)`) is a **tie flip**, counted
//!   apart from a real flip. The `versus` table's fastest variant of each pipeline (its
//!   `legacy kernel` / `compute kernel`) is compared too; that choice has no tie rule, so its
//!   changes are counted on their own.
//! - **Limiter flips**: a `limiter` cell names one limiter or several (`bandwidth ≈ fp32`);
//!   a flip is when the two runs' sets of names are disjoint; a change that keeps a name in
//!   common is counted apart.
//! - **Roof changes**: every measurement of both runs' `device.json` (`bench`), as B / A;
//!   counted when more than 10 % apart (the rule of the values above).
//!
//! # The reading
//! The summary opens with one line: **stable** when at least [`MIN_OVERLAP`] (90 %) of the
//! values with intervals in both runs overlap, no finding flipped *held ↔ not held* and every
//! winner that changed changed within a tie (issue 23's bar); else **not stable**, naming each
//! criterion missed; and a warning when either run's provenance says it was measured on a
//! noisy machine ([`super::load`]).

use std::cmp::Ordering;

use super::table::{Source, Table, Value};

/// The `tuning` table and its columns ([`crate::runner::tuning`]).
const TUNING: &str = "tuning";
const KERNEL: &str = "kernel";
const CHOSEN: &str = "chosen";
const BEST: &str = "best";
const BEST_TIE: &str = "best (tie)";
const TIE: &str = "tie";
/// The `versus` table's columns ([`crate::report::table::versus`]).
const VERSUS: &str = "versus";
const FASTER: &str = "faster";
const RATIO: &str = "legacy / compute";
const SIDES: [&str; 2] = ["legacy kernel", "compute kernel"];
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

/// The limiters a `limiter` cell names (`bandwidth ≈ fp32` → both).
fn limiter_names(s: &str) -> Vec<&str> {
    s.split('≈')
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
    let j = t.columns.iter().position(|c| c.name == column)?;
    match t.rows.get(row)?.values.get(j)? {
        Value::Text(s) => Some(s),
        _ => None,
    }
}

fn num_of(t: &Table, row: usize, column: &str) -> Option<f64> {
    let j = t.columns.iter().position(|c| c.name == column)?;
    t.rows.get(row)?.values.get(j)?.as_f64()
}

fn short(x: f64) -> String {
    format!("{x:.3e}")
        .parse::<f64>()
        .map(|r| format!("{r}"))
        .unwrap_or_default()
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        "—".into()
    } else {
        format!("{:.1} %", 100.0 * n as f64 / of as f64)
    }
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
        let (na, nb) = (limiter_names(a), limiter_names(b));
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
                    && matches!(text_of(t, i, CHOSEN), Some(BEST) | Some(BEST_TIE))
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
            // A tie in A: B's winner tied with A's; a tie in B: A's winner tied with B's.
            if (tied(a, kb) && tied(a, ka)) || (tied(b, ka) && tied(b, kb)) {
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
                Ordering::Equal => TIE.into(),
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
                    if fa == TIE || fb == TIE {
                        self.tie_flips.push(line);
                    } else {
                        self.winner_flips.push(line);
                    }
                }
            }
            for side in SIDES {
                if let (Some(va), Some(vb)) = (text_of(a, ia, side), text_of(b, ib, side)) {
                    self.variants += 1;
                    if va != vb {
                        self.variant_changes.push(format!(
                            "`{paper}/{VERSUS}` {}, {side}: `{va}` → `{vb}`",
                            row.key
                        ));
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

    /// Roofs whose B / A is beyond ±10 %.
    pub fn roofs_moved(&self) -> usize {
        self.roofs
            .iter()
            .filter(|(_, _, a, b)| ten_percent_apart(*a, *b))
            .count()
    }

    /// The verdict on the two runs against the bar of a stable machine ([`MIN_OVERLAP`] of the
    /// values with overlapping intervals, no *held ↔ not held* flip, winners that change only
    /// within a tie), naming each criterion missed.
    pub fn reading(&self) -> String {
        let mut missed = Vec::new();
        if self.with_ci > 0 && (self.overlap as f64) < MIN_OVERLAP * self.with_ci as f64 {
            missed.push(format!(
                "{} of the values' intervals overlap (the bar: {:.0} %)",
                pct(self.overlap, self.with_ci),
                MIN_OVERLAP * 100.0
            ));
        }
        if !self.decisive.is_empty() {
            missed.push(format!(
                "{} finding(s) flipped held ↔ not held",
                self.decisive.len()
            ));
        }
        if !self.winner_flips.is_empty() {
            missed.push(format!(
                "{} winner(s) changed outside a tie",
                self.winner_flips.len()
            ));
        }
        let bar = format!(
            "at least {:.0} % of the values with overlapping 95 % intervals, no finding flipped \
             held ↔ not held, winners changed only within a tie",
            MIN_OVERLAP * 100.0
        );
        let mut s = if missed.is_empty() {
            format!("**Stable** by the bar ({bar})")
        } else {
            format!("**Not stable** by the bar ({bar}): {}", missed.join("; "))
        };
        if self.with_ci == 0 {
            s.push_str("; no value has an interval in both runs, so overlap is not judged");
        }
        s.push('.');
        if self.noisy {
            s.push_str(
                " At least one run was measured on a noisy machine (see `machine` above): \
                 other work explains much instability; compare two runs on a quiet machine.",
            );
        }
        s
    }

    /// The summary in Markdown: one table of counts, then the items behind them.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from("## Stability summary\n\n");
        s.push_str(
            "Two runs of one commit on one machine should agree: intervals that overlap, the \
             same verdicts, winners and limiters, the same roofs. What this comparison found \
             (rules: the module docs of `report::stability`; every item is listed below):\n\n",
        );
        s.push_str(&format!("{}\n\n", self.reading()));
        s.push_str("| what | count | of | share |\n|---|---:|---:|---:|\n");
        let mut line = |what: &str, n: usize, of: usize| {
            s.push_str(&format!("| {what} | {n} | {of} | {} |\n", pct(n, of)));
        };
        line(
            "measured values whose 95 % intervals overlap (of those with an interval in both runs)",
            self.overlap,
            self.with_ci,
        );
        line(
            "measured values whose intervals are apart (listed below)",
            self.apart.len(),
            self.with_ci,
        );
        line(
            "measured values with each median inside the other run's interval",
            self.inside,
            self.with_ci,
        );
        line(
            "measured values more than 10 % apart (all measured values, with or without an interval)",
            self.ten_percent,
            self.values,
        );
        line(
            "findings flipped held ↔ not held",
            self.decisive.len(),
            self.findings,
        );
        line(
            "findings flipped to or from inconclusive",
            self.inconclusive.len(),
            self.findings,
        );
        line(
            "findings changed otherwise (e.g. not tested)",
            self.other_verdicts.len(),
            self.findings,
        );
        line(
            "winners flipped (tuning choice, faster pipeline)",
            self.winner_flips.len(),
            self.winners,
        );
        line(
            "winners flipped between rows either run calls a tie",
            self.tie_flips.len(),
            self.winners,
        );
        line(
            "fastest variant of a pipeline changed (`versus`, no tie rule)",
            self.variant_changes.len(),
            self.variants,
        );
        line(
            "limiters flipped (no limiter in common)",
            self.limiter_flips.len(),
            self.limiters,
        );
        line(
            "limiters changed, one in common (e.g. bandwidth → bandwidth ≈ fp32)",
            self.limiter_changes.len(),
            self.limiters,
        );
        line(
            "roofs (`device.json`) moved more than 10 %",
            self.roofs_moved(),
            self.roofs.len(),
        );
        if self.with_ci == 0 && self.values > 0 {
            s.push_str(
                "\nNo value carries an interval in both runs (a run older than the intervals): \
                 only the 10 % count compares the values.\n",
            );
        }
        let list = |s: &mut String, title: &str, items: &[String]| {
            if items.is_empty() {
                return;
            }
            s.push_str(&format!("\n### {title} ({})\n\n", items.len()));
            for i in items {
                s.push_str(&format!("- {i}\n"));
            }
        };
        list(&mut s, "Values whose intervals are apart", &self.apart);
        list(&mut s, "Findings flipped held ↔ not held", &self.decisive);
        list(
            &mut s,
            "Findings flipped to or from inconclusive",
            &self.inconclusive,
        );
        list(&mut s, "Findings changed otherwise", &self.other_verdicts);
        list(&mut s, "Winners flipped", &self.winner_flips);
        list(&mut s, "Winners flipped within a tie", &self.tie_flips);
        list(
            &mut s,
            "Fastest variant of a pipeline changed",
            &self.variant_changes,
        );
        list(&mut s, "Limiters flipped", &self.limiter_flips);
        list(
            &mut s,
            "Limiters changed with one in common",
            &self.limiter_changes,
        );
        if !self.roofs.is_empty() {
            s.push_str(&format!(
                "\n### Roofs (`device.json`): {} of {} moved more than 10 %\n\n\
                 Those more than 10 % apart in bold.\n\n\
                 | measurement | unit | A | B | B / A |\n|---|---|---:|---:|---:|\n",
                self.roofs_moved(),
                self.roofs.len()
            ));
            for (key, unit, a, b) in &self.roofs {
                let ratio = if *a != 0.0 {
                    format!("{:.3}", b / a)
                } else {
                    "—".into()
                };
                let key = if ten_percent_apart(*a, *b) {
                    format!("**{key}**")
                } else {
                    key.clone()
                };
                s.push_str(&format!(
                    "| {key} | {unit} | {} | {} | {ratio} |\n",
                    short(*a),
                    short(*b)
                ));
            }
        }
        s
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Column;
    use crate::report::table::Row;
    use crate::stats::Estimate;

    fn est(median: f64, lo: f64, hi: f64) -> Value {
        Value::Est(Estimate {
            median,
            lo,
            hi,
            n: 9,
            ..Estimate::default()
        })
    }

    #[test]
    fn values_overlap_apart_and_ten_percent() {
        let mut s = Summary::default();
        s.value("x", &est(1.0, 0.9, 1.1), &est(1.05, 1.0, 1.2)); // overlap, inside
        s.value("y", &est(1.0, 0.9, 1.1), &est(1.15, 1.1, 1.3)); // touching: overlap, apart >10 %
        s.value("z", &est(1.0, 0.95, 1.05), &est(2.0, 1.9, 2.1)); // apart
        s.value("w", &Value::Num(1.0), &Value::Num(1.2)); // no interval, 20 % apart
        s.value("t", &Value::Text("a".into()), &Value::Num(1.0)); // not a pair of numbers
        assert_eq!((s.values, s.with_ci, s.overlap, s.inside), (4, 3, 2, 1));
        assert_eq!(s.ten_percent, 3);
        assert_eq!(s.apart.len(), 1);
        assert!(s.apart[0].starts_with("z: A 1 [0.95, 1.05], B 2 [1.9, 2.1]"));
        // An estimate of one sample has no interval to compare.
        let one = Value::Est(Estimate::exact(1.0));
        s.value("e", &one, &one);
        assert_eq!(s.with_ci, 3);
        assert!(ten_percent_apart(0.0, 1.0) && !ten_percent_apart(0.0, 0.0));
        assert!(!ten_percent_apart(1.0, 1.1) && ten_percent_apart(-1.0, -1.2));
    }

    #[test]
    fn the_reading_names_each_criterion_missed() {
        let mut s = Summary::default();
        for i in 0..9 {
            s.value(&format!("v{i}"), &est(1.0, 0.9, 1.1), &est(1.0, 0.9, 1.1));
        }
        s.value("apart", &est(1.0, 0.9, 1.1), &est(2.0, 1.9, 2.1));
        // 9 of 10 overlap: at the bar.
        assert!(s.reading().starts_with("**Stable**"), "{}", s.reading());
        s.finding("f", "held", "not held");
        s.noisy = true;
        let r = s.reading();
        assert!(r.starts_with("**Not stable**"), "{r}");
        assert!(r.contains("1 finding(s) flipped held ↔ not held"), "{r}");
        assert!(!r.contains("overlap (the bar"), "{r}");
        assert!(r.contains("noisy machine"), "{r}");
        s.value("apart 2", &est(1.0, 0.9, 1.1), &est(2.0, 1.9, 2.1));
        assert!(
            s.reading()
                .contains("81.8 % of the values' intervals overlap")
        );
    }

    #[test]
    fn verdict_flips_are_classed() {
        let mut s = Summary::default();
        s.finding("a", "held", "not held");
        s.finding("b", "not held", "inconclusive");
        s.finding("c", "inconclusive", "held");
        s.finding("d", "not tested", "held");
        s.finding("e", "held", "held");
        assert_eq!(s.findings, 5);
        assert_eq!(
            (
                s.decisive.len(),
                s.inconclusive.len(),
                s.other_verdicts.len()
            ),
            (1, 2, 1)
        );
    }

    #[test]
    fn limiters_flip_only_when_disjoint() {
        let mut s = Summary::default();
        s.limiter("a", "bandwidth", "fp32");
        s.limiter("b", "bandwidth", "bandwidth ≈ fp32");
        s.limiter("c", "fixed cost", "fixed cost");
        s.limiter("d", "", "fp32");
        assert_eq!(s.limiters, 3);
        assert_eq!((s.limiter_flips.len(), s.limiter_changes.len()), (1, 1));
    }

    fn tuning(chosen: [&str; 3]) -> Table {
        let mut t = Table::new(
            TUNING,
            "Tuning",
            vec![Column::key(KERNEL), Column::ours(CHOSEN).text()],
        );
        for (i, c) in chosen.iter().enumerate() {
            t.rows
                .push(Row::new(format!("cr wg={i}")).text("cr").text(*c));
        }
        t
    }

    #[test]
    fn tuning_winner_flips_and_tie_flips() {
        let mut s = Summary::default();
        // A clear winner in both runs, a different row: a flip.
        s.winners("p", &tuning(["best", "", ""]), &tuning(["", "best", ""]));
        // A tie of rows 0 and 1 in A, B picks row 1: a tie flip.
        s.winners(
            "p",
            &tuning(["best (tie)", "tie", ""]),
            &tuning(["", "best", ""]),
        );
        // A tie in B that does not include A's winner: a flip.
        s.winners(
            "p",
            &tuning(["best", "", ""]),
            &tuning(["", "best (tie)", "tie"]),
        );
        // The same winner: no flip; an older run without ties reads the same way.
        s.winners("p", &tuning(["best", "", ""]), &tuning(["best", "", ""]));
        assert_eq!(s.winners, 4);
        assert_eq!(s.winner_flips.len(), 2, "{:?}", s.winner_flips);
        assert_eq!(s.tie_flips.len(), 1, "{:?}", s.tie_flips);
        assert!(s.tie_flips[0].contains("`cr wg=0` → `cr wg=1`"));
    }

    fn versus(legacy: &str, faster: Option<&str>, ratio: f64) -> Table {
        let mut cols = vec![
            Column::key("algorithm"),
            Column::ours(SIDES[0]).text(),
            Column::ours(SIDES[1]).text(),
            Column::ours(RATIO),
        ];
        if faster.is_some() {
            cols.push(Column::ours(FASTER).text());
        }
        let mut t = Table::new(VERSUS, "Versus", cols);
        let mut r = Row::new("cr @ 256")
            .text("cr")
            .text(legacy)
            .text("cr passes")
            .num(ratio);
        if let Some(f) = faster {
            r = r.text(f);
        }
        t.rows.push(r);
        t
    }

    #[test]
    fn versus_winners_from_the_faster_column_or_the_ratio() {
        let mut s = Summary::default();
        // Older runs: no `faster` column, the ratio decides.
        s.winners(
            "p",
            &versus("cr copy", None, 1.5),
            &versus("cr switch", None, 0.8),
        );
        assert_eq!(s.winner_flips.len(), 1);
        assert_eq!(s.variant_changes.len(), 1);
        s.winners(
            "p",
            &versus("cr copy", Some("tie"), 1.1),
            &versus("cr copy", Some("compute"), 1.5),
        );
        assert_eq!(s.tie_flips.len(), 1);
        assert_eq!((s.winners, s.variants), (2, 4));
    }

    #[test]
    fn roofs_read_loosely() {
        let a = r#"{"measurements": [
            {"key": "ssbo.read.f32", "unit": "GB/s", "value": 6.0},
            {"key": "fixed.draw", "unit": "µs", "value": {"median": 50.0, "lo": 40, "hi": 60}},
            {"key": "fma.compute.f64", "unit": "GFLOPS", "value": null}]}"#;
        let b = r#"{"measurements": [
            {"key": "ssbo.read.f32", "unit": "GB/s", "value": 6.3},
            {"key": "fixed.draw", "unit": "µs", "value": 22.0}]}"#;
        assert_eq!(roofs_of(a).len(), 2);
        assert!(roofs_of("not json").is_empty());
        let mut s = Summary::default();
        s.roofs(a, b);
        assert_eq!(s.roofs.len(), 2);
        assert_eq!(s.roofs_moved(), 1);
        let md = s.to_markdown();
        assert!(
            md.contains("| **fixed.draw** | µs | 50 | 22 | 0.440 |"),
            "{md}"
        );
    }
}
