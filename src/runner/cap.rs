//! A cap on one run's time (`max_run_s`, per mode): a size whose run is predicted, ∝ N^p
//! from the last size measured (p = 3 for a dense O(N³) kernel; a launch whose grid is fixed
//! grows ∝ N), to take longer than the cap is not run, and its rows say why. The same experiment file then ends in minutes on a slow device (softpipe, an old
//! laptop) and runs every size on a fast one, instead of taking as long as the slowest
//! device makes it.

use super::config::{PerMode, positive};

/// Why size `n` is not run: one run of `what` is predicted (∝ N^`power` from `last`, the
/// last size measured and its run's milliseconds) to take longer than `cap_s`. `None`: run
/// it (nothing measured yet, no cap, or under the cap).
pub fn over_cap(
    what: &str,
    last: Option<(usize, f64)>,
    n: usize,
    cap_s: Option<f64>,
    power: i32,
) -> Option<String> {
    let (n0, ms) = last?;
    let cap = cap_s?;
    let predicted_s = predicted_ms((n0, ms), n, power) / 1e3;
    let sig = |x: f64| crate::report::Value::Num(x).render(crate::report::Fmt::Sig(3));
    let exp = match power {
        1 => String::new(),
        2 => "²".into(),
        3 => "³".into(),
        p => format!("^{p}"),
    };
    (predicted_s > cap).then(|| {
        format!(
            "one run of {what} is predicted at {} s (N = {n0}'s {} ms × (N / {n0}){exp}), \
             over this mode's max_run_s = {cap} s",
            sig(predicted_s),
            sig(ms)
        )
    })
}

/// One run at size `n` predicted from `(n0, ms)`, a run measured at `n0`: ∝ N^`power` (ms).
pub fn predicted_ms((n0, ms): (usize, f64), n: usize, power: i32) -> f64 {
    ms * (n as f64 / n0 as f64).powi(power)
}

/// The rule for a `max_run_s` key: seconds, finite and > 0 in both modes.
pub fn check_max_run_s(key: &str, cap: &PerMode<f64>) -> Result<(), String> {
    for (mode, &v) in cap.each() {
        positive(&format!("{key}.{mode}"), v)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::over_cap;

    #[test]
    fn a_size_is_skipped_only_when_its_predicted_run_exceeds_the_cap() {
        assert_eq!(
            over_cap("k", None, 256, Some(0.1), 3),
            None,
            "nothing measured yet"
        );
        // 18 ms × 2³ = 0.144 s.
        let why =
            over_cap("the kernel", Some((128, 18.0)), 256, Some(0.1), 3).expect("0.144 s > 0.1 s");
        assert!(
            why.contains("0.144 s")
                && why.contains("max_run_s = 0.1 s")
                && why.contains("of the kernel"),
            "{why}"
        );
        assert_eq!(over_cap("k", Some((128, 18.0)), 256, Some(1.0), 3), None);
        assert_eq!(
            over_cap("k", Some((128, 18.0)), 256, None, 3),
            None,
            "no cap"
        );
        // A launch that grows ∝ N: 60 ms × 2 = 0.12 s, over 0.1 s; ∝ N³ it would be 0.48 s.
        let why =
            over_cap("the launch", Some((128, 60.0)), 256, Some(0.1), 1).expect("0.12 s > 0.1 s");
        assert!(
            why.contains("0.120 s") && why.contains("(N / 128))"),
            "{why}"
        );
        assert_eq!(over_cap("k", Some((128, 40.0)), 256, Some(0.1), 1), None);
    }
}
