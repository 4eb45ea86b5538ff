//! The tridiagonal solvers on a real context (llvmpipe), against Thomas in f64.

mod common;
use common::ctx;

use gpgpu_repro::gl::{Format, Gl, PingPongMethod, TexTarget, Texture};
use gpgpu_repro::papers::tridiagonal::cpu::cyclic_reduction_f64;
use gpgpu_repro::papers::tridiagonal::*;
use gpgpu_repro::util::max_rel_error;

fn upload(gl: &Gl, s: &Systems) -> Texture {
    Texture::new(
        gl,
        TexTarget::Rect,
        Format::RGBA32F,
        s.n as u32,
        s.batch as u32,
        Some(&s.data),
    )
    .unwrap()
}

// Tolerance: the random systems are strictly diagonally dominant with margin ≥ 1 (condition
// number below ~10), so a backward-stable f32 solve is good to a few hundred ulps even after
// q = 12 levels of reduction; 1e-4 leaves room and still catches any wrong index (O(1) errors).
const TOL: f64 = 1e-4;

fn solve(gl: &Gl, solver: &mut dyn BatchSolver, s: &Systems) -> Vec<f32> {
    let t = upload(gl, s);
    solver.solve(&t).unwrap().read().unwrap()
}

#[test]
fn cpu_cyclic_reduction_matches_thomas() {
    for n in [1, 2, 3, 7, 10, 15, 100, 255] {
        let s = Systems::random(n, 2, false, 7 + n as u64);
        let want = thomas_batch_f64(&s).unwrap();
        for j in 0..2 {
            let got = cyclic_reduction_f64(&s, j).unwrap();
            let e = gpgpu_repro::util::max_rel_error(&got, &want[j * n..(j + 1) * n]);
            assert!(e < 1e-12, "n={n}: {e:e}");
        }
    }
}

#[test]
fn fragment_cr_every_q_1_to_12_matches_thomas() {
    let gl = ctx();
    for q in 1..=12 {
        let n = (1usize << q) - 1;
        let batch = if q <= 8 { 3 } else { 1 };
        let s = Systems::random(n, batch, false, 100 + q as u64);
        let want = thomas_batch_f64(&s).unwrap();
        let mut cr = FragmentCr::new(&gl, n, batch, PingPongMethod::Switch).unwrap();
        let got = solve(&gl, &mut cr, &s);
        let e = max_rel_error(&got, &want);
        assert!(e < TOL, "q = {q}: max rel error {e:e}");
    }
}

#[test]
fn fragment_cr_batched_and_any_size_both_methods_bit_identical() {
    let gl = ctx();
    // Sizes 2^q - 1 and others (padded with identity rows), batches of many rows.
    for (n, batch) in [
        (63, 64),
        (1, 5),
        (2, 4),
        (5, 7),
        (100, 33),
        (1000, 9),
        (300, 1),
    ] {
        let s = Systems::random(n, batch, false, 1000 + n as u64);
        let want = thomas_batch_f64(&s).unwrap();
        let mut results = vec![];
        for m in PingPongMethod::ALL {
            let mut cr = FragmentCr::new(&gl, n, batch, m).unwrap();
            let got = solve(&gl, &mut cr, &s);
            let e = max_rel_error(&got, &want);
            assert!(e < TOL, "n = {n}, batch = {batch}, {m}: {e:e}");
            // A second solve on the same solver (stale buffers must not leak in).
            let again = solve(&gl, &mut cr, &s);
            assert_eq!(got, again, "n = {n}: second solve differs");
            results.push(got);
        }
        // Copy and switch run the same arithmetic on the same texels: bit-identical.
        assert!(
            results[0]
                .iter()
                .zip(&results[1])
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "n = {n}: copy and switch differ"
        );
    }
}

#[test]
fn zero_pivot_is_reported() {
    let gl = ctx();
    let mut s = Systems::random(15, 2, false, 5);
    // Equation 2 of system 1 becomes 0 = k: singular.
    let o = 4 * (15 + 2);
    s.data[o..o + 4].copy_from_slice(&[0.0, 0.0, 0.0, 1.0]);
    assert!(matches!(
        thomas_batch_f64(&s),
        Err(TridiagonalError::ZeroPivot { system: 1, .. })
    ));
    let t = upload(&gl, &s);
    for m in PingPongMethod::ALL {
        let mut cr = FragmentCr::new(&gl, 15, 2, m).unwrap();
        match cr.solve(&t) {
            Err(TridiagonalError::NonFinite { system, .. }) => assert_eq!(system, 1),
            other => panic!("{m}: expected NonFinite, got {:?}", other.map(|_| ())),
        }
    }
    let mut th = CpuThomas::new(&gl, 15, 2).unwrap();
    assert!(matches!(
        th.solve(&t),
        Err(TridiagonalError::ZeroPivot { system: 1, .. })
    ));
}

#[test]
fn wrong_texture_shape_is_an_error() {
    let gl = ctx();
    let s = Systems::random(7, 2, false, 1);
    let t = upload(&gl, &s);
    let mut cr = FragmentCr::new(&gl, 8, 2, PingPongMethod::Copy).unwrap();
    assert!(matches!(cr.solve(&t), Err(TridiagonalError::Shape(_))));
    assert!(FragmentCr::new(&gl, 0, 2, PingPongMethod::Copy).is_err());
}

#[test]
fn cpu_thomas_solver_matches_f64() {
    let gl = ctx();
    let s = Systems::random(100, 10, false, 9);
    let want = thomas_batch_f64(&s).unwrap();
    let mut th = CpuThomas::new(&gl, 100, 10).unwrap();
    let got = solve(&gl, &mut th, &s);
    assert!(max_rel_error(&got, &want) < 1e-5);
}

#[test]
fn compute_cr_and_pcr_agree_with_thomas_shared_and_global() {
    let gl = ctx();
    for (n, batch) in [(1, 3), (7, 4), (100, 5), (1023, 3), (2000, 2)] {
        let s = Systems::random(n, batch, false, 2000 + n as u64);
        let want = thomas_batch_f64(&s).unwrap();
        let mut solvers: Vec<Box<dyn BatchSolver>> = vec![
            Box::new(ComputeCr::new(&gl, n, batch).unwrap()),
            Box::new(ComputePcr::new(&gl, n, batch).unwrap()),
            Box::new(ComputeCr::with_memory(&gl, n, batch, Memory::Global).unwrap()),
            Box::new(ComputePcr::with_memory(&gl, n, batch, Memory::Global).unwrap()),
        ];
        let mut first: Option<Vec<f32>> = None;
        for solver in &mut solvers {
            let got = solve(&gl, solver.as_mut(), &s);
            let e = max_rel_error(&got, &want);
            assert!(e < TOL, "{} n = {n}: {e:e}", solver.name());
            // CR in shared and in global memory run the same arithmetic: bit-identical.
            if solver.name().starts_with("CR") {
                match &first {
                    None => first = Some(got),
                    Some(f) => assert_eq!(f, &got, "CR shared vs global, n = {n}"),
                }
            }
        }
    }
    // n = 2000 pads to N' = 2048: too big for 32 KiB of shared memory, so CR goes global.
    let cr = ComputeCr::new(&gl, 2000, 1).unwrap();
    assert_eq!(cr.memory(), Memory::Global);
}

#[test]
fn fragment_and_compute_cr_agree_closely() {
    // Same eq. (15)/(16) arithmetic in the same order per equation: expect agreement to a
    // few ulps (the compilers may contract a*b+c into fma differently).
    let gl = ctx();
    let s = Systems::random(255, 16, false, 77);
    let mut f = FragmentCr::new(&gl, 255, 16, PingPongMethod::Copy).unwrap();
    let mut c = ComputeCr::new(&gl, 255, 16).unwrap();
    let a = solve(&gl, &mut f, &s);
    let b = solve(&gl, &mut c, &s);
    let want: Vec<f64> = a.iter().map(|&v| v as f64).collect();
    assert!(max_rel_error(&b, &want) < 1e-6);
}

#[test]
fn fragment_cg_converges_scalar_and_packed() {
    let gl = ctx();
    // Symmetric, strictly diagonally dominant: SPD with condition number below ~5, so CG
    // reaches 1e-5 in a few dozen iterations; n = 50 is not a multiple of 4 (packed padding).
    let (n, batch) = (50, 6);
    let s = Systems::random(n, batch, true, 31);
    let want = thomas_batch_f64(&s).unwrap();
    for packing in [Packing::Scalar, Packing::Rgba] {
        let mut cg =
            FragmentCg::with_params(&gl, n, batch, CgParams::converge(packing, 1e-5, 200)).unwrap();
        let got = solve(&gl, &mut cg, &s);
        let info = cg.info();
        // Residual 1e-5 with κ < 5: forward error below ~5e-5 (plus f32 rounding).
        let e = max_rel_error(&got, &want);
        assert!(
            e < 1e-4,
            "{packing:?}: {e:e} after {} iterations",
            info.iterations
        );
        assert!(info.iterations > 1 && info.iterations < 200, "{info:?}");
        // A fixed single iteration is far from the solution (the test can fail).
        let mut one = FragmentCg::new(&gl, n, batch, packing, 1).unwrap();
        let e1 = max_rel_error(&solve(&gl, &mut one, &s), &want);
        assert!(e1 > 1e-3, "{packing:?}: one CG iteration already at {e1:e}");
    }
    // Too few iterations to reach the tolerance: a typed error.
    let mut cg =
        FragmentCg::with_params(&gl, n, batch, CgParams::converge(Packing::Scalar, 1e-6, 2))
            .unwrap();
    let t = upload(&gl, &s);
    assert!(matches!(
        cg.solve(&t),
        Err(TridiagonalError::NotConverged { .. })
    ));
}
