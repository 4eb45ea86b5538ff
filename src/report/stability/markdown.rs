//! The stability summary in words: its reading (stable or not by the bar) and its Markdown
//! (a table of counts, then the items behind them and the roofs).

use super::summary::{MIN_OVERLAP, Summary, short, ten_percent_apart};

/// `n` of `of` as a percentage, "—" of none.
fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        "—".into()
    } else {
        format!("{:.1} %", 100.0 * n as f64 / of as f64)
    }
}

impl Summary {
    /// The verdict on the two runs against the bar of a stable machine ([`MIN_OVERLAP`] of the
    /// values with overlapping intervals, no *held ↔ not held* flip, winners that change only
    /// within a tie), naming each criterion missed.
    pub fn reading(&self) -> String {
        let mut missed = Vec::new();
        if self.with_ci > 0 && (self.overlap as f64) < MIN_OVERLAP * self.with_ci as f64 {
            missed.push(format!(
                "{} of the values' intervals overlap (the bar: {:.0} %)",
                pct(self.overlap, self.with_ci),
                MIN_OVERLAP * 100.0
            ));
        }
        if !self.decisive.is_empty() {
            missed.push(format!(
                "{} finding(s) flipped held ↔ not held",
                self.decisive.len()
            ));
        }
        if !self.winner_flips.is_empty() {
            missed.push(format!(
                "{} winner(s) changed outside a tie",
                self.winner_flips.len()
            ));
        }
        let bar = format!(
            "at least {:.0} % of the values with overlapping 95 % intervals, no finding flipped \
             held ↔ not held, winners changed only within a tie",
            MIN_OVERLAP * 100.0
        );
        let mut s = if missed.is_empty() {
            format!("**Stable** by the bar ({bar})")
        } else {
            format!("**Not stable** by the bar ({bar}): {}", missed.join("; "))
        };
        if self.with_ci == 0 {
            s.push_str("; no value has an interval in both runs, so overlap is not judged");
        }
        s.push('.');
        if let Some((factor, n)) = self.two_states() {
            s.push_str(&format!(
                " The two runs' benches lie a median factor {factor:.2} apart over their {n} \
                 roofs in common (beyond the factor {} within which one state of the device \
                 measures its roofs, `stats::STATE_FACTOR`): the runs measured two states of the \
                 device, whose times were not expected to agree; what carries from one state to \
                 the other is the findings ({} of {} flipped held ↔ not held).",
                crate::stats::STATE_FACTOR,
                self.decisive.len(),
                self.findings
            ));
        }
        if self.noisy {
            s.push_str(
                " At least one run was measured on a noisy machine (see `machine` above): \
                 other work explains much instability; compare two runs on a quiet machine.",
            );
        }
        s
    }

    /// The summary in Markdown: one table of counts, then the items behind them.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from("## Stability summary\n\n");
        s.push_str(
            "Two runs of one commit on one machine should agree: intervals that overlap, the \
             same verdicts, winners and limiters, the same roofs. What this comparison found \
             (rules: the module docs of `report::stability`; every item is listed below):\n\n",
        );
        s.push_str(&format!("{}\n\n", self.reading()));
        s.push_str(&self.counts_table());
        if self.with_ci == 0 && self.values > 0 {
            s.push_str(
                "\nNo value carries an interval in both runs (a run older than the intervals): \
                 only the 10 % count compares the values.\n",
            );
        }
        s.push_str(&self.moved_line());
        s.push_str(&self.item_lists());
        s.push_str(&self.roofs_table());
        s
    }

    /// How far the values moved between the runs: quantiles of `|ln(B / A)|`; empty when no
    /// value has an interval in both.
    fn moved_line(&self) -> String {
        let mut m = self.moved.clone();
        if m.is_empty() {
            return String::new();
        }
        m.sort_by(f64::total_cmp);
        let q = |p: f64| m[((p * m.len() as f64).ceil() as usize).clamp(1, m.len()) - 1];
        format!(
            "\nHow far the {} values with intervals moved between the runs, `|ln(B / A)|`: median \
             {:.3}, 90th percentile {:.3}, 95th {:.3} (two intervals that include a between-run \
             term `h` overlap where this is below about `2h`; each run's term is in the table \
             above).\n",
            m.len(),
            q(0.5),
            q(0.9),
            q(0.95)
        )
    }

    /// The table of counts: what, how many, of how many, the share.
    fn counts_table(&self) -> String {
        let rows = self.value_counts().into_iter().chain(self.change_counts());
        let mut s = String::from("| what | count | of | share |\n|---|---:|---:|---:|\n");
        for (what, n, of) in rows {
            s.push_str(&format!("| {what} | {n} | {of} | {} |\n", pct(n, of)));
        }
        s
    }

    /// The counts of measured values: `(what, count, of)`, intervals overlapping or apart.
    fn value_counts(&self) -> [(&'static str, usize, usize); 5] {
        [
            (
                "measured values whose 95 % intervals overlap (of those with an interval in both runs)",
                self.overlap,
                self.with_ci,
            ),
            (
                "… whose repetitions' intervals alone overlap (the between-run term taken out)",
                self.overlap_within,
                self.with_ci,
            ),
            (
                "measured values whose intervals are apart (listed below)",
                self.apart.len(),
                self.with_ci,
            ),
            (
                "measured values with each median inside the other run's interval",
                self.inside,
                self.with_ci,
            ),
            (
                "measured values more than 10 % apart (all measured values, with or without an interval)",
                self.ten_percent,
                self.values,
            ),
        ]
    }

    /// The counts of what changed between the runs: findings, winners, fastest variants,
    /// limiters, roofs — `(what, count, of)`.
    fn change_counts(&self) -> [(&'static str, usize, usize); 10] {
        [
            (
                "findings flipped held ↔ not held",
                self.decisive.len(),
                self.findings,
            ),
            (
                "findings flipped to or from inconclusive",
                self.inconclusive.len(),
                self.findings,
            ),
            (
                "findings changed otherwise (e.g. not tested)",
                self.other_verdicts.len(),
                self.findings,
            ),
            (
                "winners flipped (tuning choice, faster pipeline)",
                self.winner_flips.len(),
                self.winners,
            ),
            (
                "winners flipped between rows either run calls a tie (or too few runs)",
                self.tie_flips.len(),
                self.winners,
            ),
            (
                "fastest variant of a pipeline changed (`versus`, no variant in common)",
                self.variant_changes.len(),
                self.variants,
            ),
            (
                "fastest variant of a pipeline changed within a tie (`A ≈ B` in either run)",
                self.variant_tie_changes.len(),
                self.variants,
            ),
            (
                "limiters flipped (no limiter in common)",
                self.limiter_flips.len(),
                self.limiters,
            ),
            (
                "limiters changed, one in common (e.g. bandwidth → bandwidth ≈ fp32)",
                self.limiter_changes.len(),
                self.limiters,
            ),
            (
                "roofs (`device.json`) moved more than 10 %",
                self.roofs_moved(),
                self.roofs.len(),
            ),
        ]
    }

    /// The items behind the counts, one titled list per kind that has any.
    fn item_lists(&self) -> String {
        let lists: [(&str, &[String]); 10] = [
            ("Values whose intervals are apart", &self.apart),
            ("Findings flipped held ↔ not held", &self.decisive),
            (
                "Findings flipped to or from inconclusive",
                &self.inconclusive,
            ),
            ("Findings changed otherwise", &self.other_verdicts),
            ("Winners flipped", &self.winner_flips),
            (
                "Winners flipped within a tie (or too few runs)",
                &self.tie_flips,
            ),
            (
                "Fastest variant of a pipeline changed",
                &self.variant_changes,
            ),
            (
                "Fastest variant of a pipeline changed within a tie",
                &self.variant_tie_changes,
            ),
            ("Limiters flipped", &self.limiter_flips),
            ("Limiters changed with one in common", &self.limiter_changes),
        ];
        let mut s = String::new();
        for (title, items) in lists {
            if items.is_empty() {
                continue;
            }
            s.push_str(&format!("\n### {title} ({})\n\n", items.len()));
            for i in items {
                s.push_str(&format!("- {i}\n"));
            }
        }
        s
    }

    /// Both runs' roofs side by side with B / A, those more than 10 % apart in bold; empty
    /// when no roof was compared.
    fn roofs_table(&self) -> String {
        if self.roofs.is_empty() {
            return String::new();
        }
        let mut s = format!(
            "\n### Roofs (`device.json`): {} of {} moved more than 10 %\n\n\
             Those more than 10 % apart in bold.\n\n\
             | measurement | unit | A | B | B / A |\n|---|---|---:|---:|---:|\n",
            self.roofs_moved(),
            self.roofs.len()
        );
        for (key, unit, a, b) in &self.roofs {
            let ratio = if *a != 0.0 {
                format!("{:.3}", b / a)
            } else {
                "—".into()
            };
            let key = if ten_percent_apart(*a, *b) {
                format!("**{key}**")
            } else {
                key.clone()
            };
            s.push_str(&format!(
                "| {key} | {unit} | {} | {} | {ratio} |\n",
                short(*a),
                short(*b)
            ));
        }
        s
    }
}
