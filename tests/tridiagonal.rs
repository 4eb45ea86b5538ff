//! The tridiagonal solvers on a real context (llvmpipe), against Thomas in f64.

mod common;
use common::{ctx, ctx_with};

use gpgpu_repro::gl::{Gl, Need, PingPongMethod, Texture};
use gpgpu_repro::papers::tridiagonal::cpu::cyclic_reduction_f64;
use gpgpu_repro::papers::tridiagonal::*;
use gpgpu_repro::stats::max_rel_error;

/// The library's upload ([`upload`](gpgpu_repro::papers::tridiagonal::upload)), unwrapped.
fn upload(gl: &Gl, s: &Systems) -> Texture {
    gpgpu_repro::papers::tridiagonal::upload(gl, s).unwrap()
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
            let e = gpgpu_repro::stats::max_rel_error(&got, &want[j * n..(j + 1) * n]);
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
    let Some(gl) = ctx_with("compute CR/PCR", &[Need::Compute]) else {
        return;
    };
    for (n, batch) in [(1, 3), (7, 4), (100, 5), (1023, 3), (2000, 2)] {
        let s = Systems::random(n, batch, false, 2000 + n as u64);
        let want = thomas_batch_f64(&s).unwrap();
        let mut solvers: Vec<Box<dyn BatchSolver>> = vec![
            Box::new(ComputeCr::new(&gl, n, batch).unwrap()),
            Box::new(ComputePcr::new(&gl, n, batch).unwrap()),
            Box::new(ComputeCr::with_memory(&gl, n, batch, Memory::Global).unwrap()),
            Box::new(ComputePcr::with_memory(&gl, n, batch, Memory::Global).unwrap()),
            Box::new(ComputeCrPasses::new(&gl, n, batch, 64).unwrap()),
            // Work groups wider than the batch, and one system per group.
            Box::new(ComputeCrPasses::new(&gl, n, batch, 1).unwrap()),
        ];
        let mut first: Option<Vec<f32>> = None;
        for solver in &mut solvers {
            let got = solve(&gl, solver.as_mut(), &s);
            let e = max_rel_error(&got, &want);
            assert!(e < TOL, "{} n = {n}: {e:e}", solver.name());
            // CR in shared and in global memory run the same arithmetic: bit-identical.
            if matches!(solver.name(), "CR compute (shared)" | "CR compute (global)") {
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
    let Some(gl) = ctx_with("fragment vs compute CR", &[Need::Compute]) else {
        return;
    };
    let s = Systems::random(255, 16, false, 77);
    let mut f = FragmentCr::new(&gl, 255, 16, PingPongMethod::Copy).unwrap();
    let mut c = ComputeCr::new(&gl, 255, 16).unwrap();
    let mut p = ComputeCrPasses::new(&gl, 255, 16, 8).unwrap();
    let a = solve(&gl, &mut f, &s);
    let want: Vec<f64> = a.iter().map(|&v| v as f64).collect();
    for solver in [&mut c as &mut dyn BatchSolver, &mut p] {
        let b = solve(&gl, solver, &s);
        assert!(max_rel_error(&b, &want) < 1e-6, "{}", solver.name());
    }
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

#[test]
fn every_program_variant_compiles() {
    use gpgpu_repro::gl::Program;
    use gpgpu_repro::papers::tridiagonal::programs::program_variants;
    let gl = ctx();
    let variants = program_variants();
    assert!(!variants.is_empty());
    for (file, defines) in &variants {
        if let Err(e) = Program::fragment(&gl, file, defines) {
            panic!("{file} with {defines:?}: {e}");
        }
    }
    // The compute programs' defines follow the system size (LOCAL, NP, ELEMS) and the memory
    // path: build each solver at sizes that give every shape (tiny, padded, one work group
    // short, several elements per invocation) on both paths.
    for n in [1, 2, 7, 100, 1023, 4095] {
        for memory in [Memory::Shared, Memory::Global] {
            for r in [
                ComputeCr::with_memory(&gl, n, 2, memory).map(|_| ()),
                ComputePcr::with_memory(&gl, n, 2, memory).map(|_| ()),
            ] {
                match r {
                    Ok(()) | Err(TridiagonalError::Unsupported(_)) => {}
                    Err(e) => panic!("compute n = {n}, {memory:?}: {e}"),
                }
            }
        }
    }
}

#[test]
fn switch_gather_copies_the_even_levels_into_the_fuller_buffer() {
    // Fig. 2 gathers into the buffer that already holds more data: P1 (odd levels, level 1
    // alone is half the texels). The gather must copy exactly the even levels' runs, for an
    // odd and an even last level, and the result must not change.
    let gl = ctx();
    for n in [255usize, 511, 1023, 15, 7, 3] {
        let batch = 3;
        let s = Systems::random(n, batch, false, 77 + n as u64);
        let want = thomas_batch_f64(&s).unwrap();
        let mut params = CrParams::new(PingPongMethod::Switch);
        params.count_fetches = true;
        let mut cr = FragmentCr::with_params(&gl, n, batch, params).unwrap();
        let got = solve(&gl, &mut cr, &s);
        assert!(max_rel_error(&got, &want) < TOL, "n = {n}");
        let sum = |parity: usize| -> u64 {
            let l = cr.layout();
            l.levels
                .iter()
                .filter(|v| v.s % 2 == parity)
                .map(|v| v.pc as u64)
                .sum()
        };
        let gathered = cr.fetch_counts().gather[0];
        let expect = if cr.layout().levels.len() >= 2 {
            sum(0) * batch as u64
        } else {
            0
        };
        assert_eq!(gathered, expect, "n = {n}: gathered texels");
        assert!(
            sum(0) <= sum(1),
            "n = {n}: the even levels are the smaller set"
        );
    }
}

#[test]
fn tiled_3d_cr_matches_thomas_for_several_q() {
    use gpgpu_repro::papers::tridiagonal::tiled::Tiling3d;
    let gl = ctx();
    // N = 2^q: q = 2 … 6 (tile columns 2 … 8), and grids that are not powers of two.
    for g in [4usize, 8, 16, 32, 64, 10, 20] {
        let tl = Tiling3d::new(g);
        let s = Systems::random(tl.n, tl.systems(), false, 300 + g as u64);
        let want = thomas_batch_f64(&s).unwrap();
        let tex = tl.upload(&gl, &s).unwrap();
        let params = CrParams::new(PingPongMethod::Switch);
        let mut cr = FragmentCr::tiled(&gl, tl.n, tl.rows, tl.cols, params).unwrap();
        let x = cr.solve_tiled(&tex).unwrap().read().unwrap();
        let e = max_rel_error(&tl.untile(&x), &want);
        assert!(e < TOL, "N = {g} ({} columns): {e:e}", tl.cols);
        // A second solve gives the same bits (no stale tile data).
        let again = cr.solve_tiled(&tex).unwrap().read().unwrap();
        assert_eq!(x, again, "N = {g}: second solve differs");
    }
    // Tiling with the copy method is refused, not wrong.
    let copy = CrParams::new(PingPongMethod::Copy);
    assert!(matches!(
        FragmentCr::tiled(&gl, 15, 16, 4, copy),
        Err(TridiagonalError::Unsupported(_))
    ));
}

#[test]
fn fixed_iteration_cg_matches_cpu_cg_f64_of_the_same_n() {
    use gpgpu_repro::papers::tridiagonal::cg::cg_fixed_f64;
    let gl = ctx();
    let (n, batch) = (255, 64);
    let s = Systems::heat(n, batch, 1.0, 1256);
    // Same tolerance as fig11's CG rows (see CG_FIXED_TOL there).
    let tol = 1e-4;
    for packing in [Packing::Scalar, Packing::Rgba] {
        for it in [1, 2, 4, 8] {
            let want = cg_fixed_f64(&s, it);
            let mut cg = FragmentCg::new(&gl, n, batch, packing, it).unwrap();
            let got = solve(&gl, &mut cg, &s);
            let e = max_rel_error(&got, &want);
            assert!(e < tol, "{packing:?} n = {it}: {e:e}");
            // One iteration more is far outside the tolerance: the check can fail.
            let next = cg_fixed_f64(&s, it + 1);
            let d = max_rel_error(&got, &next);
            assert!(d > 2.0 * tol, "{packing:?} n = {it}: n+1 only {d:e} away");
        }
    }
}

#[test]
fn experiment_file_bad_numbers_and_sizes_are_refused_before_work() {
    use gpgpu_repro::runner::{Check, Mode};
    let gl = ctx();
    // What the runner does with the file before any work: parse it into the typed
    // configuration and validate every number and size of `mode`.
    let validate = |gl: &gpgpu_repro::gl::Gl, text: &str, mode| {
        let check = Check {
            mode,
            device: gl.info(),
        };
        (gpgpu_repro::registry::TRIDIAGONAL.files[0].parse)(text, &check).map(drop)
    };
    let text = include_str!("../experiments/tridiagonal.toml");
    validate(&gl, text, Mode::Quick).unwrap();
    validate(&gl, text, Mode::Full).unwrap();
    // Non-finite, zero and negative numbers are refused on load, naming the key's line.
    for (from, to, key) in [
        (
            "heat_r = 1.0\ncg_iterations = 4",
            "heat_r = nan\ncg_iterations = 4",
            "heat_r = nan",
        ),
        ("cg_tolerance = 1e-5", "cg_tolerance = 0.0", "cg_tolerance"),
        ("batch = 8", "batch = 0", "batch = 0"),
        (
            "budget_s = 1.0, max_repetitions = 20 }\n\n[sweep]",
            "budget_s = inf, max_repetitions = 20 }\n\n[sweep]",
            "budget_s",
        ),
        ("cr_vector = 4.5", "cr_vector = -inf", "cr_vector"),
        (
            "cg_iterations = [1, 2, 4, 8]",
            "cg_iterations = [0, 2]",
            "cg_iterations",
        ),
    ] {
        assert!(text.contains(from), "fixture: {from}");
        let bad = text.replacen(from, to, 1);
        let e = validate(&gl, &bad, Mode::Quick).unwrap_err();
        assert!(e.contains(key), "{to}: the error should name `{key}`: {e}");
    }
    // Sizes that the device or the host cannot hold are refused with the limit, at once.
    let max = gl.info().max_rectangle_texture_size;
    for (from, to, table) in [
        (
            "quick = [256] }",
            "quick = [100000] }",
            "[fig11] grid 100000",
        ),
        ("quick = [16, 64] }", "quick = [4096] }", "[fig9] grid 4096"),
    ] {
        assert!(text.contains(from), "fixture: {from}");
        let bad = text.replacen(from, to, 1);
        let t0 = std::time::Instant::now();
        let e = validate(&gl, &bad, Mode::Quick).unwrap_err();
        assert!(e.contains(table), "{to}: should name {table}: {e}");
        assert!(
            e.contains(&format!("{max}×{max}")) || e.contains("MiB available"),
            "{to}: should name the limit: {e}"
        );
        assert!(t0.elapsed().as_secs_f64() < 1.0, "refused late");
    }
}

/// The fragment CR and CG built with the 2005 arithmetic model (issue 25) still solve (CR
/// within the direct solvers' tolerance of Thomas f64; CG, on the symmetric heat systems it
/// is for, against CG f64 after the same iterations) and their results differ from the IEEE
/// build's: the model reaches their shaders.
#[test]
fn cr_and_cg_under_the_2005_model_solve_and_differ_from_ieee() {
    use gpgpu_repro::papers::lu::arith2005::Arith2005;
    use gpgpu_repro::papers::tridiagonal::cg::{CgParams, FragmentCg, Packing, cg_fixed_f64};
    use gpgpu_repro::papers::tridiagonal::fragment_cr::{CrParams, FragmentCr};
    let gl = ctx();
    let (n, batch) = (100, 8);
    let s = Systems::random(n, batch, false, 2005);
    let want = thomas_batch_f64(&s).unwrap();
    let cr = |arith| {
        let mut p = CrParams::new(PingPongMethod::Switch);
        p.arith = arith;
        solve(
            &gl,
            &mut FragmentCr::with_params(&gl, n, batch, p).unwrap(),
            &s,
        )
    };
    let (ieee, model) = (cr(Arith2005::IEEE), cr(Arith2005::ALL));
    assert!(max_rel_error(&model, &want) < TOL);
    assert_ne!(ieee, model, "CR: the model changed no bit");
    let s = Systems::heat(n, batch, 1.0, 2005);
    let want = cg_fixed_f64(&s, 4);
    let cg = |arith| {
        let mut p = CgParams::fixed(Packing::Rgba, 4);
        p.arith = arith;
        solve(
            &gl,
            &mut FragmentCg::with_params(&gl, n, batch, p).unwrap(),
            &s,
        )
    };
    let (ieee, model) = (cg(Arith2005::IEEE), cg(Arith2005::ALL));
    assert!(max_rel_error(&model, &want) < TOL);
    assert_ne!(ieee, model, "CG: the model changed no bit");
}
