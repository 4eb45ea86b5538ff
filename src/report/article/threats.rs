//! The article's "Threats to validity": what could make this run's numbers or verdicts
//! wrong — the device class, the machine's load, mixed runs, few runs, wide intervals, rows
//! above their bound — each read from the run; and what one run's intervals do not cover.

use std::path::Path;

use super::bands::bands;
use super::meta::PaperMeta;
use super::records::tables;
use crate::report::finding::Verdict;
use crate::report::record::{PaperRecord, RunTimes};
use crate::report::table::bound::OF_BOUND;

/// A half-width over this fraction of the median makes an interval "wide" (threats).
const WIDE: f64 = 0.10;
/// A row above this fraction of its bound contradicts the bound (threats).
const OVER_BOUND: f64 = 1.05;

/// The "Between runs" item where the intervals are one run's repetitions alone.
const BETWEEN_RUNS: &str = "- **Between runs.** Each interval is the spread of one run's \
    repetitions, taken within seconds of each other. Between runs minutes apart a shared \
    machine's speed can move by more than that while its load counters show nothing (other \
    processes' CPU time near zero), so a second run of the same commit agrees with this one \
    within the intervals less often than the intervals suggest. `gpgpu-repro compare` of two \
    runs measures by how much (README, *Checking a machine's stability*); every verdict here \
    rests on this one run.\n\n";

/// The "Between runs" item where the intervals include between-run terms (`terms`: each
/// distinct set's line).
fn between_runs(terms: &[String]) -> String {
    format!(
        "- **Between runs.** One run's repetitions are taken within seconds of each other; \
         between runs minutes apart this device's speed moved by more, while its load counters \
         showed nothing, and between runs an hour apart by more again. The bench measures that \
         movement over minutes (each roof once per pass, the passes apart in time), per \
         limiter; where the folder held an earlier run of this state of the device, its drift \
         probes and this run's start probe measure it over hours, and a limiter takes the \
         larger of the two (`drift probes` in its line below). A timed row's interval includes \
         its limiter's term, added in quadrature on the log scale to the repetitions' interval \
         (ISO 5725's reproducibility beside their repeatability; the model is \
         `stats::between`'s): the {}. \
         Ratios of variants timed in the same rounds, and the tuning decisions, include none \
         (the rounds share their spell); a ratio of rows timed apart (legacy / compute) \
         includes both rows' terms, and a fraction of bound (its roofs measured apart from \
         the row) its row's twice, `√2·h`. `gpgpu-repro compare` of two runs checks whether \
         the terms cover what a second run shows (README, *Checking a machine's \
         stability*).\n\n",
        terms.join("; in other papers' runs the ")
    )
}

/// What could make this run's numbers or verdicts wrong, read from the run.
pub(super) fn threats(
    dir: &Path,
    ran: &[(&PaperMeta, &PaperRecord)],
    run: Option<&RunTimes>,
) -> String {
    let mut s = String::from("## Threats to validity\n\n");
    s.push_str(&device_class(ran));
    s.push_str(&load(ran));
    s.push_str(&mixed_runs(ran));
    s.push_str(&Intervals::read(dir, ran).to_markdown());
    if let Some(item) = run.and_then(device_state) {
        // In the same list: "Between runs" ends it with a blank line.
        s.truncate(s.trim_end().len() + 1);
        s.push_str(&item);
    }
    if let Some(item) = run.and_then(against_previous) {
        // In the same list: "Between runs" ends it with a blank line.
        s.truncate(s.trim_end().len() + 1);
        s.push_str(&item);
    }
    let bands = bands(
        ran.iter()
            .flat_map(|(p, r)| r.findings.iter().map(move |f| (p.key, f))),
    );
    if !bands.is_empty() {
        // One list: the band item follows "Between runs", whose blank line ends the list.
        s.truncate(s.trim_end().len() + 1);
        s.push_str(&bands);
    }
    s
}

/// The "Device state" item, where the run's start probe found the device in another state
/// than a bench or an earlier run it met (`runner::drift`, "One state of the device").
fn device_state(run: &RunTimes) -> Option<String> {
    (!run.state.is_empty()).then(|| {
        format!(
            "- **Device state.** {}. A bench of another state gives bounds that are not the \
             device's now, and a pair of probes across two states is the distance between two \
             machines, not one device's drift (`runner::drift`, *One state of the device*).\n\n",
            capitalized(&run.state.join("; "))
        )
    })
}

/// `s` with its first letter upper-case (a line that opens a sentence).
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The "Against the run it replaced" item, where the run's `run.json` has the comparison
/// (`runner::previous`): what a second run showed beside what one run's intervals claim.
fn against_previous(run: &RunTimes) -> Option<String> {
    let reading = run.previous.as_ref()?;
    // The state check's line names the earlier run's bench or probes as of another state.
    let state = if run.state.is_empty() {
        ""
    } else {
        ", and here the state of the device: *Device state*, above"
    };
    Some(format!(
        "- **Against the run it replaced.** This run was compared with the complete run of its \
         mode that it replaced in this folder (`previous.md`, the report `gpgpu-repro compare` \
         writes): {reading} That pair spans whatever changed between the two runs (the code, \
         the day, the host's other tenants{state}), which no interval of one run covers.\n\n"
    ))
}

/// The "Device class" item: the GL renderer against the CPU (a software rasterizer said
/// so), and how many claims are not testable on it; empty when nothing ran.
fn device_class(ran: &[(&PaperMeta, &PaperRecord)]) -> String {
    let Some((_, r)) = ran.first() else {
        return String::new();
    };
    let software = ran
        .iter()
        .any(|(_, r)| crate::report::claim::software(&r.provenance));
    let untestable: usize = ran
        .iter()
        .map(|(_, r)| {
            r.findings
                .iter()
                .filter(|f| f.verdict == Verdict::NotTestable)
                .count()
        })
        .sum();
    // The two pipelines' roofs: what every legacy-against-compute ratio of this run is read
    // beside (a GPU's graphics pipeline may run on a small part of the chip).
    let shape = ran
        .iter()
        .find_map(|(_, r)| r.provenance.device_shape)
        .map(|s| s.describe())
        .filter(|s| !s.is_empty())
        .map(|s| {
            format!(
                " {s}: every legacy (fragment) against compute ratio of this run includes that \
                 difference of the pipelines as much as any difference of the techniques."
            )
        })
        .unwrap_or_default();
    format!(
        "- **Device class.** {}{}{shape}\n",
        if software {
            format!(
                "{} is a software rasterizer: the \"GPU\" passes run on the CPU cores \
                 ({}), so GPU-against-CPU times compare two algorithms on one processor.",
                r.provenance.gl_renderer, r.provenance.cpu
            )
        } else {
            format!(
                "{} against the CPU {}.",
                r.provenance.gl_renderer, r.provenance.cpu
            )
        },
        if untestable > 0 {
            format!(" {untestable} claims of that kind are *not testable here*.")
        } else {
            String::new()
        }
    )
}

/// The "Load" items: each paper measured noisy or with no load recorded, then the quiet ones.
fn load(ran: &[(&PaperMeta, &PaperRecord)]) -> String {
    let mut s = String::new();
    let mut quiet = Vec::new();
    for (p, r) in ran {
        match &r.provenance.machine {
            Some(m) if m.noisy() => s.push_str(&format!(
                "- **Load.** `{}` was measured while other work ran{}; those times may not \
                 repeat (the machine's samples are on its page).\n",
                p.key,
                if m.noisy_parts.is_empty() {
                    String::new()
                } else {
                    format!(" during {}", m.noisy_parts_short(6))
                }
            )),
            Some(_) => quiet.push(p.key),
            None => s.push_str(&format!(
                "- **Load.** `{}`: the machine's load was not recorded (load average at its \
                 start {}).\n",
                p.key, r.provenance.load
            )),
        }
    }
    if !quiet.is_empty() {
        s.push_str(&format!(
            "- **Load.** Quiet while measured (other processes under a quarter of the cores \
             before and during the run): {}.\n",
            quiet.join(", ")
        ));
    }
    s
}

/// The "Mixed runs" item, when the papers come from more than one run (commit and command).
fn mixed_runs(ran: &[(&PaperMeta, &PaperRecord)]) -> String {
    let mut commits: Vec<String> = ran
        .iter()
        .map(|(_, r)| format!("`{}` ({})", r.provenance.commit, r.provenance.command))
        .collect();
    commits.sort();
    commits.dedup();
    if commits.len() <= 1 {
        return String::new();
    }
    format!(
        "- **Mixed runs.** The papers come from {} runs: {}; each paper's page names \
         its own.\n",
        commits.len(),
        commits.join("; ")
    )
}

/// The measured values of every table that ran, as the interval items count them.
#[derive(Default)]
struct Intervals {
    /// `paper/table` of each value resting on fewer than 6 runs.
    few: Vec<String>,
    /// Each wide interval: its relative half-width and where it is.
    wide: Vec<(f64, String)>,
    /// Each row over its bound.
    over: Vec<String>,
    /// How many rows have a bound (an `of bound` value).
    bounded: usize,
    /// How many measured values there are (the `of bound` column not counted).
    cells: usize,
    /// The distinct between-run terms the papers' intervals include, each set in one line.
    between: Vec<String>,
    /// Each time (ms) whose runs have two halves to compare: its half shift
    /// ([`crate::stats::Estimate::half_shift`]) and where it is.
    spells: Vec<(f64, String)>,
    /// The reproducibility limit `R` of the bench's default between-run term (that of a row
    /// with no limiter of its own: the device-bound pool, or the one term of an older run),
    /// the largest among the papers' records; `None` where no interval includes a term.
    bench_limit: Option<f64>,
}

impl Intervals {
    /// Every estimate of every table that ran, sorted into few runs, wide and over bound.
    fn read(dir: &Path, ran: &[(&PaperMeta, &PaperRecord)]) -> Self {
        let mut i = Intervals::default();
        for (p, r) in ran {
            // The run's terms in one line, and its default term's limit.
            let (line, default) = match (&r.provenance.between_terms, &r.provenance.between_run) {
                (Some(t), _) => (Some(t.describe()), t.default_term()),
                (None, Some(b)) => (Some(b.describe()), Some(*b)),
                (None, None) => (None, None),
            };
            if let Some(l) = line
                && !i.between.contains(&l)
            {
                i.between.push(l);
            }
            if let Some(l) = default.map(|b| b.limit) {
                i.bench_limit = Some(i.bench_limit.map_or(l, |m: f64| m.max(l)));
            }
            for t in tables(dir, p.key, r) {
                let bound_col = t.find_col(OF_BOUND);
                for row in &t.rows {
                    for (j, v) in row.values.iter().enumerate() {
                        let Some(e) = v.estimate() else { continue };
                        if Some(j) == bound_col {
                            i.bounded += 1;
                            if e.median > OVER_BOUND {
                                i.over.push(format!("`{}/{}` {}", p.key, t.id, row.key));
                            }
                            continue;
                        }
                        i.cells += 1;
                        let at =
                            || format!("`{}/{}` {} ({})", p.key, t.id, row.key, t.columns[j].name);
                        // Times only: a ratio or a share of them moves with them.
                        if t.columns[j].unit == "ms"
                            && let Some(d) = e.half_shift()
                        {
                            i.spells.push((d, at()));
                        }
                        if !e.has_ci() {
                            i.few.push(format!("{}/{}", p.key, t.id));
                        } else if e.within_rel_half_width() > WIDE {
                            i.wide.push((e.within_rel_half_width(), at()));
                        }
                    }
                }
            }
        }
        i.wide.sort_by(|a, b| b.0.total_cmp(&a.0));
        i.spells.sort_by(|a, b| b.0.total_cmp(&a.0));
        i
    }

    /// The "Spells within the run" item: the 95th percentile of the times' half shifts
    /// (pooled as the bench pools its between-pass differences, so the two read on one
    /// scale), their median and the largest; with too few values to pool, a line that says
    /// so (empty where nothing was measured).
    fn spells_item(&self) -> String {
        let d: Vec<f64> = self.spells.iter().map(|x| x.0).collect();
        let Some(r) = crate::stats::BetweenRun::from_differences(&d) else {
            return if self.cells == 0 {
                String::new()
            } else {
                let n = match d.len() {
                    0 => "No timed value has".to_string(),
                    1 => "1 timed value has".to_string(),
                    k => format!("{k} timed values have"),
                };
                format!(
                    "- **Spells within the run.** {n} {} runs or more, fewer than the {} a limit \
                     is pooled from: the run's own spells are not measured here.\n",
                    crate::stats::HALVES_MIN_SAMPLES,
                    crate::stats::between::MIN_PAIRS
                )
            };
        };
        let median = crate::stats::Estimate::of(&d).map_or(f64::NAN, |e| e.median);
        format!(
            "- **Spells within the run.** For the {} timed values with {} runs or more, the \
             medians of the first and the second half of their runs (in the order measured) \
             differ by a factor of up to {:.2} in 95 % of them (R = {:.3}, the 95th \
             percentile of |ln(m₂ / m₁)|, pooled as the bench pools its passes; at the median, \
             by {:.2}); the most: {}. The speed moved that much within the seconds one row \
             takes. {}\n",
            d.len(),
            crate::stats::HALVES_MIN_SAMPLES,
            r.limit.exp(),
            r.limit,
            median.exp(),
            self.spells
                .iter()
                .take(5)
                .map(|(d, n)| format!("{n} ×{:.2}", d.exp()))
                .collect::<Vec<_>>()
                .join(", "),
            self.spells_against_bench(r.limit)
        )
    }

    /// What a run's spell limit `r` means for its intervals, against the bench's default limit.
    fn spells_against_bench(&self, r: f64) -> String {
        const APART: &str = "values timed apart (legacy / compute in `versus`, a fraction of a \
                             bound) can move between runs by more than their intervals allow; a \
                             ratio of variants timed in the same rounds less so, though one \
                             pipeline can slow while the other does not";
        match self.bench_limit {
            None => format!("The intervals carry no between-run term (*Between runs*): {APART}."),
            Some(b) if r > b => format!(
                "That is more than the run's default between-run limit (R = {b:.3}, the term \
                 of the device-bound rows; *Between runs*, below), so {APART}."
            ),
            Some(b) => format!(
                "That is within the run's default between-run limit (R = {b:.3}, the term \
                 of the device-bound rows; *Between runs*, below), which the intervals include."
            ),
        }
    }

    /// The "Few runs", "Wide intervals", "Bounds" and "Between runs" items.
    fn to_markdown(&self) -> String {
        let mut s = format!(
            "- **Few runs.** {} of {} measured values rest on fewer than 6 runs (no 95 % \
             interval; a claim resting on one is inconclusive){}.\n",
            self.few.len(),
            self.cells,
            if self.few.is_empty() {
                String::new()
            } else {
                format!(": {}", count_each(&self.few))
            }
        );
        s.push_str(&format!(
            "- **Wide intervals.** {} values have a 95 % interval of their repetitions (the \
             between-run term aside) wider than ±{:.0} % of their median{}.\n",
            self.wide.len(),
            100.0 * WIDE,
            if self.wide.is_empty() {
                String::new()
            } else {
                format!(
                    "; the widest: {}",
                    self.wide
                        .iter()
                        .take(5)
                        .map(|(w, n)| format!("{n} ±{:.0} %", 100.0 * w))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ));
        s.push_str(&self.spells_item());
        s.push_str(&if self.bounded == 0 {
            "- **Bounds.** No row has a bound (the run did not read its rows against the \
             device's limits).\n"
                .to_string()
        } else if self.over.is_empty() {
            format!(
                "- **Bounds.** No row runs faster than its bound allows (none of the {} rows \
                 with a bound above {OVER_BOUND} of it).\n",
                self.bounded
            )
        } else {
            format!(
                "- **Bounds.** {} rows run faster than their bound allows (over {OVER_BOUND} of \
                 it): a roof or the row's work model is wrong there: {}.\n",
                self.over.len(),
                self.over
                    .iter()
                    .take(8)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
        s.push_str(&match (self.cells > 0, self.between.is_empty()) {
            (false, _) => "\n".to_string(),
            (true, true) => BETWEEN_RUNS.to_string(),
            (true, false) => between_runs(&self.between),
        });
        s
    }
}

/// Each distinct name with how often it occurs, in first-seen order: "`a` 3, `b` 1".
fn count_each(v: &[String]) -> String {
    let mut by: Vec<(String, usize)> = Vec::new();
    for x in v {
        match by.iter_mut().find(|b| &b.0 == x) {
            Some(b) => b.1 += 1,
            None => by.push((x.clone(), 1)),
        }
    }
    by.iter()
        .map(|(t, n)| format!("`{t}` {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spells_item_pools_the_half_shifts_as_the_bench_pools_its_passes() {
        // Ten times, shifts ln 1.01 … ln 1.10: the 95th percentile is the 10th (ln 1.10), the
        // lower median the 5th (ln 1.05); the largest named first.
        let mut i = Intervals::default();
        for k in 1..=10 {
            i.spells
                .push(((1.0 + k as f64 / 100.0).ln(), format!("row{k}")));
        }
        i.spells.sort_by(|a, b| b.0.total_cmp(&a.0));
        let s = i.spells_item();
        assert!(
            s.contains("For the 10 timed values with 12 runs or more"),
            "{s}"
        );
        assert!(
            s.contains("up to 1.10 in 95 %") && s.contains("at the median, by 1.05"),
            "{s}"
        );
        assert!(s.contains("the most: row10 ×1.10, row9 ×1.09"), "{s}");
        assert!(s.contains("carry no between-run term"), "{s}");
        // Against the bench's default limit (R = 0.10 here): below it, or above it.
        i.bench_limit = Some(0.05);
        assert!(i.spells_item().contains("more than the run's default"));
        i.bench_limit = Some(0.2);
        assert!(i.spells_item().contains("within the run's default"));
        // Fewer than the bench's fewest pairs: no limit, and a line that says so where
        // something was measured; nothing where nothing was.
        i.spells.truncate(9);
        i.cells = 30;
        assert!(
            i.spells_item()
                .contains("9 timed values have 12 runs or more, fewer than the 10")
        );
        i.spells.clear();
        assert!(
            i.spells_item()
                .contains("No timed value has 12 runs or more")
        );
        i.cells = 0;
        assert_eq!(i.spells_item(), "");
    }

    #[test]
    fn the_device_state_item_says_what_the_start_probe_found() {
        let mut run = RunTimes::default();
        assert_eq!(device_state(&run), None);
        run.state = vec!["its bench was measured afresh".into()];
        let item = device_state(&run).unwrap();
        assert!(
            item.starts_with("- **Device state.** Its bench was measured afresh. A bench"),
            "{item}"
        );
        assert!(!item.contains("  "), "{item}");
    }

    #[test]
    fn the_previous_item_names_the_state_only_where_it_changed() {
        let mut run = RunTimes::default();
        assert_eq!(against_previous(&run), None);
        run.previous = Some("**Stable** by the bar.".into());
        let item = against_previous(&run).unwrap();
        assert!(item.contains("the host's other tenants), which"), "{item}");
        run.state = vec!["its bench was measured afresh".into()];
        let item = against_previous(&run).unwrap();
        assert!(
            item.contains("tenants, and here the state of the device: *Device state*, above)"),
            "{item}"
        );
    }
}
