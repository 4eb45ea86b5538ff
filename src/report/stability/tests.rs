//! The summary's counters and its reading, on made-up tables.

use super::summary::{CHOSEN, FASTER, KERNEL, RATIO, SIDES, TUNING, VERSUS};
use super::*;
use crate::report::table::Row;
use crate::report::table::{Column, Table, Value};
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
fn the_between_run_term_is_counted_apart_and_the_movement_measured() {
    // Within-run intervals ±1 %, medians 20 % apart: apart alone; with h = 0.15 on both
    // sides (2h = 0.3 > ln 1.2 = 0.18) they overlap.
    let e = |m: f64| Estimate::with_interval(m, 0.99 * m, 1.01 * m, 0.96);
    let (a, b) = (e(1.0), e(1.2));
    let mut s = Summary::default();
    s.value("x", &Value::Est(a.widen(0.15)), &Value::Est(b.widen(0.15)));
    assert_eq!((s.with_ci, s.overlap, s.overlap_within), (1, 1, 0));
    s.value("y", &Value::Est(a.clone()), &Value::Est(b.clone()));
    assert_eq!((s.with_ci, s.overlap, s.overlap_within), (2, 1, 0));
    assert_eq!(s.moved.len(), 2);
    assert!((s.moved[0] - 1.2f64.ln()).abs() < 1e-12);
    let md = s.to_markdown();
    assert!(md.contains("| … whose repetitions' intervals alone overlap (the between-run term taken out) | 0 | 2 | 0.0 % |"), "{md}");
    assert!(md.contains("How far the 2 values with intervals moved between the runs, `|ln(B / A)|`: median 0.182"), "{md}");
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
    // A winner of too few rounds in either run (it beat the others only in each of fewer
    // rounds than a 95 % interval needs): no winner contradicted, a tie flip.
    s.winners(
        "p",
        &tuning(["best (too few rounds)", "", ""]),
        &tuning(["", "best", ""]),
    );
    s.winners(
        "p",
        &tuning(["", "", "best"]),
        &tuning(["", "best (too few rounds)", ""]),
    );
    // The same winner: no flip; an older run without ties reads the same way.
    s.winners("p", &tuning(["best", "", ""]), &tuning(["best", "", ""]));
    assert_eq!(s.winners, 6);
    assert_eq!(s.winner_flips.len(), 2, "{:?}", s.winner_flips);
    assert_eq!(s.tie_flips.len(), 3, "{:?}", s.tie_flips);
    assert!(s.tie_flips[0].contains("`cr wg=0` → `cr wg=1`"));
    assert!(s.tie_flips[2].contains("`cr wg=2` → `cr wg=1`"));
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
    // A variant that ties with the fastest in one run: a change within a tie.
    s.winners(
        "p",
        &versus("cr copy ≈ cr switch", Some("tie"), 1.1),
        &versus("cr switch", Some("tie"), 1.1),
    );
    assert_eq!(
        (s.variant_changes.len(), s.variant_tie_changes.len()),
        (1, 1)
    );
    // A run that had too few runs to name a winner contradicts no winner of the other.
    s.winners(
        "p",
        &versus("cr switch", Some("compute"), 2.1),
        &versus(
            "cr switch",
            Some(crate::report::table::versus::FEW_RUNS),
            2.1,
        ),
    );
    assert_eq!((s.winner_flips.len(), s.tie_flips.len()), (1, 2));
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

#[test]
fn two_states_need_the_median_roof_beyond_the_state_factor() {
    let mut s = Summary::default();
    let roof = |k: &str, a: f64, b: f64| (k.to_string(), "GB/s".to_string(), a, b);
    // Two roofs decide nothing, however far apart.
    s.roofs = vec![roof("a", 1.0, 8.0), roof("b", 1.0, 0.1)];
    assert_eq!(s.two_states(), None);
    // One roof's spell is not a state: the median of 1.2, 1.3 and 8.
    s.roofs.push(roof("c", 1.0, 1.2));
    s.roofs[1] = roof("b", 1.3, 1.0);
    assert_eq!(s.two_states(), None);
    assert!(!s.reading().contains("two states"), "{}", s.reading());
    // Moves both ways count alike: ×2, ÷2, ×1.6 → the median factor 2.
    s.roofs = vec![
        roof("a", 1.0, 2.0),
        roof("b", 2.0, 1.0),
        roof("c", 1.0, 1.6),
    ];
    let (f, n) = s.two_states().unwrap();
    assert!((f - 2.0).abs() < 1e-12 && n == 3, "{f} {n}");
    s.finding("f", "held", "held");
    let r = s.reading();
    assert!(
        r.contains("a median factor 2.00 apart over their 3 roofs"),
        "{r}"
    );
    assert!(
        r.contains("the findings (0 of 1 flipped held ↔ not held)"),
        "{r}"
    );
}
