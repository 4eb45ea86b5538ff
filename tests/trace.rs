//! `gpgpu-repro trace`: the traced result is the solver's normal output bit for bit, for
//! every traced technique; bad input fails before any output. Runs on GL 3.3 core too
//! (`GALLIUM_DRIVER=softpipe`): the legacy techniques need nothing newer.

mod common;
use common::ctx;

use gpgpu_repro::gl::{Format, PingPongMethod, TexTarget, Texture};
use gpgpu_repro::papers::tridiagonal::{BatchSolver, FragmentCr, Systems};
use gpgpu_repro::trace::{self, TECHNIQUES, TraceError};

/// Every technique at its default input: traced and untraced runs agree bit for bit, and the
/// files (one PNG per pass, the GIF, trace.md) are made.
#[test]
fn every_technique_traces_the_solvers_own_result_bit_for_bit() {
    let gl = ctx();
    for t in TECHNIQUES {
        let (t, input) = trace::resolve(t.name, None, None, 3).unwrap();
        let tr = (t.run)(&gl, &input).unwrap();
        assert!(tr.bit_identical(), "{}: traced ≠ untraced", t.name);
        assert!(!tr.passes.is_empty());
        let files = trace::files(&tr).unwrap();
        let pngs = files.iter().filter(|(n, _)| n.ends_with(".png")).count();
        assert_eq!(pngs, tr.passes.len(), "{}", t.name);
        assert!(
            files
                .iter()
                .any(|(n, b)| n == "trace.gif" && b.starts_with(b"GIF89a"))
        );
        let md = files.iter().find(|(n, _)| n == "trace.md").unwrap();
        let md = String::from_utf8(md.1.clone()).unwrap();
        assert!(md.contains("bit for bit") && !md.contains("DIFFERS"));
    }
}

/// The traced CR equals an independent, plain `FragmentCr` solve of the same systems (not
/// only the trace's own untraced run), for both ping-pong methods; the pass sequence is the
/// paper's: q − 1 reduction levels, the gather (switch only), q fill levels, the collect.
#[test]
fn traced_cr_equals_a_plain_solve_for_both_methods() {
    let gl = ctx();
    for (name, method, passes) in [
        ("cr-copy", PingPongMethod::Copy, 3 + 4 + 1),
        ("cr-switch", PingPongMethod::Switch, 3 + 1 + 4 + 1),
    ] {
        let (t, input) = trace::resolve(name, Some(15), Some(4), 11).unwrap();
        let tr = (t.run)(&gl, &input).unwrap();
        assert_eq!(tr.passes.len(), passes, "{name}");
        let s = Systems::random(15, 4, false, 11);
        let tex =
            Texture::new(&gl, TexTarget::Rect, Format::RGBA32F, 15, 4, Some(&s.data)).unwrap();
        let mut cr = FragmentCr::new(&gl, 15, 4, method).unwrap();
        let want = cr.solve(&tex).unwrap().read().unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&tr.traced), bits(&want), "{name}");
        // Switch: the buffer read flips every reduction pass (P1 ↔ P2).
        if method == PingPongMethod::Switch {
            let drawn: Vec<String> = tr.passes[..3]
                .iter()
                .map(|p| {
                    p.panels
                        .iter()
                        .find(|s| s.role == gpgpu_repro::gl::Role::Drawn)
                        .unwrap()
                        .label
                        .clone()
                })
                .collect();
            assert_eq!(drawn, ["P2", "P1", "P2"]);
        }
    }
}

/// Unknown techniques and sizes a technique cannot take are refused before any GL work.
#[test]
fn bad_input_is_refused_before_anything_runs() {
    assert!(matches!(
        trace::resolve("cr-diagonal", None, None, 1),
        Err(TraceError::Unknown(..))
    ));
    for (size, batch) in [
        (Some(14), None),
        (Some(1), None),
        (Some(63), None),
        (None, Some(0)),
    ] {
        let e = trace::resolve("cr-switch", size, batch, 1);
        assert!(
            matches!(e, Err(TraceError::BadInput { .. })),
            "{size:?} {batch:?}"
        );
    }
    for (t, size) in [("bicg-reduce", 1), ("bicg-reduce", 257), ("lu-i2-copy", 17)] {
        let e = trace::resolve(t, Some(size), None, 1);
        assert!(matches!(e, Err(TraceError::BadInput { .. })), "{t} {size}");
    }
}

/// The command line: a bad size exits non-zero with a clear message and writes nothing.
#[test]
fn cli_bad_size_fails_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .args(["trace", "cr-copy", "--size", "16", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("2^q − 1"), "{err}");
    assert!(!out.exists());
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .args(["trace", "lu-magic", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown technique"));
    assert!(!out.exists());
}

/// LU I3 under the paper's switch method (four rows per RGBA texel, an L texture): the traced
/// factors are a plain `FragmentLu` run's bit for bit; I3 refuses an order that is not a
/// multiple of 4, I1 takes it.
#[test]
fn traced_lu_i3_switch_equals_a_plain_run() {
    use gpgpu_repro::papers::lu::cpu::diag_dominant;
    use gpgpu_repro::papers::lu::{FragmentLu, Params, Variant};
    let gl = ctx();
    let (t, input) = trace::resolve("lu-i3-switch", Some(12), None, 5).unwrap();
    let tr = (t.run)(&gl, &input).unwrap();
    assert_eq!(tr.passes.len(), 2 * 11);
    let a = diag_dominant(12, 5);
    let mut lu = FragmentLu::new(
        &gl,
        &a,
        12,
        Params::new(Variant::I3, PingPongMethod::Switch),
    )
    .unwrap();
    lu.run().unwrap();
    let want = lu.factors().unwrap();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&tr.traced), bits(&want));
    // The paper's switch method (issue 38) carries no texel; its L passes draw into the third
    // texture A_L, which the U passes read.
    assert!(
        tr.passes
            .iter()
            .all(|p| p.panels.iter().all(|s| s.carried.is_empty()))
    );
    assert!(tr.passes.iter().enumerate().all(|(k, p)| {
        let l = p
            .panels
            .iter()
            .find(|s| s.label == "A_L")
            .expect("A_L panel");
        l.role
            == if k % 2 == 0 {
                gpgpu_repro::gl::Role::Drawn
            } else {
                gpgpu_repro::gl::Role::Read
            }
    }));
    assert!(matches!(
        trace::resolve("lu-i3-switch", Some(6), None, 1),
        Err(TraceError::BadInput { .. })
    ));
    assert!(trace::resolve("lu-i1-copy", Some(6), None, 1).is_ok());
}

/// `trace --window` shows every pass (run under `xvfb-run -a`; skipped without a display).
#[test]
fn window_shows_every_pass_under_xvfb() {
    let no_var = |v: &str| std::env::var_os(v).is_none_or(|s| s.is_empty());
    if no_var("DISPLAY") && no_var("WAYLAND_DISPLAY") {
        println!("skipped window_shows_every_pass_under_xvfb: no display (run under xvfb-run -a)");
        return;
    }
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .args(["trace", "cr-copy", "--window", "--autoplay-exit"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(out.contains("cr-copy: 8 passes shown"), "{out}");
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// The traced CG (one iteration, scalar and RGBA-packed) equals an independent plain
/// `FragmentCg` solve bit for bit; the passes are Table 1's: 4 packs and r = k − Mx, then
/// r², its reduction chain, p, q = Mp, p∘q, its chain, x, r, and the unpack; the direction
/// pass shows p1 (read) and p2 (drawn) side by side.
#[test]
fn traced_cg_equals_a_plain_solve_for_both_packings() {
    use gpgpu_repro::gl::Role;
    use gpgpu_repro::papers::tridiagonal::cg::reduction_texels;
    use gpgpu_repro::papers::tridiagonal::{FragmentCg, Packing};
    let gl = ctx();
    let (n, batch) = (13, 3);
    for (name, packing) in [("cg-scalar", Packing::Scalar), ("cg-rgba", Packing::Rgba)] {
        let (t, input) = trace::resolve(name, Some(n), Some(batch), 7).unwrap();
        let tr = (t.run)(&gl, &input).unwrap();
        let w = n.div_ceil(packing.lanes() as usize) as u64;
        let chain = reduction_texels(w, batch as u64).1 as usize;
        assert_eq!(tr.passes.len(), 5 + (6 + 2 * chain) + 1, "{name}");
        let s = Systems::random(n, batch, true, 7);
        let tex = Texture::new(
            &gl,
            TexTarget::Rect,
            Format::RGBA32F,
            n as u32,
            batch as u32,
            Some(&s.data),
        )
        .unwrap();
        let mut cg = FragmentCg::new(&gl, n, batch, packing, 1).unwrap();
        let want = cg.solve(&tex).unwrap().read().unwrap();
        assert_eq!(bits(&tr.traced), bits(&want), "{name}");
        let dir = &tr.passes[5 + 1 + chain];
        assert!(dir.title.starts_with("p = r + β p"), "{}", dir.title);
        let (p1, p2) = (dir.panel("p1").unwrap(), dir.panel("p2").unwrap());
        assert_eq!((p1.role, p2.role), (Role::Read, Role::Drawn));
        assert_eq!(p1.group, p2.group);
        // The last reduction pass of ρ = r·r writes the 1×1 ρ texture.
        let rho = tr.passes[5 + chain].panel("ρ").unwrap();
        assert_eq!((rho.width, rho.height, rho.role), (1, 1, Role::Drawn));
    }
}

/// The traced multipass matmul equals a plain `Multipass::multiply` bit for bit; pass p
/// fetches texel column p of A and rows 4p … 4p+3 of B, and draws into the buffer it does not
/// read.
#[test]
fn traced_matmul_multipass_equals_a_plain_multiply() {
    use gpgpu_repro::gl::{Rect, Role};
    use gpgpu_repro::papers::matmul::Matrix;
    use gpgpu_repro::papers::matmul::multipass::Multipass;
    use gpgpu_repro::trace::matmul::K_CHUNK;
    let gl = ctx();
    let n = 10;
    let (t, input) = trace::resolve("matmul-multipass", Some(n), None, 4).unwrap();
    let tr = (t.run)(&gl, &input).unwrap();
    let passes = (4 * n.div_ceil(4)).div_ceil(K_CHUNK as usize);
    assert_eq!(tr.passes.len(), passes);
    let (a, b) = (Matrix::random(n, n, 4), Matrix::random(n, n, 5));
    let want = Multipass::new(&gl, K_CHUNK)
        .unwrap()
        .multiply(&a, &b)
        .unwrap();
    assert_eq!(bits(&tr.traced), bits(&want.data));
    for (p, pass) in tr.passes.iter().enumerate() {
        let p = p as u32;
        let pa = pass.panel("A").unwrap();
        assert_eq!(pa.fetched, [Rect::new(p, 0, 1, n as u32)]);
        let pb = pass.panel("B").unwrap();
        assert_eq!(pb.fetched, [Rect::new(0, 4 * p, pb.width, 4)]);
        let drawn = pass.panels.iter().find(|s| s.role == Role::Drawn).unwrap();
        let read = pass
            .panels
            .iter()
            .find(|s| s.label.starts_with('R') && s.role == Role::Read);
        assert_ne!(drawn.label, read.unwrap().label);
    }
    assert!(matches!(
        trace::resolve("matmul-multipass", Some(17), None, 1),
        Err(TraceError::BadInput { .. })
    ));
}

/// Fig. 9: the traced tiled CR equals a plain `FragmentCr::tiled` solve bit for bit, and
/// every pass draws one quad per tile column.
#[test]
fn traced_cr_tiled_equals_a_plain_tiled_solve() {
    use gpgpu_repro::gl::Role;
    use gpgpu_repro::papers::tridiagonal::CrParams;
    use gpgpu_repro::papers::tridiagonal::tiled::Tiling3d;
    let gl = ctx();
    for g in [4, 5] {
        let (t, input) = trace::resolve("cr-tiled", Some(g), None, 9).unwrap();
        let tr = (t.run)(&gl, &input).unwrap();
        let tl = Tiling3d::new(g);
        let sys = Systems::random(tl.n, tl.systems(), false, 9);
        let tex = tl.upload(&gl, &sys).unwrap();
        let params = CrParams::new(PingPongMethod::Switch);
        let mut cr = FragmentCr::tiled(&gl, tl.n, tl.rows, tl.cols, params).unwrap();
        let want = cr.solve_tiled(&tex).unwrap().read().unwrap();
        assert_eq!(bits(&tr.traced), bits(&want), "N = {g}");
        for pass in &tr.passes {
            let drawn = pass.panels.iter().find(|s| s.role == Role::Drawn).unwrap();
            assert_eq!(drawn.quads.len(), tl.cols, "N = {g}: {}", pass.title);
        }
    }
    assert!(matches!(
        trace::resolve("cr-tiled", None, Some(2), 1),
        Err(TraceError::BadInput { .. })
    ));
}
