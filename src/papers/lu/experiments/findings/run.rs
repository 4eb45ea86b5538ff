//! The findings in the order the report gives them.

use super::bandwidth::finding3;
use super::results::Results;
use super::{arithmetic, timing, vector};
use crate::papers::lu::experiments::config::Config;
use crate::runner::Session;

/// Judges the paper's four findings on this run's results `r`, with the notes beside them.
pub(in crate::papers::lu::experiments) fn run(s: &Session, cfg: &Config, r: &Results) {
    let c = timing::Compared::of(r, cfg.table4.paper.top());
    timing::finding1(s, cfg, r, &c);
    timing::finding2(s, cfg, r, &c);
    vector::run(s, cfg, r);
    if let Some(bw) = &r.bw {
        finding3(s, cfg, bw);
    }
    arithmetic::finding4(s, cfg, r);
    arithmetic::finding4_under_model(s, cfg, r);
    arithmetic::finding4_family(s, cfg, r.family);
    timing::paper_best_note(s, cfg, r);
    timing::best_note(s, r);
}
