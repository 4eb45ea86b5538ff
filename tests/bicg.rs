//! The `bicg` paper: ELLPACK-R SpMV, the reductions, the CPU and GPU Bi-CG, and their errors,
//! on a real context (llvmpipe).

mod common;
use common::ctx;

use gpgpu_repro::papers::bicg::cpu::{self, BicgParams, Stop};
use gpgpu_repro::papers::bicg::poisson::{self, Mesh};
use gpgpu_repro::papers::bicg::{EllpackError, EllpackR, GpuBicg, GpuBicgError, GpuOptions};
use gpgpu_repro::stats::max_rel_error as rel_diff;
use gpgpu_repro::util::{RngExt, rng};

/// A random sparse matrix with 1..=max_len entries per row (diagonal first, made dominant).
fn random_matrix(n: usize, max_len: usize, seed: u64, dominant: bool) -> EllpackR<f64> {
    let mut r = rng(seed);
    let rows: Vec<Vec<(usize, f64)>> = (0..n)
        .map(|i| {
            let len = r.random_range(1..=max_len);
            let mut row = vec![(i, 0.0)];
            let mut off = 0.0;
            while row.len() < len {
                let j = r.random_range(0..n);
                if row.iter().all(|&(c, _)| c != j) {
                    let v: f64 = r.random_range(-1.0..1.0);
                    off += v.abs();
                    row.push((j, v));
                }
            }
            row[0].1 = if dominant {
                off + r.random_range(0.5..1.5)
            } else {
                r.random_range(0.5..2.0)
            };
            row
        })
        .collect();
    EllpackR::from_rows(&rows).unwrap()
}

fn random_vec(n: usize, seed: u64) -> Vec<f64> {
    let mut r = rng(seed);
    (0..n).map(|_| r.random_range(-1.0..1.0)).collect()
}

#[test]
fn ellpack_layout_is_slot_major_with_row_lengths() {
    let a = EllpackR::from_rows(&[
        vec![(0, 1.0), (2, 2.0)],
        vec![(1, 3.0)],
        vec![(0, 4.0), (1, 5.0), (2, 6.0)],
    ])
    .unwrap();
    assert_eq!((a.n, a.m), (3, 3));
    assert_eq!(a.rl, vec![2, 1, 3]);
    // Slot 0 of rows 0, 1, 2 is contiguous, then slot 1, then slot 2.
    assert_eq!(&a.val[0..3], &[1.0, 3.0, 4.0]);
    assert_eq!(&a.val[3..6], &[2.0, 0.0, 5.0]);
    // Padding points at the row itself (an in-range read of x).
    assert_eq!(&a.col[6..9], &[0, 1, 2]);
    assert_eq!(a.nnz(), 6);
    let t = a.transpose();
    assert_eq!(t.row(0).collect::<Vec<_>>(), vec![(0, 1.0), (2, 4.0)]);
    assert_eq!(
        EllpackR::from_rows(&[vec![(3, 1.0)]]).unwrap_err(),
        EllpackError::ColumnOutOfRange {
            row: 0,
            col: 3,
            n: 1
        }
    );
    let z = EllpackR::from_rows(&[vec![(0, 0.0)], vec![(1, 1.0)]]).unwrap();
    assert_eq!(
        z.diagonal().unwrap_err(),
        EllpackError::ZeroDiagonal { row: 0 }
    );
}

#[test]
fn gpu_spmv_equals_cpu_spmv_exactly_in_fp64() {
    let g = ctx();
    for (n, max_len, seed) in [(1000, 9, 1), (4099, 3, 2), (1, 1, 3)] {
        let a = random_matrix(n, max_len, seed, false);
        let x = random_vec(n, seed + 10);
        let mut want = vec![0.0; n];
        a.spmv(&x, &mut want);
        let mut gpu = GpuBicg::<f64>::new(&g, &a, false, GpuOptions::default()).unwrap();
        // Same products summed in the same order, `precise` forbids FMA: bitwise equal.
        assert_eq!(gpu.apply(&x, false).unwrap(), want, "n = {n}");
        let mut want_t = vec![0.0; n];
        a.transpose().spmv(&x, &mut want_t);
        assert_eq!(gpu.apply(&x, true).unwrap(), want_t, "Aᵀ, n = {n}");
    }
}

#[test]
fn two_stage_reductions_match_the_cpu() {
    let g = ctx();
    for (n, local) in [(100_003, 256), (777, 32), (5, 1024)] {
        let a = random_matrix(n, 1, 5, false);
        let opts = GpuOptions {
            local_size: local,
            ..GpuOptions::default()
        };
        let mut gpu = GpuBicg::<f64>::new(&g, &a, true, opts).unwrap();
        let (x, y) = (random_vec(n, 6), random_vec(n, 7));
        let (dot, max) = gpu.reductions(&x, &y).unwrap();
        let want: f64 = x.iter().zip(&y).map(|(p, q)| p * q).sum();
        let wmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // Tree vs sequential summation of n terms of size ≤ 1: |error| ≲ n·ε·max|xᵢyᵢ|.
        assert!(
            (dot - want).abs() <= n as f64 * 1.2e-16,
            "dot {dot} vs {want}, n = {n}"
        );
        assert_eq!(max, wmax, "max-norm is exact, n = {n}");
        // The fused variant (beyond the paper) sums the same products in the same tree.
        let fused = GpuOptions {
            local_size: local,
            fused_dot: true,
            ..GpuOptions::default()
        };
        let mut gpu = GpuBicg::<f64>::new(&g, &a, true, fused).unwrap();
        assert_eq!(gpu.reductions(&x, &y).unwrap().0, dot, "fused dot, n = {n}");
    }
}

#[test]
fn bicg_solves_random_nonsymmetric_diagonally_dominant_systems() {
    let g = ctx();
    let params = BicgParams {
        tol: 1e-12,
        max_iter: 500,
    };
    for (n, seed) in [(600, 11), (2000, 12)] {
        let a = random_matrix(n, 7, seed, true);
        let xs = random_vec(n, seed + 1);
        let mut b = vec![0.0; n];
        a.spmv(&xs, &mut b);
        let at = a.transpose();
        let mut x = vec![0.0; n];
        let info = cpu::solve(&a, Some(&at), &b, &mut x, &params).unwrap();
        assert_eq!(info.stop, Stop::Converged, "{info:?}");
        // Diagonally dominant: well conditioned, the error is a small multiple of tol.
        assert!(rel_diff(&x, &xs) < 1e-10, "CPU error {}", rel_diff(&x, &xs));
        let mut gpu = GpuBicg::<f64>::new(&g, &a, false, GpuOptions::default()).unwrap();
        let (gx, ginfo) = gpu.solve(&b, &vec![0.0; n], &params).unwrap();
        assert_eq!(ginfo.stop, Stop::Converged);
        assert!(
            rel_diff(&gx, &xs) < 1e-10,
            "GPU error {}",
            rel_diff(&gx, &xs)
        );
        assert!(ginfo.iterations.abs_diff(info.iterations) <= 1);
    }
}

/// −Δu = f on the unit cube with u = sin(πx) sin(πy) sin(πz) + x + 2y: Dirichlet on the
/// whole boundary. Returns the max-norm error of the discrete solution.
fn manufactured_error(m: usize) -> f64 {
    let mesh = Mesh::cube(m);
    let h = 1.0 / (m - 1) as f64;
    let pi = std::f64::consts::PI;
    let u = |x: f64, y: f64, z: f64| (pi * x).sin() * (pi * y).sin() * (pi * z).sin() + x + 2.0 * y;
    let n = mesh.nodes();
    let (mut rhs, mut dir, mut exact) = (vec![0.0; n], vec![None; n], vec![0.0; n]);
    for k in 0..m {
        for j in 0..m {
            for i in 0..m {
                let (x, y, z) = (i as f64 * h, j as f64 * h, k as f64 * h);
                let idx = mesh.index(i, j, k);
                exact[idx] = u(x, y, z);
                rhs[idx] = h * h * 3.0 * pi * pi * (pi * x).sin() * (pi * y).sin() * (pi * z).sin();
                if [i, j, k].iter().any(|&c| c == 0 || c == m - 1) {
                    dir[idx] = Some(exact[idx]);
                }
            }
        }
    }
    let sys = poisson::assemble(&mesh, &vec![1.0; n], &rhs, &dir);
    let mut x = vec![0.0; n];
    let info = cpu::solve(
        &sys.a,
        None,
        &sys.b,
        &mut x,
        &BicgParams {
            tol: 1e-13,
            max_iter: 2000,
        },
    )
    .unwrap();
    assert_eq!(info.stop, Stop::Converged);
    x.iter()
        .zip(&exact)
        .fold(0.0f64, |e, (p, q)| e.max((p - q).abs()))
}

#[test]
fn poisson_error_falls_with_h_squared() {
    let (e1, e2) = (manufactured_error(9), manufactured_error(17));
    // Second-order stencil: halving h divides the error by ≈ 4 (3.5..4.5 allows the
    // higher-order terms at these coarse meshes).
    let ratio = e1 / e2;
    assert!(
        (3.5..4.5).contains(&ratio),
        "errors {e1:.3e}, {e2:.3e}, ratio {ratio:.2}"
    );
}

#[test]
fn poisson_matrix_is_symmetric_and_fig3_problem_converges_on_the_gpu() {
    let g = ctx();
    let mesh: Mesh = "12x16x10".parse().unwrap();
    let sys = poisson::fig4_problem(&mesh);
    assert_eq!(
        sys.a.transpose(),
        sys.a,
        "Dirichlet elimination keeps A symmetric"
    );
    assert_eq!(sys.a.m, 7);
    let params = BicgParams {
        tol: 1e-10,
        max_iter: 1000,
    };
    let mut cx = vec![0.0; mesh.nodes()];
    let cinfo = cpu::solve(&sys.a, None, &sys.b, &mut cx, &params).unwrap();
    let mut gpu = GpuBicg::<f64>::new(
        &g,
        &sys.a,
        true,
        GpuOptions {
            local_size: 64,
            ..GpuOptions::default()
        },
    )
    .unwrap();
    let (gx, ginfo) = gpu
        .solve(&sys.b, &vec![0.0; mesh.nodes()], &params)
        .unwrap();
    assert_eq!((cinfo.stop, ginfo.stop), (Stop::Converged, Stop::Converged));
    assert!(cpu::true_residual(&sys.a, &sys.b, &gx) < 1e-8);
    // The potential stays between the electrode values (maximum principle).
    assert!(gx.iter().all(|&v| (-1e-9..=0.5 + 1e-9).contains(&v)));
    assert!(rel_diff(&gx, &cx) < 1e-8);
}

#[test]
fn gpu_and_cpu_iterates_agree_for_the_first_iterations() {
    let g = ctx();
    let sys = poisson::fig4_problem(&Mesh::new(20, 18, 16));
    let n = sys.mesh.nodes();
    let params = BicgParams {
        tol: 0.0,
        max_iter: 8,
    };
    let mut cx = vec![0.0; n];
    let cinfo = cpu::solve(&sys.a, None, &sys.b, &mut cx, &params).unwrap();
    let mut gpu = GpuBicg::<f64>::new(&g, &sys.a, true, GpuOptions::default()).unwrap();
    let (gx, ginfo) = gpu.solve(&sys.b, &vec![0.0; n], &params).unwrap();
    assert_eq!(
        (cinfo.stop, ginfo.stop),
        (Stop::IterationCap, Stop::IterationCap)
    );
    // Only the dot products' summation order differs: relative drift ~1e-15 per iteration.
    for (k, (c, g)) in cinfo.history.iter().zip(&ginfo.history).enumerate() {
        assert!(
            (c - g).abs() <= 1e-11 * c.abs(),
            "iteration {}: {c} vs {g}",
            k + 1
        );
    }
    assert!(rel_diff(&gx, &cx) < 1e-12, "{}", rel_diff(&gx, &cx));
}

/// The fused variant (beyond the paper) runs the same iteration: only the summation order of
/// the two dot products differs, so its iterates follow the CPU's to rounding.
#[test]
fn fused_variant_follows_the_cpu_iteration() {
    let g = ctx();
    let fused = GpuOptions {
        fused: true,
        ..GpuOptions::default()
    };
    // Symmetric Poisson (Aᵀ = A) and a random nonsymmetric matrix (Aᵀ stored).
    let sys = poisson::fig4_problem(&Mesh::new(12, 10, 9));
    let nonsym = random_matrix(700, 6, 41, true);
    let b_nonsym = random_vec(700, 42);
    for (a, b, symmetric) in [(&sys.a, &sys.b, true), (&nonsym, &b_nonsym, false)] {
        let params = BicgParams {
            tol: 1e-10,
            max_iter: 2000,
        };
        let x0 = vec![0.0; a.n];
        let at = (!symmetric).then(|| a.transpose());
        let mut cx = x0.clone();
        let cinfo = cpu::solve(a, at.as_ref(), b, &mut cx, &params).unwrap();
        let mut gpu = GpuBicg::<f64>::new(&g, a, symmetric, fused).unwrap();
        let (gx, ginfo) = gpu.solve(b, &x0, &params).unwrap();
        assert_eq!(ginfo.stop, Stop::Converged);
        assert!(
            ginfo.iterations.abs_diff(cinfo.iterations) <= 2,
            "{} vs {}",
            ginfo.iterations,
            cinfo.iterations
        );
        assert!(rel_diff(&gx, &cx) < 1e-8, "{}", rel_diff(&gx, &cx));
        // A fixed number of iterations: the iterates agree to rounding.
        let k = BicgParams {
            tol: 0.0,
            max_iter: 5,
        };
        let mut ck = x0.clone();
        cpu::solve(a, at.as_ref(), b, &mut ck, &k).unwrap();
        let (gk, _) = gpu.solve(b, &x0, &k).unwrap();
        assert!(rel_diff(&gk, &ck) < 1e-12, "{}", rel_diff(&gk, &ck));
    }
}

#[test]
fn breakdown_cap_and_non_finite_are_reported() {
    let g = ctx();
    // diag(1, −1), b = (1, 1): z·r̄ = 1 − 1 = 0 at the first iteration.
    let a = EllpackR::from_rows(&[vec![(0, 1.0)], vec![(1, -1.0)]]).unwrap();
    let params = BicgParams {
        tol: 1e-10,
        max_iter: 50,
    };
    let mut x = vec![0.0; 2];
    let info = cpu::solve(&a, None, &[1.0, 1.0], &mut x, &params).unwrap();
    assert_eq!(info.stop, Stop::BreakdownRho);
    let mut gpu = GpuBicg::<f64>::new(
        &g,
        &a,
        true,
        GpuOptions {
            local_size: 32,
            ..GpuOptions::default()
        },
    )
    .unwrap();
    let (gx, ginfo) = gpu.solve(&[1.0, 1.0], &[0.0, 0.0], &params).unwrap();
    assert_eq!(ginfo.stop, Stop::BreakdownRho);
    let err = ginfo.into_result(gx).unwrap_err();
    assert!(err.to_string().contains("breakdown"), "{err}");

    // The iteration cap.
    let sys = poisson::fig4_problem(&Mesh::cube(10));
    let capped = BicgParams {
        tol: 1e-12,
        max_iter: 3,
    };
    let mut gpu = GpuBicg::<f64>::new(&g, &sys.a, true, GpuOptions::default()).unwrap();
    let (_, info) = gpu.solve(&sys.b, &vec![0.0; 1000], &capped).unwrap();
    assert_eq!((info.stop, info.iterations), (Stop::IterationCap, 3));

    // A NaN in b.
    let mut b = sys.b.clone();
    b[500] = f64::NAN;
    let (_, info) = gpu.solve(&b, &vec![0.0; 1000], &params).unwrap();
    assert_eq!(info.stop, Stop::NonFinite);
    let mut x = vec![0.0; 1000];
    assert_eq!(
        cpu::solve(&sys.a, None, &b, &mut x, &params).unwrap().stop,
        Stop::NonFinite
    );

    // Bad input: a local size that is no power of two, a vector of the wrong length.
    let bad = GpuBicg::<f64>::new(
        &g,
        &sys.a,
        true,
        GpuOptions {
            local_size: 48,
            ..GpuOptions::default()
        },
    );
    assert!(matches!(bad, Err(GpuBicgError::LocalSize(48, _))));
    assert!(matches!(
        gpu.solve(&[1.0], &[0.0], &params),
        Err(GpuBicgError::Length { got: 1, n: 1000 })
    ));
}

#[test]
fn meshes_are_parsed_with_clear_errors() {
    assert_eq!("64x128x64".parse::<Mesh>(), Ok(Mesh::new(64, 128, 64)));
    assert_eq!("64×128×64".parse::<Mesh>(), Ok(Mesh::new(64, 128, 64)));
    for bad in [
        "64x64",
        "1x8x8",
        "ax8x8",
        "99999999999x99999999999x99999999999",
    ] {
        let e = bad.parse::<Mesh>().unwrap_err().to_string();
        assert!(e.contains(bad), "{e}");
    }
}

/// Every shader of this paper × every set of `#define`s the solver builds
/// (`gpu::program_variants`) compiles and links.
#[test]
fn every_program_variant_compiles() {
    use gpgpu_repro::gl::Program;
    use gpgpu_repro::papers::bicg::gpu::program_variants;
    let g = ctx();
    let limit = g.info().max_work_group_invocations as u32;
    let variants = program_variants();
    assert!(variants.len() >= 2 * 6 * 11, "{} variants", variants.len());
    for (file, defines) in &variants {
        let local = defines
            .iter()
            .find(|d| d.0 == "LOCAL_SIZE")
            .map(|d| d.1.trim_end_matches('u').parse::<u32>().unwrap())
            .unwrap();
        if local > limit {
            eprintln!("skipping {file} at LOCAL_SIZE {local}: the device allows {limit}");
            continue;
        }
        if let Err(e) = Program::compute(&g, file, defines) {
            panic!("{file} with {defines:?}: {e}");
        }
    }
}

#[test]
fn a_matrix_over_the_index_limit_is_refused_before_allocation() {
    use gpgpu_repro::papers::bicg::gpu::check_fits;
    let g = ctx();
    // 7 slots × 700 M rows overflow the shaders' 32-bit indices: refused without allocating.
    let e = check_fits(&g, 700_000_000, 7, 8).unwrap_err().to_string();
    assert!(e.contains("32-bit index limit"), "{e}");
    assert!(check_fits(&g, 1000, 7, 8).is_ok());
}

#[test]
fn experiment_file_refuses_nan_tolerance_naming_the_key() {
    use gpgpu_repro::papers::bicg::experiments::Config;
    let text = include_str!("../experiments/bicg.toml");
    assert!(toml::from_str::<Config>(text).is_ok());
    for (from, to, key) in [
        ("tol = 1e-8", "tol = nan", "tol"),
        ("tol = 1e-8", "tol = -1.0", "tol"),
        ("cap_factor = 2", "cap_factor = 0", "precision.cap_factor"),
        (
            "oxide_layers = 2",
            "oxide_layers = 0",
            "precision_charged.physics.oxide_layers",
        ),
        (
            "spacing_nm = 1.0",
            "spacing_nm = nan",
            "precision_charged.physics.spacing_nm",
        ),
        (
            "concentration_mm = 10.0",
            "concentration_mm = -1.0",
            "precision_charged.physics.concentration_mm",
        ),
        ("local_size = 256", "local_size = 48", "solver.local_size"),
        (
            "about_as_long = 1.25",
            "about_as_long = inf",
            "fig4.about_as_long",
        ),
        ("fit_within = 1.25", "fit_within = nan", "table2.fit_within"),
        (
            "cpu_timed_iterations = 40",
            "cpu_timed_iterations = 0",
            "fig4.cpu_timed_iterations",
        ),
        // A whole solve checks the scaled rule only where the CPU time is scaled.
        (
            "cpu_full_solve = [\"64x128x64\"]",
            "cpu_full_solve = [\"32x32x32\"]",
            "fig4.cpu_full_solve",
        ),
        (
            "cpu_full_solve = [\"64x128x64\"]",
            "cpu_full_solve = [\"99x99x99\"]",
            "fig4.cpu_full_solve",
        ),
        (
            "nodes = { full = 21, quick = 11 }",
            "nodes = { full = 21, quick = 4 }",
            "biofet.nodes",
        ),
        (
            "\"16x16x16\", \"32x32x32\", \"64x64x64\"",
            "\"16x16\", \"32x32x32\", \"64x64x64\"",
            "16x16",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        let e = toml::from_str::<Config>(&text.replacen(from, to, 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains(key), "{to}: {e}");
    }
}

#[test]
fn fp32_build_runs_the_same_iteration() {
    let g = ctx();
    let sys = poisson::fig4_problem(&Mesh::cube(16));
    let n = sys.mesh.nodes();
    let a32 = sys.a.map(|v| v as f32);
    let params = BicgParams {
        tol: 1e-4,
        max_iter: 400,
    };
    let mut gpu = GpuBicg::<f32>::new(&g, &a32, true, GpuOptions::default()).unwrap();
    let (x, info) = gpu.solve(&sys.b, &vec![0.0; n], &params).unwrap();
    // A loose tolerance is within fp32's reach.
    assert_eq!(info.stop, Stop::Converged, "{info:?}");
    let mut cx = vec![0.0; n];
    cpu::solve(
        &sys.a,
        None,
        &sys.b,
        &mut cx,
        &BicgParams {
            tol: 1e-12,
            max_iter: 1000,
        },
    )
    .unwrap();
    assert!(rel_diff(&x, &cx) < 1e-3, "{}", rel_diff(&x, &cx));
}

#[test]
fn biofet_conserves_ions_and_builds_a_double_layer() {
    use gpgpu_repro::papers::bicg::biofet::{Biofet, BiofetParams};
    let g = ctx();
    let params = BiofetParams {
        n: 11,
        n_xy: 4,
        length: 5.0,
        ..BiofetParams::default()
    };
    let mut sim = Biofet::new(&g, params).unwrap();
    let (p0, m0) = sim.totals();
    for _ in 0..30 {
        sim.solve_poisson().unwrap();
        sim.continuity_step();
    }
    let (p1, m1) = sim.totals();
    // Antisymmetric fluxes and blocking walls: only rounding changes the totals.
    assert!(((p1 - p0) / p0).abs() < 1e-12 && ((m1 - m0) / m0).abs() < 1e-12);
    assert!(
        sim.np.iter().chain(&sim.nm).all(|&v| v > 0.0),
        "densities stay positive"
    );
    // At the driven (positive) electrode anions gather and cations are pushed away.
    let prof = sim.axis_profile();
    assert!(prof[1].3 > 1.0 && prof[1].2 < 1.0, "{:?}", prof[1]);
}

#[test]
fn biofet_refuses_a_mesh_too_coarse_for_the_screening_fit() {
    use gpgpu_repro::papers::bicg::biofet::{BiofetError, BiofetParams};
    // `sim biofet --size 4` printed "screening length NaN": h = 3.3 λ_D leaves one node in
    // the fit. Now refused up front, saying why.
    let p = BiofetParams {
        n: 4,
        ..BiofetParams::default()
    };
    let e = p.validate().unwrap_err();
    assert!(matches!(e, BiofetError::Params(_)));
    assert!(e.to_string().contains("screening-length fit"), "{e}");
    let min = BiofetParams::default().min_nodes_z();
    assert!(
        BiofetParams {
            n: min,
            ..BiofetParams::default()
        }
        .validate()
        .is_ok()
    );
    assert!(
        BiofetParams {
            n: min - 1,
            ..BiofetParams::default()
        }
        .validate()
        .is_err()
    );
}

#[test]
fn biofet_steady_state_passes_its_checks() {
    use gpgpu_repro::papers::bicg::biofet::{BiofetOutput, BiofetParams, Tolerances, simulate};
    let g = ctx();
    // A coarse box whose fit still has its two nodes near the electrode (h = 1 λ_D against
    // the default's 0.5): the explicit step grows with h², so this reaches the steady state
    // in about a quarter of the default's steps, on 11 × 4 × 4 nodes against 21 × 8 × 8.
    let params = BiofetParams {
        n: 11,
        n_xy: 4,
        ..BiofetParams::default()
    };
    let r = simulate(&g, &params, &BiofetOutput::default()).unwrap();
    assert!(r.steady, "{r}");
    for c in r.checks(&Tolerances::default()) {
        assert!(c.passed(), "{c:?}\n{r}");
    }
}

// ---- The fragment (render-to-texture) fp32 build, beyond the paper ----

use gpgpu_repro::papers::bicg::fragment::{self, FragmentBicg};

#[test]
fn fragment_programs_compile() {
    use gpgpu_repro::gl::Program;
    let g = ctx();
    for (file, defines) in fragment::programs() {
        if let Err(e) = Program::fragment(&g, file, &defines) {
            panic!("{file} with {defines:?}: {e}");
        }
    }
}

#[test]
fn fragment_layout_is_near_square_and_refuses_what_does_not_fit() {
    // 128³ rows: 2048 × 1024 texels, 7 slots stacked into 7168 rows.
    assert_eq!(fragment::layout(1 << 21, 7, 16384).unwrap(), (2048, 1024));
    assert_eq!(fragment::layout(5, 3, 16384).unwrap(), (4, 2));
    assert_eq!(fragment::layout(1, 1, 16384).unwrap(), (1, 1));
    let e = fragment::layout(1 << 21, 7, 4096).unwrap_err().to_string();
    assert!(e.contains("GL_MAX_TEXTURE_SIZE is 4096"), "{e}");
    let e = fragment::layout(20_000_000, 7, 1 << 20)
        .unwrap_err()
        .to_string();
    assert!(e.contains("exact up to"), "{e}");
}

#[test]
fn fragment_spmv_matches_the_cpu_for_a_and_its_transpose() {
    let g = ctx();
    for (n, max_len, seed) in [(1000, 9, 21), (4099, 3, 22), (1, 1, 23), (70_001, 7, 24)] {
        let a = random_matrix(n, max_len, seed, false).map(|v| v as f32);
        let a64 = a.map(f64::from);
        let x: Vec<f64> = random_vec(n, seed + 10)
            .into_iter()
            .map(|v| v as f32 as f64)
            .collect();
        let mut frag = FragmentBicg::new(&g, &a, false).unwrap();
        for (t, m) in [(false, a64.clone()), (true, a64.transpose())] {
            let mut want = vec![0.0; n];
            m.spmv(&x, &mut want);
            let got = frag.apply(&x, t).unwrap();
            // ≤ 9 products summed in f32: a few ulps of the largest partial sum.
            let scale: f64 = want.iter().fold(1.0f64, |s, v| s.max(v.abs()));
            for (i, (p, q)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (p - q).abs() <= 1e-5 * scale,
                    "n = {n}, transpose {t}, row {i}: {p} vs {q}"
                );
            }
        }
    }
}

#[test]
fn fragment_reductions_match_the_cpu() {
    let g = ctx();
    for n in [100_003, 777, 5, 1] {
        let a = random_matrix(n, 1, 5, false).map(|v| v as f32);
        let mut frag = FragmentBicg::new(&g, &a, true).unwrap();
        let f32s = |v: Vec<f64>| v.into_iter().map(|v| v as f32 as f64).collect::<Vec<_>>();
        let (x, y) = (f32s(random_vec(n, 6)), f32s(random_vec(n, 7)));
        let (dot, max) = frag.reductions(&x, &y).unwrap();
        let want: f64 = x.iter().zip(&y).map(|(p, q)| p * q).sum();
        let mass: f64 = x.iter().zip(&y).map(|(p, q)| (p * q).abs()).sum();
        let wmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // A pairwise tree in f32: |error| ≲ log₂(n)·ε₃₂·Σ|xᵢyᵢ|.
        assert!(
            (dot - want).abs() <= 20.0 * f32::EPSILON as f64 * mass,
            "dot {dot} vs {want}, n = {n}"
        );
        assert_eq!(max, wmax, "max-norm is exact, n = {n}");
    }
}

#[test]
fn fragment_bicg_follows_the_compute_fp32_iteration() {
    let g = ctx();
    let sys = poisson::fig4_problem(&Mesh::new(20, 18, 16));
    let n = sys.mesh.nodes();
    let a32 = sys.a.map(|v| v as f32);
    let params = BicgParams {
        tol: 0.0,
        max_iter: 8,
    };
    let x0 = vec![0.0; n];
    let mut cx = vec![0.0; n];
    cpu::solve(&sys.a, None, &sys.b, &mut cx, &params).unwrap();
    let (fx, finfo) = FragmentBicg::new(&g, &a32, true)
        .unwrap()
        .solve(&sys.b, &x0, &params)
        .unwrap();
    let (gx, ginfo) = GpuBicg::<f32>::new(&g, &a32, true, GpuOptions::default())
        .unwrap()
        .solve(&sys.b, &x0, &params)
        .unwrap();
    assert_eq!((finfo.stop, finfo.iterations), (Stop::IterationCap, 8));
    assert_eq!(finfo.history.len(), ginfo.history.len());
    // The same f32 iteration with other summation orders: the iterates agree to rounding, and
    // both follow the f64 CPU iterate.
    assert!(
        rel_diff(&fx, &gx) < 1e-4,
        "fragment vs compute {}",
        rel_diff(&fx, &gx)
    );
    assert!(
        rel_diff(&fx, &cx) < 1e-4,
        "fragment vs CPU {}",
        rel_diff(&fx, &cx)
    );
}

#[test]
fn fragment_bicg_solves_nonsymmetric_and_poisson_systems() {
    let g = ctx();
    let params = BicgParams {
        tol: 1e-5,
        max_iter: 500,
    };
    let a = random_matrix(3000, 7, 31, true);
    let xs = random_vec(3000, 32);
    let mut b = vec![0.0; 3000];
    a.spmv(&xs, &mut b);
    let mut frag = FragmentBicg::new(&g, &a.map(|v| v as f32), false).unwrap();
    let (x, info) = frag.solve(&b, &vec![0.0; 3000], &params).unwrap();
    assert_eq!(info.stop, Stop::Converged, "{info:?}");
    assert!(rel_diff(&x, &xs) < 1e-4, "{}", rel_diff(&x, &xs));
    // The paper's problem at 16³ to a tolerance within fp32's reach.
    let sys = poisson::fig4_problem(&Mesh::cube(16));
    let n = sys.mesh.nodes();
    let p = BicgParams {
        tol: 1e-4,
        max_iter: 400,
    };
    let mut frag = FragmentBicg::new(&g, &sys.a.map(|v| v as f32), true).unwrap();
    let (x, info) = frag.solve(&sys.b, &vec![0.0; n], &p).unwrap();
    assert_eq!(info.stop, Stop::Converged, "{info:?}");
    let mut cx = vec![0.0; n];
    let tight = BicgParams {
        tol: 1e-12,
        max_iter: 1000,
    };
    cpu::solve(&sys.a, None, &sys.b, &mut cx, &tight).unwrap();
    assert!(rel_diff(&x, &cx) < 1e-3, "{}", rel_diff(&x, &cx));
    // A wrong-length right-hand side is an error, not a panic.
    assert!(frag.solve(&b[..10], &vec![0.0; n], &p).is_err());
}
