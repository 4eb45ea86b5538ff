//! The parsers, the noise rule and the gate, on known samples.

use std::time::{Duration, Instant};

use super::*;
use crate::mode::Mode;

const STAT: &str = "cpu  145776 0 12462 700153 585 0 60 239 0 0\n\
                    cpu0 67001 0 5515 356762 153 0 13 117 0 0\n\
                    cpu1 78774 0 6946 343390 431 0 47 122 0 0\n\
                    intr 992238 0 0\nctxt 1\ncpu_extra 1\n";

#[test]
fn parses_proc_stat() {
    let t = parse_stat(STAT).unwrap();
    assert_eq!(t.cores, 2);
    assert_eq!(t.busy, 145776 + 12462 + 60);
    assert_eq!(t.all, 145776 + 12462 + 700153 + 585 + 60 + 239);
    assert_eq!(t.steal, 239);
    assert_eq!(parse_stat("intr 1 2\n"), None);
    assert_eq!(parse_stat("cpu 1 2\n"), None);
    // Old kernels print only four fields.
    let old = parse_stat("cpu 10 0 5 100\ncpu0 10 0 5 100\n").unwrap();
    assert_eq!((old.busy, old.all, old.steal, old.cores), (15, 115, 0, 1));
}

#[test]
fn parses_own_stat_with_a_name_holding_spaces_and_parentheses() {
    let line = "12612 (my (odd) prog) R 12607 12607 8128 0 -1 4194304 98 0 0 0 \
                70 30 6 4 20 0 1 0 430415 3133440 413";
    assert_eq!(
        parse_self_stat(line),
        Some(110),
        "its own 70 + 30, its children's 6 + 4"
    );
    assert_eq!(parse_self_stat("12 (x) R 1 2"), None);
    assert_eq!(parse_self_stat("no parenthesis"), None);
}

#[test]
fn parses_loadavg() {
    assert_eq!(
        parse_loadavg("2.87 1.73 1.12 6/123 12613\n"),
        Some([2.87, 1.73, 1.12])
    );
    assert_eq!(parse_loadavg("2.87 x"), None);
    assert_eq!(parse_loadavg(""), None);
}

fn snap(busy: u64, idle: u64, steal: u64, own: u64, at: Instant) -> Snapshot {
    Snapshot {
        cpu: CpuTimes {
            busy,
            all: busy + idle + steal,
            steal,
            cores: 2,
        },
        own,
        at,
    }
}

#[test]
fn others_are_the_busy_cores_less_our_own() {
    let t = Instant::now();
    // 200 jiffies over 2 cores (1 s at 100 Hz): 150 busy, of which 100 ours, 10 stolen.
    let a = snap(1000, 5000, 0, 300, t);
    let b = snap(1150, 5040, 10, 400, t);
    let s = LoadSample::between(&a, &b, 1.0, [1.0, 0.5, 0.2]).unwrap();
    assert!((s.others - 2.0 * 50.0 / 200.0).abs() < 1e-12, "{s:?}");
    assert!((s.steal - 2.0 * 10.0 / 200.0).abs() < 1e-12, "{s:?}");
    // 0.5 + 0.1 cores busy > ¼ of 2 cores: noisy; below a threshold of ½ it is not.
    assert!(s.clone().judged(0.25).noisy);
    assert!(!s.judged(0.5).noisy);
    // Our own time alone (a whole core) is not the machine's noise.
    let quiet = LoadSample::between(&a, &snap(1100, 5100, 0, 400, t), 1.0, [0.0; 3]).unwrap();
    assert_eq!(quiet.others, 0.0);
    // No jiffy passed: no sample.
    assert_eq!(LoadSample::between(&a, &a, 0.0, [0.0; 3]), None);
}

fn sample(others: f64) -> LoadSample {
    LoadSample {
        seconds: 2.0,
        cores: 2,
        others,
        steal: 0.0,
        loadavg: [others, 0.0, 0.0],
        noisy: false,
    }
}

fn policy(mode: Mode, wait_s: u64, allow_noisy: bool) -> QuietPolicy {
    QuietPolicy {
        wait: Duration::from_secs(wait_s),
        allow_noisy,
        ..QuietPolicy::for_run(mode)
    }
}

fn run_gate(p: &QuietPolicy, samples: Vec<f64>) -> (Result<Gate, NoisyError>, Vec<String>) {
    let mut said = Vec::new();
    let mut s = FixedSampler::new(samples.into_iter().map(sample).collect());
    let g = gate(p, &mut s, &mut |l| said.push(l.to_string()));
    (g, said)
}

#[test]
fn a_quiet_machine_passes_at_once() {
    let (g, said) = run_gate(&policy(Mode::Full, 120, false), vec![0.3, 2.0]);
    let g = g.unwrap();
    assert_eq!(g.waited_s, 2.0);
    assert!(!g.before.unwrap().noisy);
    assert!(said.is_empty(), "{said:?}");
}

#[test]
fn a_full_run_waits_for_quiet() {
    // Busy, busy, then quiet: two samples of 2 s and two pauses of 3 s, then 2 s.
    let (g, said) = run_gate(&policy(Mode::Full, 120, false), vec![1.5, 1.0, 0.2]);
    let g = g.unwrap();
    assert_eq!(g.waited_s, 2.0 + 3.0 + 2.0 + 3.0 + 2.0);
    assert_eq!(g.before.unwrap().others, 0.2);
    assert!(said[0].contains("waiting for quiet"), "{said:?}");
}

#[test]
fn a_full_run_on_a_busy_machine_refuses_after_the_wait_unless_allowed() {
    let (g, _) = run_gate(&policy(Mode::Full, 10, false), vec![1.0]);
    let e = g.unwrap_err();
    // 2 + 3 + 2 + 3 + 2 ≥ 10 s.
    assert_eq!(e.waited_s, 12.0);
    let msg = e.to_string();
    assert!(
        msg.contains("busy") && msg.contains("--allow-noisy") && msg.contains("--wait-quiet"),
        "{msg}"
    );
    let (g, said) = run_gate(&policy(Mode::Full, 10, true), vec![1.0]);
    assert!(g.unwrap().before.unwrap().noisy);
    assert!(said.last().unwrap().contains("running anyway"), "{said:?}");
    // --wait-quiet 0: one sample, then the decision.
    let (g, _) = run_gate(&policy(Mode::Full, 0, false), vec![1.0]);
    assert_eq!(g.unwrap_err().waited_s, 2.0);
}

#[test]
fn a_quick_run_only_warns() {
    let (g, said) = run_gate(&policy(Mode::Quick, 120, false), vec![1.9, 0.0]);
    let g = g.unwrap();
    assert!(g.before.unwrap().noisy);
    assert_eq!(said.len(), 1);
    assert!(said[0].contains("quick run goes on"), "{said:?}");
}

#[test]
fn the_threshold_is_a_share_of_the_cores() {
    // Exactly a quarter of 2 cores is not more than a quarter.
    assert!(!sample(0.5).is_noisy(0.25));
    assert!(sample(0.51).is_noisy(0.25));
    let p = QuietPolicy {
        threshold: 0.5,
        ..policy(Mode::Full, 0, false)
    };
    assert!(run_gate(&p, vec![0.9]).0.is_ok());
}

#[test]
fn a_run_record_names_what_was_noisy() {
    let mut r = RunLoad::from_gate(&Gate {
        before: Some(sample(1.0).judged(THRESHOLD)),
        waited_s: 0.0,
    });
    assert!(r.ran_noisy && r.noisy());
    r.noisy_parts.push("table4".into());
    let d = r.describe();
    assert!(d.starts_with("**noisy**") && d.contains("table4"), "{d}");
    let quiet = RunLoad::from_gate(&Gate {
        before: Some(sample(0.1).judged(THRESHOLD)),
        waited_s: 2.0,
    });
    assert!(!quiet.noisy() && quiet.describe().starts_with("quiet"));
}
