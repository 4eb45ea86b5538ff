//! fem-storage: element matrices, the paper's worked storage examples (eq. 3, Table 1),
//! Table 2's counts, the flattened GPU layout, and Jacobi on GL compute vs the CPU.

// Matrix tests index rows and columns by number, as the paper does.
#![allow(clippy::needless_range_loop)]

mod common;
use common::ctx;

use gpgpu_repro::gl::{Need, Reads};
use gpgpu_repro::papers::fem_storage::element::{element_matrices, hand_derived_k};
use gpgpu_repro::papers::fem_storage::experiments::{Config, count_formats, stencil_counts};
use gpgpu_repro::papers::fem_storage::gpu::programs;
use gpgpu_repro::papers::fem_storage::jacobi::{JacobiSweeps, sweeps_f64};
use gpgpu_repro::papers::fem_storage::{
    CpuJacobi, Csr, FemError, FlatMatrix, FragmentJacobi, GpuJacobi, Grid, JacobiParams,
    MatrixSink, Problem, Skyline, Stop, System, VarVec, direct::cholesky_solve,
};
use gpgpu_repro::runner::{self, Mode, Options, RunError};

#[test]
fn element_matrices_match_the_hand_derived_ones() {
    for (dim, h) in [(2, 1.0), (2, 0.125), (3, 1.0), (3, 0.25)] {
        let chi = 1.7;
        let e = element_matrices(dim, [h; 3], chi, 2.0);
        let want = hand_derived_k(dim, h, chi);
        for a in 0..e.n {
            for b in 0..e.n {
                // Gauss quadrature is exact here: only rounding of ~10 products remains.
                assert!(
                    (e.k[a][b] - want[a][b]).abs() < 1e-14,
                    "{dim}D h={h} K[{a}][{b}] = {} vs {}",
                    e.k[a][b],
                    want[a][b]
                );
            }
            let row: f64 = e.k[a][..e.n].iter().sum();
            assert!(row.abs() < 1e-14, "rows of K sum to zero (constants)");
            // Source: Q·volume shared equally between the nodes.
            let vol = h.powi(dim as i32);
            assert!((e.f[a] - 2.0 * vol / e.n as f64).abs() < 1e-15);
        }
    }
    // 2D by hand: χ/6 [4 −1 −2 −1; …].
    let k = hand_derived_k(2, 1.0, 6.0);
    assert_eq!(&k[0][..4], &[4.0, -1.0, -2.0, -1.0]);
}

#[test]
fn skyline_reproduces_eq3() {
    // eq. 3: the upper triangle of K, rows 1..6.
    let rows: Vec<Vec<f64>> = vec![
        vec![11.0, 0.0, 13.0, 0.0, 0.0, 16.0],
        vec![0.0, 22.0, 0.0, 24.0, 0.0, 0.0],
        vec![0.0, 0.0, 33.0, 34.0, 0.0, 0.0],
        vec![0.0, 0.0, 0.0, 44.0, 0.0, 46.0],
        vec![0.0, 0.0, 0.0, 0.0, 55.0, 56.0],
        vec![0.0, 0.0, 0.0, 0.0, 0.0, 66.0],
    ];
    let sky = Skyline::from_upper_rows(&rows);
    assert_eq!(sky.p, vec![0, 1, 2, 5, 8, 9, 15], "the paper's p, exactly");
    // The paper prints 16 values with "13, 0, 0, 33"; column 3 has only rows 1–3 and p ends
    // at 15, so one zero is a misprint (see the reproduction notes).
    let s = [
        11., 22., 13., 0., 33., 24., 34., 44., 55., 16., 0., 0., 46., 56., 66.,
    ];
    assert_eq!(sky.s, s.to_vec());
    for (i, row) in rows.iter().enumerate() {
        for (j, &v) in row.iter().enumerate().skip(i) {
            assert_eq!(sky.get(i, j), v, "({i}, {j})");
        }
    }
}

#[test]
fn csr_reproduces_table1() {
    // eq. 4: entry "rc" sits in row r, column c (1-based).
    let names = [
        11, 14, 17, 23, 33, 34, 36, 43, 44, 46, 54, 56, 62, 67, 72, 75,
    ];
    let mut entries: Vec<(usize, usize, f64)> = names
        .iter()
        .map(|&v| (v / 10 - 1, v % 10 - 1, v as f64))
        .collect();
    entries.reverse(); // insertion order must not matter
    let csr = Csr::from_triplets(7, &entries);
    let a: Vec<f64> = names.iter().map(|&v| v as f64).collect();
    assert_eq!(csr.a, a);
    assert_eq!(
        csr.j_one_based(),
        vec![1, 4, 7, 3, 3, 4, 6, 3, 4, 6, 4, 6, 2, 7, 2, 5]
    );
    assert_eq!(csr.len, vec![3, 1, 3, 3, 2, 2, 2]);
    assert_eq!(csr.ptr_one_based(), vec![1, 4, 5, 8, 11, 13, 15]);
}

#[test]
fn variable_length_vector_finds_or_pushes() {
    let mut v = VarVec::new(3);
    v.add(0, 0, 1.0);
    v.add(0, 2, 2.0);
    v.add(0, 0, 0.5); // found: accumulated
    v.add(0, 1, 3.0); // pushed after column 2 (assembly order, not sorted)
    assert_eq!(v.idx[0], vec![0, 2, 1]);
    assert_eq!(v.val[0], vec![1.5, 2.0, 3.0]);
    assert_eq!(v.stored_values(), 3);
    assert_eq!(v.stored_with_indices(), 6);
}

#[test]
fn table2_counts_from_assembled_structures() {
    let p = Problem::default();
    // The paper's Table 2 (values, incl. indices, skyline) for the grids it printed right.
    for (n, prop, sky) in [(6, 146, 246), (32, 4930, 33760), (64, 20098, 266176)] {
        let c = count_formats(Grid::cube(2, n).unwrap(), &p, 1 << 21, 1 << 22);
        assert_eq!(
            (c.proposed, c.with_indices, c.skyline),
            (prop, 2 * prop, sky)
        );
        assert_eq!(c.dense, n.pow(4));
        assert_eq!(c.max_per_node, 5);
        assert_eq!(c.csr_upper, c.proposed);
        assert!(
            c.value_mismatch < 1e-14,
            "formats disagree: {}",
            c.value_mismatch
        );
    }
    // 16×16: the paper prints 402 and 4,337; the structures hold 1,186 and 4,336.
    let c = count_formats(Grid::cube(2, 16).unwrap(), &p, 1 << 17, 1 << 22);
    assert_eq!((c.proposed, c.skyline), (1186, 4336));
    assert!(c.dense_filled && c.skyline_filled);
    for n in [3, 5, 8] {
        let g = Grid::cube(3, n).unwrap();
        let c = count_formats(g, &p, 1 << 20, 1 << 22);
        assert_eq!(c.max_per_node, 14, "3D {n}³");
        assert_eq!((c.proposed, c.skyline), stencil_counts(&g));
        assert!(c.value_mismatch < 1e-14);
    }
}

#[test]
fn flattened_layout_matches_fig4() {
    let sys = System::assemble(Grid::new_2d(5, 4).unwrap(), &Problem::default()).unwrap();
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
    assert_eq!(
        flat.max_off_diagonal(),
        8,
        "a thread loops over at most 8 entries in 2D"
    );
    assert_eq!(flat.entries(), 2 * sys.k.stored_values() - sys.k.n());
    // Row r: diagonal first; the row's entries are the full symmetric row of K.
    let x: Vec<f64> = (0..flat.n()).map(|i| (i as f64 * 0.37).sin()).collect();
    let want = sys.k.mul_sym(&x);
    for r in 0..flat.n() {
        let range = flat.row(r);
        assert_eq!(flat.idx[range.start] as usize, r);
        let got: f64 = range
            .map(|k| flat.val[k] as f64 * x[flat.idx[k] as usize])
            .sum();
        // f32 values: 9 products of magnitude ≤ 3 → rounding ≤ ~1e-6.
        assert!(
            (got - want[r]).abs() < 1e-5,
            "row {r}: {got} vs {}",
            want[r]
        );
    }
    let sys3 = System::assemble(Grid::new_3d(4, 4, 4).unwrap(), &Problem::default()).unwrap();
    let flat3 = FlatMatrix::from_varvec(&sys3.k, &sys3.f).unwrap();
    assert_eq!(flat3.max_off_diagonal(), 26);
}

#[test]
fn direct_solve_reproduces_a_linear_temperature() {
    // No source and no flux, T = 0 at x = 0 and 1 at x = 1: the exact solution T = x lies in
    // the element space, so the FEM solution equals it at the nodes.
    let p = Problem {
        chi: 2.0,
        source: 0.0,
        t_left: 0.0,
        t_right: 1.0,
        flux: 0.0,
    };
    for g in [Grid::new_2d(9, 6).unwrap(), Grid::new_3d(5, 4, 3).unwrap()] {
        let sys = System::assemble(g, &p).unwrap();
        let x = cholesky_solve(&sys.k, &sys.f).unwrap();
        for (i, xi) in x.iter().enumerate() {
            let (gx, _, _) = g.coords(i);
            let want = gx as f64 / (g.nx - 1) as f64;
            assert!(
                (xi - want).abs() < 1e-12,
                "{} node {i}: {xi} vs {want}",
                g.label()
            );
        }
        assert!(sys.relative_residual(&x) < 1e-14);
    }
}

#[test]
fn cpu_and_gpu_jacobi_converge_to_the_direct_solution() {
    let gl = ctx();
    let sys = System::assemble(Grid::new_2d(12, 10).unwrap(), &Problem::default()).unwrap();
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
    let exact = cholesky_solve(&sys.k, &sys.f).unwrap();
    let params = JacobiParams {
        tol: 1e-6,
        max_iterations: 20_000,
        ..JacobiParams::default()
    };
    let mut cpu = CpuJacobi::new(&flat, 2);
    let ci = cpu.solve(&params).unwrap();
    let mut gpu = GpuJacobi::new(&gl, &flat).unwrap();
    let gi = gpu.solve(&params).unwrap();
    assert_eq!(ci.stop, Stop::Converged);
    assert_eq!(gi.stop, Stop::Converged);
    // Same arrays, same f32 operations up to summation order/fma: same iteration count ±1%.
    assert!(ci.iterations.abs_diff(gi.iterations) <= ci.iterations / 100 + 1);
    let xg = gpu.x().unwrap();
    let scale = exact.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (x, want) in [(cpu.x().to_vec(), &exact), (xg, &exact)] {
        let err = x
            .iter()
            .zip(want.iter())
            .map(|(a, b)| (*a as f64 - b).abs())
            .fold(0.0, f64::max)
            / scale;
        // Stopping at a relative change of 1e-6 with ρ ≈ 0.97 leaves an error of about
        // 1e-6/(1−ρ) ≈ 3e-5 of ‖x‖ (plus f32 rounding).
        assert!(err < 3e-4, "error {err}");
    }
}

#[test]
fn gpu_sweep_equals_cpu_sweep() {
    let gl = ctx();
    let sys = System::assemble(Grid::new_3d(9, 8, 7).unwrap(), &Problem::default()).unwrap();
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
    let x0: Vec<f32> = (0..flat.n())
        .map(|i| ((i * 7919) % 101) as f32 / 50.0)
        .collect();
    // Both ways of reading the inputs, over two sweeps (the second reads the iterate the
    // first wrote, through the other buffer and its view).
    for reads in Reads::ALL {
        let mut gpu = GpuJacobi::with_reads(&gl, &flat, reads).unwrap();
        assert_eq!(gpu.reads(), reads);
        gpu.set_x(&x0).unwrap();
        let mut cpu = CpuJacobi::new(&flat, 1);
        cpu.set_x(&x0);
        for sweep in 1..=2 {
            let (gd, gx) = gpu.step(true).unwrap().unwrap();
            let (cd, cx) = cpu.step();
            let xg = gpu.x().unwrap();
            for (i, (a, b)) in xg.iter().zip(cpu.x()).enumerate() {
                // 26 f32 products of magnitude ≤ 2: order/fma differences ≤ ~1e-6 absolute.
                assert!(
                    (a - b).abs() <= 1e-5 * b.abs().max(1.0),
                    "{reads:?} sweep {sweep} row {i}: {a} vs {b}"
                );
            }
            // Norms reduced on the GPU in f32 vs the CPU's f64 sums: agree to ~1e-5 relative.
            assert!(
                (gd - cd).abs() <= 1e-4 * cd,
                "{reads:?}: diff² {gd} vs {cd}"
            );
            assert!((gx - cx).abs() <= 1e-4 * cx, "{reads:?}: x² {gx} vs {cx}");
        }
    }
}

/// Max-norm error of `x` against `want`, relative to `want`'s max norm.
fn rel_max_err(x: &[f32], want: &[f64]) -> f64 {
    let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    x.iter()
        .zip(want)
        .map(|(a, b)| (*a as f64 - b).abs())
        .fold(0.0, f64::max)
        / scale
}

#[test]
fn fragment_sweeps_match_the_f64_cpu_jacobi() {
    // Runs on GL 3.3 (softpipe) too: no compute shader involved.
    let gl = ctx();
    for grid in [
        Grid::new_2d(13, 11).unwrap(),
        Grid::new_3d(9, 8, 7).unwrap(),
    ] {
        let sys = System::assemble(grid, &Problem::default()).unwrap();
        let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
        let x0: Vec<f32> = (0..flat.n())
            .map(|i| ((i * 7919) % 101) as f32 / 50.0)
            .collect();
        let mut f = FragmentJacobi::new(&gl, &flat).unwrap();
        f.set_x(&x0).unwrap();
        let x64: Vec<f64> = x0.iter().map(|&v| v as f64).collect();
        // One sweep: the CPU f32 sweep in the shader's order, and the norms.
        let (fd, fx) = f.step(true).unwrap().unwrap();
        let mut cpu = CpuJacobi::new(&flat, 1);
        cpu.set_x(&x0);
        let (cd, cx) = cpu.step();
        let xf = f.x().unwrap();
        for (i, (a, b)) in xf.iter().zip(cpu.x()).enumerate() {
            assert!(
                (a - b).abs() <= 1e-5 * b.abs().max(1.0),
                "{grid:?} row {i}: {a} vs {b}"
            );
        }
        assert!((fd - cd).abs() <= 1e-4 * cd, "diff² {fd} vs {cd}");
        assert!((fx - cx).abs() <= 1e-4 * cx, "x² {fx} vs {cx}");
        // Ten more sweeps: within f32 rounding of the f64 Jacobi.
        f.run_fixed(10).unwrap();
        let want = sweeps_f64(&flat, &x64, 11);
        let err = rel_max_err(&f.x().unwrap(), &want);
        assert!(err < 1e-5, "{grid:?}: error {err:e} after 11 sweeps");
    }
}

#[test]
fn fragment_jacobi_converges_to_the_direct_solution_like_the_cpu() {
    let gl = ctx();
    let sys = System::assemble(Grid::new_2d(12, 10).unwrap(), &Problem::default()).unwrap();
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
    let exact = cholesky_solve(&sys.k, &sys.f).unwrap();
    let params = JacobiParams {
        tol: 1e-6,
        max_iterations: 20_000,
        ..JacobiParams::default()
    };
    let mut cpu = CpuJacobi::new(&flat, 1);
    let ci = cpu.solve(&params).unwrap();
    let mut f = FragmentJacobi::new(&gl, &flat).unwrap();
    let fi = f.solve(&params).unwrap();
    assert_eq!(fi.stop, Stop::Converged);
    // The same stopping rule with the norms summed in f64 as on the CPU: the same count up
    // to f32 summation-order differences.
    assert!(
        ci.iterations.abs_diff(fi.iterations) <= ci.iterations / 100 + 1,
        "CPU {} vs fragment {} iterations",
        ci.iterations,
        fi.iterations
    );
    let err = rel_max_err(&f.x().unwrap(), &exact);
    assert!(err < 3e-4, "error {err}");
}

#[test]
fn fragment_and_compute_jacobi_agree() {
    let Some(gl) = common::ctx_with("fragment_and_compute_jacobi_agree", &[Need::Compute]) else {
        return;
    };
    let sys = System::assemble(Grid::new_2d(40, 40).unwrap(), &Problem::default()).unwrap();
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
    let params = JacobiParams {
        tol: 1e-5,
        max_iterations: 20_000,
        check_every: 10,
        ..JacobiParams::default()
    };
    let mut f = FragmentJacobi::new(&gl, &flat).unwrap();
    let fi = f.solve(&params).unwrap();
    let mut g = GpuJacobi::new(&gl, &flat).unwrap();
    let gi = g.solve(&params).unwrap();
    assert_eq!(fi.stop, Stop::Converged);
    assert_eq!(gi.stop, Stop::Converged);
    // Checked every 10 sweeps: the counts differ by at most one check.
    assert!(fi.iterations.abs_diff(gi.iterations) <= 10, "{fi:?} {gi:?}");
    let x64: Vec<f64> = g.x().unwrap().iter().map(|&v| v as f64).collect();
    if fi.iterations == gi.iterations {
        assert!(rel_max_err(&f.x().unwrap(), &x64) < 1e-5);
    }
}

#[test]
fn fragment_layout_wraps_at_the_texture_size() {
    use gpgpu_repro::papers::fem_storage::fragment::width;
    assert_eq!(width(1, 16384), 1);
    assert_eq!(width(300, 16384), 512);
    assert_eq!(width(10_000_000, 16384), 4096);
    assert_eq!(width(10_000_000, 3000), 2048);
    // 4900 rows on 4096-wide textures: x wraps onto a second, padded row of fragments.
    let gl = ctx();
    let sys = System::assemble(Grid::new_2d(70, 70).unwrap(), &Problem::default()).unwrap();
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
    let mut f = FragmentJacobi::new(&gl, &flat).unwrap();
    assert_eq!(f.layout(), (4096, 2));
    f.run_fixed(5).unwrap();
    let want = sweeps_f64(&flat, &vec![0.0; flat.n()], 5);
    assert!(rel_max_err(&f.x().unwrap(), &want) < 1e-5);
}

#[test]
fn jacobi_never_hangs() {
    let gl = ctx();
    // SPD but not diagonally dominant: the Jacobi matrix has eigenvalue −1.8, so it diverges.
    let mut k = VarVec::new(3);
    for i in 0..3 {
        k.add(i, i, 1.0);
        for j in i + 1..3 {
            k.add(i, j, 0.9);
        }
    }
    let flat = FlatMatrix::from_varvec(&k, &[1.0, 2.0, 3.0]).unwrap();
    let params = JacobiParams::default();
    let e = CpuJacobi::new(&flat, 1).solve(&params).unwrap_err();
    assert!(matches!(e, FemError::Diverged { .. }), "{e}");
    let e = GpuJacobi::new(&gl, &flat)
        .unwrap()
        .solve(&params)
        .unwrap_err();
    assert!(matches!(e, FemError::Diverged { .. }), "{e}");
    // A convergent system stopped by the cap says so.
    let sys = System::assemble(Grid::new_2d(30, 30).unwrap(), &Problem::default()).unwrap();
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).unwrap();
    let capped = JacobiParams {
        max_iterations: 50,
        ..params
    };
    let info = GpuJacobi::new(&gl, &flat).unwrap().solve(&capped).unwrap();
    assert_eq!((info.stop, info.iterations), (Stop::IterationCap, 50));
    assert!(info.rel_change > 1e-8);
    let ex = info
        .extrapolate(1e-8)
        .expect("a contracting run extrapolates");
    assert!(
        ex.rho > 0.9 && ex.rho < 1.0 && ex.more_iterations > 100.0,
        "{ex:?}"
    );
    // A zero diagonal is a typed error, not a division by zero.
    let mut z = VarVec::new(2);
    z.add(0, 0, 0.0);
    z.add(0, 1, 1.0);
    z.add(1, 1, 1.0);
    assert!(matches!(
        FlatMatrix::from_varvec(&z, &[1.0, 1.0]),
        Err(FemError::ZeroDiagonal(0))
    ));
}

#[test]
fn grids_and_problems_are_checked() {
    assert!(matches!(Grid::new_2d(1, 5), Err(FemError::InvalidGrid(_))));
    assert!(matches!(Grid::cube(4, 5), Err(FemError::InvalidGrid(_))));
    let g = Grid::nearest(2, 82_654, 1.1).unwrap();
    assert_eq!((g.nx, g.ny, g.nodes()), (289, 286, 82_654));
    let bad = Problem {
        chi: 0.0,
        ..Problem::default()
    };
    assert!(matches!(
        System::assemble(Grid::new_2d(3, 3).unwrap(), &bad),
        Err(FemError::InvalidProblem(_))
    ));
}

#[test]
fn jacobi_spectral_radius_is_exact() {
    use gpgpu_repro::papers::fem_storage::assembly::jacobi_spectral_radius;
    // v = sin(π x) must satisfy (I − D⁻¹K) v = ρ v on the free rows (Dirichlet rows: v = 0).
    for g in [Grid::new_2d(17, 9).unwrap(), Grid::new_3d(9, 6, 5).unwrap()] {
        let sys = System::assemble(g, &Problem::default()).unwrap();
        let rho = jacobi_spectral_radius(&g);
        let v: Vec<f64> = (0..g.nodes())
            .map(|i| (std::f64::consts::PI * g.coords(i).0 as f64 / (g.nx - 1) as f64).sin())
            .collect();
        let kv = sys.k.mul_sym(&v);
        for i in 0..g.nodes() {
            let d = sys.k.get(i, i).unwrap();
            let jv = v[i] - kv[i] / d;
            let want = if g.coords(i).0 == 0 || g.coords(i).0 == g.nx - 1 {
                0.0
            } else {
                rho * v[i]
            };
            // Sums of ≤ 27 terms of size ≤ 1: rounding ≤ 1e-14.
            assert!(
                (jv - want).abs() < 1e-13,
                "{} node {i}: {jv} vs {want}",
                g.label()
            );
        }
    }
}

const TOML: &str = include_str!("../experiments/fem-storage.toml");

#[test]
fn every_program_variant_compiles() {
    let g = ctx();
    for (file, defines) in programs() {
        assert!(file.ends_with(".comp"), "{file}");
        if let Err(e) = gpgpu_repro::gl::Program::compute(&g, file, &defines) {
            panic!("{file} {defines:?}: {e}");
        }
    }
    // The fragment Jacobi's programs (GL 3.3: these compile on softpipe too).
    for (file, defines) in gpgpu_repro::papers::fem_storage::fragment::programs() {
        assert!(file.ends_with(".frag"), "{file}");
        if let Err(e) = gpgpu_repro::gl::Program::fragment(&g, file, &defines) {
            panic!("{file} {defines:?}: {e}");
        }
    }
}

#[test]
fn bad_numbers_are_refused_on_load_naming_the_key() {
    let ok: Config = toml::from_str(TOML).unwrap();
    assert!(ok.validate().is_ok());
    for (from, to, key) in [
        ("sweeps = 20", "sweeps = 0", "perf.sweeps"),
        ("tol = 1e-8", "tol = nan", "table4.tol"),
        ("chi = 1.0 ", "chi = 0.0 ", "problem.chi"),
        (
            "quick = [3.0, 3.0]",
            "quick = [3.0]",
            "jacobi_budget_s.quick",
        ),
        ("max_aspect = 1.1", "max_aspect = 0.5", "table4.max_aspect"),
        // 18 M stored entries: past the fragment Jacobi's exact f32 indices (legacy table).
        ("full = [1228045]", "full = [2000000]", "perf.unknowns.full"),
    ] {
        assert!(TOML.contains(from), "{from}");
        let cfg: Config = toml::from_str(&TOML.replace(from, to)).unwrap();
        let e = cfg.validate().unwrap_err();
        assert!(e.contains(key), "{to}: {e}");
    }
}

#[test]
fn fem_grids_2d_quick_30000_is_refused_in_under_a_second() {
    let g = ctx();
    let exp = tempfile::tempdir().unwrap();
    let toml = TOML.replace("quick = [6, 16, 32, 64, 128]", "quick = [30000]");
    assert_ne!(toml, TOML);
    std::fs::write(exp.path().join("fem-storage.toml"), toml).unwrap();
    let out = tempfile::tempdir().unwrap();
    let opts = Options {
        papers: vec!["fem-storage".into()],
        mode: Mode::Quick,
        out: Some(out.path().to_path_buf()),
        resume: false,
        experiments: Some(exp.path().to_path_buf()),
        check_only: false,
        bench: false,
        profile: false,
    };
    let t0 = std::time::Instant::now();
    let err = runner::reproduce(&g, gpgpu_repro::registry::PAPERS, &opts).unwrap_err();
    let secs = t0.elapsed().as_secs_f64();
    let msg = err.to_string();
    assert!(matches!(err, RunError::Config { .. }), "{msg}");
    assert!(
        msg.contains("table2.grids_2d.quick") && msg.contains("host memory"),
        "{msg}"
    );
    assert!(secs < 1.0, "took {secs} s");
    assert!(!out.path().join("fem-storage/table2.csv").exists());
}

#[test]
fn sizes_beyond_the_devices_buffer_textures_are_refused_before_any_work() {
    use gpgpu_repro::papers::fem_storage::experiments::{need, need_ssbo_bytes};
    let mut info = gpgpu_repro::gl::DeviceInfo::default();
    let nodes = 100_000u64;
    let texels = need_ssbo_bytes(3, nodes) / 4;
    info.max_texture_buffer_size = texels as i32;
    assert!(need(&info, 3, nodes, true).is_ok(), "exactly at the limit");
    info.max_texture_buffer_size = texels as i32 - 1;
    let e = need(&info, 3, nodes, true).unwrap_err();
    assert!(e.contains("GL_MAX_TEXTURE_BUFFER_SIZE"), "{e}");
    // The CPU-only tables do not need it.
    assert!(need(&info, 3, nodes, false).is_ok());
}
