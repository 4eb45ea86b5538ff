//! The article itself: intro, method, what was not reproduced, references, around the
//! summary and the threats.

use std::path::Path;

use super::meta::PaperMeta;
use super::records::tables;
use super::summary::summary;
use super::threats::threats;
use crate::report::finding::Verdict;
use crate::report::provenance::Provenance;
use crate::report::record::{PaperRecord, RunTimes};

/// The methods this project uses, cited in every report.
const METHOD_REFERENCES: &[&str] = &[
    "R. W. Hockney, \"A fast direct solution of Poisson's equation using Fourier analysis\", \
     J. ACM 12(1), 95–113, 1965 — cyclic (odd-even) reduction.",
    "K. E. Hillesland and A. Lastra, \"GPU floating-point paranoia\", Proc. ACM Workshop on \
     General Purpose Computing on Graphics Processors (GP²), 2004 — the error intervals of the \
     LU paper's §5.1 and of the 2005 arithmetic model.",
    "F. Vázquez, J. J. Fernández and E. M. Garzón, \"A new approach for sparse matrix vector \
     product on NVIDIA GPUs\", Concurrency and Computation: Practice and Experience 23(8), \
     815–826, 2011 — ELLPACK-R.",
    "W. H. Press, S. A. Teukolsky, W. T. Vetterling and B. P. Flannery, Numerical Recipes in \
     C, 2nd ed., Cambridge University Press, 1992, §2.7 — `linbcg`, the preconditioned Bi-CG \
     whose kernels the Bi-CG paper names.",
    "M. Harris, \"Optimizing parallel reduction in CUDA\", NVIDIA CUDA SDK, 2007 — the tree \
     reductions.",
    "S. Williams, A. Waterman and D. Patterson, \"Roofline: an insightful visual performance \
     model for multicore architectures\", Commun. ACM 52(4), 65–76, 2009 — the bounds.",
    "T. Deakin, J. Price, M. Martineau and S. McIntosh-Smith, \"GPU-STREAM v2.0: benchmarking \
     the achievable memory bandwidth of many-core processors across diverse parallel \
     programming models\", ISC High Performance Workshops, LNCS 9945, 2016 — the bandwidth \
     roofs.",
    "J.-Y. Le Boudec, Performance Evaluation of Computer and Communication Systems, EPFL \
     Press, 2010, §2.2 — the distribution-free confidence interval of a median.",
    "N. P. Rougier, K. Hinsen et al., \"Sustainable computational science: the ReScience \
     initiative\", PeerJ Computer Science 3:e142, 2017 — the form of this report.",
];

/// The article: summary, method, threats, the sections across the papers (`across`, already
/// rendered: legacy vs compute, the targets), what was not reproduced, the papers' pages,
/// references, provenance.
pub fn article(
    dir: &Path,
    papers: &[PaperMeta],
    records: &[Option<PaperRecord>],
    run: Option<&RunTimes>,
    across: &str,
) -> String {
    let ran: Vec<(&PaperMeta, &PaperRecord)> = papers
        .iter()
        .zip(records)
        .filter_map(|(p, r)| r.as_ref().map(|r| (p, r)))
        .collect();
    let device = ran
        .first()
        .map(|(_, r)| r.provenance.gl_renderer.clone())
        .unwrap_or_else(|| "this device".into());
    let mut s = format!("# Five GPGPU papers (2005–2019) re-run on {device}\n\n");
    s.push_str(&summary(dir, &device, &ran));
    s.push_str(&method(dir, &ran));
    s.push_str(&threats(dir, &ran, run));
    s.push_str(across);
    s.push_str(&not_reproduced(dir, &ran, papers));
    s.push_str(
        "## The papers' pages\n\nEach paper's tables, figures, findings in full, \
                reproduction notes and the audit of its own numbers.\n\n\
                | paper | run | commit | mode | tables | rows | failed | time |\n\
                |---|---|---|---|---:|---:|---:|---:|\n",
    );
    for (p, r) in &ran {
        s.push_str(&format!(
            "| [{key}]({key}/README.md) — {} | {} | `{}` | {} | {} | {} | {} | {:.0} s |\n",
            p.title,
            r.provenance.date,
            r.provenance.commit,
            r.provenance.mode,
            r.tables.len(),
            crate::report::record::rows_cell(r),
            r.failed_rows(),
            r.provenance.seconds,
            key = p.key
        ));
    }
    s.push_str("\n## References\n\n");
    for (i, p) in papers.iter().enumerate() {
        s.push_str(&format!("{}. {}\n", i + 1, p.original.citation));
    }
    for (i, m) in METHOD_REFERENCES.iter().enumerate() {
        s.push_str(&format!("{}. {m}\n", papers.len() + i + 1));
    }
    s.push_str("\n## This run\n\n");
    s.push_str(&intro(&ran, run));
    s
}

/// What this is and where its numbers come from (near the end: provenance follows the
/// findings).
fn intro(ran: &[(&PaperMeta, &PaperRecord)], run: Option<&RunTimes>) -> String {
    let mut s = String::from(
        "Five papers on solving linear systems on GPUs — two written for the fragment \
         pipeline of 2005, two for CUDA (2011, 2012), one for GL 4.3 compute (2019) — \
         re-created with each paper's own technique on OpenGL, and each of their claims \
         re-tested on this device. Every number is measured in the run named below and every GPU result \
         is checked against a CPU reference in f64.",
    );
    if let Some((_, r)) = ran.first() {
        s.push_str(&format!(
            " Device: {} ({}), CPU: {}.",
            r.provenance.gl_renderer, r.provenance.gl_version, r.provenance.cpu
        ));
    }
    if let Some(run) = run {
        s.push_str(&format!(" {}", run.describe()));
    }
    s.push_str("\n\n");
    s
}

/// The method: the papers' machines against this one; what "verified" means, with the
/// tolerances of this run; how times are taken.
fn method(dir: &Path, ran: &[(&PaperMeta, &PaperRecord)]) -> String {
    let mut s = String::from(
        "## Method\n\n### From the papers' machines to this one\n\n\
         | paper | original setup | here |\n|---|---|---|\n",
    );
    for (p, _) in ran {
        s.push_str(&format!(
            "| [{key}]({key}/README.md) | {} | {} |\n",
            p.original.setup,
            p.original.here,
            key = p.key
        ));
    }
    s.push_str(
        "\n### Verified\n\nA row that computes a result is *verified* when its error against \
         the CPU reference (f64, or the paper's own CPU algorithm where the paper times one) \
         is within the row's tolerance; the error and tolerance are columns of its table and \
         a row over it is FAILED. The tolerances follow from the precision and the \
         algorithm (fp32 direct solvers near machine epsilon times the size's growth, \
         iterative solvers their stopping test).\n\n\
         | paper | verified rows | failed | unchecked (nothing to verify) | tolerances in this run |\n\
         |---|---:|---:|---:|---|\n",
    );
    for (p, r) in ran {
        let (mut verified, mut tol) = (0usize, Vec::new());
        for t in tables(dir, p.key, r) {
            for row in &t.rows {
                if let crate::report::table::row::Status::Verified { tolerance, .. } = row.status {
                    verified += 1;
                    tol.push(tolerance);
                }
            }
        }
        let range = match (
            tol.iter().copied().reduce(f64::min),
            tol.iter().copied().reduce(f64::max),
        ) {
            (Some(a), Some(b)) if a == b => format!("{a:.1e}"),
            (Some(a), Some(b)) => format!("{a:.1e} … {b:.1e}"),
            _ => "—".into(),
        };
        s.push_str(&format!(
            "| {} | {verified} | {} | {} | {range} |\n",
            p.key,
            r.failed_rows(),
            r.tables.iter().map(|t| t.unchecked).sum::<usize>()
        ));
    }
    s.push_str(&timed(ran.iter().map(|(p, r)| (p.key, &r.provenance))));
    s
}

/// The *Timed* paragraph from the records: each paper's rules as the binary that ran it
/// wrote them ([`Provenance::timing`]), one paragraph where every paper shares them, else one
/// per group of papers with their commits. A record older than the stored text names its
/// commit instead: its rules are that commit's, not this binary's.
fn timed<'a>(ran: impl Iterator<Item = (&'a str, &'a Provenance)>) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (key, p) in ran {
        let text = if p.timing.is_empty() {
            format!(
                "Not in the records (they predate it): these papers were timed under the \
                 rules of the code of commit `{}`, which this binary may not share.",
                p.commit
            )
        } else {
            p.timing.clone()
        };
        let who = format!("{key} (`{}`)", p.commit);
        match groups.iter_mut().find(|(t, _)| *t == text) {
            Some((_, papers)) => papers.push(who),
            None => groups.push((text, vec![who])),
        }
    }
    let mut s = String::from("\n### Timed\n\n");
    match groups.as_slice() {
        [] => {}
        [(text, _)] => s.push_str(&format!("{text}\n\n")),
        _ => {
            s.push_str(
                "The papers were run by binaries that timed under different rules; each \
                 group's, as its binary wrote them:\n\n",
            );
            for (text, papers) in &groups {
                s.push_str(&format!("- **{}**: {text}\n", papers.join(", ")));
            }
            s.push('\n');
        }
    }
    s
}

/// Every part of every paper not reproduced here, with why: the paper's own omissions, the
/// tables the device could not run, the quoted claims not tested or not testable here (each
/// judged from its cases as the summary does) and the other findings not testable.
fn not_reproduced(dir: &Path, ran: &[(&PaperMeta, &PaperRecord)], papers: &[PaperMeta]) -> String {
    let mut s = String::from("## What was not reproduced, and why\n\n");
    for p in papers {
        let rec = ran.iter().find(|(q, _)| q.key == p.key).map(|(_, r)| *r);
        let mut items: Vec<String> = p
            .original
            .omitted
            .iter()
            .map(|(what, why)| format!("{what}: {why}"))
            .collect();
        match rec {
            None => items.push("the whole paper: not run on this device yet".into()),
            Some(r) => {
                items.extend(r.tables.iter().filter_map(|t| {
                    t.skipped
                        .as_ref()
                        .map(|why| format!("table `{}`: skipped, {why}", t.id))
                }));
                let loaded = tables(dir, p.key, r);
                items.extend(loaded.iter().filter_map(|t| {
                    let mut why: Vec<&str> = t
                        .rows
                        .iter()
                        .filter_map(|row| match &row.status {
                            crate::report::table::row::Status::Skipped { reason } => {
                                Some(reason.as_str())
                            }
                            _ => None,
                        })
                        .collect();
                    let n = why.len();
                    why.dedup();
                    why.first().map(|first| {
                        format!(
                            "`{}`: {n} rows skipped ({first}{})",
                            t.id,
                            if why.len() > 1 { "; and alike" } else { "" }
                        )
                    })
                }));
                // Every quoted claim judged as the summary judges it (a claim with no case
                // run, such as an absolute speed on a software rasterizer, counts too), then
                // the findings that are no claim's case.
                let software = crate::report::claim::software(&r.provenance);
                items.extend(p.original.claims.iter().filter_map(|c| {
                    let cases = crate::report::claim::cases_of(c, &r.findings);
                    let v = crate::report::claim::judge(c, &cases, software).verdict;
                    matches!(v, Verdict::NotTested | Verdict::NotTestable)
                        .then(|| format!("claim {} \"{}\": {v}", c.id, c.short))
                }));
                items.extend(
                    r.findings
                        .iter()
                        .filter(|f| !p.original.claims.iter().any(|c| c.has_case(f)))
                        .filter(|f| matches!(f.verdict, Verdict::NotTested | Verdict::NotTestable))
                        .map(|f| format!("finding \"{}\": {}", f.claim, f.verdict)),
                );
            }
        }
        if items.is_empty() {
            items.push("nothing: every table, figure and claim ran".into());
        }
        s.push_str(&format!("- **{}** — {}.\n", p.key, items.join("; ")));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::provenance::TIMED;

    fn prov(commit: &str, timing: &str) -> Provenance {
        Provenance {
            commit: commit.into(),
            timing: timing.into(),
            ..Default::default()
        }
    }

    #[test]
    fn the_timed_paragraph_is_the_records_not_this_binarys() {
        let (old, new) = (prov("aaa", "Old rules."), prov("bbb", TIMED));
        let one = timed([("lu", &old), ("bicg", &old)].into_iter());
        assert_eq!(one, "\n### Timed\n\nOld rules.\n\n");
        let mixed = timed([("lu", &old), ("bicg", &new), ("fem-storage", &old)].into_iter());
        assert!(
            mixed.contains("- **lu (`aaa`), fem-storage (`aaa`)**: Old rules.\n"),
            "{mixed}"
        );
        assert!(
            mixed.contains(&format!("- **bicg (`bbb`)**: {TIMED}\n")),
            "{mixed}"
        );
        let none = timed([("lu", &prov("ccc", ""))].into_iter());
        assert!(
            none.contains("commit `ccc`") && !none.contains(TIMED),
            "{none}"
        );
    }
}
