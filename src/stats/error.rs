//! The project's one error measure of a result against its CPU reference: the normwise
//! relative error in the max norm, the GPU result (`f32` or `f64`) against an `f64` reference.

/// max_i |got_i − want_i| / max(max_i |want_i|, tiny): the relative error of a whole vector
/// (normwise, in the max norm), so that entries near zero do not blow it up. `got` may be
/// `f32` (a GPU result) or `f64`; the reference is `f64`. The project's one error measure of a
/// result against its CPU reference; any non-finite difference gives infinity.
pub fn max_rel_error<G: Copy + Into<f64>>(got: &[G], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len(), "max_rel_error: length mismatch");
    max_rel_error_with(got, |i| want[i])
}

/// [`max_rel_error`] against a reference given entry by entry, `want(i)` for `i < got.len()`
/// (called twice per entry: once for the scale, once for the difference), so that checking
/// a large array does not hold its reference in memory (the bench's 512 MiB sweep points
/// would need 1 GiB of `f64` for it).
pub fn max_rel_error_with<G: Copy + Into<f64>>(got: &[G], want: impl Fn(usize) -> f64) -> f64 {
    let scale = (0..got.len())
        .fold(0f64, |m, i| m.max(want(i).abs()))
        .max(f64::MIN_POSITIVE);
    let mut e = 0f64;
    for (i, &g) in got.iter().enumerate() {
        let d = (g.into() - want(i)).abs();
        if !d.is_finite() {
            return f64::INFINITY;
        }
        e = e.max(d);
    }
    e / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_is_the_largest_difference_over_the_largest_reference_entry() {
        let want = [2.0, -4.0, 1.0];
        let got = [2.5f32, -4.0, 0.0];
        assert_eq!(max_rel_error(&got, &want), 1.0 / 4.0);
        assert_eq!(max_rel_error_with(&got, |i| want[i]), 1.0 / 4.0);
        assert_eq!(max_rel_error_with(&[f64::NAN], |_| 1.0), f64::INFINITY);
        assert_eq!(max_rel_error_with::<f64>(&[], |_| unreachable!()), 0.0);
    }
}
