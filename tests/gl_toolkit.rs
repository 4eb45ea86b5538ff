//! The GL toolkit on a real context (llvmpipe in CI; the tests that need no compute shaders
//! also under softpipe, a GL 3.3 driver, where the others skip with a message).

mod common;
use common::{ctx, ctx_with};

use gpgpu_repro::gl::{
    self, Buffer, Define, DeviceSelector, Format, GlError, Need, PingPong, PingPongMethod, Program,
    Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture,
};

#[test]
fn context_reports_what_the_device_offers() {
    let g = ctx();
    let info = g.info();
    let caps = g.caps();
    assert!(
        info.version_number >= (3, 3),
        "GL {:?}",
        info.version_number
    );
    assert_eq!(
        (caps.version.0 as i32, caps.version.1 as i32),
        info.version_number
    );
    assert!(caps.glsl >= 330, "GLSL {}", info.glsl_version);
    assert_eq!(caps.compute, info.compute);
    assert_eq!(caps.fp64, info.fp64);
    // What GL 4.3 core guarantees, wherever the device offers it.
    if caps.version >= (4, 3) {
        assert!(caps.compute && caps.fp64 && caps.ssbo && caps.atomic_counters);
        assert!(info.max_work_group_invocations >= 1024);
        assert!(info.max_shared_memory_bytes >= 32768);
    }
    assert!(caps.rect_textures);
    assert!(info.max_texture_size >= 4096);
    assert_eq!(
        caps.has(Need::Compute),
        caps.lacks(&[Need::Compute]).is_none()
    );
    let text = info.to_string();
    for key in [
        "GL_RENDERER",
        "GLSL version",
        "compute shaders",
        "fp64",
        "atomic counters",
        "legacy (fragment) papers",
        "CPU",
    ] {
        assert!(text.contains(key), "info lacks {key}:\n{text}");
    }
    assert!(g.checks_enabled(), "tests run with GL error checks");
}

#[test]
fn llvmpipe_device_in_ci_has_compute_and_fp64() {
    // CI's default driver; under softpipe (GL 3.3) this is the one test that says so.
    let g = ctx();
    if !g.info().renderer.contains("llvmpipe") {
        println!("skipped: the renderer is {}", g.info().renderer);
        return;
    }
    assert_eq!(g.caps().lacks(&[Need::Compute, Need::Fp64]), None);
}

#[test]
fn device_llvmpipe_matches_the_renderer_name() {
    // `--device llvmpipe`: the EGL device of Mesa's software renderer has no such name; the
    // selector must match GL_RENDERER (or GL_VENDOR) too.
    let renderer = ctx().info().renderer.clone();
    let word = renderer
        .split_whitespace()
        .next()
        .expect("a renderer name")
        .to_lowercase();
    let g = gl::headless(&DeviceSelector::Name(word.clone()))
        .unwrap_or_else(|e| panic!("--device {word}: {e}"));
    assert_eq!(g.info().renderer, renderer);
    let vendor = g.info().vendor.clone();
    let g = gl::headless(&DeviceSelector::Name(vendor.to_uppercase()))
        .unwrap_or_else(|e| panic!("--device {vendor}: {e}"));
    assert_eq!(g.info().vendor, vendor);
}

#[test]
fn device_empty_name_is_refused() {
    for s in ["", "  "] {
        let err = s.parse::<DeviceSelector>().unwrap_err();
        assert!(err.contains("empty device name"), "{err}");
    }
    assert_eq!("auto".parse::<DeviceSelector>(), Ok(DeviceSelector::Auto));
    assert_eq!("1".parse::<DeviceSelector>(), Ok(DeviceSelector::Index(1)));
}

/// Runs the binary's `info` with `env` set; `None` with a message if it cannot run here.
fn info_with(env: &[(&str, &str)]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .arg("info")
        .envs(env.iter().copied())
        .output()
        .expect("running gpgpu-repro info");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn device_below_gl_4_3_says_which_version_it_offers() {
    // Mesa's llvmpipe limited to GL 3.3: a context, what it offers, no "install Mesa".
    if !ctx().info().renderer.contains("llvmpipe") {
        println!("skipped: needs Mesa's llvmpipe to emulate a GL 3.3 device");
        return;
    }
    let (ok, text) = info_with(&[("MESA_GL_VERSION_OVERRIDE", "3.3")]);
    assert!(ok, "{text}");
    assert!(
        text.contains("GL_VERSION") && text.contains("3.3"),
        "{text}"
    );
    assert!(text.contains("no (GL 4.3 core missing)"), "{text}");
    assert!(text.contains("run (GL 3.3 core is enough)"), "{text}");
    assert!(!text.contains("install Mesa"), "{text}");
}

#[test]
fn compute_program_on_a_device_without_compute_names_what_it_offers() {
    let g = ctx();
    let caps = g.caps().clone();
    match Program::compute(&g, "test/affine.comp", &[]) {
        Ok(_) => assert!(caps.compute),
        Err(e) => {
            let msg = e.to_string();
            assert!(!caps.compute, "{msg}");
            assert!(msg.contains("needs compute shaders (GL 4.3)"), "{msg}");
            assert!(msg.contains(&caps.offers()), "{msg}");
        }
    }
}

#[test]
fn fragment_programs_compile_as_glsl_330_and_compute_as_430() {
    let g = ctx();
    let frag = gl::program::Glsl::for_sources(g.caps(), &[("a.frag", "void main() {}")]);
    assert_eq!(frag.version, "330 core");
    let comp = gl::program::Glsl::for_sources(g.caps(), &[("a.comp", "void main() {}")]);
    assert_eq!(comp.version, "430 core");
    // `precise` (GLSL 4.00) compiles in a 330 shader: as an extension, or defined away.
    let src = "out vec4 o;\nuniform vec2 u;\nvoid main() {\n    precise float p = u.x * u.y;\n    o = vec4(p + 1.0);\n}\n";
    Program::from_sources(
        &g,
        &[
            (
                "common/quad.vert",
                gl::program::source("common/quad.vert").unwrap(),
            ),
            ("test/precise.frag", src),
        ],
        &[],
    )
    .unwrap();
}

#[test]
fn context_env_window_is_checked() {
    let (ok, text) = info_with(&[("GPGPU_REPRO_CONTEXT", "bogus")]);
    assert!(!ok, "{text}");
    assert!(text.contains("GPGPU_REPRO_CONTEXT"), "{text}");
}

/// Whether a window system is reachable (X11 or Wayland); tests of the hidden-window context
/// skip without one (CI runs them under `xvfb-run`).
fn have_display() -> bool {
    std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
}

#[test]
fn hidden_window_context_runs_the_ping_pong_passes() {
    if !have_display() {
        println!("skipped: no DISPLAY or WAYLAND_DISPLAY (CI runs this under xvfb-run)");
        return;
    }
    let w = gl::window::hidden().expect("a hidden window's context");
    assert!(w.info().egl_device.is_none());
    let (copy, _) = run_passes(&w, PingPongMethod::Copy, 20);
    let (switch, _) = run_passes(&w, PingPongMethod::Switch, 20);
    assert_eq!(copy, switch);
    // A second one in the same process (winit allows one event loop per process).
    let w2 = gl::window::hidden().expect("a second hidden window's context");
    run_passes(&w2, PingPongMethod::Switch, 3);
}

#[test]
fn context_env_window_gives_the_window_systems_context() {
    if !have_display() {
        println!("skipped: no DISPLAY or WAYLAND_DISPLAY (CI runs this under xvfb-run)");
        return;
    }
    let (ok, text) = info_with(&[("GPGPU_REPRO_CONTEXT", "window")]);
    assert!(ok, "{text}");
    assert!(text.contains("window system"), "{text}");
}

#[test]
fn unknown_device_names_the_available_ones() {
    let err = gl::headless(&DeviceSelector::Name("no-such-gpu-xyz".into())).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, GlError::DeviceNotFound { .. }), "{msg}");
    assert!(msg.contains("#0"), "{msg}");
}

#[test]
fn compile_error_names_file_stage_and_line() {
    let g = ctx();
    let src = "out vec4 o;\nvoid main() {\n    o = vec4(1.0) +;\n}\n";
    let err = Program::from_sources(&g, &[("test/broken.frag", src)], &[]).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(
            err,
            GlError::Compile {
                stage: "fragment",
                ..
            }
        ),
        "{msg}"
    );
    // The syntax error is on line 3 of the file (the preamble must not shift the numbering).
    assert!(msg.contains("test/broken.frag:3"), "{msg}");
}

#[test]
fn includes_expand_and_bad_ones_are_named_errors() {
    let g = ctx();
    // An included file's functions are there; a compile error after the include is numbered
    // by the including file's own lines.
    let src = "#include \"common/arith2005.glsl\"\nout vec4 o;\nvoid main() {\n    o = vec4(add05(1.0, 2.0)) +;\n}\n";
    let msg = Program::from_sources(&g, &[("test/inc.frag", src)], &[])
        .unwrap_err()
        .to_string();
    assert!(msg.contains("test/inc.frag:4"), "{msg}");
    let ok = "#include \"common/arith2005.glsl\"\nout vec4 o;\nvoid main() { o = vec4(add05(1.0, 2.0)); }\n";
    Program::from_sources(&g, &[("test/inc.frag", ok)], &[]).unwrap();
    for (bad, want) in [
        (
            "#include \"nope/absent.glsl\"\n",
            "no shader file `nope/absent.glsl`",
        ),
        (
            "#include common/quad.vert\n",
            "expected `#include \"PATH\"`",
        ),
    ] {
        let msg = Program::from_sources(&g, &[("test/inc.frag", bad)], &[])
            .unwrap_err()
            .to_string();
        assert!(msg.contains("test/inc.frag") && msg.contains(want), "{msg}");
    }
}

#[test]
fn missing_shader_file_is_an_error() {
    let g = ctx();
    let err = Program::fragment(&g, "nope/absent.frag", &[]).unwrap_err();
    assert!(err.to_string().contains("nope/absent.frag"));
}

#[test]
fn rgba32f_upload_readback_is_bit_exact() {
    let g = ctx();
    let specials = [
        0.0f32,
        -0.0,
        f32::MIN_POSITIVE,
        f32::from_bits(1),            // smallest denormal
        -f32::from_bits(0x007f_ffff), // largest negative denormal
        f32::MAX,
        -f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.0e-30,
        3.402_823e38,
        std::f32::consts::PI,
    ];
    let (w, h) = (37u32, 19u32);
    let data: Vec<f32> = (0..w * h * 4)
        .map(|i| {
            let s = specials[i as usize % specials.len()];
            if i % 7 == 3 {
                (i as f32).sqrt() * -1.0e-3
            } else {
                s
            }
        })
        .collect();
    for target in [TexTarget::Rect, TexTarget::Tex2D] {
        let t = Texture::new(&g, target, Format::RGBA32F, w, h, Some(&data)).unwrap();
        let back = t.read().unwrap();
        let a: Vec<u32> = data.iter().map(|x| x.to_bits()).collect();
        let b: Vec<u32> = back.iter().map(|x| x.to_bits()).collect();
        assert_eq!(a, b, "{target:?}");
    }
    let r = Texture::new(&g, TexTarget::Rect, Format::R32F, 5, 3, Some(&data[..15])).unwrap();
    assert_eq!(
        r.read_rect(Rect::new(1, 1, 3, 2)).unwrap(),
        [&data[6..9], &data[11..14]].concat()
    );
}

#[test]
fn texture_size_and_length_are_checked() {
    let g = ctx();
    assert!(Texture::new(&g, TexTarget::Rect, Format::R32F, 0, 4, None).is_err());
    assert!(Texture::new(&g, TexTarget::Rect, Format::R32F, 4, 4, Some(&[0.0; 15])).is_err());
    let too_big = g.info().max_texture_size as u32 + 1;
    assert!(Texture::new(&g, TexTarget::Tex2D, Format::R32F, too_big, 1, None).is_err());
}

fn run_passes(g: &gl::Gl, method: PingPongMethod, passes: usize) -> (Vec<f32>, gl::PingPongStats) {
    let (w, h) = (64u32, 48u32);
    let init: Vec<f32> = (0..w * h * 4).map(|i| (i % 1000) as f32 * 0.25).collect();
    let mut pp = PingPong::new(g, method, TexTarget::Rect, Format::RGBA32F, w, h, &init).unwrap();
    let prog = Program::fragment(g, "test/increment.frag", &[]).unwrap();
    let full = Rect::full(w, h);
    let quads = QuadBatch::new(g, &[Quad::identity(full)]).unwrap();
    for _ in 0..passes {
        pp.pass(full, |src| {
            prog.bind_texture(0, "u_src", src);
            quads.draw(&prog, w, h)
        })
        .unwrap();
    }
    let out = pp.read().unwrap();
    for (i, (o, x)) in out.iter().zip(&init).enumerate() {
        let want = x + (passes * (i % 4 + 1)) as f32;
        assert_eq!(*o, want, "{method}: texel {} channel {}", i / 4, i % 4);
    }
    (out, pp.stats())
}

#[test]
fn two_hundred_ping_pong_passes_copy_and_switch_agree_bitwise() {
    let g = ctx();
    let (copy, cs) = run_passes(&g, PingPongMethod::Copy, 200);
    let (switch, ss) = run_passes(&g, PingPongMethod::Switch, 200);
    assert_eq!(
        copy.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        switch.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!((cs.passes, cs.copies), (200, 200));
    assert_eq!(cs.copied_bytes, 200 * 64 * 48 * 16);
    assert_eq!((ss.passes, ss.copies, ss.copied_bytes), (200, 0, 0));
}

#[test]
fn mapped_quad_reads_every_second_texel_offset_by_one() {
    // Output texel i must read input texel 2i + 1: with fragment centres at i + 0.5 the quad
    // runs from s0 = 0.5 at x = 0 to s1 = 2W + 0.5 at x = W (slope 2), so the fragment gets
    // 0.5 + 2(i + 0.5) = 2i + 1.5, the centre of texel 2i + 1.
    let g = ctx();
    let prog = Program::fragment(&g, "test/fetch.frag", &[]).unwrap();
    for w in [1u32, 2, 3, 7, 64, 255, 1000, 1023, 2048, 4096] {
        let src_w = 2 * w + 1;
        let src: Vec<f32> = (0..src_w).map(|i| i as f32).collect();
        let src_tex =
            Texture::new(&g, TexTarget::Rect, Format::R32F, src_w, 1, Some(&src)).unwrap();
        let dst = RenderTexture::new(&g, TexTarget::Rect, Format::R32F, w, 1, None).unwrap();
        let r = Rect::full(w, 1);
        let quad = Quad::mapped(r, [0.5, 0.5, 2.0 * w as f32 + 0.5, 0.5]);
        let batch = QuadBatch::new(&g, &[quad]).unwrap();
        dst.bind();
        prog.bind_texture(0, "u_src", &src_tex);
        batch.draw(&prog, w, 1).unwrap();
        let out = dst.texture().read().unwrap();
        for (i, v) in out.iter().enumerate() {
            assert_eq!(*v, (2 * i + 1) as f32, "width {w}, texel {i}");
        }
    }
}

#[test]
fn a_buffer_range_outside_the_buffer_is_an_error_not_a_panic() {
    let Some(g) = ctx_with(
        "a_buffer_range_outside_the_buffer_is_an_error_not_a_panic",
        &[Need::Compute],
    ) else {
        return;
    };
    let buf = Buffer::<f32>::from_slice(&g, &[1.0, 2.0, 3.0, 4.0]).unwrap();
    assert_eq!(buf.read_range(1, 3).unwrap(), vec![2.0, 3.0, 4.0]);
    // One past the end, and an offset whose end overflows usize: refused before any GL call
    // or allocation.
    for (offset, count) in [(2, 3), (usize::MAX, 2)] {
        let e = buf.read_range(offset, count).unwrap_err().to_string();
        assert!(e.contains("the buffer holds 4"), "{e}");
    }
    let e = buf.upload_at(usize::MAX, &[0.0]).unwrap_err().to_string();
    assert!(e.contains("writing 1 elements"), "{e}");
    let mut out = [0.0f32; 5];
    assert!(buf.read_into(0, &mut out).is_err());
    // The buffer is as it was.
    assert_eq!(buf.read().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn compute_shader_writes_an_ssbo() {
    let Some(g) = ctx_with("compute_shader_writes_an_ssbo", &[Need::Compute]) else {
        return;
    };
    let n = 1000u32;
    let buf = Buffer::<f32>::zeroed(&g, n as usize + 24).unwrap();
    let prog = Program::compute(&g, "test/affine.comp", &[]).unwrap();
    assert_eq!(prog.local_size, [64, 1, 1]);
    buf.bind(0);
    prog.set_u32("n", n);
    prog.dispatch_1d(n).unwrap();
    let y = buf.read().unwrap();
    for (i, v) in y.iter().enumerate() {
        let want = if i < n as usize {
            3.0 * i as f32 + 1.0
        } else {
            0.0
        };
        assert_eq!(*v, want, "element {i}");
    }
}

#[test]
fn compute_shader_with_shared_memory_and_barrier() {
    let Some(g) = ctx_with(
        "compute_shader_with_shared_memory_and_barrier",
        &[Need::Compute],
    ) else {
        return;
    };
    for block in [32u32, 256, 1024] {
        let groups = 5u32;
        let x: Vec<f32> = (0..block * groups).map(|i| i as f32).collect();
        let xin = Buffer::from_slice(&g, &x).unwrap();
        let yout = Buffer::<f32>::zeroed(&g, x.len()).unwrap();
        let prog =
            Program::compute(&g, "test/reverse.comp", &[Define::new("BLOCK", block)]).unwrap();
        assert_eq!(prog.local_size[0], block);
        xin.bind(0);
        yout.bind(1);
        prog.dispatch([groups, 1, 1]).unwrap();
        let y = yout.read().unwrap();
        for gi in 0..groups {
            for l in 0..block {
                let want = (gi * block + block - 1 - l) as f32;
                assert_eq!(
                    y[(gi * block + l) as usize],
                    want,
                    "block {block}, group {gi}, {l}"
                );
            }
        }
    }
}

#[test]
fn programs_are_cached_by_files_and_defines() {
    let g = ctx();
    let d = |v: u32| [Define::new("NFLOATS", format!("{v}u"))];
    let a = Program::fragment(&g, "tridiagonal/copy.frag", &d(4)).unwrap();
    let b = Program::fragment(&g, "tridiagonal/copy.frag", &d(4)).unwrap();
    let c = Program::fragment(&g, "tridiagonal/copy.frag", &d(1)).unwrap();
    assert!(std::rc::Rc::ptr_eq(&a, &b));
    assert!(!std::rc::Rc::ptr_eq(&a, &c));
}

#[test]
fn a_context_with_cached_programs_is_freed_with_its_last_handle() {
    let g = ctx();
    let weak = g.downgrade();
    let p = Program::fragment(&g, "test/increment.frag", &[]).unwrap();
    let t = Texture::new(&g, TexTarget::Rect, Format::R32F, 4, 4, None).unwrap();
    drop(g);
    assert!(weak.is_alive(), "objects keep their context");
    drop((p, t));
    assert!(!weak.is_alive(), "the program cache kept its context alive");
}

#[test]
fn timing_respects_repetitions_and_budget() {
    use gl::measure::measure_cpu;
    use gl::timing::TimingPlan;
    use std::time::Duration;
    let mut calls = 0;
    let t = measure_cpu::<()>(TimingPlan::fixed(2, 5, Duration::from_secs(10)), || {
        calls += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!((t.runs, calls), (5, 7));
    let t = measure_cpu::<()>(TimingPlan::new(0, 100, Duration::ZERO), || {
        std::thread::sleep(Duration::from_millis(2));
        Ok(())
    })
    .unwrap();
    assert_eq!(t.runs, 1, "a spent budget still gives one run");
    assert!(t.min_ms >= 2.0 && t.median_ms >= t.min_ms && t.max_ms >= t.median_ms);
}

#[test]
fn a_software_rasterizer_is_not_rewarmed_unless_forced_and_then_every_timed_run_is() {
    use gl::measure::{measure_gpu, rounds_gpu};
    use gl::steady;
    use gl::timing::TimingPlan;
    use std::time::Duration;
    let g = ctx();
    assert!(
        g.info().cpu_rasterizer(),
        "this test reads llvmpipe's or softpipe's rule"
    );
    // A draw of one quad: cheap, so each re-warm batch holds many calls.
    let dst = RenderTexture::new(&g, TexTarget::Rect, Format::RGBA32F, 8, 8, None).unwrap();
    let prog = Program::fragment(&g, "bench/fill.frag", &[]).unwrap();
    let quads = QuadBatch::new(&g, &[Quad::identity(Rect::full(8, 8))]).unwrap();
    prog.set_f32("u_value", 1.0);
    let plan = TimingPlan::fixed(1, 3, Duration::from_secs(10));
    let calls = std::cell::Cell::new(0);
    let mut draw = || {
        calls.set(calls.get() + 1);
        dst.bind();
        quads.draw(&prog, 8, 8)
    };
    // By the rule: idle or not, a CPU rasterizer is never re-warmed.
    std::thread::sleep(steady::IDLE * 2);
    let before = steady::count();
    measure_gpu(&g, plan, &mut draw).unwrap();
    assert_eq!((steady::count() - before, calls.get()), (0, 4));
    // Forced: once before the first glFinish and before each of the 4 runs.
    steady::force(true);
    calls.set(0);
    let t = measure_gpu(&g, plan, &mut draw).unwrap();
    let made = steady::count() - before;
    assert_eq!((t.runs, made), (3, 5));
    assert!(
        calls.get() > 4 + 2 * 5,
        "each re-warm sizes its batches and makes two at least"
    );
    // rounds_gpu: once first, then before every run of every variant (1 warm-up + 3 rounds).
    let r = rounds_gpu::<Box<dyn std::error::Error>>(&g, plan, 2, |_| Ok(draw()?)).unwrap();
    assert_eq!(r.timings.iter().map(|t| t.runs).collect::<Vec<_>>(), [3, 3]);
    assert_eq!(steady::count() - before - made, 1 + 2 * 4);
    steady::force(false);
}

#[test]
fn streaming_bandwidths_are_measured_and_verified() {
    let Some(g) = ctx_with(
        "streaming_bandwidths_are_measured_and_verified",
        &[Need::Compute],
    ) else {
        return;
    };
    let s = gpgpu_repro::bench::ssbo_stream_bandwidth(&g, 4).unwrap();
    assert!(s.gb_per_s > 0.0 && s.gb_per_s.is_finite(), "{s:?}");
    let t = gpgpu_repro::bench::texture_read_bandwidth(&g, 256).unwrap();
    assert!(t.gb_per_s > 0.0 && t.gb_per_s.is_finite(), "{t:?}");
}

/// A readback into a slice one texel short (or long) is an error, and nothing is written
/// past the slice (issue 40): the size is checked against what GL reports for the texture
/// before `glGetTexImage`, which takes no size of its own.
#[test]
fn a_readback_into_a_slice_one_texel_short_is_an_error() {
    let g = ctx();
    g.enable_checks();
    for (target, format) in [
        (TexTarget::Tex2D, Format::RGBA32F),
        (TexTarget::Rect, Format::R32F),
    ] {
        let (w, h) = (5u32, 3u32);
        let data: Vec<f32> = (0..(w * h) as usize * format.channels())
            .map(|i| i as f32)
            .collect();
        let t = Texture::new(&g, target, format, w, h, Some(&data)).unwrap();
        let c = format.channels();
        // A guard after the slice: a readback that ignored the slice's size would overwrite it.
        let mut short = vec![-1f32; data.len()];
        let err = t.read_into(&mut short[..data.len() - c]).unwrap_err();
        assert!(
            matches!(err, GlError::Invalid(_)),
            "{target:?} {format:?}: {err}"
        );
        assert!(short.iter().all(|&x| x == -1.0), "nothing was written");
        let mut long = vec![-1f32; data.len() + c];
        assert!(t.read_into(&mut long).is_err());
        let mut exact = vec![0f32; data.len()];
        t.read_into(&mut exact).unwrap();
        assert_eq!(exact, data);
        assert_eq!(t.read().unwrap(), data, "the pack state was restored");
    }
}
