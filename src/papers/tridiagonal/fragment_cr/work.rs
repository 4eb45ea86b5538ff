//! The work of a [`FragmentCr`](super::FragmentCr) solve, counted from its pass structure and
//! its shaders: the fetches of every phase (Table 1's static count), the flops of a reduction
//! and a fill fragment, and the bytes, flops and passes of one timed solve ([`cr_work`]).

use super::super::layout::CrLayout;
use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::PingPongMethod;

/// RGBA texels one reduction fragment fetches (`P_i`, `P_{i∓d}`: cr_reduce.frag).
pub const REDUCE_TEXELS: u64 = 3;
/// Fetches of a fill fragment that solves eq. (16): one RGBA `P` texel and two `x` values.
pub const FILL_P_TEXELS: u64 = 1;
pub const FILL_X_VALUES: u64 = 2;

/// Exact static count of the fragment CR's fetches `[texels, floats]` per phase
/// (reduction, gather, fill, pad + collect): each reduction fragment fetches 3 RGBA texels;
/// each fill fragment 1 x (copied unknown) or 2 x + 1 RGBA texel (new unknown); the gather
/// (switch method: the even levels' runs), pad and collect one texel per fragment.
pub fn static_fetches(l: &CrLayout, method: PingPongMethod) -> [[u64; 2]; 4] {
    let b = l.batch as u64;
    let red: u64 = l.levels.iter().map(|v| v.pc as u64).sum::<u64>() * b;
    let mut fill = [0u64; 2];
    for s in 1..=l.q {
        let w = l.fill_width(s) as u64;
        let (odd, even) = (w / 2, w - w / 2);
        fill[0] += b * (even + (FILL_P_TEXELS + FILL_X_VALUES) * odd);
        fill[1] += b * (even + (4 * FILL_P_TEXELS + FILL_X_VALUES) * odd);
    }
    let gather: u64 = if method == PingPongMethod::Switch && l.levels.len() >= 2 {
        let even: u64 = l
            .levels
            .iter()
            .filter(|v| v.s % 2 == 0)
            .map(|v| v.pc as u64)
            .sum();
        even * b
    } else {
        0
    };
    let pad = u64::from(l.padded() as usize != l.n);
    let copy = [
        (l.n as u64) * b * (1 + pad),
        (l.n as u64) * b * (1 + 4 * pad),
    ];
    [
        [REDUCE_TEXELS * red, 4 * REDUCE_TEXELS * red],
        [gather, 4 * gather],
        fill,
        copy,
    ]
}

/// Flops of one reduction fragment (cr_reduce.frag): α, γ (2 divisions), `a' = α a`,
/// `c' = γ c` (1 each), `b'` and `k'` (2 FMAs each, 4 flops): 12 (a division counts 1, an
/// FMA 2).
pub const REDUCE_FLOPS: f64 = 12.0;
/// Flops of a fill fragment that solves eq. (16): `(k − a x_l − c x_r) / b`, 2 FMAs and a
/// division: 5 (a copied unknown does none).
pub const FILL_FLOPS: f64 = 5.0;

/// The work of one [`FragmentCr`](super::FragmentCr) solve of `cols` tile columns of layout
/// `l` (the row's timed run), from the pass structure of its `run` and the shaders:
///
/// ```text
/// bytes  = 4·F                                  every fetched float ([`static_fetches`], Table 1's count)
///        + 16·b·(n·[padded] + Σ_s PC_s + G)     RGBA32F written: pad, reduction, gather
///        + 4·b·(Σ_{s=1}^{q} W_s + n)            R32F written: fill levels, collect
///        + copy method: 2·(16·b·Σ_s PC_s + 4·b·Σ_s W_s)   each pass's rectangle copied back
/// flops  = 12·b·Σ_s PC_s + 5·b·Σ_s ⌊W_s/2⌋
/// passes = [padded] + (q − 1) + [gather] + q + 1
/// ```
///
/// times `cols` (one draw call covers every tile column), with `b` the systems per column,
/// `PC_s` the reduction runs, `W_s` the fill widths, `G = Σ_{s even} PC_s` the switch
/// method's gather (0 under copy), and the copy method's `glCopyTexSubImage2D` counted as a
/// read and a write of its rectangle. No cache model: every fetch is counted once, though
/// neighbouring fragments fetch the same texels.
pub fn cr_work(l: &CrLayout, method: PingPongMethod, cols: u32) -> Work {
    let b = l.batch as u64;
    let st = static_fetches(l, method);
    let floats: u64 = st.iter().map(|v| v[1]).sum();
    let red: u64 = l.levels.iter().map(|v| v.pc as u64).sum::<u64>() * b;
    let gather = st[1][0];
    let fill: u64 = (1..=l.q).map(|s| l.fill_width(s) as u64).sum::<u64>() * b;
    let odd: u64 = (1..=l.q).map(|s| l.fill_width(s) as u64 / 2).sum::<u64>() * b;
    let padded = l.padded() as usize != l.n;
    let n = (l.n as u64) * b;
    let written = 16 * (n * u64::from(padded) + red + gather) + 4 * (fill + n);
    let copied = match method {
        PingPongMethod::Copy => 2 * (16 * red + 4 * fill),
        PingPongMethod::Switch => 0,
    };
    let has_gather = u64::from(gather > 0);
    let c = cols as f64;
    // RGBA fetches: the reductions' and the gather's texels, the fill's P texels, the
    // padded copy's; the rest are R32F (scalar) fetches of x.
    let rgba_floats = 4 * (st[0][0] + st[1][0] + FILL_P_TEXELS * odd + n * u64::from(padded));
    let bytes = Bytes::of(&[
        (Access::TexRgba, 4.0 * rgba_floats as f64),
        (Access::TexScalar, 4.0 * (floats - rgba_floats) as f64),
        (Access::Target, written as f64),
        (Access::Copy, copied as f64),
    ]);
    Work {
        bytes: bytes.scale(c),
        flops32: c * (REDUCE_FLOPS * red as f64 + FILL_FLOPS * odd as f64),
        passes: u64::from(padded) + l.levels.len() as u64 + has_gather + l.q as u64 + 1,
        kind: Kind::Fragment,
        ..Work::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cr_work_of_the_smallest_two_level_system() {
        // n = 3 = 2^2 − 1 (no pad), one system: one reduction level of 1 equation (3 RGBA
        // fetches, 12 floats); fill s = 2 writes 3 values (1 new: 1 P + 2 x, 2 copied: 1 x
        // each; 8 floats), s = 1 writes 5 (2 new, 3 copied; 15 floats); collect 3 floats.
        let l = CrLayout::new(3, 1);
        let w = cr_work(&l, PingPongMethod::Switch, 1);
        let read = 4 * (12 + 8 + 15 + 3);
        let written = 16 + 4 * (3 + 5 + 3);
        assert_eq!(w.bytes.total(), (read + written) as f64);
        // RGBA fetches: 3 texels of the reduction, 3 P texels of the fill (1 + 2 new
        // unknowns); the rest are R32F.
        assert_eq!(w.bytes.get(Access::TexRgba), 16.0 * 6.0);
        assert_eq!(w.bytes.get(Access::Target), written as f64);
        assert_eq!(w.flops32, 12.0 + 5.0 * 3.0);
        assert_eq!(w.passes, 4); // reduction, two fill levels, collect
        // The copy method copies each pass's rectangle back: 1 RGBA + 8 R32F texels.
        let c = cr_work(&l, PingPongMethod::Copy, 1);
        assert_eq!((c.bytes - w.bytes).total(), (2 * (16 + 4 * 8)) as f64);
        // Tiles multiply the traffic and arithmetic, not the passes.
        let t = cr_work(&l, PingPongMethod::Switch, 3);
        assert_eq!(
            (t.bytes, t.flops32, t.passes),
            (w.bytes.scale(3.0), 3.0 * w.flops32, 4)
        );
    }
}
