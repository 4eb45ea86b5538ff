//! Predicting a size's run time from the last size measured (∝ N³): where one run would
//! exceed the budget the warm-up is skipped, and where it would exceed the mode's
//! `max_run_s` the size is not run.

use std::collections::HashMap;

use crate::gl::TimingPlan;

/// The last (N, ms) of each kernel, to predict the next size's run time (∝ N³).
#[derive(Default)]
pub(super) struct Predict(pub(super) HashMap<&'static str, (usize, f64)>);

impl Predict {
    /// `plan` without its warm-up when one run is predicted to exceed the whole budget.
    pub(super) fn plan(&self, kernel: &'static str, n: usize, plan: TimingPlan) -> TimingPlan {
        let budget_ms = plan.budget.as_secs_f64() * 1e3;
        match self.0.get(kernel) {
            Some(&(n0, ms)) if ms * (n as f64 / n0 as f64).powi(3) > budget_ms => {
                TimingPlan { warmup: 0, ..plan }
            }
            _ => plan,
        }
    }

    /// Why size `n` is not run: one run of the paper's kernel predicted (∝ N³ from the last
    /// size) over `cap_s`.
    pub(super) fn over_cap(&self, n: usize, cap_s: Option<f64>) -> Option<String> {
        let (n0, ms) = *self.0.get("paper")?;
        let predicted_s = ms * (n as f64 / n0 as f64).powi(3) / 1e3;
        let cap = cap_s?;
        let sig = |x: f64| crate::report::Value::Num(x).render(crate::report::Fmt::Sig(3));
        (predicted_s > cap).then(|| {
            format!(
                "one run of the paper's kernel is predicted at {} s (N = {n0}'s {} ms × \
                 (N / {n0})³), over this mode's max_run_s = {cap} s",
                sig(predicted_s),
                sig(ms)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Predict;

    #[test]
    fn a_size_is_skipped_only_when_its_predicted_run_exceeds_the_cap() {
        let mut p = Predict::default();
        assert_eq!(p.over_cap(256, Some(0.1)), None, "nothing measured yet");
        p.0.insert("paper", (128, 18.0));
        // 18 ms × 2³ = 0.144 s.
        let why = p.over_cap(256, Some(0.1)).expect("0.144 s > 0.1 s");
        assert!(
            why.contains("0.144 s") && why.contains("max_run_s = 0.1 s"),
            "{why}"
        );
        assert_eq!(p.over_cap(256, Some(1.0)), None);
        assert_eq!(p.over_cap(256, None), None, "no cap");
    }
}
