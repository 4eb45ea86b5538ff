//! The bench's time: a budget for the whole bench, shared out to its rows, and the rule by
//! which a sweep stops growing when its share is spent.
//!
//! # Why a budget, not a size rule
//! A sweep sized by a cache rule (16× the CPU's largest cache, 256 MiB on a GPU) takes as
//! long as the slowest device makes it: on an NVIDIA H200 the full bench of that rule ran
//! past 270 s, and under softpipe the quick bench ran past 600 s
//! (`../shared/device-runs/h200-2026-11-27/`, issue 36). What the bench may spend is fixed
//! instead ([`super::Settings::budget`]), and what it measures is what fits.
//!
//! # The rule
//! - The budget is split evenly over the passes, and a pass's share over its rows by weight
//!   ([`weight`]: a swept row, which measures several sizes, weighs [`SWEPT`], a fragment
//!   texture-fetch row [`TEXTURE_SWEPT`]; an FMA row,
//!   its invocations grown and three chain counts, [`FMA`]; any other row 1). The shares
//!   are computed from the whole list of rows, so a row's share is the same in every pass
//!   and every process, and a row's reach depends on its own speed alone (not on the rows
//!   before it): passes that reach the same sizes can be combined size by size
//!   ([`super::passes`]).
//! - A row's clock starts when its measurement starts ([`start_row`]). Every timing plan in
//!   the row is cut to what is left of the row's share ([`clip`]; at least one timed run is
//!   always made: [`crate::gl::timing::TimingPlan::budget`]).
//! - A ladder (a sweep's sizes, an FMA kernel's invocation counts) grows to its next size
//!   only if the next size is predicted to fit what is left ([`may_grow`]): the next size's
//!   cost is the last size's times the growth of the last step (its cost over the cost of
//!   the size before it, between 1 and the ladder's factor; the factor itself after the
//!   first size). So a slow device stops a sweep before the size that would overrun, not
//!   after it. An FMA kernel's next invocation count is predicted from the time of its
//!   calls alone (`ladder::grow_fits`): the rest of a step's cost (the shader's
//!   compilation, the check) does not grow with the invocations, and the whole-cost rule
//!   stopped `fma.compute.f32` at 256 invocations on this project's loaded 2-core llvmpipe
//!   machine.
//! - The sizes a sweep did not reach are kept in the row
//!   ([`super::Measurement::unreached`]) and shown in the table: a plateau read short of the
//!   sweep's planned end may be a cache ([`super::Measurement::left_caches`]).
//!
//! The warm-up before each pass ([`super::warm`]), the process starts, the extra moments of
//! the host transfers and the fixed costs' pass on one CPU (`passes_in_children` in
//! [`super`]) are outside the shares; each is bounded on its own (a time cap, a timing
//! plan's budget).
//!
//! Outside a bench (a library call such as [`super::ssbo_stream_bandwidth`]) no row clock is
//! running and nothing is cut.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// A swept row's weight in the shares (it measures several sizes).
pub const SWEPT: f64 = 3.0;
/// A fragment texture-fetch row's weight: its largest sizes cost the most (a texture upload
/// and a CPU check of 8 fetches per texel at every size), so at [`SWEPT`] its ladder stopped
/// first — on the 2-core llvmpipe machine at 32 MiB, on the last cache's cliff, where its
/// passes read up to 2× apart (issue 36). Twice the share lets it reach the memory beyond.
pub const TEXTURE_SWEPT: f64 = 2.0 * SWEPT;
/// An FMA row's weight (its invocations grown, then three chain counts timed).
pub const FMA: f64 = 3.0;

thread_local! {
    /// The running row's start and share.
    static ROW: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// The weight of the row `key` in the shares (module docs).
pub fn weight(key: &str) -> f64 {
    let swept = [
        "ssbo.",
        "texture.",
        "target.",
        "compute.texture.",
        "copytex.",
    ];
    if key.starts_with("texture.") {
        TEXTURE_SWEPT
    } else if swept.iter().any(|p| key.starts_with(p)) {
        SWEPT
    } else if key.starts_with("fma.") {
        FMA
    } else {
        1.0
    }
}

/// Each row's share of a bench of `total` over `passes` passes, for the rows `keys` (all the
/// bench's rows, in any order; module docs).
pub fn shares(total: Duration, passes: u32, keys: &[&str]) -> Vec<Duration> {
    let sum: f64 = keys.iter().map(|k| weight(k)).sum();
    let per_pass = total.as_secs_f64() / passes.max(1) as f64;
    keys.iter()
        .map(|k| {
            if sum > 0.0 {
                Duration::from_secs_f64(per_pass * weight(k) / sum)
            } else {
                Duration::ZERO
            }
        })
        .collect()
}

/// Starts the running row's clock with `share` (until [`end_row`]).
pub fn start_row(share: Duration) {
    ROW.with(|r| r.set(Some((Instant::now(), share))));
}

/// Stops the running row's clock: nothing is cut until the next [`start_row`].
pub fn end_row() {
    ROW.with(|r| r.set(None));
}

/// What is left of the running row's share (`None`: no row clock is running).
pub fn left() -> Option<Duration> {
    ROW.with(|r| r.get())
        .map(|(t0, share)| share.saturating_sub(t0.elapsed()))
}

/// `plan` with its budget cut to what is left of the running row's share (module docs).
pub fn clip(mut plan: crate::gl::timing::TimingPlan) -> crate::gl::timing::TimingPlan {
    if let Some(left) = left() {
        plan.budget = plan.budget.min(left);
    }
    plan
}

/// The predicted cost of a ladder's next size from the costs of its sizes so far (seconds,
/// in order): the last cost times the growth of the last step, clamped to `[1, factor]`;
/// the last cost times `factor` after a single size (module docs).
pub fn predict_next(costs: &[f64], factor: f64) -> f64 {
    match costs {
        [] => 0.0,
        [one] => one * factor,
        [.., a, b] => {
            let growth = if *a > 0.0 { b / a } else { factor };
            b * growth.clamp(1.0, factor)
        }
    }
}

/// Whether a ladder whose sizes so far cost `costs` (seconds, in order) may measure its next
/// size within what is left of the running row's share (always, outside a bench).
pub fn may_grow(costs: &[f64], factor: f64) -> bool {
    fits(left(), costs, factor)
}

/// [`may_grow`] with what is left given.
fn fits(left: Option<Duration>, costs: &[f64], factor: f64) -> bool {
    left.is_none_or(|l| predict_next(costs, factor) <= l.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_size_is_predicted_from_the_last_step_growth() {
        // One size: the ladder's factor.
        assert_eq!(predict_next(&[0.5], 4.0), 2.0);
        // A GPU whose sizes cost the timing plan's fixed time: growth 1.1.
        assert!((predict_next(&[0.20, 0.22], 4.0) - 0.242).abs() < 1e-12);
        // A software renderer whose cost follows the bytes: growth 4, capped at the factor.
        assert_eq!(predict_next(&[0.1, 0.4], 4.0), 1.6);
        assert_eq!(predict_next(&[0.1, 0.8], 4.0), 3.2);
        // A faster second size (a cold first size) predicts no less than the last cost.
        assert_eq!(predict_next(&[0.9, 0.3], 4.0), 0.3);
        assert_eq!(predict_next(&[], 4.0), 0.0);
    }

    #[test]
    fn a_ladder_grows_only_into_what_is_left() {
        let s = Duration::from_secs_f64;
        assert!(fits(None, &[100.0], 4.0), "no row clock: no limit");
        assert!(fits(Some(s(1.7)), &[0.1, 0.4], 4.0), "1.6 s fits in 1.7");
        assert!(
            !fits(Some(s(1.5)), &[0.1, 0.4], 4.0),
            "1.6 s does not fit in 1.5"
        );
        assert!(!fits(Some(Duration::ZERO), &[0.001], 4.0));
    }

    #[test]
    fn shares_split_the_budget_by_pass_and_weight() {
        // 2 passes of 28 s: 14 s per pass over weights 3 + 3 + 1 = 7.
        let sh = shares(
            Duration::from_secs(28),
            2,
            &["ssbo.read.f32", "fma.compute.f32", "fixed.draw"],
        );
        let secs: Vec<f64> = sh.iter().map(|d| d.as_secs_f64()).collect();
        assert_eq!(secs, vec![6.0, 6.0, 2.0]);
        assert_eq!(weight("compute.texture.rgba32f.rect.consecutive"), SWEPT);
        assert_eq!(weight("texture.rgba32f.2d.strided"), TEXTURE_SWEPT);
        assert_eq!(weight("upload.ssbo"), 1.0);
    }

    #[test]
    fn a_row_clock_cuts_the_timing_plans_and_ends() {
        let plan = crate::gl::timing::TimingPlan::new(1, 5, Duration::from_secs(10));
        end_row();
        assert_eq!(
            clip(plan).budget,
            Duration::from_secs(10),
            "no clock: uncut"
        );
        start_row(Duration::from_millis(200));
        let cut = clip(plan).budget;
        assert!(cut <= Duration::from_millis(200) && cut > Duration::from_millis(100));
        end_row();
        assert_eq!(left(), None);
    }
}
