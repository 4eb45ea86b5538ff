//! A paper's page, `DIR/<paper>/README.md`: its run, contents, findings, tables with their
//! files, plots, notes, the audit of its own numbers and its provenance.

use std::path::Path;

use crate::report::audit::{Audit, short};
use crate::report::claim::Claim;
use crate::report::record::{PaperRecord, TableRef};

/// A paper's page: its provenance, tables (with their files), plots, findings in full,
/// reproduction notes and the audit of its own numbers; links are relative to its folder.
pub(super) fn paper_page(
    dir: &Path,
    key: &str,
    title: &str,
    claims: &[Claim],
    r: &PaperRecord,
) -> String {
    let mut s = format!("# `{key}` — {title}\n\n[← the report](../REPORT.md)\n\n");
    s.push_str(&run_lines(r));
    s.push_str(&contents_line(r));
    if !claims.is_empty() {
        s.push_str(&crate::report::claim::page_section(
            claims,
            &r.findings,
            crate::report::claim::software(&r.provenance),
        ));
    } else if !r.findings.is_empty() {
        s.push_str("<a id=\"findings\"></a>\n## Findings\n\n");
        for f in &r.findings {
            s.push_str(&format!("- {}\n", f.to_markdown()));
        }
        s.push('\n');
    }
    for t in &r.tables {
        s.push_str(&table_section(dir, t));
    }
    for p in &r.plots {
        s.push_str(&format!(
            "![{}]({})\n\n*{}*\n\n",
            p.caption, p.file, p.caption
        ));
    }
    s.push_str(&crate::report::profile::page_section(&r.profiles, key));
    if !r.notes.is_empty() {
        s.push_str("<a id=\"notes\"></a>\n## Reproduction notes\n\n");
        for n in &r.notes {
            s.push_str(&format!("- {}\n", n.replace('\n', "\n  ")));
        }
        s.push('\n');
    }
    if !r.audits.is_empty() {
        s.push_str(&audit_section(&r.audits));
    }
    s.push_str("## Provenance\n\n");
    s.push_str(&r.provenance.to_markdown(true));
    s
}

/// The page's opening lines: when, at which commit, in which mode, on which device the
/// paper ran and for how long, and the machine's load (a warning when noisy).
fn run_lines(r: &PaperRecord) -> String {
    let mut s = format!(
        "Run {} at commit `{}`, {} mode, on {} ({}); this paper took {:.0} s{}.\n\n",
        r.provenance.date,
        r.provenance.commit,
        r.provenance.mode,
        r.provenance.gl_renderer,
        r.provenance.gl_version,
        r.provenance.seconds,
        if r.provenance.load.is_empty() {
            String::new()
        } else {
            format!(
                "; load average (1, 5, 15 min) at its start {}",
                r.provenance.load
            )
        }
    );
    if let Some(m) = &r.provenance.machine {
        if m.noisy() {
            s.push_str(&format!(
                "> **Noisy run.** Other work used more than a quarter of the machine's cores \
                 while this paper was measured, so its times are inflated and may not repeat. \
                 Machine: {}.\n\n",
                m.describe()
            ));
        } else {
            s.push_str(&format!("Machine: {}.\n\n", m.describe()));
        }
    }
    s
}

/// The page's table of contents: its tables, then findings, notes and audit where it has them.
fn contents_line(r: &PaperRecord) -> String {
    let contents: Vec<String> = r
        .tables
        .iter()
        .map(|t| format!("[{}](#{})", t.id, t.id))
        .chain(
            [
                (!r.findings.is_empty(), "findings"),
                (!r.profiles.is_empty(), "profile"),
                (!r.notes.is_empty(), "notes"),
                (!r.audits.is_empty(), "audit"),
            ]
            .iter()
            .filter(|(has, _)| *has)
            .map(|(_, n)| format!("[{n}](#{n})")),
        )
        .collect();
    format!("Contents: {}.\n\n", contents.join(" · "))
}

/// One table's section: its anchor, its Markdown (or why it was skipped), and the line of
/// its files with what was reused and whether it was measured noisy.
fn table_section(dir: &Path, t: &TableRef) -> String {
    let mut s = format!("<a id=\"{}\"></a>\n", t.id);
    if let Some(why) = &t.skipped {
        s.push_str(&format!(
            "### Table `{}`: not run\n\n*Skipped on this device: {why}.*\n\n",
            t.id
        ));
        return s;
    }
    let md = std::fs::read_to_string(dir.join(format!("{}.md", t.id)))
        .unwrap_or_else(|_| format!("### {}\n\n(table file missing)\n", t.title));
    s.push_str(&md);
    let reused = match t.reused {
        0 => String::new(),
        n => format!(
            " — {n} of {} rows reused from an earlier run (`--resume`)",
            t.rows
        ),
    };
    let noisy = match t.load.as_ref().filter(|l| l.noisy) {
        Some(l) => format!(
            " — **measured while the machine was noisy** ({})",
            l.describe()
        ),
        None => String::new(),
    };
    s.push_str(&format!(
        "\nFiles: [{id}.md]({id}.md), [{id}.csv]({id}.csv), [{id}.json]({id}.json){reused}{noisy}\n\n",
        id = t.id
    ));
    s
}

/// The audit of a paper's own numbers: every derived value recomputed, the disagreements.
fn audit_section(audits: &[Audit]) -> String {
    let bad = audits.iter().filter(|a| !a.agrees()).count();
    let mut s = format!(
        "<a id=\"audit\"></a>\n## Audit of the paper's own numbers\n\n{} derived values \
         recomputed from the paper's raw columns with its own formulas; {} disagree beyond \
         rounding.\n\n",
        audits.len(),
        bad
    );
    s.push_str(
        "| value | paper prints | recomputed | difference | agrees |\n|---|---:|---:|---:|---|\n",
    );
    for a in audits {
        s.push_str(&format!(
            "| {} | {} | {} | {:+.2}% | {} |\n",
            a.what,
            short(a.printed),
            short(a.recomputed),
            100.0 * (a.printed - a.recomputed) / a.recomputed.abs().max(f64::MIN_POSITIVE),
            if a.agrees() { "yes" } else { "**no**" }
        ));
    }
    s.push('\n');
    for a in audits.iter().filter(|a| !a.agrees()) {
        s.push_str(&format!("- {}\n", a.describe()));
    }
    if bad > 0 {
        s.push('\n');
    }
    s
}
