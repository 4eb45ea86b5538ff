//! Predicting a size's run time from the last size measured: where one run would exceed the
//! budget the warm-up is skipped, and where it would exceed the mode's `max_run_s` the size
//! (or, for the as-printed launch, that launch alone) is not run (`runner::cap`).

use std::collections::HashMap;

use crate::gl::TimingPlan;
use crate::runner::cap::{over_cap, predicted_ms};

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
        match self.0.get(kernel) {
            Some(&last) if predicted_ms(last, n, power(kernel)) > budget_ms => {
                TimingPlan { warmup: 0, ..plan }
            }
            _ => plan,
        }
    }

    /// Why size `n` is not run: one run of the paper's kernel predicted over `cap_s`
    /// ([`over_cap`]).
    pub(super) fn over_cap(&self, n: usize, cap_s: Option<f64>) -> Option<String> {
        self.kernel_over_cap("the paper's kernel", "paper", n, cap_s)
    }

    /// Why the as-printed launch is not run at size `n` (the other kernels are): one run of
    /// it predicted over `cap_s`.
    pub(super) fn printed_over_cap(&self, n: usize, cap_s: Option<f64>) -> Option<String> {
        self.kernel_over_cap("Algorithm 1 as printed", AS_PRINTED, n, cap_s)
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
