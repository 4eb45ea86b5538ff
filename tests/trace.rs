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

/// LU I3 under the switch method (four rows per RGBA texel, carried texels): the traced
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
    // The switch method's carried texels are shown on the drawn buffer.
    assert!(
        tr.passes[1..]
            .iter()
            .all(|p| p.panels.iter().any(|s| !s.carried.is_empty()))
    );
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
