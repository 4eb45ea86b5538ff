//! `bench`: every measurement verified on a real context (llvmpipe in CI), the bound
//! arithmetic, the profile file and the roofline plot. Speed is not asserted here.

mod common;

use gpgpu_repro::bench::{
    self, BenchError, Bound, DeviceProfile, Kind, Limiter, Limits, Pipeline, RooflinePoint,
    Settings, Work,
};
use gpgpu_repro::bench::{Access, AccessRoof, Bytes};
use gpgpu_repro::gl::{self, DeviceInfo, DeviceSelector};

fn ctx() -> gl::Gl {
    gl::headless(&DeviceSelector::Auto).expect("a headless GL 4.3 context (Mesa llvmpipe)")
}

#[test]
fn every_measurement_is_made_and_verified() {
    let g = ctx();
    let p = bench::measure(&g, &common::tiny_bench(), false).unwrap();
    let keys: Vec<&str> = p.measurements.iter().map(|m| m.key.as_str()).collect();
    for want in [
        "ssbo.read.f32",
        "ssbo.write.f64",
        "ssbo.copy.f64",
        "texture.rgba32f.rect.consecutive",
        "texture.r32f.2d.strided",
        "target.r32f",
        "copytex.rgba32f",
        "compute.texture.rgba32f.rect.consecutive",
        "compute.texture.rgba32f.buffer.read",
        "fma.compute.f32",
        "fma.compute.f64",
        "fma.fragment.f32",
        "fma.fragment.f64",
        "fixed.draw",
        "fixed.dispatch",
        "fixed.finish",
        "upload.ssbo",
        "readback.texture",
    ] {
        assert!(keys.contains(&want), "no {want} in {keys:?}");
    }
    assert_eq!(keys.len(), 30, "{keys:?}");
    for m in &p.measurements {
        // llvmpipe has every feature: a missing value is a failed check or a GL error.
        let v = m.value.unwrap_or_else(|| panic!("{}: {}", m.key, m.note));
        assert!(v > 0.0 && v.is_finite(), "{}: {v}", m.key);
        if m.key != "fixed.finish" {
            let e = m.error.expect("read back");
            assert!(e <= m.tolerance, "{}: error {e} > {}", m.key, m.tolerance);
        }
    }
    let l = &p.limits;
    for (name, v) in [
        ("compute_gbs", l.compute_gbs),
        ("fragment_gbs", l.fragment_gbs),
        ("compute_fp64_gflops", l.compute_fp64_gflops),
        ("fragment_fp32_gflops", l.fragment_fp32_gflops),
        ("draw_ms", l.draw_ms),
        ("dispatch_ms", l.dispatch_ms),
        ("readback_gbs", l.readback_gbs),
    ] {
        assert!(v.is_some_and(|v| v > 0.0), "{name} = {v:?}");
    }
    // The best compute bandwidth is the best plateau of the SSBO rows and the texture path.
    let best = p
        .measurements
        .iter()
        .filter(|m| m.key.starts_with("ssbo.") || m.key.starts_with("compute."))
        .filter_map(|m| m.value)
        .fold(0.0, f64::max);
    assert_eq!(l.compute_gbs, Some(best));
    // Every bandwidth row was swept over several sizes; its peak is at least its plateau;
    // every access kind has both roofs.
    for m in p.measurements.iter().filter(|m| {
        ["ssbo.", "texture.", "target.", "copytex.", "compute."]
            .iter()
            .any(|k| m.key.starts_with(k))
    }) {
        assert!(m.sweep.len() >= 2, "{}: {:?}", m.key, m.sweep);
        assert!(m.peak >= m.value, "{}", m.key);
        assert!(m.plateau.is_some(), "{}", m.key);
    }
    for a in Access::ALL {
        let r = l.roof(a).unwrap_or_else(|| panic!("no roof for {a:?}"));
        assert!(
            r.memory_gbs.is_some() && r.peak_gbs >= r.memory_gbs,
            "{r:?}"
        );
    }

    let table = p.to_string();
    assert!(table.contains("fma.fragment.f64") && table.contains("GFLOPS"));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/device.json");
    p.save(&path).unwrap();
    let back = DeviceProfile::load(&path).unwrap();
    assert_eq!(back.limits, p.limits);
    assert_eq!(back.measurements, p.measurements);
    assert_eq!(back.device.renderer, g.info().renderer);
}

#[test]
fn the_papers_bandwidth_helpers_still_verify() {
    let g = ctx();
    let s = bench::ssbo_stream_bandwidth(&g, 1).unwrap();
    assert_eq!(s.bytes, 2.0 * (1 << 20) as f64, "read + written");
    let t = bench::texture_read_bandwidth(&g, 64).unwrap();
    assert_eq!(t.bytes, 64.0 * 64.0 * 8.0 * 16.0, "fetched bytes only");
    // The same kernel pass by pass (LU §4.3 times it in its rounds): exact sums.
    let pass = bench::FetchPass::streaming(&g, 64).unwrap();
    assert_eq!(pass.fetched_bytes(), t.bytes);
    pass.run().unwrap();
    assert_eq!(pass.error().unwrap(), 0.0);
    // LU §4.3's yardstick, the cache-resident read: the same fetches, all from a 16² texture
    // (a target side that is no multiple of 16 wraps mid-tile), its sums exact.
    let cached = bench::FetchPass::cached(&g, 72).unwrap();
    assert_eq!(cached.fetched_bytes(), 72.0 * 72.0 * 8.0 * 16.0);
    cached.run().unwrap();
    assert_eq!(cached.error().unwrap(), 0.0);
}

/// `gpgpu-repro bench` runs each pass in a process of its own (`bench --pass K`) but the
/// fixed costs, and keeps every pass's value; a pass alone writes that pass's rows.
#[test]
fn the_program_runs_each_pass_in_a_child_process() {
    let bin = env!("CARGO_BIN_EXE_gpgpu-repro");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.json");
    let run = |args: &[&str]| {
        let o = std::process::Command::new(bin)
            .args(args)
            .env("TMPDIR", dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        DeviceProfile::load(&out).unwrap()
    };
    let o = out.to_str().unwrap();
    let all = run(&["bench", "--quick", "--only", "fixed.finish", "--out", o]);
    let [row] = &all.measurements[..] else {
        panic!("one row: {:?}", all.measurements);
    };
    assert_eq!(row.key, "fixed.finish");
    assert_eq!(
        row.passes.len(),
        Settings::quick().passes as usize,
        "{row:?}"
    );
    let floor = row
        .one_cpu
        .expect("a fixed cost's pass in a child kept on one CPU");
    assert_eq!(
        row.value,
        row.passes.iter().copied().chain([floor]).reduce(f64::min)
    );
    let up = run(&["bench", "--quick", "--only", "upload.ssbo", "--out", o]);
    let passes = Settings::quick().passes as usize;
    assert_eq!(
        up.measurements[0].passes.len(),
        passes + (passes + 1),
        "a host transfer: one pass in each pass's process, and in this one before and after each"
    );
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 1, "the passes' files (in TMPDIR) are removed");
    let one = run(&[
        "bench",
        "--quick",
        "--only",
        "upload.ssbo",
        "--pass",
        "1",
        "--out",
        o,
    ]);
    let keys: Vec<&str> = one.measurements.iter().map(|m| m.key.as_str()).collect();
    assert_eq!(keys, ["upload.ssbo"]);
    assert!(one.measurements[0].passes.is_empty(), "one pass");
    // The fixed costs are the parent's to measure: a pass alone refuses them.
    let o2 = dir.path().join("none.json");
    let refused = std::process::Command::new(bin)
        .args([
            "bench", "--quick", "--only", "fixed", "--pass", "0", "--out",
        ])
        .arg(&o2)
        .output()
        .unwrap();
    assert!(!refused.status.success() && !o2.exists());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no fixed cost"));
    // On one CPU a pass measures the fixed costs alone, and says where it ran.
    let pinned = run(&[
        "bench",
        "--quick",
        "--only",
        "fixed.finish",
        "--pass",
        "2",
        "--one-cpu",
        "--out",
        o,
    ]);
    let [row] = &pinned.measurements[..] else {
        panic!("one row: {:?}", pinned.measurements);
    };
    assert!(row.value.is_some() && row.one_cpu == row.value, "{row:?}");
    let o3 = dir.path().join("none3.json");
    let refused = std::process::Command::new(bin)
        .args([
            "bench",
            "--quick",
            "--only",
            "upload",
            "--pass",
            "2",
            "--one-cpu",
            "--out",
        ])
        .arg(&o3)
        .output()
        .unwrap();
    assert!(!refused.status.success() && !o3.exists());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("only the fixed costs"));
}

#[test]
fn an_interrupted_bench_stops_its_pass_and_writes_nothing() {
    let bin = env!("CARGO_BIN_EXE_gpgpu-repro");
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = dir.path().join("p.json");
    let mut bench = std::process::Command::new(bin)
        .args(["bench", "--quick", "--out"])
        .arg(&out)
        .env("TMPDIR", &tmp)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Inside the first child pass (a quick bench's pass takes well over ten seconds here),
    // SIGINT to the parent alone, as `timeout -s INT` sends it.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let sent = std::time::Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-INT", &bench.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = loop {
        if let Some(s) = bench.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed().as_secs() > 60 {
            let _ = bench.kill();
            panic!("the bench went on for a minute after SIGINT");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut bench.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success(), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(!out.exists(), "no profile after an interrupt");
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "the child pass's file is removed"
    );
    // It stopped the child's pass rather than waiting for the bench (tens of seconds).
    assert!(
        sent.elapsed().as_secs() < 15,
        "{:?} after SIGINT",
        sent.elapsed()
    );
}

#[test]
fn a_malformed_profile_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("device.json");
    std::fs::write(&path, "{ \"date\": 3 }").unwrap();
    let err = DeviceProfile::load(&path).unwrap_err();
    assert!(matches!(err, BenchError::Json { .. }), "{err}");
    assert!(err.to_string().contains("device.json"), "{err}");
    let err = DeviceProfile::load(&dir.path().join("none.json")).unwrap_err();
    assert!(matches!(err, BenchError::Io { .. }), "{err}");
}

/// Round numbers: 10 GB/s compute (SSBO read peak), 5 GB/s fragment (RGBA fetch peak),
/// other access kinds slower, the copy path 20 GB/s; 100/10 GFLOPS compute, 50/5 fragment,
/// a draw 0.1 ms, a dispatch 0.05 ms.
fn limits() -> Limits {
    let roof = |access, memory: f64, peak: f64| AccessRoof {
        access,
        memory_gbs: Some(memory),
        peak_gbs: Some(peak),
        cache_only: false,
        curve: vec![],
    };
    Limits {
        access: vec![
            roof(Access::TexScalar, 1.0, 2.0),
            roof(Access::TexRgba, 4.0, 5.0),
            roof(Access::Target, 1.0, 2.0),
            roof(Access::Copy, 20.0, 20.0),
            roof(Access::SsboRead, 2.0, 10.0),
            roof(Access::SsboWrite, 2.0, 4.0),
            roof(Access::ImageRead, 3.0, 8.0),
            roof(Access::ImageWrite, 3.0, 8.0),
        ],
        compute_gbs: Some(10.0),
        fragment_gbs: Some(5.0),
        compute_fp32_gflops: Some(100.0),
        compute_fp64_gflops: Some(10.0),
        fragment_fp32_gflops: Some(50.0),
        fragment_fp64_gflops: Some(5.0),
        draw_ms: Some(0.1),
        dispatch_ms: Some(0.05),
        finish_ms: Some(0.01),
        upload_gbs: Some(3.0),
        readback_gbs: Some(2.0),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

#[test]
fn the_bound_is_the_largest_term_of_the_kinds_limits() {
    let l = limits();
    // 1 GB: 100 ms at 10 GB/s (compute), 200 ms at 5 GB/s (fragment).
    let mut w = Work {
        bytes: Bytes::other(1e9),
        kind: Kind::Compute,
        ..Work::default()
    };
    let b = l.bound(&w).unwrap();
    assert!(
        close(b.ms, 100.0) && b.limiter == Limiter::Bandwidth,
        "{b:?}"
    );
    w.kind = Kind::Fragment;
    let b = l.bound(&w).unwrap();
    assert!(
        close(b.ms, 200.0) && b.limiter == Limiter::Bandwidth,
        "{b:?}"
    );
    // 20 GFLOP fp32 in a fragment pass: 400 ms at 50 GFLOPS, more than the bytes' 200 ms.
    w.flops32 = 20e9;
    let b = l.bound(&w).unwrap();
    assert!(close(b.ms, 400.0) && b.limiter == Limiter::Fp32, "{b:?}");
    // 3 GFLOP fp64: 600 ms at 5 GFLOPS; fp32's 400 ms is more than 20 % below.
    w.flops64 = 3e9;
    let b = l.bound(&w).unwrap();
    assert!(close(b.ms, 600.0) && b.limiter == Limiter::Fp64, "{b:?}");
    assert_eq!((b.close, b.label().as_str()), (None, "fp64"));
    // 5000 passes and 4000 dispatches: 500 + 200 ms = 700 ms.
    w.passes = 5000;
    w.dispatches = 4000;
    let b = l.bound(&w).unwrap();
    assert!(
        close(b.ms, 700.0) && b.limiter.name() == "fixed cost",
        "{b:?}"
    );
    // 700 ms fixed cost against 600 ms fp64: within 20 %, so both are named.
    assert_eq!(b.close, Some(Limiter::Fp64));
    assert_eq!(b.label(), "fixed cost ≈ fp64");
    assert!(close(b.fraction(1400.0).unwrap(), 0.5));
    assert_eq!(b.fraction(0.0), None);
    assert_eq!(b.fraction(f64::NAN), None);
}

#[test]
fn a_missing_limit_drops_its_term_and_bad_work_is_an_error() {
    let mut l = limits();
    l.compute_fp64_gflops = None;
    let w = Work {
        bytes: Bytes::of(&[(Access::SsboRead, 1e8)]),
        flops64: 1e12,
        kind: Kind::Compute,
        ..Work::default()
    };
    // Without an fp64 peak the 10 ms of bytes are all that is known.
    let b = l.bound(&w).unwrap();
    assert!(
        close(b.ms, 10.0) && b.limiter == Limiter::Bandwidth,
        "{b:?}"
    );
    let none = Limits::default().bound(&w).unwrap();
    assert_eq!(
        none,
        Bound {
            ms: 0.0,
            limiter: Limiter::Unknown,
            close: None,
            ms_met: None,
        }
    );
    assert_eq!(none.fraction(5.0), None);
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let w = Work {
            bytes: Bytes::of(&[(Access::Target, bad)]),
            ..Work::default()
        };
        let err = l.bound(&w).unwrap_err();
        assert!(err.to_string().contains("render-target"), "{err}");
    }
}

#[test]
fn the_memory_term_is_the_slowest_access_kind_at_its_peak() {
    let l = limits();
    // A fragment pass fetching 1 GB of RGBA texels (200 ms at the 5 GB/s peak) and writing
    // 0.5 GB of target (250 ms at 2 GB/s) and copying 1 GB (50 ms at 20 GB/s): the target
    // writes set the bound, not their sum (500 ms) and not the copy path's rate.
    let w = Work {
        bytes: Bytes::of(&[
            (Access::TexRgba, 1e9),
            (Access::Target, 5e8),
            (Access::Copy, 1e9),
        ]),
        kind: Kind::Fragment,
        ..Work::default()
    };
    let b = l.bound(&w).unwrap();
    assert!(
        close(b.ms, 250.0) && b.limiter == Limiter::Bandwidth,
        "{b:?}"
    );
    assert!(close(w.bytes.total(), 2.5e9));
    // Compute: SSBO loads at their 10 GB/s peak, not the 2 GB/s plateau: 1 GB in 100 ms.
    let w = Work {
        bytes: Bytes::of(&[(Access::SsboRead, 1e9), (Access::ImageWrite, 4e8)]),
        kind: Kind::Compute,
        ..Work::default()
    };
    assert!(close(l.bound(&w).unwrap().ms, 100.0));
    // An unknown kind's roof drops its term; the known ones remain.
    let mut partial = l.clone();
    partial.access.retain(|r| r.access != Access::ImageWrite);
    assert!(close(partial.bound(&w).unwrap().ms, 100.0));
}

#[test]
fn bytes_read_as_a_bare_number_are_of_no_known_kind() {
    let b: Bytes = serde_json::from_str("123.0").unwrap();
    assert_eq!(b, Bytes::other(123.0));
    let k = Bytes::of(&[(Access::TexScalar, 4.0), (Access::Copy, 8.0)]);
    let back: Bytes = serde_json::from_str(&serde_json::to_string(&k).unwrap()).unwrap();
    assert_eq!(back, k);
    assert_eq!((k + k).get(Access::Copy), 16.0);
    assert_eq!((k - k).total(), 0.0);
}

fn profile() -> DeviceProfile {
    let mut p = DeviceProfile::new(DeviceInfo::default(), gpgpu_repro::Mode::Quick, 0.0, vec![]);
    p.limits = limits();
    p
}

fn points() -> Vec<RooflinePoint> {
    let pt = |name: &str, intensity, gflops, pipeline| RooflinePoint {
        name: name.into(),
        intensity,
        gflops,
        pipeline,
    };
    vec![
        pt("fragment CR", 0.1, 0.3, Pipeline::Legacy),
        pt("multipass matmul", 2.0, 8.0, Pipeline::Legacy),
        pt("blocked matmul", 8.0, 30.0, Pipeline::Compute),
        pt("Jacobi sweep", 0.2, 1.5, Pipeline::Compute),
    ]
}

#[test]
fn the_roofline_plot_is_written_with_both_pipelines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("roofline.png");
    bench::roofline(&profile(), "test roofline", &points(), &path).unwrap();
    let img = image::open(&path).unwrap().to_rgb8();
    assert_eq!(img.width(), 1200);
    assert!(img.height() >= 800, "the plot and its legend");
    // Both pipelines' colours appear (roofs and markers).
    let has = |c: [u8; 3]| img.pixels().any(|p| p.0 == c);
    assert!(has([200, 80, 20]), "no legacy roof or marker");
    assert!(has([20, 90, 200]), "no compute roof or marker");
    if let Ok(keep) = std::env::var("GPGPU_REPRO_KEEP_PLOT") {
        std::fs::copy(&path, keep).unwrap();
    }
}

#[test]
fn a_roofline_with_a_bad_point_or_no_roofs_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.png");
    let mut pts = points();
    pts[1].intensity = 0.0;
    let err = bench::roofline(&profile(), "bad", &pts, &path).unwrap_err();
    assert!(err.to_string().contains("multipass matmul"), "{err}");
    assert!(!path.exists(), "nothing written for bad input");
    let empty = DeviceProfile::new(DeviceInfo::default(), gpgpu_repro::Mode::Quick, 0.0, vec![]);
    let err = bench::roofline(&empty, "none", &points(), &path).unwrap_err();
    assert!(err.to_string().contains("no bandwidth"), "{err}");
    assert!(!path.exists());
}

/// A GL 3.3-class device (no compute shaders, no fp64; masked with `GPGPU_REPRO_WITHOUT` on
/// llvmpipe): a quick bench pass measures every fragment-pipeline row, and each row the device
/// cannot run is kept with the reason and no value, never a failure.
#[test]
fn a_device_without_compute_or_fp64_measures_the_rest_and_names_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pass.json");
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .args(["bench", "--quick", "--pass", "1", "--out"])
        .arg(&out)
        .env(gpgpu_repro::gl::caps::WITHOUT_ENV, "compute,fp64")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "exit {:?}: {err}", r.status);
    let p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let rows = p["measurements"].as_array().unwrap();
    let row = |key: &str| {
        rows.iter()
            .find(|m| m["key"] == key)
            .unwrap_or_else(|| panic!("no row {key}"))
    };
    for key in [
        "texture.rgba32f.rect.consecutive",
        "target.r32f",
        "fma.fragment.f32",
    ] {
        let v = row(key)["value"].as_f64();
        assert!(v.is_some_and(|v| v > 0.0), "{key}: {v:?}");
    }
    for (key, lacks) in [
        ("ssbo.read.f32", "needs compute shaders"),
        ("fma.compute.f32", "needs compute shaders"),
        ("fma.fragment.f64", "fp64"),
    ] {
        let m = row(key);
        assert!(m["value"].is_null(), "{key}: {m}");
        let note = m["note"].as_str().unwrap_or_default();
        assert!(note.contains(lacks), "{key}: {note}");
    }
}
