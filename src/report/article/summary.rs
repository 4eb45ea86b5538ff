//! The article's first screen: a five-line abstract, one sentence per paper, the claims
//! counted (each with its cases nested, [`crate::report::claim::judge`]), the claims table
//! (no cell over [`CELL`] characters; the detail is on the paper's page) and a glossary.

use super::meta::PaperMeta;
use crate::report::claim::{self, Claim, ClaimVerdict, Scope, clip};
use crate::report::finding::Verdict;
use crate::report::record::PaperRecord;

/// The longest a summary cell may be; the paper's page has the rest.
pub const CELL: usize = 300;

const KINDS: [Verdict; 5] = [
    Verdict::Held,
    Verdict::NotHeld,
    Verdict::Inconclusive,
    Verdict::NotTestable,
    Verdict::NotTested,
];

/// A paper's claims with their verdicts on this run.
struct Judged<'a> {
    key: &'static str,
    claims: Vec<(
        &'static Claim,
        ClaimVerdict,
        Vec<&'a crate::report::finding::Finding>,
    )>,
    /// Findings that are no claim's case.
    loose: usize,
}

impl Judged<'_> {
    fn count(&self, v: Verdict) -> usize {
        self.claims
            .iter()
            .filter(|(_, j, _)| j.verdict == v)
            .count()
    }
}

fn judged<'a>(p: &PaperMeta, r: &'a PaperRecord) -> Judged<'a> {
    let software = claim::software(&r.provenance);
    let claims = p
        .original
        .claims
        .iter()
        .map(|c| {
            let cases = claim::cases_of(c, &r.findings);
            (c, claim::judge(c, &cases, software), cases)
        })
        .collect();
    let loose = r
        .findings
        .iter()
        .filter(|f| !p.original.claims.iter().any(|c| c.has_case(f)))
        .count();
    Judged {
        key: p.key,
        claims,
        loose,
    }
}

/// "3 held, 1 not held, …" (the kinds that occur).
fn tally(j: &[&Judged]) -> String {
    let parts: Vec<String> = KINDS
        .iter()
        .map(|&k| (k, j.iter().map(|p| p.count(k)).sum::<usize>()))
        .filter(|&(_, n)| n > 0)
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    parts.join(", ")
}

/// Why the claims without a verdict have none, kind by kind, with the claims of each (from
/// this run's verdicts, nothing fixed in advance): "none" when every claim was decided. The
/// claims not testable here are grouped by what they need.
fn undecided(all: &[Judged]) -> String {
    let of = |k: Verdict| -> Vec<(String, &'static Claim)> {
        all.iter()
            .flat_map(|j| {
                j.claims
                    .iter()
                    .filter(move |(_, v, _)| v.verdict == k)
                    .map(move |(c, _, _)| (format!("{} {}", j.key, c.id), *c))
            })
            .collect()
    };
    let mut parts = Vec::new();
    let untestable = of(Verdict::NotTestable);
    if !untestable.is_empty() {
        let mut needs: Vec<(&str, Vec<&str>)> = Vec::new();
        for (id, c) in &untestable {
            let need = match c.scope {
                Scope::Never(what) => what,
                _ => claim::NEEDS_GPU,
            };
            match needs.iter_mut().find(|(n, _)| *n == need) {
                Some((_, ids)) => ids.push(id),
                None => needs.push((need, vec![id])),
            }
        }
        let groups: Vec<String> = needs
            .iter()
            .map(|(need, ids)| format!("{} need {need}", ids.join(", ")))
            .collect();
        parts.push(format!(
            "{} {} ({})",
            untestable.len(),
            Verdict::NotTestable.name(),
            groups.join("; ")
        ));
    }
    for (k, reason) in [
        (Verdict::NotTested, "no case of this run reads them"),
        (
            Verdict::Inconclusive,
            "a case left undecided; the paper's page says why",
        ),
    ] {
        let ids: Vec<String> = of(k).into_iter().map(|(id, _)| id).collect();
        if !ids.is_empty() {
            parts.push(format!(
                "{} {} ({reason}: {})",
                ids.len(),
                k.name(),
                ids.join(", ")
            ));
        }
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join("; ")
    }
}

/// The first screen: abstract, per-paper sentences, counts, the claims table, the glossary.
pub(super) fn summary(
    dir: &std::path::Path,
    device: &str,
    ran: &[(&PaperMeta, &PaperRecord)],
) -> String {
    let all: Vec<Judged> = ran.iter().map(|(p, r)| judged(p, r)).collect();
    let refs: Vec<&Judged> = all.iter().collect();
    let n: usize = all.iter().map(|j| j.claims.len()).sum();
    let software = ran.iter().any(|(_, r)| claim::software(&r.provenance));
    let mut s = String::from("## Abstract\n\n");
    s.push_str(&format!(
        "- **Re-run:** {} on GPU linear solvers (2005–2019), each with its own technique, on \
         OpenGL; {n} claims quoted from the papers, each judged on this device.\n",
        match all.len() {
            1 => "1 paper".to_string(),
            k => format!("{k} papers"),
        }
    ));
    s.push_str(&format!(
        "- **On:** {device}, {}.\n",
        if software {
            "a software rasterizer — its \"GPU\" is this machine's CPU, so claims of a GPU \
             against a CPU cannot be tested here"
        } else {
            "a hardware GPU beside the machine's CPU"
        }
    ));
    s.push_str(&format!("- **Verdicts:** {}.\n", tally(&refs)));
    let not_held: Vec<String> = all
        .iter()
        .flat_map(|j| j.claims.iter().map(move |c| (j.key, c)))
        .filter(|(_, (_, v, _))| v.verdict == Verdict::NotHeld)
        .map(|(k, (c, _, _))| format!("{k} {} ({})", c.id, c.short))
        .collect();
    s.push_str(&format!(
        "- **Not held:** {}.\n",
        if not_held.is_empty() {
            "none".into()
        } else {
            not_held.join("; ")
        }
    ));
    s.push_str(&format!("- **Undecided:** {}.\n\n", undecided(&all)));
    if dir.join(crate::report::claim::FOREST_PNG).exists() {
        s.push_str(&format!(
            "![The claims: one row per claim, ours against the rule]({})\n\n*The claims: one \
             row per claim, each case a dot with its 95 % interval, divided by its rule's \
             threshold and turned so that right of 1 is the claim's side; hollow diamonds the \
             paper's own value on the same scale; colour and right-hand text the verdict.*\n\n",
            crate::report::claim::FOREST_PNG
        ));
    }
    for j in &all {
        s.push_str(&paper_sentence(j));
    }
    s.push('\n');
    s.push_str(&counts(&all));
    s.push_str(&claims_table(&all));
    s.push_str(GLOSSARY);
    s
}

/// One sentence per paper: its tally and its first claim not held (or undecided) with why.
fn paper_sentence(j: &Judged) -> String {
    let first = j
        .claims
        .iter()
        .find(|(_, v, _)| v.verdict == Verdict::NotHeld)
        .or_else(|| {
            j.claims
                .iter()
                .find(|(_, v, _)| v.verdict == Verdict::Inconclusive)
        });
    let untestable: Vec<&str> = j
        .claims
        .iter()
        .filter(|(_, v, _)| v.verdict == Verdict::NotTestable)
        .map(|(c, _, _)| c.id)
        .collect();
    let tail = match first {
        Some((c, v, _)) => format!("; {} {} {}: {}", c.id, c.short, v.verdict, v.sentence),
        None if !untestable.is_empty() => format!(
            "; {} not testable here (they need {})",
            untestable.join(", "),
            claim::NEEDS_GPU
        ),
        None => String::new(),
    };
    format!(
        "- **[{k}]({k}/README.md#claims)**: {}{tail}.\n",
        tally(&[j]),
        k = j.key
    )
}

fn counts(all: &[Judged]) -> String {
    let mut s = String::from(
        "### Claims counted\n\nA claim's verdict comes from its cases (sizes, variants): \
         *held* when every decided case held, *not held* when every one failed, \
         *inconclusive* when they disagree or one straddles its rule; each case is judged on \
         a 95 % interval against its rule.\n\n\
         | paper | claims | held | not held | inconclusive | not testable here | not tested |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut totals = [0usize; 5];
    for j in all {
        let c = KINDS.map(|k| j.count(k));
        for (t, x) in totals.iter_mut().zip(c) {
            *t += x;
        }
        s.push_str(&format!(
            "| [{k}]({k}/README.md#claims) | {} | {} |\n",
            j.claims.len(),
            c.map(|x| x.to_string()).join(" | "),
            k = j.key
        ));
    }
    s.push_str(&format!(
        "| **all** | **{}** | {} |\n\n",
        totals.iter().sum::<usize>(),
        totals.map(|c| format!("**{c}**")).join(" | ")
    ));
    let loose: usize = all.iter().map(|j| j.loose).sum();
    if loose > 0 {
        s.push_str(&format!(
            "{loose} further finding{} of this run {} to no quoted claim; on the papers' \
             pages.\n\n",
            if loose == 1 { "" } else { "s" },
            if loose == 1 { "belongs" } else { "belong" }
        ));
    }
    s
}

/// Markdown cell: no pipes, no line breaks, at most [`CELL`] characters.
fn cell(s: &str) -> String {
    clip(&s.replace('|', "\\|").replace('\n', " "), CELL)
}

fn claims_table(all: &[Judged]) -> String {
    let mut s = String::from(
        "### The claims\n\nOne row per claim; its cases, the quote in the paper's language and \
         every number are on the paper's page.\n\n\
         | paper | claim | where | cases | ours (first case) | verdict |\n|---|---|---|---|---|---|\n",
    );
    for j in all {
        for (c, v, cases) in &j.claims {
            let ours = cases
                .iter()
                .find(|f| f.verdict != Verdict::NotTested)
                .map_or("—".to_string(), |f| f.ours.clone());
            s.push_str(&format!(
                "| [{k}]({k}/README.md#claims) | {} {} | {} | {} | {} | **{}** |\n",
                c.id,
                cell(c.short),
                cell(c.section),
                cell(&v.sentence),
                cell(&ours),
                v.verdict,
                k = j.key
            ));
        }
    }
    s.push('\n');
    s
}

const GLOSSARY: &str = "### Terms\n\n\
- **CR / PCR**: cyclic (odd–even) reduction / its parallel form; **CG**: conjugate gradient; \
**Thomas**: the serial tridiagonal elimination on the CPU.\n\
- **I1–I4**: the LU paper's four implementations (I1 loop split, I2 branching on the GPU, I3/I4 \
the same with RGBA vectors); **A / G / T**: its whole time, GPU drawing time, in-VRAM copy time \
(Table 4).\n\
- **ULP**: unit in the last place of an fp32 number; **ρ**: a ratio of two times or rates.\n\
- **ELLPACK-R**: the sparse format of the Bi-CG paper (values and column indices by row, plus \
each row's length).\n\
- **roof**: this device's measured bound for an access kind (`bench`); **of bound**: a row's \
rate as a fraction of its roof.\n\
- **95 % interval**: distribution-free interval of a median (or of paired ratios) over repeated \
runs.\n\n";
