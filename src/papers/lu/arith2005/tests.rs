//! Tests of the 2005 arithmetic model ([`super`]).

use super::div::{div_bits, div_rn_bits};
use super::mad;
use super::member::Member;
use super::model::Arith2005;
use super::operands::{same_bits, test_triples};
use super::ops::{add05, div05, mul05, ops05, sub05};
use super::round::{ftz, pred, split_exp, succ};

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

/// The fused MAD's reference: the model's rounding of the exact `x = hi + lo` (an `f64`
/// TwoSum pair, `lo` its exact error) by the guard-bit rule (`guard`) or toward −∞, decided
/// on `f = x − RD(x)` against quarters of the spacing by exact `f64` signs: independent of
/// the `f32` three-term expansion and of the eighth classification under test.
fn mad_reference(hi: f64, lo: f64, guard: bool) -> f32 {
    let c = hi as f32;
    let l = if (hi - c as f64) + lo < 0.0 {
        pred(c)
    } else {
        c
    };
    let u = (succ(l) - l) as f64;
    // sign(8f − k·u): 8(hi − l) − k·u is exact (a few dozen bits), + 8·lo rounds once.
    let cmp = |k: f64| (8.0 * (hi - l as f64) - k * u) + 8.0 * lo;
    if !guard || cmp(2.0) <= 0.0 {
        return l;
    }
    if cmp(6.0) >= 0.0 || l.to_bits() & 1 == 1 {
        succ(l)
    } else {
        l
    }
}

/// The fused MAD `c − a·b` equals the exact value rounded once by the member's `±` rule, on
/// operands that hit ties, exact eighths, cancellation and the proxy's exponent gap; zero
/// products and specials are IEEE's; results beyond the normal range flush or overflow.
#[test]
fn fused_mad_rounds_the_exact_value_once() {
    let (written, effective) = (
        Member {
            fused_mad: true,
            ..Member::FITTED
        },
        Member::FAMILY[4],
    );
    assert!(effective.fused_mad && effective.effective);
    let (mut checked, mut ties, mut proxied, mut fused_differs) = (0, 0, 0, 0);
    for [c, a, b] in test_triples(600_000, 38) {
        for m in [written, effective] {
            let got = mad::msub05m(c, a, b, m);
            let (af, bf, cf) = (ftz(a), ftz(b), ftz(c));
            if af == 0.0 || bf == 0.0 || !(a.is_finite() && b.is_finite() && c.is_finite()) {
                assert!(same_bits(got, cf - af * bf), "{c:e} − {a:e}·{b:e}: {got:e}");
                continue;
            }
            // x = c − a·b exactly as hi + lo (the product is exact in f64, no underflow).
            let (p, cd) = (af as f64 * bf as f64, cf as f64);
            let hi = cd - p;
            let lo = (cd - (hi - (hi - cd))) + (-p - (hi - cd));
            let tag = format!("{c:e} − {a:e}·{b:e} [{}]", m.name());
            if hi == 0.0 {
                assert_eq!(got.to_bits(), 0, "{tag}");
            } else if hi.abs() < 2f64.powi(-127) {
                assert_eq!(got.abs(), 0.0, "{tag}");
            } else if hi.abs() >= 2f64.powi(129) {
                assert!(got.is_infinite(), "{tag}");
            } else if hi.abs() >= 2f64.powi(-125) && hi.abs() < 2f64.powi(127) {
                let neg_p = (af < 0.0) == (bf < 0.0);
                let guard = !m.effective || cf.is_sign_negative() != neg_p;
                let want = mad_reference(hi, lo, guard);
                assert_eq!(got.to_bits(), want.to_bits(), "{tag}: {got:e} ≠ {want:e}");
                checked += 1;
                let l = mad_reference(hi, lo, false);
                let (f, u) = ((hi - l as f64) + lo, (succ(l) - l) as f64);
                ties += ((4.0 * f / u).fract() == 0.0 && f != 0.0) as usize;
                let (kp, kc) = (split_exp(af).1 + split_exp(bf).1, split_exp(cf).1);
                proxied += (cf != 0.0 && (kp - kc).abs() > mad::GAP) as usize;
                let unfused = Arith2005::ALL
                    .with(Member {
                        fused_mad: false,
                        ..m
                    })
                    .msub(c, a, b);
                fused_differs += !same_bits(got, unfused) as usize;
            }
        }
    }
    assert!(checked > 500_000, "{checked}");
    assert!(ties > 1000, "exact quarters of an ULP hit {ties} times");
    assert!(proxied > 1000, "{proxied}");
    assert!(fused_differs > 10_000, "{fused_differs}");
}

/// Under a fused member the LU update is the MAD when `±` is emulated and IEEE's unfused
/// `c − a·b` when not; the other members keep the product, then the difference.
#[test]
fn msub_routes_by_member_and_ablation() {
    let fused = Member::FAMILY[4];
    // a·b = 1 + 2⁻¹¹ + 2⁻²⁴, a tie that every rounded product breaks to c.
    let (c, a, b) = (
        1.0 + 2f32.powi(-11),
        1.0 + 2f32.powi(-12),
        1.0 + 2f32.powi(-12),
    );
    let add = Arith2005::ADD.with(fused);
    assert!(same_bits(add.msub(c, a, b), mad::msub05m(c, a, b, fused)));
    assert!(same_bits(
        Arith2005::MUL.with(fused).msub(c, a, b),
        c - a * b
    ));
    let fitted = Arith2005::ALL;
    assert!(same_bits(
        fitted.msub(c, a, b),
        fitted.sub(c, fitted.mul(a, b))
    ));
    assert_eq!(Arith2005::ALL.with(fused).msub(c, a, b), -(2f32.powi(-24)));
    assert_eq!(fitted.msub(c, a, b), 0.0);
    assert_eq!(Arith2005::MUL.with(fused).msub(c, a, b), 0.0);
}
