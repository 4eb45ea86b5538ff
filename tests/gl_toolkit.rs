//! The GL toolkit on a real context (llvmpipe in CI).

use gpgpu_repro::gl::{
    self, Buffer, Define, DeviceSelector, Format, GlError, PingPong, PingPongMethod, Program, Quad,
    QuadBatch, Rect, RenderTexture, TexTarget, Texture,
};

fn ctx() -> gl::Gl {
    gl::headless(&DeviceSelector::Auto).expect("a headless GL 4.3 context (Mesa llvmpipe)")
}

#[test]
fn context_reports_a_compute_capable_device() {
    let g = ctx();
    let info = g.info();
    assert!(
        info.version_number >= (4, 3),
        "GL {:?}",
        info.version_number
    );
    assert!(info.compute && info.fp64);
    assert!(info.max_texture_size >= 4096);
    assert!(info.max_work_group_invocations >= 1024);
    assert!(info.max_shared_memory_bytes >= 32768);
    let text = info.to_string();
    for key in [
        "GL_RENDERER",
        "GLSL version",
        "compute shaders",
        "shared memory",
        "CPU",
    ] {
        assert!(text.contains(key), "info lacks {key}:\n{text}");
    }
    assert!(g.checks_enabled(), "tests run with GL error checks");
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
fn compute_shader_writes_an_ssbo() {
    let g = ctx();
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
    let g = ctx();
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
    let a = Program::compute(&g, "test/reverse.comp", &[Define::new("BLOCK", 64)]).unwrap();
    let b = Program::compute(&g, "test/reverse.comp", &[Define::new("BLOCK", 64)]).unwrap();
    let c = Program::compute(&g, "test/reverse.comp", &[Define::new("BLOCK", 128)]).unwrap();
    assert!(std::rc::Rc::ptr_eq(&a, &b));
    assert!(!std::rc::Rc::ptr_eq(&a, &c));
}

#[test]
fn timing_respects_repetitions_and_budget() {
    use gl::timing::{TimingPlan, measure_cpu};
    use std::time::Duration;
    let mut calls = 0;
    let t = measure_cpu::<()>(TimingPlan::new(2, 5, Duration::from_secs(10)), || {
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
fn streaming_bandwidths_are_measured_and_verified() {
    let g = ctx();
    let s = gpgpu_repro::bench::ssbo_stream_bandwidth(&g, 4).unwrap();
    assert!(s.gb_per_s > 0.0 && s.gb_per_s.is_finite(), "{s:?}");
    let t = gpgpu_repro::bench::texture_read_bandwidth(&g, 256).unwrap();
    assert!(t.gb_per_s > 0.0 && t.gb_per_s.is_finite(), "{t:?}");
}
