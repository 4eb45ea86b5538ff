//! The device report's section "Where the run's time went": each table's wall time in the run
//! that measured it (the time up to each of its rows from the paper's previous row, of any
//! table), split into the time inside timed GPU runs, inside timed CPU runs, and
//! the rest (set-up, CPU references, verification, plots), from the tables' [`TableTime`]s.
//!
//! # Why
//! A faster device shortens the first part (and the GPU work in the rest). The papers' CPU baselines (Algorithm 3's
//! one-thread loop, one-core Bi-CG, Thomas on the CPU) and the CPU references in f64 take as
//! long on a GPU host as here, so the table says which tables a GPU run will still spend its
//! minutes on, and why a run does or does not fit a time limit (issue 36: a full run in one
//! 9-minute command on an H100/H200).

use crate::report::record::{PaperRecord, TableTime};

/// How many of the longest tables the section lists (the rest in one line).
pub const SHOWN: usize = 15;

/// One table's time, with its paper.
struct Entry<'a> {
    paper: &'a str,
    id: &'a str,
    time: TableTime,
}

/// The section; empty when no table of the folder has a recorded time (older records).
pub fn section(records: &[(&str, Option<&PaperRecord>)]) -> String {
    let mut entries: Vec<Entry> = records
        .iter()
        .filter_map(|(k, r)| r.map(|r| (*k, r)))
        .flat_map(|(paper, r)| {
            r.tables.iter().filter_map(move |t| {
                t.time.map(|time| Entry {
                    paper,
                    id: &t.id,
                    time,
                })
            })
        })
        .collect();
    if entries.is_empty() {
        return String::new();
    }
    entries.sort_by(|a, b| b.time.seconds.total_cmp(&a.time.seconds));
    let total = sum(entries.iter().map(|e| e.time));
    let papers_s: f64 = records
        .iter()
        .filter_map(|(_, r)| r.map(|r| r.provenance.seconds))
        .sum();
    let mut s = String::from("## Where the run's time went\n\n");
    s.push_str(
        "Each table's wall time in the run that measured it — each row's time runs from the \
         paper's previous row, of any table, to this one, so that the set-up before a row \
         counts with it and tables filled by one measurement count its seconds once, with \
         the first row written — and how much of it was spent inside timed runs: on the GPU (between the two \
         `glFinish` calls, with the warm-ups and the re-warms of an idle GPU) and on the CPU \
         (the papers' CPU baselines). The rest is everything else: set-up and shader \
         compilation, the CPU references in f64, verification, plots, and GPU work that no \
         timed run brackets (a simulation run for its result, a solve timed by its own \
         clock). A faster GPU shortens the first part and some of the rest; the timed CPU \
         runs take as long on any device with this CPU.\n\n\
         | table | seconds | share | timed GPU runs | timed CPU runs | rest |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for e in entries.iter().take(SHOWN) {
        s.push_str(&line(
            &format!("[`{}/{}`]({}/{}.md)", e.paper, e.id, e.paper, e.id),
            e.time,
            total.seconds,
        ));
    }
    if entries.len() > SHOWN {
        let rest = sum(entries[SHOWN..].iter().map(|e| e.time));
        s.push_str(&line(
            &format!("the other {} tables", entries.len() - SHOWN),
            rest,
            total.seconds,
        ));
    }
    s.push_str(&line("**all tables**", total, total.seconds));
    let rest = total.seconds - total.gpu_s - total.cpu_s;
    s.push_str(&format!(
        "\nOf the tables' {} s, timed GPU runs took {} s ({}), timed CPU runs {} s ({}) and \
         the rest {} s ({}).",
        secs(total.seconds),
        secs(total.gpu_s),
        pct(total.gpu_s, total.seconds),
        secs(total.cpu_s),
        pct(total.cpu_s, total.seconds),
        secs(rest),
        pct(rest, total.seconds),
    ));
    let outside = papers_s - total.seconds;
    if outside > 0.5 {
        s.push_str(&format!(
            " The papers' runs took {} s in all; the {} s outside their tables went to what \
             follows a paper's last row (its plots, findings and record) and to tables whose \
             rows were all taken over from an earlier run (`--resume`).",
            secs(papers_s),
            secs(outside)
        ));
    }
    s.push_str("\n\n");
    s
}

/// A table line: name, seconds, share of `all`, the three parts.
fn line(name: &str, t: TableTime, all: f64) -> String {
    format!(
        "| {name} | {} | {} | {} | {} | {} |\n",
        secs(t.seconds),
        pct(t.seconds, all),
        secs(t.gpu_s),
        secs(t.cpu_s),
        secs(t.seconds - t.gpu_s - t.cpu_s)
    )
}

fn sum(times: impl Iterator<Item = TableTime>) -> TableTime {
    times.fold(TableTime::default(), |a, t| TableTime {
        seconds: a.seconds + t.seconds,
        gpu_s: a.gpu_s + t.gpu_s,
        cpu_s: a.cpu_s + t.cpu_s,
    })
}

/// Seconds as the report writes them: whole seconds from 10 s, one decimal below.
fn secs(s: f64) -> String {
    let s = s.max(0.0);
    if s >= 10.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

fn pct(part: f64, all: f64) -> String {
    if all > 0.0 {
        format!("{:.0} %", 100.0 * part.max(0.0) / all)
    } else {
        "—".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::record::TableRef;

    fn table(id: &str, time: Option<(f64, f64, f64)>) -> TableRef {
        TableRef {
            id: id.into(),
            title: id.into(),
            rows: 1,
            time: time.map(|(seconds, gpu_s, cpu_s)| TableTime {
                seconds,
                gpu_s,
                cpu_s,
            }),
            ..Default::default()
        }
    }

    fn record(key: &str, seconds: f64, tables: Vec<TableRef>) -> PaperRecord {
        PaperRecord {
            key: key.into(),
            title: key.into(),
            provenance: crate::report::provenance::Provenance {
                seconds,
                ..Default::default()
            },
            tables,
            plots: vec![],
            notes: vec![],
            audits: vec![],
            findings: vec![],
            profiles: vec![],
        }
    }

    #[test]
    fn the_longest_table_comes_first_with_its_parts_and_the_totals_add_up() {
        let a = record(
            "matmul",
            130.0,
            vec![
                table("table1", Some((100.0, 20.0, 70.0))),
                table("tuning", Some((20.0, 18.0, 0.0))),
            ],
        );
        let b = record("lu", 6.0, vec![table("table5", Some((5.0, 1.0, 0.4)))]);
        let s = section(&[("matmul", Some(&a)), ("lu", Some(&b))]);
        let rows: Vec<&str> = s.lines().filter(|l| l.starts_with("| [`")).collect();
        assert_eq!(rows.len(), 3, "{s}");
        assert_eq!(
            rows[0],
            "| [`matmul/table1`](matmul/table1.md) | 100 | 80 % | 20 | 70 | 10 |"
        );
        assert!(rows[2].starts_with("| [`lu/table5`]"), "{s}");
        assert!(
            s.contains("| **all tables** | 125 | 100 % | 39 | 70 | 16 |"),
            "{s}"
        );
        // 125 s in the tables, 136 s in the papers: 11 s outside.
        assert!(s.contains("the 11 s outside"), "{s}");
        assert!(
            s.contains("timed GPU runs took 39 s (31 %), timed CPU runs 70 s (56 %) and the rest 16 s (12 %)"),
            "{s}"
        );
    }

    #[test]
    fn records_without_times_give_no_section_and_many_tables_are_folded() {
        let old = record("lu", 1.0, vec![table("table5", None)]);
        assert_eq!(section(&[("lu", Some(&old)), ("bicg", None)]), "");
        let many = record(
            "lu",
            1.0,
            (0..SHOWN + 3)
                .map(|i| table(&format!("t{i}"), Some((1.0 + i as f64, 0.0, 0.0))))
                .collect(),
        );
        let s = section(&[("lu", Some(&many))]);
        assert!(s.contains("| the other 3 tables | 6.0 |"), "{s}");
        assert!(!s.contains("outside"), "{s}");
    }
}
