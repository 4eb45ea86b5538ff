//! A paper's claim re-tested on a run: the claim in short with where the paper makes it, the
//! paper's number, ours, the verdict and what it rests on, and the table the numbers come
//! from. `REPORT.md` opens with every paper's findings in one table ("findings at a glance");
//! each paper's section lists them in full; `compare` lists the verdicts that change.

use serde::{Deserialize, Serialize};

/// Whether this run bears the claim out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Held,
    NotHeld,
    /// The run cannot decide (e.g. both sides implementation-bound, or too close to call).
    Inconclusive,
    /// The rows the claim needs were not run or did not verify.
    NotTested,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Held => "held",
            Verdict::NotHeld => "not held",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotTested => "not tested",
        }
    }

    /// `Held` when `held`, else `NotHeld`.
    pub fn of(held: bool) -> Verdict {
        if held {
            Verdict::Held
        } else {
            Verdict::NotHeld
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One claim of a paper, judged on this run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The claim in the paper's words, short, with where it is made: "CR is considerably
    /// faster than Thomas (abstract)".
    pub claim: String,
    /// The paper's number for it (from the experiment file), or "—".
    pub paper: String,
    /// Ours, from this run's rows.
    pub ours: String,
    pub verdict: Verdict,
    /// What the verdict rests on and what qualifies it (the device, the bound).
    pub why: String,
    /// The rule the verdict applies, e.g. "CR / Thomas ≤ 1 (the whole 95 % interval)".
    #[serde(default)]
    pub threshold: String,
    /// The table the numbers come from (its id in the paper's folder).
    pub table: String,
}

impl Finding {
    /// A finding whose numbers come from `table`.
    pub fn new(table: &str, claim: impl Into<String>) -> Finding {
        Finding {
            claim: claim.into(),
            paper: "—".into(),
            ours: "—".into(),
            verdict: Verdict::NotTested,
            why: String::new(),
            threshold: String::new(),
            table: table.into(),
        }
    }

    /// The rule the verdict applies (the findings table prints it).
    pub fn threshold(mut self, v: impl Into<String>) -> Finding {
        self.threshold = v.into();
        self
    }

    /// Judges the claim "`stat` ≥ `threshold`" (`at_least`; else "≤") on the statistic's
    /// 95 % interval ([`crate::stats::decide`]): *held* when the whole interval is on the
    /// claim's side, *not held* when the whole interval is on the other side, *inconclusive*
    /// when it contains the threshold — and *inconclusive* too when the statistic rests on
    /// fewer runs than a 95 % interval needs ([`crate::stats::Estimate::has_ci`]: a single run
    /// never decides a claim). Sets the verdict, `ours` (`median [lo, hi]`, `name`
    /// first) and the threshold (`name ≥ threshold`).
    pub fn judge(
        self,
        name: &str,
        stat: &crate::stats::Estimate,
        threshold: f64,
        at_least: bool,
    ) -> Finding {
        use crate::stats::Decision;
        // An interval of fewer runs than a 95 % one needs decides nothing.
        let verdict = match crate::stats::decide(stat.interval(), threshold, at_least) {
            _ if !stat.has_ci() => Verdict::Inconclusive,
            Decision::Holds => Verdict::Held,
            Decision::Fails => Verdict::NotHeld,
            Decision::Undecided => Verdict::Inconclusive,
        };
        let v = |x: f64| crate::report::Value::Num(x).render(crate::report::table::Fmt::Sig(3));
        let ours = if stat.hi > stat.lo {
            format!(
                "{name} = {} [{}, {}]",
                v(stat.median),
                v(stat.lo),
                v(stat.hi)
            )
        } else {
            format!("{name} = {}", v(stat.median))
        };
        let op = if at_least { "≥" } else { "≤" };
        self.verdict(verdict).ours(ours).threshold(format!(
            "{name} {op} {} (whole 95 % interval)",
            v(threshold)
        ))
    }
    pub fn paper(mut self, v: impl Into<String>) -> Finding {
        self.paper = v.into();
        self
    }
    pub fn ours(mut self, v: impl Into<String>) -> Finding {
        self.ours = v.into();
        self
    }
    pub fn verdict(mut self, v: Verdict) -> Finding {
        self.verdict = v;
        self
    }
    pub fn why(mut self, v: impl Into<String>) -> Finding {
        self.why = v.into();
        self
    }

    /// A Markdown table cell: no pipes, no line breaks.
    fn cell(s: &str) -> String {
        s.replace('|', "\\|").replace('\n', " ")
    }

    /// The row of the at-a-glance table (`paper` the paper's key, for the link).
    pub fn glance_row(&self, paper: &str) -> String {
        format!(
            "| [{paper}](#{paper}) | {} | {} | {} | {} | **{}** | [{t}]({paper}/{t}.md) |\n",
            Self::cell(&self.claim),
            Self::cell(&self.paper),
            Self::cell(&self.ours),
            Self::cell(if self.threshold.is_empty() {
                "—"
            } else {
                &self.threshold
            }),
            self.verdict,
            t = self.table
        )
    }

    /// The full text, for the paper's section.
    pub fn to_markdown(&self) -> String {
        let mut s = format!(
            "**{}** — **{}**. Paper: {}. Ours: {}.",
            self.claim, self.verdict, self.paper, self.ours
        );
        if !self.threshold.is_empty() {
            s.push_str(&format!(" Rule: {}.", self.threshold));
        }
        if !self.why.is_empty() {
            s.push(' ');
            s.push_str(&self.why);
        }
        s.push_str(&format!(" (table `{}`)", self.table));
        s
    }
}

/// The at-a-glance table's header.
pub const GLANCE_HEADER: &str = "| paper | claim | paper's number | ours | rule | verdict | from |\n|---|---|---|---|---|---|---|\n";
