//! The LU paper's implementations on a real context (llvmpipe in CI).

mod common;
use common::{ctx, ctx_with};

use gpgpu_repro::gl::Rect;
use gpgpu_repro::gl::{self, Format, Need, PingPongMethod};
use gpgpu_repro::papers::lu::cpu::{
    Reference, Threads, Update, diag_dominant, faer_lu_f32, lu_f32, lu_f32_form, lu_f64_of,
    lu_in_place_skipping_update,
};
use gpgpu_repro::papers::lu::fragment::rect_minus;
use gpgpu_repro::papers::lu::{Feed, FragmentLu, I2Order, LuError, Params, Variant, theory};
use gpgpu_repro::stats::max_rel_error as factor_error;

/// The verification tolerance the experiments use for the order-`n` matrix `a` (see
/// `cpu::tolerance`).
fn tol_of(a: &[f32], n: usize) -> f64 {
    Reference::of(a.to_vec(), n).unwrap().tol
}

/// Whether this device's fragment shader rounds `+ − × ÷` correctly (Table 5's measurement on
/// a small sample): then the GPU factors must equal the CPU f32 loop's bit for bit.
fn rounds_correctly(g: &gl::Gl) -> bool {
    use gpgpu_repro::papers::lu::ulp::{fragment_results, operands, stats};
    let ab = operands(20_000, 7);
    let frag = fragment_results(g, &ab, 256).unwrap();
    stats(&ab, &frag).iter().all(|s| s.correctly_rounded == 1.0)
}

/// Every variant under both methods in both forms (the paper's and the labelled
/// alternative, issue 38).
fn configs() -> Vec<Params> {
    let mut v = vec![];
    for variant in Variant::ALL {
        for method in PingPongMethod::ALL {
            for feed in Feed::ALL {
                let mut p = Params::new(variant, method);
                p.feed = feed;
                v.push(p);
            }
        }
    }
    // The labelled I2 that divides first (issue 38).
    for method in PingPongMethod::ALL {
        let mut p = Params::new(Variant::I2, method);
        p.i2 = I2Order::DivideFirst;
        v.push(p);
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
    let exact = rounds_correctly(&g);
    // Non-multiples of 4 exercise the I3/I4 identity padding; 1 has no pass at all.
    for n in [1usize, 2, 3, 5, 8, 13, 31, 66, 130, 300] {
        let a = diag_dominant(n, 6000 + n as u64);
        let want = lu_f64_of(&a, n).unwrap();
        let tol = tol_of(&a, n);
        for p in configs() {
            let got = gpu_lu(&g, &a, n, p).unwrap();
            let mut cpu = a.clone();
            lu_f32_form(&mut cpu, n, p.update()).unwrap();
            let e = factor_error(&got, &want);
            assert!(
                e <= tol,
                "{:?} {} N={n}: error {e:.3e} > {tol:.3e}",
                p.variant,
                p.method_label(),
            );
            // §5.1: the same operations in the same order, correctly rounded, give the same
            // bits as the CPU loop.
            if exact {
                assert!(
                    got.iter()
                        .zip(&cpu)
                        .all(|(x, y)| x.to_bits() == y.to_bits()),
                    "{:?} {} N={n}: not bit-identical to the CPU f32 loop",
                    p.variant,
                    p.method_label()
                );
            }
        }
    }
}

#[test]
fn a_corrupted_step_fails_verification() {
    // Skipping one step's trailing update (early, middle or late) must exceed the tolerance
    // (the old 8·N·u bound let this pass at N = 160).
    for n in [32usize, 160] {
        let a = diag_dominant(n, 4242 + n as u64);
        let want = lu_f64_of(&a, n).unwrap();
        let tol = tol_of(&a, n);
        for skip in [0, n / 2, n - 3] {
            let mut c = a.clone();
            lu_in_place_skipping_update(&mut c, n, skip).unwrap();
            let e = factor_error(&c, &want);
            assert!(
                e > tol,
                "N={n}, step {skip} skipped: error {e:.3e} ≤ {tol:.3e}"
            );
        }
    }
}

#[test]
fn every_program_variant_compiles() {
    use gpgpu_repro::gl::Program;
    use gpgpu_repro::papers::lu::{Stage, program_variants};
    let g = ctx();
    // Every panel width the experiment file tunes over, and the ends of its range.
    let cfg: gpgpu_repro::papers::lu::experiments::Config =
        toml::from_str(include_str!("../experiments/lu.toml")).unwrap();
    let mut count = 0;
    let blocks: Vec<u32> = cfg.compute.blocks.iter().copied().chain([1, 64]).collect();
    for &block in &blocks {
        for (stage, file, defines) in program_variants(block) {
            let r = match stage {
                Stage::Fragment => Program::fragment(&g, file, &defines),
                // On a GL 3.3 device (softpipe) only the paper's fragment programs build.
                Stage::Compute if g.caps().lacks(&[Need::Compute]).is_some() => continue,
                Stage::Compute => Program::compute(&g, file, &defines),
            };
            if let Err(e) = r {
                panic!("{file} {defines:?}: {e}");
            }
            count += 1;
        }
    }
    // I1, I3 (4 START values), I4: L and U each, with and without FETCH_ONLY; I2; copy; five
    // compute programs; two ULP programs (one of them compute).
    let compute = if g.caps().has(Need::Compute) {
        5 + 1
    } else {
        0
    };
    assert!(
        count >= blocks.len() * (2 * 2 * 6 + 1 + 1 + 1 + compute),
        "{count} programs"
    );
}

#[test]
fn g_c_t_split_as_the_paper_defines_it() {
    let g = ctx();
    let n = 40;
    let a = diag_dominant(n, 9);
    for p in configs() {
        let mut p = p;
        p.profile = true;
        let mut lu = FragmentLu::new(&g, &a, n, p).unwrap();
        let i = lu.run().unwrap();
        assert!(
            (i.a_ms - (i.g_ms + i.c_ms + i.t_ms)).abs() < 1e-9,
            "{p:?}: {i:?}"
        );
        assert!(i.g_ms > 0.0 && i.g_carry_ms <= i.g_ms, "{p:?}: {i:?}");
        match (p.method, p.feed) {
            (PingPongMethod::Copy, _) => {
                assert!(i.t_ms > 0.0 && i.g_carry_ms == 0.0 && i.carried_fragments == 0)
            }
            // The paper's switch draws no texel twice (issue 38).
            (PingPongMethod::Switch, Feed::Paper) => assert!(
                i.t_ms == 0.0 && i.g_carry_ms == 0.0 && i.carried_fragments == 0,
                "{p:?}: {i:?}"
            ),
            (PingPongMethod::Switch, Feed::Alt) => {
                assert!(i.t_ms == 0.0 && i.g_carry_ms > 0.0 && i.carried_fragments > 0)
            }
        }
    }
}

/// §5.1's "I1–I4 give identical results", as measured (issue 38): I1, I3, I4 and the
/// divide-first I2 equal I1 + copy bit for bit under every method and form; I2 as Fig. 4
/// prints it (A_ik·A_ji/A_ii) equals itself across methods and differs from I1.
#[test]
fn i1_to_i4_and_both_methods_give_bit_identical_factors() {
    let g = ctx();
    for n in [17usize, 64] {
        let a = diag_dominant(n, 77 + n as u64);
        let reference = gpu_lu(&g, &a, n, Params::new(Variant::I1, PingPongMethod::Copy)).unwrap();
        let printed = gpu_lu(&g, &a, n, Params::new(Variant::I2, PingPongMethod::Copy)).unwrap();
        for p in configs() {
            let got = gpu_lu(&g, &a, n, p).unwrap();
            let want = match p.update() {
                Update::Stored => &reference,
                Update::Printed => &printed,
            };
            let same = got
                .iter()
                .zip(want)
                .all(|(x, y)| x.to_bits() == y.to_bits());
            assert!(
                same,
                "{:?} {:?} {} N={n} differs from its reference",
                p.variant,
                p.i2,
                p.method_label()
            );
        }
        let differ = printed
            .iter()
            .zip(&reference)
            .filter(|(x, y)| x.to_bits() != y.to_bits())
            .count();
        assert!(differ > 0, "N={n}: the printed I2 order left I1's bits");
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
    // L and U regions: Σ (N−i−1) + (N−i−1)² over i, 16 bytes per RGBA texel: what
    // "copy (rendered only)" copies; the paper's copy copies the step's block after both
    // passes, twice that (Table 1, issue 38).
    let texels: u64 = (0..n as u64)
        .map(|i| (n as u64 - i - 1) * (n as u64 - i))
        .sum();
    assert_eq!(i1c.copied_bytes, 2 * 16 * texels);
    let mut rendered = Params::new(Variant::I1, PingPongMethod::Copy);
    rendered.feed = Feed::Alt;
    assert_eq!(run(rendered).copied_bytes, 16 * texels);
    assert_eq!(
        i1c.flops as f64,
        2.0 * n as f64 * ((n * n) as f64 - 1.0) / 3.0
    );
    let i2s = run(Params::new(Variant::I2, PingPongMethod::Switch));
    assert_eq!(
        (i2s.passes, i2s.copies, i2s.copied_bytes),
        (n as u64 - 1, 0, 0)
    );
    // The paper's switch carries nothing; "switch (carry)" two strips per step.
    assert_eq!(i2s.carried_fragments, 0);
    let mut carry = Params::new(Variant::I2, PingPongMethod::Switch);
    carry.feed = Feed::Alt;
    assert!(run(carry).carried_fragments > 0);
    let i3c = run(Params::new(Variant::I3, PingPongMethod::Copy));
    assert_eq!(i3c.passes, 2 * (n as u64 - 1));
    assert_eq!(
        i3c.flops, i1c.flops,
        "I3 updates exactly the channels I1 updates"
    );
}

/// Issue 38: every variant's counted passes, copies and copied bytes in both forms equal the
/// closed forms of `theory` (the paper's copy: Table 1's bytes for I1 and I2), and the paper's
/// switch method draws each entry once (no carried texels, as many fragments as the copy
/// method draws) while "switch (carry)" carries the previous trailing block.
#[test]
fn copied_bytes_and_passes_follow_the_closed_forms() {
    let g = ctx();
    for n in [5usize, 8, 13, 16, 33] {
        let a = diag_dominant(n, 38 + n as u64);
        for v in Variant::ALL {
            let np = if v.vector() { n.div_ceil(4) * 4 } else { n } as u64;
            let run = |m, feed| {
                let mut p = Params::new(v, m);
                p.feed = feed;
                let mut lu = FragmentLu::new(&g, &a, n, p).unwrap();
                lu.run().unwrap()
            };
            for feed in Feed::ALL {
                let c = run(PingPongMethod::Copy, feed);
                let tag = format!("{v} {feed:?} N={n}");
                assert_eq!(c.passes, theory::passes(v, np), "{tag}");
                assert_eq!(c.copies, c.passes, "{tag}");
                assert_eq!(
                    c.copied_bytes,
                    theory::copied_bytes(v, feed, np, 16),
                    "{tag}"
                );
                let s = run(PingPongMethod::Switch, feed);
                assert_eq!(
                    (s.passes, s.copies, s.copied_bytes),
                    (c.passes, 0, 0),
                    "{tag}"
                );
                assert_eq!(s.fragments, c.fragments, "{tag}");
                match feed {
                    Feed::Paper => assert_eq!(s.carried_fragments, 0, "{tag}"),
                    Feed::Alt => assert!(s.carried_fragments > 0, "{tag}"),
                }
            }
            // Table 1's formulas, where they are exact (I1 and I2: 16 bytes per element).
            if !v.vector() {
                let (_, _, _, bytes) = theory::table1(v, np as f64);
                assert_eq!(
                    theory::copied_bytes(v, Feed::Paper, np, 16) as f64,
                    bytes,
                    "{v} N={n}"
                );
            }
        }
    }
    // The carry of I1's "switch (carry)": every L pass redraws the previous U pass's block,
    // Σ_{i=1}^{N−2} (N−i)² texels (the L column strips aside); at N = 33 that is most of
    // the U passes' own S_U.
    let n = 33u64;
    let a = diag_dominant(n as usize, 1);
    let mut p = Params::new(Variant::I1, PingPongMethod::Switch);
    p.feed = Feed::Alt;
    let mut lu = FragmentLu::new(&g, &a, n as usize, p).unwrap();
    let i = lu.run().unwrap();
    let s_u: u64 = (1..n).map(|k| (n - k) * (n - k)).sum();
    assert!(i.carried_fragments as f64 > 0.9 * s_u as f64, "{i:?}");
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
    let tol = tol_of(&a, n);
    assert!(factor_error(&f, &want) <= tol);
    for threads in [Threads::One, Threads::All] {
        let (faer, identity) = faer_lu_f32(&a, n, threads);
        assert!(
            identity,
            "diagonally dominant by columns: partial pivoting swaps nothing"
        );
        assert!(factor_error(&faer, &want) <= tol, "{threads:?}");
    }
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

mod compute {
    use super::*;
    use gpgpu_repro::papers::lu::compute::{ComputeLu, ComputeParams, compute_work};
    use gpgpu_repro::papers::lu::cpu::lu_pivot_f64;
    use gpgpu_repro::util::{RngExt, rng};

    fn run(
        g: &gl::Gl,
        a: &[f32],
        n: usize,
        p: ComputeParams,
    ) -> Result<(Vec<f32>, Vec<usize>), LuError> {
        let mut lu = ComputeLu::new(g, a, n, p)?;
        lu.run()?;
        Ok((lu.factors()?, lu.pivots()?))
    }

    #[test]
    fn blocked_compute_lu_matches_the_f64_factors() {
        let Some(g) = ctx_with("compute LU", &[Need::Compute]) else {
            return;
        };
        // Panel widths that divide N, that do not, and N smaller than one panel.
        for (n, block) in [(1usize, 8u32), (7, 8), (64, 16), (100, 32), (150, 32)] {
            let a = diag_dominant(n, 900 + n as u64);
            let want = lu_f64_of(&a, n).unwrap();
            for pivoting in [false, true] {
                let (got, piv) = run(&g, &a, n, ComputeParams { block, pivoting }).unwrap();
                let e = factor_error(&got, &want);
                let tol = tol_of(&a, n);
                assert!(e <= tol, "N={n} nb={block} pivoting={pivoting}: {e:.3e}");
                assert!(
                    piv.iter().enumerate().all(|(i, &p)| i == p),
                    "dominant: no swaps"
                );
            }
        }
    }

    #[test]
    fn gpu_partial_pivoting_handles_a_zero_leading_entry() {
        let Some(g) = ctx_with("compute LU pivoting", &[Need::Compute]) else {
            return;
        };
        // A general random matrix with A_00 = 0: LU without pivoting fails at step 0; with
        // pivoting the GPU must choose the same rows as the f64 reference (distinct
        // magnitudes make the argmax unambiguous) and reproduce its factors.
        let n = 70;
        let mut r = rng(42);
        let mut a: Vec<f32> = (0..n * n).map(|_| r.random_range(-1.0f32..1.0)).collect();
        a[0] = 0.0;
        let p = ComputeParams {
            block: 16,
            pivoting: false,
        };
        assert!(matches!(
            run(&g, &a, n, p),
            Err(LuError::Pivot { step: 0, .. })
        ));
        let (want, want_piv) = lu_pivot_f64(&a, n).unwrap();
        let (got, piv) = run(
            &g,
            &a,
            n,
            ComputeParams {
                block: 16,
                pivoting: true,
            },
        )
        .unwrap();
        assert_eq!(piv, want_piv);
        assert!(piv.iter().enumerate().filter(|&(i, &p)| i != p).count() > 10);
        // Partial pivoting keeps |L| ≤ 1; growth of a random 70 × 70 matrix stays small.
        let e = factor_error(&got, &want);
        assert!(
            e <= 10.0 * 8.0 * n as f64 * f32::EPSILON as f64,
            "pivoted factors: {e:.3e}"
        );
    }

    #[test]
    fn the_work_model_counts_the_dispatches_a_run_makes() {
        let Some(g) = ctx_with("compute LU work", &[Need::Compute]) else {
            return;
        };
        for (n, block, pivoting) in [(7usize, 8u32, false), (100, 32, false), (70, 16, true)] {
            let a = diag_dominant(n, 77 + n as u64);
            let p = ComputeParams { block, pivoting };
            let mut lu = ComputeLu::new(&g, &a, n, p).unwrap();
            let info = lu.run().unwrap();
            let w = compute_work(n, block as usize, pivoting, info.swaps);
            assert_eq!(w.dispatches, info.dispatches, "N={n} nb={block}");
        }
    }
}

#[test]
fn table5_ulp_measurement_sees_ieee_rounding_on_the_cpu_side() {
    use gpgpu_repro::papers::lu::ulp::{exact, operands, stats};
    // The statistics themselves: correctly rounded results give |error| ≤ 0.5 and 100%.
    let ab = operands(5000, 1);
    let cpu: Vec<[f32; 4]> = ab
        .iter()
        .map(|&[a, b]| [a + b, a - b, a * b, a / b])
        .collect();
    for s in stats(&ab, &cpu) {
        assert!(s.min >= -0.5 && s.max <= 0.5, "{s:?}");
        assert_eq!(s.correctly_rounded, 1.0);
    }
    // A result one ULP off is measured as about ±1 ULP.
    let off: Vec<[f32; 4]> = cpu
        .iter()
        .map(|r| r.map(|x| f32::from_bits(x.to_bits() + 1)))
        .collect();
    let s = stats(&ab, &off);
    assert!(
        s[2].max > 0.5 && s[2].max <= 1.5 && s[2].correctly_rounded == 0.0,
        "{:?}",
        s[2]
    );
    let _ = exact(ab[0]);
    // And the GPU's results exist and are finite for every operand.
    let g = ctx();
    let frag = gpgpu_repro::papers::lu::ulp::fragment_results(&g, &ab, 64).unwrap();
    let mut all = stats(&ab, &frag).to_vec();
    match g.caps().lacks(&[Need::Compute]) {
        None => {
            let comp = gpgpu_repro::papers::lu::ulp::compute_results(&g, &ab).unwrap();
            all.extend(stats(&ab, &comp));
        }
        Some(why) => println!("compute ULPs not measured: {why}"),
    }
    for s in &all {
        assert_eq!(s.non_finite, 0);
        assert!(s.min > -4.0 && s.max < 4.0, "{s:?}");
    }
}

mod config {
    use gpgpu_repro::papers::lu::experiments::Config;

    fn parse(text: &str) -> Result<Config, String> {
        toml::from_str::<Config>(text).map_err(|e| e.to_string())
    }

    const FILE: &str = include_str!("../experiments/lu.toml");

    #[test]
    fn the_shipped_file_is_valid() {
        parse(FILE).unwrap().validate().unwrap();
    }

    #[test]
    fn zero_negative_and_non_finite_parameters_are_refused_naming_the_key() {
        let cases = [
            (
                "quick = [32, 64, 128, 256, 512]",
                "quick = [0]",
                "table4.sizes.quick",
            ),
            (
                "quick = [32, 64, 128, 256, 512]",
                "quick = []",
                "table4.sizes.quick",
            ),
            ("budget_s = 1.5", "budget_s = nan", "table4.repeat.budget_s"),
            (
                "budget_s = 1.5",
                "budget_s = -1.0",
                "table4.repeat.budget_s",
            ),
            (
                "budget_s = 1.0 }\n\n[bandwidth]",
                "budget_s = inf }\n\n[bandwidth]",
                "cpu.repeat.budget_s",
            ),
            (
                "repetitions = 3, warmup = 1, budget_s = 1.5",
                "repetitions = 0, warmup = 1, budget_s = 1.5",
                "table4.repeat.repetitions",
            ),
            (
                "paper_gbps = 11.4",
                "paper_gbps = nan",
                "bandwidth.paper_gbps",
            ),
            (
                "texture_size = 1024",
                "texture_size = 0",
                "bandwidth.texture_size",
            ),
            ("quick = 262144", "quick = 0", "table5.operands.quick"),
            (
                "blocks = [8, 16, 32, 64]",
                "blocks = [8, 0]",
                "compute.blocks",
            ),
            ("blocks = [8, 16, 32, 64]", "blocks = []", "compute.blocks"),
            ("scan = 40", "scan = 0", "sec51.scan"),
            (
                "best_gflops_n1024 = 1.6",
                "best_gflops_n1024 = -1.6",
                "best_gflops_n1024",
            ),
        ];
        for (from, to, key) in cases {
            assert!(FILE.contains(from), "test case out of date: {from}");
            let text = FILE.replacen(from, to, 1);
            let err = match parse(&text) {
                Ok(c) => c.validate().expect_err(to),
                Err(e) => e,
            };
            // Serde-level checks (e.g. `Repeat`) name the field and the line, not the path.
            let leaf = key.rsplit('.').next().unwrap_or(key);
            assert!(
                err.contains(key) || err.contains(leaf),
                "{to}: `{err}` does not name {key}"
            );
        }
    }

    #[test]
    fn a_huge_lu_size_is_refused_before_allocating() {
        let g = super::ctx();
        let cfg = parse(FILE).unwrap();
        let t0 = std::time::Instant::now();
        let err = cfg
            .check_resources(g.info(), &[1_000_000_000], 1024)
            .unwrap_err();
        assert!(err.contains("largest rectangle texture"), "{err}");
        // At the texture limit: refused only for the host's memory, if at all.
        let side = g.info().max_rectangle_texture_size as u32;
        if let Err(err) = cfg.check_resources(g.info(), &[side], 1024) {
            assert!(
                err.contains("MemAvailable") || err.contains("largest SSBO"),
                "{err}"
            );
        }
        let err = cfg
            .check_resources(g.info(), &[64], 1usize << 40)
            .unwrap_err();
        assert!(err.contains("table5.operands"), "{err}");
        assert!(t0.elapsed().as_secs_f64() < 1.0);
        cfg.check_resources(g.info(), &[32, 64], 1024).unwrap();
    }
}

/// The GLSL 2005 arithmetic (common/arith2005.glsl) equals its CPU twin bit for bit on 2²⁰
/// operand pairs per operation covering every path of the model (TwoProduct by Dekker's
/// split, the default; the opt-in `fma` form is not exact on llvmpipe).
#[test]
fn arith2005_glsl_equals_its_cpu_twin_bit_for_bit() {
    use gpgpu_repro::papers::lu::arith2005::{Arith2005, ops05, same_bits, test_operands};
    use gpgpu_repro::papers::lu::ulp::{OPS, fragment_results_with};
    let g = ctx();
    let ab = test_operands(1 << 20, 2005);
    let want: Vec<[f32; 4]> = ab.iter().map(|p| ops05(*p)).collect();
    let mut failures = vec![];
    {
        let d = Arith2005::ALL.defines();
        let got = fragment_results_with(&g, &ab, 1024, &d).unwrap();
        for (op, name) in OPS.iter().enumerate() {
            let bad: Vec<usize> = (0..ab.len())
                .filter(|&i| !same_bits(got[i][op], want[i][op]))
                .collect();
            if let Some(&i) = bad.first() {
                failures.push(format!(
                    "{name}: {} of {} differ; first: {:e} {name} {:e}: GPU {:e} ({:08x}), twin {:e} ({:08x})",
                    bad.len(),
                    ab.len(),
                    ab[i][0],
                    ab[i][1],
                    got[i][op],
                    got[i][op].to_bits(),
                    want[i][op],
                    want[i][op].to_bits()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every member of the 2005 model family (issue 38) equals its CPU twin bit for bit: its
/// `+ − × ÷` on operands that exercise every path, its update `c − a·b` (the fused MAD's
/// ties, cancellation and exponent gaps), and LU on I1 + copy under the whole member
/// and its ablation on the matrix classes with O(1) and ½ multipliers.
#[test]
fn every_2005_member_equals_its_cpu_twin() {
    use gpgpu_repro::papers::lu::arith2005::{
        Arith2005, Member, same_bits, test_operands, test_triples,
    };
    use gpgpu_repro::papers::lu::cpu::MatrixClass;
    use gpgpu_repro::papers::lu::ulp::{fragment_msub_with, fragment_results_with};
    let g = ctx();
    let ab = test_operands(1 << 16, 38);
    let cab = test_triples(1 << 16, 38);
    for member in Member::FAMILY {
        let model = Arith2005::ALL.with(member);
        let got = fragment_results_with(&g, &ab, 1024, &model.defines()).unwrap();
        let bad = ab
            .iter()
            .zip(&got)
            .filter(|(p, r)| {
                let want = model.ops(**p);
                (0..4).any(|op| !same_bits(r[op], want[op]))
            })
            .count();
        assert_eq!(bad, 0, "{}: {bad} operand pairs differ", member.name());
        // The update c − a·b (a fused MAD under a member with one), emulated and not; where
        // its subtraction is IEEE's, only on normal values (llvmpipe's IEEE arithmetic
        // flushes subnormals, the CPU's does not; the model's own steps never meet one).
        let subnormal = |x: f32| x != 0.0 && x.abs() < f32::MIN_POSITIVE;
        for (m, ieee_sub) in [(model, false), (Arith2005::MUL.with(member), true)] {
            let got = fragment_msub_with(&g, &cab, 1024, &m.defines()).unwrap();
            let bad: Vec<usize> = (0..cab.len())
                .filter(|&i| {
                    let [c, a, b] = cab[i];
                    let want = m.msub(c, a, b);
                    let skip = ieee_sub && [c, a, b, a * b, want].into_iter().any(subnormal);
                    !skip && !same_bits(got[i], want)
                })
                .collect();
            if let Some(&i) = bad.first() {
                let [c, a, b] = cab[i];
                panic!(
                    "{}: {} of {} updates differ; first {c:e} − {a:e}·{b:e}: GPU {:e}, twin {:e}",
                    m.name(),
                    bad.len(),
                    cab.len(),
                    got[i],
                    m.msub(c, a, b)
                );
            }
        }
        for class in [MatrixClass::L0U0, MatrixClass::Laplacian2d] {
            let n = 13;
            let a = class.matrix(n, 38);
            for m in std::iter::once(model).chain(Arith2005::ablation(member)) {
                let mut p = Params::new(Variant::I1, PingPongMethod::Copy);
                p.arith = m;
                common::lu_equals_its_2005_twin(&g, &a, n, p);
            }
        }
    }
}

/// Under the 2005 arithmetic model (`ARITH_2005`) every configuration's factors equal the CPU
/// twin's loop running the same model bit for bit — the whole model on all eight
/// configurations, each operation alone on the ablation's — and differ from the IEEE loop's.
#[test]
fn lu_under_the_2005_model_equals_the_cpu_twin() {
    use gpgpu_repro::papers::lu::arith2005::Arith2005;
    use gpgpu_repro::papers::lu::experiments::ABLATION_VARIANT;
    let g = ctx();
    // Non-multiples of 4 exercise the I3/I4 identity padding under the model too.
    for n in [6usize, 13, 31] {
        let a = diag_dominant(n, 2500 + n as u64);
        let mut ieee = a.clone();
        lu_f32(&mut ieee, n).unwrap();
        let mut runs: Vec<(Params, Arith2005)> =
            configs().into_iter().map(|p| (p, Arith2005::ALL)).collect();
        for m in Arith2005::ABLATION {
            runs.push((Params::new(ABLATION_VARIANT, PingPongMethod::Copy), m));
        }
        for (mut p, model) in runs {
            p.arith = model;
            let got = common::lu_equals_its_2005_twin(&g, &a, n, p);
            if model == Arith2005::ALL && n == 31 {
                assert_ne!(got, ieee, "the model left every bit of the IEEE factors");
            }
        }
    }
}

/// The matrix classes of the family table (issue 38) are what their docs say: the L₀U₀
/// class has O(1) multipliers and the diagonally dominant one small ones; the Laplacian and
/// the small-integer matrices hold integers; every class factors without pivoting.
#[test]
fn matrix_classes_have_their_multipliers() {
    use gpgpu_repro::papers::lu::cpu::MatrixClass;
    let n = 64;
    let max_l = |class: MatrixClass| {
        let a = class.matrix(n, 7);
        let f = lu_f64_of(&a, n).unwrap();
        assert!(f.iter().all(|x| x.is_finite()), "{}", class.name());
        (0..n)
            .flat_map(|j| (0..j).map(move |k| (j, k)))
            .map(|(j, k)| f[j * n + k].abs())
            .fold(0.0, f64::max)
    };
    assert!(max_l(MatrixClass::L0U0) > 0.5);
    assert!(max_l(MatrixClass::DiagDominant) < 0.1);
    assert!(max_l(MatrixClass::Laplacian2d) <= 0.5 + 1e-12);
    for class in [MatrixClass::Laplacian2d, MatrixClass::SmallInt] {
        let a = class.matrix(n, 7);
        assert!(a.iter().all(|x| x.fract() == 0.0), "{}", class.name());
    }
}
