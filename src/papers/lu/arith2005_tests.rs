//! Tests of the 2005 arithmetic model ([`super`]).

use super::*;

/// The exact error of one result in ULP of the correctly rounded one (as Table 5).
fn ulps(r: f32, exact: f64) -> f64 {
    (r as f64 - exact) / super::super::ulp::ulp_f32(exact)
}

/// The integer division equals IEEE's `/` bit for bit (NaN as NaN): random bit patterns
/// (every exponent, subnormals and specials included), quotients near the subnormal and
/// overflow thresholds, ties, and exact quotients.
#[test]
fn integer_division_is_ieee_division() {
    let same = |a: f32, b: f32| {
        let (got, want) = (div_rn_bits(a, b), a / b);
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "{a:e} / {b:e} ({:08x} / {:08x}): {got:e} ({:08x}), IEEE {want:e} ({:08x})",
            a.to_bits(),
            b.to_bits(),
            got.to_bits(),
            want.to_bits()
        );
    };
    let mut x = 0x2005_u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..2_000_000 {
        let v = next();
        same(f32::from_bits(v as u32), f32::from_bits((v >> 32) as u32));
    }
    for _ in 0..200_000 {
        let v = next();
        // Near the thresholds: exponents that put the quotient around 2^-126..2^-150 and
        // around 2^127.
        let a = f32::from_bits((v as u32 & 0x807f_ffff) | (((v >> 40) as u32 % 40) << 23));
        let b =
            f32::from_bits((v >> 32) as u32 & 0x807f_ffff | (100 + (v >> 56) as u32 % 60) << 23);
        same(a, b);
        same(b, a);
        same(f32::from_bits((v as u32 & 0x807f_ffff) | 0x7e00_0000), b);
    }
    for (a, b) in [
        (1.0f32, 3.0f32),
        (6.0, 3.0),
        (1.0, 1.0),
        (-0.0, 1.0),
        (1.0, -0.0),
        (f32::INFINITY, 2.0),
        (2.0, f32::INFINITY),
        (f32::NAN, 1.0),
        (0.0, 0.0),
        (f32::MAX, f32::MIN_POSITIVE),
        (f32::MIN_POSITIVE, 3.0),
        (f32::from_bits(1), 2.0),
        (f32::from_bits(3), 2.0),
        (f32::from_bits(1), 0.5),
        (1.0, f32::MAX),
    ] {
        same(a, b);
    }
}

#[test]
fn rules_have_their_documented_ranges() {
    let ab = super::super::ulp::operands(200_000, 7);
    let mut lo = [f64::INFINITY; 4];
    let mut hi = [f64::NEG_INFINITY; 4];
    for p in &ab {
        let ex = super::super::ulp::exact(*p);
        for (i, r) in ops05(*p).into_iter().enumerate() {
            let u = ulps(r, ex[i]);
            lo[i] = lo[i].min(u);
            hi[i] = hi[i].max(u);
        }
    }
    // add: (−1, 0]; sub: (−0.75, 0.75); mul: (−0.75, 0.625]; div: within ±1.5.
    assert!(
        lo[0] > -1.0 && lo[0] < -0.99 && hi[0] == 0.0,
        "add {lo:?} {hi:?}"
    );
    assert!(lo[1] > -0.75 && lo[1] < -0.74 && hi[1] < 0.75 && hi[1] > 0.74);
    assert!(lo[2] > -0.75 && lo[2] < -0.74 && hi[2] <= 0.625 && hi[2] > 0.62);
    assert!(lo[3] > -1.5 && lo[3] < -1.0 && hi[3] < 1.5 && hi[3] > 1.0);
}

#[test]
fn exact_results_stay_exact_and_specials_are_ieee() {
    assert_eq!(add05(1.0, 2.0), 3.0);
    assert_eq!(sub05(1.0, 0.25), 0.75);
    assert_eq!(mul05(-3.0, 0.5), -1.5);
    assert_eq!(div05(3.0, -4.0), -0.75);
    // Chopping toward −∞: 1 + 2⁻³⁰ → 1; −1 − 2⁻³⁰ → the float below −1.
    assert_eq!(add05(1.0, 2f32.powi(-30)), 1.0);
    assert_eq!(add05(-1.0, -(2f32.powi(-30))), pred(-1.0));
    // Subnormals are flushed, in and out.
    assert_eq!(add05(1e-40, 0.0), 0.0);
    assert_eq!(mul05(1e-20, 1e-20), 0.0);
    assert_eq!(mul05(1e30, 1e30), f32::INFINITY);
    assert!(div05(0.0, 0.0).is_nan());
    assert_eq!(div05(1.0, 0.0), f32::INFINITY);
}

/// The members of the family do what their docs say (issue 38): the effective-operation rule
/// makes `a + (−b)` and `a − b` the same bits (the fitted model does not, for some operands);
/// a chopped reciprocal is at most 1 ULP below the correctly rounded one in magnitude; a
/// chopped product never exceeds the exact one in magnitude and is within 1 ULP of it.
#[test]
fn members_follow_their_definitions() {
    let ab = super::super::ulp::operands(200_000, 11);
    let fitted = Arith2005::ALL;
    let eff = fitted.with(Member {
        effective: true,
        ..Member::FITTED
    });
    let chop = fitted.with(Member {
        chopped_product: true,
        ..Member::FITTED
    });
    let mut fitted_differs = 0;
    for &[a, b] in &ab {
        assert!(same_bits(eff.add(a, -b), eff.sub(a, b)), "{a:e} {b:e}");
        assert!(same_bits(eff.sub(a, -b), eff.add(a, b)), "{a:e} {b:e}");
        if !same_bits(fitted.add(a, -b), fitted.sub(a, b)) {
            fitted_differs += 1;
        }
        let (c, r) = (div_bits(1.0, b, false), 1.0 / b);
        assert!(c.abs() <= r.abs() && (r.to_bits() as i64 - c.to_bits() as i64) <= 1);
        let (p, ex) = (chop.mul(a, b) as f64, a as f64 * b as f64);
        assert!(p.abs() <= ex.abs(), "{a:e} × {b:e}");
        assert!(
            (ex - p).abs() < super::super::ulp::ulp_f32(ex),
            "{a:e} × {b:e}"
        );
    }
    assert!(
        fitted_differs > 0,
        "the written-operator rule never mattered"
    );
    // Every member's division stays within 3 ULP (a reciprocal within 1 ULP, magnified up to
    // twice by the dividend's significand, plus the product's error).
    for m in Member::FAMILY {
        let model = fitted.with(m);
        for p in &ab {
            let ex = super::super::ulp::exact(*p)[3];
            assert!(
                ulps(model.div(p[0], p[1]), ex).abs() < 3.0,
                "{} {p:?}",
                m.name()
            );
        }
    }
}
