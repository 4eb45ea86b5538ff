//! Predicting a size's run time from the last size measured (∝ N³): where one run would
//! exceed the budget the warm-up is skipped, and where it would exceed the mode's
//! `max_run_s` the size is not run (`runner::cap`).

use std::collections::HashMap;

use crate::gl::TimingPlan;
use crate::runner::cap::{over_cap, predicted_ms};

/// The last (N, ms) of each kernel, to predict the next size's run time (∝ N³).
#[derive(Default)]
pub(super) struct Predict(pub(super) HashMap<&'static str, (usize, f64)>);

impl Predict {
    /// `plan` without its warm-up when one run is predicted to exceed the whole budget.
    pub(super) fn plan(&self, kernel: &'static str, n: usize, plan: TimingPlan) -> TimingPlan {
        let budget_ms = plan.budget.as_secs_f64() * 1e3;
        match self.0.get(kernel) {
            Some(&last) if predicted_ms(last, n) > budget_ms => TimingPlan { warmup: 0, ..plan },
            _ => plan,
        }
    }

    /// Why size `n` is not run: one run of the paper's kernel predicted over `cap_s`
    /// ([`over_cap`]).
    pub(super) fn over_cap(&self, n: usize, cap_s: Option<f64>) -> Option<String> {
        over_cap("the paper's kernel", self.0.get("paper").copied(), n, cap_s)
    }
}
