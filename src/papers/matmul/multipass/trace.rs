//! What each pass of [`super::Multipass`] is, for a
//! [`PassObserver`](crate::gl::PassObserver) (the `trace` command).
//!
//! Every matrix is an RGBA32F rectangle texture, four consecutive columns per texel: texel
//! `(x, y)` holds `M[y][4x … 4x+3]` (A is `n₄ × m` texels, B `l₄ × 4n₄`, R `l₄ × m`, with
//! `n₄ = ⌈n/4⌉`, `l₄ = ⌈l/4⌉` and zeros beyond the matrices). Pass `p` covers the inner
//! indices `k = k0 … k0 + K − 1` (`k0 = p·K`, `K = K_CHUNK`): one quad over all of R, each
//! fragment `(x, i)` fetching its running sum from the buffer read, the `K/4` texels of A's
//! row `i` that hold `A[i][k0 … k0+K−1]` and the `K` texels of B's column block `x` in rows
//! `k0 … k0+K−1`, and writing
//!
//! ```text
//! R_new[i][4x … 4x+3] = R_old[i][4x … 4x+3] + Σ_{k = k0}^{k0+K−1} A[i][k] · B[k][4x … 4x+3]
//! ```
//!
//! into the other buffer of the switch-method ping-pong pair R1/R2.

use super::shader::{MULTIPASS, defines};
use crate::gl::observe::{LANES, pair_label, pair_panels};
use crate::gl::{Panel, PassInfo, PingPong, Quad, Rect, Role, Texture};

/// The pass that adds `k = k0 … k0 + k_chunk − 1` (of `n_pad`, a multiple of 4) to the sum
/// read from buffer `reading` of `acc`, with the operands `a` and `b`.
pub fn pass_info<'a>(
    k_chunk: u32,
    k0: u32,
    n_pad: u32,
    a: &'a Texture,
    b: &'a Texture,
    acc: &'a PingPong,
    reading: usize,
) -> PassInfo<'a> {
    let (w, h) = (acc.input().width(), acc.input().height());
    let k1 = (k0 + k_chunk).min(n_pad);
    let ks = k1 - k0;
    let mut pa = Panel::new("A", a, Role::Read, LANES, 0);
    pa.rows = "i";
    pa.fetched = vec![Rect::new(k0 / 4, 0, ks / 4, h)];
    let mut pb = Panel::new("B", b, Role::Read, LANES, 0);
    pb.rows = "k";
    pb.fetched = vec![Rect::new(0, k0, w, ks)];
    let full = Rect::full(w, h);
    let mut panels = vec![pa, pb];
    for mut p in pair_panels(
        acc,
        "R",
        LANES,
        1,
        reading,
        vec![full],
        vec![Quad::identity(full)],
        full,
    ) {
        p.rows = "i";
        panels.push(p);
    }
    let read = pair_label(acc.method(), "R", reading);
    let passes = n_pad.div_ceil(k_chunk);
    PassInfo {
        title: format!(
            "pass {}/{passes}: R += A[:, {k0} … {}] · B[{k0} … {}, :]",
            k0 / k_chunk + 1,
            k1 - 1,
            k1 - 1
        ),
        shader: MULTIPASS,
        defines: defines(k_chunk),
        uniforms: vec![
            ("u_acc".into(), format!("{read} (texture unit 0)")),
            ("u_a".into(), "A (texture unit 1)".into()),
            ("u_b".into(), "B (texture unit 2)".into()),
            ("u_k0".into(), k0.to_string()),
            ("u_n".into(), n_pad.to_string()),
        ],
        paper: "beyond the paper (Park 2019 multiplies in a compute shader): the multipass \
                fragment matmul of 2001–2004 (Larsen & McAllister 2001; Fatahalian, Sugerman \
                & Hanrahan 2004), R[i][4x … 4x+3] += Σ_k A[i][k] · B[k][4x … 4x+3], four \
                columns of R per RGBA texel, the running sum ping-ponged between passes"
            .into(),
        fetches: format!(
            "{w}×{h} fragments; fragment (x, i) fetches its sum from {read} (1 texel), {} of \
             A's row i (A[i][{k0} … {}], one RGBA texel per 4 k) and texels (x, {k0} … {}) of \
             B (one per k): {} fetches and {} multiply-adds per fragment (4 lanes), 1 RGBA \
             texel written",
            if ks == 4 {
                format!("texel {}", k0 / 4)
            } else {
                format!("texels {} … {}", k0 / 4, k1 / 4 - 1)
            },
            k1 - 1,
            k1 - 1,
            1 + ks / 4 + ks,
            4 * ks
        ),
        panels,
    }
}
