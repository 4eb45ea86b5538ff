//! The LU paper's implementations on a real context (llvmpipe in CI).

use gpgpu_repro::gl::Rect;
use gpgpu_repro::gl::{self, DeviceSelector, Format, PingPongMethod};
use gpgpu_repro::papers::lu::cpu::{diag_dominant, factor_error, faer_lu_f32, lu_f32, lu_f64_of};
use gpgpu_repro::papers::lu::fragment::rect_minus;
use gpgpu_repro::papers::lu::{FragmentLu, LuError, Params, Variant};

fn ctx() -> gl::Gl {
    gl::headless(&DeviceSelector::Auto).expect("a headless GL 4.3 context (Mesa llvmpipe)")
}

/// Normwise error bound of an `f32` LU of a diagonally dominant matrix: backward error
/// `≈ n·u·growth` with growth ≤ 2 (Wilkinson), times a margin of 4 for the max-norm
/// comparison of the factors themselves.
fn tol(n: usize) -> f64 {
    8.0 * n.max(4) as f64 * f32::EPSILON as f64
}

fn configs() -> Vec<Params> {
    let mut v = vec![];
    for variant in Variant::ALL {
        for method in PingPongMethod::ALL {
            v.push(Params::new(variant, method));
        }
    }
    v
}

fn gpu_lu(g: &gl::Gl, a: &[f32], n: usize, p: Params) -> Result<Vec<f32>, LuError> {
    let mut lu = FragmentLu::new(g, a, n, p)?;
    lu.run()?;
    lu.factors()
}

#[test]
fn every_variant_and_method_matches_the_f64_factors() {
    let g = ctx();
    // Non-multiples of 4 exercise the I3/I4 identity padding; 1 has no pass at all.
    for n in [1usize, 2, 3, 5, 8, 13, 31, 66, 130, 300] {
        let a = diag_dominant(n, 6000 + n as u64);
        let want = lu_f64_of(&a, n).unwrap();
        for p in configs() {
            let got = gpu_lu(&g, &a, n, p).unwrap();
            let e = factor_error(&got, &want);
            assert!(
                e <= tol(n),
                "{:?} {} N={n}: error {e:.3e} > {:.3e}",
                p.variant,
                p.method,
                tol(n)
            );
        }
    }
}

#[test]
fn i1_to_i4_and_both_methods_give_bit_identical_factors() {
    let g = ctx();
    for n in [17usize, 64] {
        let a = diag_dominant(n, 77 + n as u64);
        let reference = gpu_lu(&g, &a, n, Params::new(Variant::I1, PingPongMethod::Copy)).unwrap();
        for p in configs() {
            let got = gpu_lu(&g, &a, n, p).unwrap();
            let same = got
                .iter()
                .zip(&reference)
                .all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(
                same,
                "{:?} {} N={n} differs from I1 copy",
                p.variant, p.method
            );
        }
        // R32F storage computes the same numbers as the paper's RGBA storage.
        let mut p = Params::new(Variant::I1, PingPongMethod::Switch);
        p.scalar_format = Format::R32F;
        assert_eq!(gpu_lu(&g, &a, n, p).unwrap(), reference);
    }
}

#[test]
fn counts_follow_the_passes() {
    let g = ctx();
    let n = 12;
    let a = diag_dominant(n, 5);
    let run = |p: Params| {
        let mut lu = FragmentLu::new(&g, &a, n, p).unwrap();
        lu.run().unwrap()
    };
    let i1c = run(Params::new(Variant::I1, PingPongMethod::Copy));
    assert_eq!(i1c.passes, 2 * (n as u64 - 1));
    assert_eq!(i1c.copies, i1c.passes);
    // L and U regions: Σ (N−i−1) + (N−i−1)² over i, 16 bytes per RGBA texel.
    let texels: u64 = (0..n as u64)
        .map(|i| (n as u64 - i - 1) * (n as u64 - i))
        .sum();
    assert_eq!(i1c.copied_bytes, 16 * texels);
    assert_eq!(
        i1c.flops as f64,
        2.0 * n as f64 * ((n * n) as f64 - 1.0) / 3.0
    );
    let i2s = run(Params::new(Variant::I2, PingPongMethod::Switch));
    assert_eq!(
        (i2s.passes, i2s.copies, i2s.copied_bytes),
        (n as u64 - 1, 0, 0)
    );
    assert!(i2s.carried_fragments > 0);
    let i3c = run(Params::new(Variant::I3, PingPongMethod::Copy));
    assert_eq!(i3c.passes, 2 * (n as u64 - 1));
    assert_eq!(
        i3c.flops, i1c.flops,
        "I3 updates exactly the channels I1 updates"
    );
}

#[test]
fn a_zero_pivot_is_reported_with_its_step() {
    let g = ctx();
    // Step 0: A_00 = 0.
    let a = [0.0f32, 1.0, 1.0, 1.0];
    // Step 1: 4 − 2·2 = 0 exactly after the first elimination.
    let b = [1.0f32, 2.0, 0.0, 2.0, 4.0, 1.0, 0.0, 1.0, 1.0];
    for p in configs() {
        let e = gpu_lu(&g, &a, 2, p).unwrap_err();
        assert!(matches!(e, LuError::Pivot { step: 0, .. }), "{p:?}: {e}");
        let e = gpu_lu(&g, &b, 3, p).unwrap_err();
        assert!(matches!(e, LuError::Pivot { step: 1, .. }), "{p:?}: {e}");
    }
    let mut c = b;
    assert!(matches!(
        lu_f32(&mut c, 3),
        Err(LuError::Pivot { step: 1, .. })
    ));
}

#[test]
fn bad_sizes_are_errors() {
    let g = ctx();
    let p = Params::new(Variant::I1, PingPongMethod::Copy);
    assert!(matches!(
        FragmentLu::new(&g, &[1.0; 5], 2, p),
        Err(LuError::Size(_))
    ));
    assert!(matches!(
        FragmentLu::new(&g, &[], 0, p),
        Err(LuError::Size(_))
    ));
}

#[test]
fn cpu_references_agree() {
    let n = 50;
    let a = diag_dominant(n, 3);
    let want = lu_f64_of(&a, n).unwrap();
    let mut f = a.clone();
    lu_f32(&mut f, n).unwrap();
    assert!(factor_error(&f, &want) <= tol(n));
    let (faer, identity) = faer_lu_f32(&a, n);
    assert!(
        identity,
        "diagonally dominant by columns: partial pivoting swaps nothing"
    );
    assert!(factor_error(&faer, &want) <= tol(n));
}

#[test]
fn rect_difference_covers_exactly_the_rest() {
    let a = Rect::new(2, 3, 5, 4);
    let b = Rect::new(3, 4, 10, 1);
    let parts = rect_minus(a, b);
    let area: u64 = parts.iter().map(|r| r.area()).sum();
    assert_eq!(area, a.area() - 4);
    assert_eq!(rect_minus(a, Rect::new(20, 20, 1, 1)), vec![a]);
    assert!(rect_minus(a, a).is_empty());
}
