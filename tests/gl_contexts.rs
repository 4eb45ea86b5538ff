//! Contexts are freed: many contexts made and dropped, each with cached programs, textures
//! and a pass drawn, leave no context, driver thread or memory behind. Alone in its binary,
//! so that no other test's contexts are counted.

mod common;
use common::{ctx, rss_kib, thread_count};

use gpgpu_repro::gl::{
    Format, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect, TexTarget, live_contexts,
};

/// One context's life: cached programs (fragment, and compute where the device has it), a
/// ping-pong target, one pass; checked, then everything dropped.
fn one_context() {
    let g = ctx();
    let (w, h) = (32u32, 8u32);
    let init = vec![1.0f32; (w * h * 4) as usize];
    let mut pp = PingPong::new(
        &g,
        PingPongMethod::Switch,
        TexTarget::Rect,
        Format::RGBA32F,
        w,
        h,
        &init,
    )
    .unwrap();
    let prog = Program::fragment(&g, "test/increment.frag", &[]).unwrap();
    if g.caps().compute {
        Program::compute(&g, "test/affine.comp", &[]).unwrap();
    }
    let full = Rect::full(w, h);
    let quads = QuadBatch::new(&g, &[Quad::identity(full)]).unwrap();
    pp.pass(full, |src| {
        prog.bind_texture(0, "u_src", src);
        quads.draw(&prog, w, h)
    })
    .unwrap();
    let out = pp.read().unwrap();
    assert_eq!(&out[..4], &[2.0, 3.0, 4.0, 5.0]);
}

#[test]
fn many_contexts_with_cached_programs_leave_nothing_behind() {
    // Warm-up: the driver's one-time state (the EGL display, LLVM, screen threads).
    for _ in 0..3 {
        one_context();
    }
    assert_eq!(live_contexts(), 0, "a context outlived its last handle");
    let (threads0, rss0) = (thread_count(), rss_kib());
    const N: usize = 40;
    for _ in 0..N {
        one_context();
    }
    let (threads1, rss1) = (thread_count(), rss_kib());
    println!("threads {threads0} -> {threads1}, RSS {rss0} -> {rss1} KiB after {N} contexts");
    assert_eq!(live_contexts(), 0, "a context outlived its last handle");
    // A leaked llvmpipe context keeps its rasterizer threads (one per core): N leaks would
    // add N·cores threads.
    assert!(threads1 <= threads0 + 1, "threads {threads0} -> {threads1}");
    // A leaked context holds tens of MiB (its textures, its compiled shaders); 1 MiB per
    // context on average would be 40 MiB. 16 MiB leaves room for allocator noise.
    assert!(
        rss1 <= rss0 + 16 * 1024,
        "RSS {rss0} -> {rss1} KiB after {N} contexts"
    );
}
