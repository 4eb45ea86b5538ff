//! The median, its interval, the decisions and the round order, on known samples.

use super::median::binom_half_cdf;
use super::*;

#[test]
fn binomial_cdf_known_values() {
    // P(X ≤ 0) for n = 5 is 1/32; P(X ≤ 2) for n = 5 is 1/2.
    assert!((binom_half_cdf(5, 0) - 1.0 / 32.0).abs() < 1e-15);
    assert!((binom_half_cdf(5, 2) - 0.5).abs() < 1e-15);
    // n = 10: P(X ≤ 1) = 11/1024.
    assert!((binom_half_cdf(10, 1) - 11.0 / 1024.0).abs() < 1e-15);
    assert_eq!(binom_half_cdf(3, 3), 1.0);
}

#[test]
fn ci_indices_match_the_tables() {
    // Le Boudec, Table A.1 (95 %): n = 6 → [x(1), x(6)], n = 10 → [x(2), x(9)],
    // n = 20 → [x(6), x(15)], n = 50 → [x(18), x(33)], n = 100 → [x(40), x(61)].
    for (n, lo1, hi1) in [
        (6, 1, 6),
        (10, 2, 9),
        (20, 6, 15),
        (50, 18, 33),
        (100, 40, 61),
    ] {
        let (l, h, c) = median_ci_indices(n, 0.95);
        assert_eq!((l + 1, h + 1), (lo1, hi1), "n = {n}");
        assert!(c >= 0.95, "n = {n}: coverage {c}");
    }
    // n = 6 covers 1 − 2/64.
    assert!((median_ci_indices(6, 0.95).2 - (1.0 - 2.0 / 64.0)).abs() < 1e-12);
    // n = 5: no 95 % interval, [min, max] covers 93.75 %.
    let (l, h, c) = median_ci_indices(5, 0.95);
    assert_eq!((l, h), (0, 4));
    assert!((c - 0.9375).abs() < 1e-12);
    assert_eq!(median_ci_indices(1, 0.95), (0, 0, 0.0));
}

#[test]
fn estimate_of_known_samples() {
    let e = Estimate::of(&[5.0, 1.0, 4.0, 2.0, 3.0, 6.0]).unwrap();
    assert_eq!(e.median, 3.0); // lower median of 1..6
    assert_eq!((e.lo, e.hi), (1.0, 6.0));
    assert!(e.has_ci());
    assert_eq!(e.n, 6);
    assert_eq!(e.samples, vec![5.0, 1.0, 4.0, 2.0, 3.0, 6.0]);
    // mean 3.5, sample sd sqrt(3.5)
    assert!((e.cv - 3.5f64.sqrt() / 3.5).abs() < 1e-12);
    let few = Estimate::of(&[2.0, 1.0]).unwrap();
    assert!(!few.has_ci());
    assert_eq!((few.lo, few.hi), (1.0, 2.0));
    assert!(Estimate::of(&[f64::NAN]).is_none());
    assert!(Estimate::of(&[]).is_none());
}

#[test]
fn map_reorders_a_decreasing_function() {
    let e = Estimate::of(&[1.0, 2.0, 4.0, 2.0, 2.0, 2.0]).unwrap();
    let rate = e.map(|ms| 8.0 / ms);
    assert_eq!(rate.median, 4.0);
    assert_eq!((rate.lo, rate.hi), (2.0, 8.0));
    assert!(rate.samples.is_empty());
}

#[test]
fn derived_intervals() {
    let f = Estimate::with_interval(0.5, 0.4, 0.6, LEVEL);
    assert_eq!(
        (f.median, f.lo, f.hi, f.min, f.max, f.n),
        (0.5, 0.4, 0.6, 0.4, 0.6, 2)
    );
    assert!(f.has_ci() && f.samples.is_empty());
    let a = Estimate::of(&[4.0, 4.0, 5.0, 6.0, 6.0, 6.0]).unwrap(); // 5 [4, 6]
    let b = Estimate::of(&[1.0, 2.0, 2.0, 2.0, 2.0, 2.0]).unwrap(); // 2 [1, 2]
    let r = Estimate::ratio_unpaired(&a, &b);
    assert_eq!((r.median, r.lo, r.hi), (2.5, 2.0, 6.0));
    assert_eq!(r.coverage, a.coverage.min(b.coverage));
    // it rests on the fewer runs of the two: a quotient of a 3-run row and a 6-run row has
    // 3 runs behind it (a finding's "too few runs" names that count), and an exact operand
    // (a count) adds none
    let three = Estimate::of(&[4.0, 5.0, 6.0]).unwrap();
    assert_eq!((r.n, Estimate::ratio_unpaired(&three, &b).n), (6, 3));
    assert_eq!(Estimate::ratio_unpaired(&Estimate::exact(8.0), &three).n, 3);
    assert_eq!(Estimate::ratio_unpaired(&b, &Estimate::exact(2.0)).n, 6);
    // three equal runs are still three runs, though their interval is a point
    let same = Estimate::of(&[5.0, 5.0, 5.0]).unwrap();
    assert_eq!(Estimate::ratio_unpaired(&same, &b).n, 3);
    // a point interval, or a denominator without a positive interval: the bare ratio
    let p = Estimate::ratio_unpaired(&Estimate::exact(3.0), &Estimate::exact(2.0));
    assert_eq!((p.median, p.lo, p.hi, p.n), (1.5, 1.5, 1.5, 1));
    let z = Estimate::ratio_unpaired(&a, &Estimate::with_interval(1.0, 0.0, 2.0, LEVEL));
    assert_eq!((z.median, z.lo, z.hi), (5.0, 5.0, 5.0));
}

#[test]
fn decide_and_separate() {
    assert_eq!(decide((2.1, 3.0), 2.0, true), Decision::Holds);
    assert_eq!(decide((1.0, 1.9), 2.0, true), Decision::Fails);
    assert_eq!(decide((1.5, 2.5), 2.0, true), Decision::Undecided);
    assert_eq!(decide((1.0, 1.9), 2.0, false), Decision::Holds);
    assert_eq!(decide((2.1, 3.0), 2.0, false), Decision::Fails);
    assert_eq!(
        separated((1.0, 2.0), (2.5, 3.0)),
        Some(std::cmp::Ordering::Less)
    );
    assert_eq!(separated((1.0, 2.5), (2.5, 3.0)), None);
    assert_eq!(
        separated((4.0, 5.0), (2.5, 3.0)),
        Some(std::cmp::Ordering::Greater)
    );
}

#[test]
fn winner_declares_only_separated_choices() {
    // clear: 0 is fastest and apart from 1.
    let p = winner(&[(0, (1.0, 1.2), 1.1), (1, (1.5, 1.7), 1.6)]).unwrap();
    assert_eq!(
        p,
        Pick {
            chosen: 0,
            tied: vec![0]
        }
    );
    assert!(p.clear());
    // tie: 2 is fastest by median but overlaps 0; 0 comes first in the caller's order.
    let p = winner(&[
        (0, (1.0, 1.3), 1.2),
        (1, (2.0, 2.2), 2.1),
        (2, (0.9, 1.2), 1.1),
    ])
    .unwrap();
    assert_eq!(p.chosen, 0);
    assert_eq!(p.tied, vec![0, 2]);
    assert!(!p.clear());
    assert!(winner(&[]).is_none());
}

#[test]
fn paired_ratio_of_known_pairs() {
    let a = [2.0, 4.0, 6.0, 8.0, 10.0, 12.0];
    let b = [1.0, 2.0, 3.0, 4.0, 5.0, 0.0];
    let r = paired_ratio(&a, &b).unwrap();
    assert_eq!(r.n, 5); // the pair with a zero denominator is dropped
    assert_eq!(r.median, 2.0);
    assert!(paired_ratio(&[1.0], &[0.0]).is_none());
}

#[test]
fn paired_ratios_carry_no_between_run_term() {
    // Even with a term set on this thread, a ratio of rounds keeps the rounds' own interval.
    std::thread::spawn(|| {
        let d: Vec<f64> = (1..=20).map(|i| i as f64 / 10.0).collect();
        set_between_terms(BetweenTerms::resolve(
            &[between::Group {
                name: "device-bound".into(),
                fallback: None,
                differences: d,
                span: Vec::new(),
            }],
            "device-bound",
        ));
        assert!(between_run() > 1.0);
        let r = paired_ratio(&[2.0; 8], &[1.0; 8]).unwrap();
        assert_eq!((r.lo, r.median, r.hi, r.between), (2.0, 2.0, 2.0, 0.0));
        assert_eq!(per_round(&[3.0; 8]).unwrap().between, 0.0);
    })
    .join()
    .unwrap();
}

#[test]
fn the_paired_winner_reads_the_rounds_not_the_overlap() {
    // The tridiagonal case: candidate 0 (the simplest, e.g. local 4) takes 1.76× candidate 1
    // in every round, while the rounds drift together by 4× — each candidate's own interval
    // overlaps the other's, yet the paired ratio is 1.76 every round: 1 is beaten, clearly.
    let drift: Vec<f64> = (0..12).map(|r| 1.0 + 3.0 * r as f64 / 11.0).collect();
    let fast: Vec<f64> = drift.iter().map(|d| 39.3 * d).collect();
    let slow: Vec<f64> = drift.iter().map(|d| 69.1 * d).collect();
    let (ea, eb) = (Estimate::of(&slow).unwrap(), Estimate::of(&fast).unwrap());
    assert!(separated(ea.interval(), eb.interval()).is_none());
    let unpaired = winner(&[(0, ea.interval(), ea.median), (1, eb.interval(), eb.median)]);
    assert_eq!(unpaired.unwrap().chosen, 0); // the overlap rule keeps the slower one
    let p = paired_winner(&[(0, &slow), (1, &fast)]).unwrap();
    assert_eq!(p.chosen, 1);
    assert!(p.clear());
}

#[test]
fn the_paired_winner_ties_what_no_one_beats_and_takes_the_least_median() {
    // 0 and 2 alternate being faster (ratio 0.9 / 1.1): neither beats the other; 1 is 1.5×
    // both every round: beaten. The tie is 0 and 2, of equal medians: the first (0) chosen.
    let a: Vec<f64> = (0..12)
        .map(|r| if r % 2 == 0 { 0.9 } else { 1.1 })
        .collect();
    let c = vec![1.0; 12];
    let b = vec![1.5; 12];
    let p = paired_winner(&[(0, &a), (1, &b), (2, &c)]).unwrap();
    assert_eq!(p.chosen, 0);
    assert_eq!(p.tied, vec![0, 2]);
    // The chosen is never beaten: no other's paired ratio to it lies wholly below 1.
    for other in [&b, &c] {
        assert!(paired_ratio(other, &a).unwrap().hi >= 1.0);
    }
    // One round is no interval: nobody is beaten, all tie, and the least median is chosen —
    // the full matmul tuning on a slow host, where the budget allowed one round of 25
    // candidates and the first of them took 9.9× the fastest.
    let p = paired_winner(&[(0, &[13036.0][..]), (1, &[7137.0][..]), (2, &[1315.0][..])]).unwrap();
    assert_eq!((p.chosen, p.tied.len()), (2, 3));
    assert!(!p.clear());
    // A tie of unequal medians over many rounds: the faster median is chosen.
    let slow: Vec<f64> = (0..12)
        .map(|r| if r % 3 == 0 { 0.9 } else { 1.2 })
        .collect();
    let p = paired_winner(&[(0, &slow), (1, &c)]).unwrap();
    assert_eq!((p.chosen, p.tied.clone()), (1, vec![0, 1]));
    // One candidate: chosen, clear; none: none.
    assert_eq!(paired_winner(&[(7, &c)]).unwrap().tied, vec![7]);
    assert!(paired_winner(&[]).is_none());
}

#[test]
fn round_order_is_a_repeatable_permutation() {
    for round in 0..50 {
        let o = round_order(5, round);
        let mut s = o.clone();
        s.sort();
        assert_eq!(s, vec![0, 1, 2, 3, 4]);
        assert_eq!(o, round_order(5, round));
    }
    // not always the same order, and every variant goes first sometime
    let firsts: std::collections::HashSet<usize> = (0..50).map(|r| round_order(5, r)[0]).collect();
    assert_eq!(firsts.len(), 5);
    assert!(round_order(0, 3).is_empty());
}

#[test]
fn within_relative() {
    assert!(within(1.0, 1.15, 0.2));
    assert!(!within(1.0, 1.3, 0.2));
    assert!(within(0.0, 0.0, 0.2));
}

#[test]
fn the_half_shift_compares_the_medians_of_the_runs_first_and_second_half() {
    let est = |s: Vec<f64>| Estimate::of(&s).unwrap();
    // Six runs at 1 ms, then six at 2 ms: a spell doubled the time halfway, whichever way.
    let step: Vec<f64> = [[1.0; 6], [2.0; 6]].concat();
    assert!((est(step.clone()).half_shift().unwrap() - 2f64.ln()).abs() < 1e-12);
    let back: Vec<f64> = step.iter().rev().copied().collect();
    assert!((est(back).half_shift().unwrap() - 2f64.ln()).abs() < 1e-12);
    // The same twelve values interleaved: no spell, though the spread is the same.
    let mixed: Vec<f64> = (0..12)
        .map(|i| if i % 2 == 0 { 1.0 } else { 2.0 })
        .collect();
    assert_eq!(est(mixed).half_shift(), Some(0.0));
    // Thirteen: halves of 6 and 7, each its lower median (1.0; 3.0 of 3,3,3,3,9,9,9).
    let odd: Vec<f64> = [vec![1.0; 6], vec![3.0, 9.0, 3.0, 9.0, 3.0, 9.0, 3.0]].concat();
    assert!((est(odd).half_shift().unwrap() - 3f64.ln()).abs() < 1e-12);
    // Eleven runs (no two halves of six), and a derived estimate without samples: none.
    assert_eq!(est(vec![1.0; 11]).half_shift(), None);
    assert_eq!(est(step).map(|t| 1.0 / t).half_shift(), None);
}

#[test]
fn the_halves_are_the_first_and_second_half_each_with_its_own_interval_and_the_term() {
    let s: Vec<f64> = (1..=12).map(f64::from).collect();
    let [a, b] = Estimate::of(&s).unwrap().halves().unwrap();
    // Six samples each: the lower median x(3) and the order-statistic interval [x(1), x(6)].
    assert_eq!((a.median, a.lo, a.hi, a.n), (3.0, 1.0, 6.0, 6));
    assert_eq!((b.median, b.lo, b.hi, b.n), (9.0, 7.0, 12.0, 6));
    // The whole estimate's between-run term widens each half as it widens the whole.
    let e = Estimate {
        between: 0.1,
        ..Estimate::of(&s).unwrap()
    };
    let [a, _] = e.halves().unwrap();
    let lo = 3.0 * (-(3f64.ln()).hypot(0.1)).exp();
    let hi = 3.0 * (2f64.ln()).hypot(0.1).exp();
    assert!((a.lo - lo).abs() < 1e-12 && (a.hi - hi).abs() < 1e-12 && a.between == 0.1);
    // Eleven samples: no two halves of six.
    assert!(Estimate::of(&s[..11]).unwrap().halves().is_none());
}
