//! Predicting a size's run time from the last size measured: where one run would exceed the
//! budget the warm-up is skipped, and where it would exceed the mode's `max_run_s` the size
//! (or, for the as-printed launch, that launch alone) is not run (`runner::cap`). The
//! as-printed launch's first size, with no size of its own before it, is predicted from the
//! paper's kernel timed at that size, scaled by the two grids' work groups.

use std::collections::HashMap;

use crate::gl::TimingPlan;
use crate::papers::matmul::gpu::Park2019Params;
use crate::report::{Fmt, Value};
use crate::runner::cap::{over_cap, predicted_ms};

/// The work groups of Algorithm 1's printed launch, `glDispatchCompute(64, 64, 1)`.
fn full_grid() -> u64 {
    let p = Park2019Params::as_printed();
    u64::from(p.max_groups).pow(2)
}

/// The name the as-printed launch's times are kept under.
pub(super) const AS_PRINTED: &str = "as printed";

/// The last (N, ms) of each kernel, to predict the next size's run time.
#[derive(Default)]
pub(super) struct Predict(pub(super) HashMap<&'static str, (usize, f64)>);

/// How a kernel's run time grows with N: ∝ N³ for every O(N³) product, ∝ N for the
/// as-printed launch, whose grid is the same 64×64 groups at every N below 2048 (each group
/// walks N / 32 tiles, whether or not its tile of R lies inside the matrix).
fn power(kernel: &str) -> i32 {
    if kernel == AS_PRINTED { 1 } else { 3 }
}

impl Predict {
    /// `plan` without its warm-up when one run is predicted to exceed the whole budget.
    pub(super) fn plan(&self, kernel: &'static str, n: usize, plan: TimingPlan) -> TimingPlan {
        let budget_ms = plan.budget.as_secs_f64() * 1e3;
        let predicted = match self.0.get(kernel) {
            Some(&last) => Some(predicted_ms(last, n, power(kernel))),
            None if kernel == AS_PRINTED => self.printed_from_paper(n).map(|(ms, _)| ms),
            None => None,
        };
        match predicted {
            Some(ms) if ms > budget_ms => TimingPlan { warmup: 0, ..plan },
            _ => plan,
        }
    }

    /// Why size `n` is not run: one run of the paper's kernel predicted over `cap_s`
    /// ([`over_cap`]).
    pub(super) fn over_cap(&self, n: usize, cap_s: Option<f64>) -> Option<String> {
        self.kernel_over_cap("the paper's kernel", "paper", n, cap_s)
    }

    /// Why the as-printed launch is not run at size `n` (the other kernels are): one run of
    /// it predicted over `cap_s` — from its own last size, or, before it has run, from the
    /// paper's kernel at this `n` ([`Self::printed_from_paper`]).
    pub(super) fn printed_over_cap(&self, n: usize, cap_s: Option<f64>) -> Option<String> {
        if self.0.contains_key(AS_PRINTED) {
            return self.kernel_over_cap("Algorithm 1 as printed", AS_PRINTED, n, cap_s);
        }
        let (ms, groups) = self.printed_from_paper(n)?;
        let (cap, sig) = (cap_s?, |x: f64| Value::Num(x).render(Fmt::Sig(3)));
        let full = full_grid();
        (ms / 1e3 > cap).then(|| {
            format!(
                "one run of Algorithm 1 as printed is predicted at {} s (the paper's kernel's \
                 {} ms at this N × {} for the printed grid's {full} work groups against \
                 the {groups} it needs), over this mode's max_run_s = {cap} s",
                sig(ms / 1e3),
                sig(ms * groups as f64 / full as f64),
                sig(full as f64 / groups as f64),
            )
        })
    }

    /// The as-printed launch's first run predicted from the paper's kernel timed at the same
    /// `n`: groups of the same tiles walking the same N / 32 of them, [`full_grid`] groups
    /// instead of the (N / 32)² needed, so its time × full / needed (ms), and the groups
    /// needed. `None` where the paper's kernel has not run at `n`.
    fn printed_from_paper(&self, n: usize) -> Option<(f64, u64)> {
        let &(n0, ms) = self.0.get("paper")?;
        let block = Park2019Params::default().block as usize;
        let groups = (n.div_ceil(block) as u64).pow(2);
        (n0 == n && groups > 0).then(|| (ms * full_grid() as f64 / groups as f64, groups))
    }

    /// Under `--resume`, a size whose rows were reused: each kernel's median time (`None` for
    /// a skipped row) predicts the next size as a measurement's fastest run would, so that
    /// the cap still holds after reused sizes.
    pub(super) fn reused(
        &mut self,
        n: usize,
        times: impl IntoIterator<Item = (&'static str, Option<f64>)>,
    ) {
        for (name, ms) in times {
            if let Some(ms) = ms {
                self.0.insert(name, (n, ms));
            }
        }
    }

    fn kernel_over_cap(
        &self,
        what: &str,
        kernel: &str,
        n: usize,
        cap_s: Option<f64>,
    ) -> Option<String> {
        over_cap(what, self.0.get(kernel).copied(), n, cap_s, power(kernel))
    }
}

#[cfg(test)]
mod tests {
    use super::{AS_PRINTED, Predict};
    use crate::gl::TimingPlan;

    #[test]
    fn the_as_printed_launch_s_first_size_is_predicted_from_the_paper_kernel_at_that_size() {
        let mut p = Predict::default();
        assert_eq!(
            p.printed_over_cap(128, Some(5.0)),
            None,
            "nothing timed yet"
        );
        p.0.insert("paper", (128, 37.0));
        // 16 groups needed at N = 128, 4096 printed: 37 ms × 256 = 9.47 s.
        let why = p.printed_over_cap(128, Some(5.0)).expect("9.47 s > 5 s");
        assert!(
            why.contains("9.47 s") && why.contains("against the 16 it needs"),
            "{why}"
        );
        assert_eq!(p.printed_over_cap(128, Some(10.0)), None, "9.47 s < 10 s");
        assert_eq!(
            p.printed_over_cap(256, Some(5.0)),
            None,
            "timed at 128 only"
        );
        let plan = TimingPlan {
            warmup: 1,
            repetitions: 3,
            budget: std::time::Duration::from_secs(5),
            ci_target: 0.03,
            max_runs: 10,
            floor: false,
        };
        assert_eq!(p.plan(AS_PRINTED, 128, plan).warmup, 0, "9.47 s > 5 s");
        // Once it has run, its own time predicts it (∝ N).
        p.0.insert(AS_PRINTED, (128, 2000.0));
        assert_eq!(p.plan(AS_PRINTED, 128, plan).warmup, 1, "2 s");
    }

    #[test]
    fn the_as_printed_launch_is_predicted_linear_in_n_and_capped_alone() {
        let mut p = Predict::default();
        p.0.insert("paper", (128, 40.0));
        p.0.insert(AS_PRINTED, (128, 6000.0));
        // ∝ N: 12 s at N = 256, over a 10 s cap and under a 15 s one (∝ N³ would say 48 s).
        let why = p.printed_over_cap(256, Some(10.0)).expect("12 s > 10 s");
        assert!(
            why.contains("Algorithm 1 as printed") && why.contains("12.0 s"),
            "{why}"
        );
        assert_eq!(p.printed_over_cap(256, Some(15.0)), None);
        // The paper's kernel keeps ∝ N³: 40 ms × 8³ = 20.5 s at N = 1024.
        assert!(p.over_cap(1024, Some(10.0)).is_some());
        assert_eq!(p.over_cap(512, Some(10.0)), None, "40 ms × 4³ = 2.56 s");
        // The warm-up is dropped only where one run would exceed the whole budget (2 s).
        let plan = TimingPlan {
            warmup: 1,
            repetitions: 3,
            budget: std::time::Duration::from_secs(2),
            ci_target: 0.03,
            max_runs: 10,
            floor: false,
        };
        assert_eq!(p.plan(AS_PRINTED, 128, plan).warmup, 0, "6 s");
        assert_eq!(p.plan("paper", 256, plan).warmup, 1, "0.32 s");
        assert_eq!(p.plan("paper", 512, plan).warmup, 0, "2.56 s");
        // Reused rows predict as measured ones: the paper's kernel at N = 512 from a reused
        // 256 (a skipped as-printed row keeps the last measured entry).
        p.reused(
            256,
            [
                ("paper", Some(2000.0)),
                (AS_PRINTED, None),
                ("blocked", Some(100.0)),
                ("fragment", Some(150.0)),
            ],
        );
        assert!(p.over_cap(512, Some(10.0)).is_some(), "2 s × 2³ = 16 s");
        assert_eq!(p.0[AS_PRINTED], (128, 6000.0));
    }
}
