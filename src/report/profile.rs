//! Where each row's time goes: the profiles of its warm-up runs ([`crate::gl::profile`]) kept
//! in the paper's record, shown on the paper's page for the rows farthest below their bound
//! and printed in full by `gpgpu-repro profile DIR PAPER`.

use serde::{Deserialize, Serialize};

use crate::gl::profile::RunProfile;
use crate::report::table::bound::OF_BOUND_FMT;
use crate::report::table::value::Value;

/// How many rows a paper's page shows the profile of.
pub const ON_THE_PAGE: usize = 3;
/// How many passes of one run a summary lists (the rest are summed).
const PASSES_SHOWN: usize = 4;

/// One row's profiled runs, one per variant timed for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowProfile {
    pub table: String,
    pub row: String,
    /// The row's `of bound` (median), where it has a bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of_bound: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limiter: Option<String>,
    pub runs: Vec<RunProfile>,
}

/// The rows a page shows: those with a bound, farthest below it first (the kernels with the
/// most left to gain), one per table (a tuning sweep's candidates are one kernel), at most
/// [`ON_THE_PAGE`].
pub fn farthest_below_bound(profiles: &[RowProfile]) -> Vec<&RowProfile> {
    let mut bounded: Vec<&RowProfile> = profiles.iter().filter(|p| p.of_bound.is_some()).collect();
    bounded.sort_by(|a, b| a.of_bound.unwrap().total_cmp(&b.of_bound.unwrap()));
    let mut shown: Vec<&RowProfile> = Vec::new();
    for p in bounded {
        if shown.len() < ON_THE_PAGE && shown.iter().all(|q| q.table != p.table) {
            shown.push(p);
        }
    }
    shown
}

/// A row's profile in Markdown: a heading line, then one line per run (variant) with its
/// longest passes and their shares of the passes' time.
pub fn row_markdown(p: &RowProfile) -> String {
    let of = |f: f64| Value::Num(f).render(OF_BOUND_FMT);
    let bound = match (p.of_bound, &p.limiter) {
        (Some(f), Some(l)) => format!(" — {} of its bound ({l})", of(f)),
        (Some(f), None) => format!(" — {} of its bound", of(f)),
        _ => String::new(),
    };
    let mut s = format!("- table `{}`, row `{}`{bound}:\n", p.table, p.row);
    for r in &p.runs {
        s.push_str(&format!("  - {}\n", run_line(r)));
    }
    s
}

/// One profiled run: `variant 2: 41.3 ms of passes in a 44.0 ms run — blocked.comp 93 % (1×
/// 38.4 ms), read-back 5 % (1×), …`.
pub fn run_line(r: &RunProfile) -> String {
    let total = r.passes_ms();
    let share = |ms: f64| {
        if total > 0.0 { 100.0 * ms / total } else { 0.0 }
    };
    let mut parts: Vec<String> = r
        .passes
        .iter()
        .take(PASSES_SHOWN)
        .map(|q| {
            format!(
                "`{}` {:.0} % ({}× {})",
                q.pass,
                share(q.ms),
                q.calls,
                ms_text(q.ms / q.calls.max(1) as f64)
            )
        })
        .collect();
    let rest: f64 = r.passes.iter().skip(PASSES_SHOWN).map(|q| q.ms).sum();
    let others = r.passes.len().saturating_sub(PASSES_SHOWN);
    if others > 0 {
        parts.push(format!("{others} more {:.0} %", share(rest)));
    }
    let who = match r.variant {
        Some(v) => format!("variant {v}"),
        None => "run".to_string(),
    };
    format!(
        "{who}: {} of passes in a {} run — {}",
        ms_text(total),
        ms_text(r.wall_ms),
        parts.join(", ")
    )
}

fn ms_text(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 1.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.0} µs", ms * 1e3)
    }
}

/// Every row's profile whose table or row name contains `filter` (all without one), by table;
/// an error when the record holds none (a run before profiles, or `--resume` of every row).
pub fn listing(profiles: &[RowProfile], filter: Option<&str>) -> Result<String, String> {
    if profiles.is_empty() {
        return Err(
            "this record holds no profiles (a run made before they were kept, or \
                    every row reused by --resume)"
                .into(),
        );
    }
    let chosen: Vec<&RowProfile> = profiles
        .iter()
        .filter(|p| filter.is_none_or(|f| p.table.contains(f) || p.row.contains(f)))
        .collect();
    if chosen.is_empty() {
        let f = filter.unwrap_or_default();
        return Err(format!("no profiled row's table or name contains `{f}`"));
    }
    Ok(chosen.iter().map(|p| row_markdown(p)).collect())
}

/// The page's section: the profiles of the rows farthest below their bound, and how to see
/// every row's; empty when the run kept no profile.
pub fn page_section(profiles: &[RowProfile], key: &str) -> String {
    if profiles.is_empty() {
        return String::new();
    }
    let mut s = String::from("<a id=\"profile\"></a>\n## Where the time goes\n\n");
    s.push_str(
        "Each row's last warm-up run, profiled: every pass (a dispatch or draw, named by its \
         shader; a copy, upload or read-back) between two `glFinish`es, timed by the CPU clock \
         (untimed: no number in the tables comes from it). The share is of the passes' time; \
         a run's wall time beyond it is the CPU's work between passes and the finishes. Variants \
         are numbered as the row times them together. The rows farthest below their bound, one per table:\n\n",
    );
    let shown = farthest_below_bound(profiles);
    if shown.is_empty() {
        s.push_str("(no profiled row has a bound in this run)\n");
    }
    for p in shown {
        s.push_str(&row_markdown(p));
    }
    s.push_str(&format!(
        "\nEvery row's profile ({} rows): `gpgpu-repro profile DIR {key}`.\n\n",
        profiles.len()
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::profile::PassTime;

    fn row(name: &str, of_bound: Option<f64>) -> RowProfile {
        RowProfile {
            table: format!("t{name}"),
            row: name.into(),
            of_bound,
            limiter: of_bound.map(|_| "fma".into()),
            runs: vec![RunProfile {
                variant: Some(1),
                wall_ms: 12.0,
                passes: vec![
                    PassTime {
                        pass: "m/blocked.comp".into(),
                        calls: 2,
                        ms: 9.0,
                    },
                    PassTime {
                        pass: "read-back".into(),
                        calls: 1,
                        ms: 1.0,
                    },
                ],
            }],
        }
    }

    #[test]
    fn the_page_shows_the_rows_farthest_below_their_bound_with_their_passes_shares() {
        let mut all = vec![
            row("a", Some(0.5)),
            row("b", None),
            row("c", Some(0.05)),
            row("d", Some(0.9)),
            row("e", Some(0.2)),
        ];
        // A second row of `c`'s table, below `e`: one row per table.
        all.push(RowProfile {
            row: "c2".into(),
            ..row("c", Some(0.1))
        });
        let names: Vec<&str> = farthest_below_bound(&all)
            .iter()
            .map(|p| p.row.as_str())
            .collect();
        assert_eq!(names, ["c", "e", "a"]);
        let page = page_section(&all, "matmul");
        assert!(
            page.contains("row `c` — 0.050 of its bound (fma)"),
            "{page}"
        );
        assert!(
            page.contains("variant 1: 10.0 ms of passes in a 12.0 ms run — `m/blocked.comp` 90 % (2× 4.5 ms), `read-back` 10 % (1× 1.0 ms)"),
            "{page}"
        );
        assert!(!page.contains("row `d`"));
        assert!(page.contains("(6 rows)"));
        assert!(page_section(&[], "matmul").is_empty());
    }
}
