//! The reproduction notes: decisions and the paper's ambiguities. Numbers in them come from
//! the layout of this run's sizes, never typed by hand.

use crate::papers::tridiagonal::layout::CrLayout;
use crate::runner::Session;

/// The notes; `grid` is the largest grid of Fig. 11 in this run (for the gather's sizes).
pub(super) fn notes(s: &Session, grid: Option<u32>) {
    s.note(
        "Naming: eq. (11) defines the second multiplier as β_i = −c_i/b_{i+1} and then uses γ_i; \
         we call it γ throughout (glsl/tridiagonal/cr_reduce.frag).",
    );
    s.note(
        "Loop bounds: eq. (16) prints the fill loop `for i ← 2^{s−1} to N' − 2^{s−1}, step 2^{s−1}`, \
         which would recompute already-known unknowns from unknown neighbours; the fill must visit \
         only i = 2^{s−1}, 3·2^{s−1}, … (step 2^s), as eq. (14) does for s = q − 1. Fig. 5/6 print \
         `for i ← 2^{s+1} to N' − 2^{s+1}, step 2^{s−1}`, which differs from both. We use step 2^s \
         (src/papers/tridiagonal/cpu.rs: cyclic_reduction_f64 and the fill quads).",
    );
    s.note(
        "N = 2^q − 1 (§3.1): the solvers accept any n ≥ 1 and pad P0 to 2^q − 1 with identity \
         rows (0, 1, 0, 0) — their unknowns are 0, so the first n unknowns are those of the \
         original system. The padding costs one extra copy pass (Table 1 'total' rows).",
    );
    s.note(
        "Half-texel convention (§3.2, Fig. 4): the printed texture range [TS_s, TS_s + TW_s] for an \
         output run of PC_s texels has slope TW_s/PC_s = 2 + 1/PC_s and drifts one texel off after \
         PC_s/2 fragments. With texel centres at i + ½ the exact range is [TS_s + ½, TS_s + TW_s − ½] \
         (slope exactly 2); neighbours are fetched at constant texel offsets ∓1. Proven by the tests \
         for every q from 1 up to the largest the tests run (tests/tridiagonal.rs; \
         src/papers/tridiagonal/layout.rs).",
    );
    s.note(
        "Fill layout: the paper writes x at its own index in X1/X2 (strided positions). We keep the \
         fill contiguous so that each level is one quad with an affine mapping: level s writes \
         x at the multiples of 2^{s−1} compactly (N'/2^{s−1} + 1 values), the even ones copied from \
         the previous level and the odd ones solved; the last level is x in natural order. The \
         shader tells the two apart by the fraction of its interpolated coordinate (¼ or ¾), its \
         only per-fragment operation beyond eq. (16). The copied unknowns cost one fetch each, \
         which is why Table 1's measured 'fill' rows exceed the paper's fill count.",
    );
    let sizes = grid
        .map(|g| {
            let l = CrLayout::new(g as usize - 1, 1);
            let sum = |parity: usize| -> u32 {
                l.levels
                    .iter()
                    .filter(|v| v.s % 2 == parity)
                    .map(|v| v.pc)
                    .sum()
            };
            format!(
                " At {g}×{g} ({} unknowns per system) the gather copies {} texels per system \
                 (the even levels) instead of the {} of the odd levels.",
                g - 1,
                sum(0),
                sum(1)
            )
        })
        .unwrap_or_default();
    s.note(format!(
        "Switch method: odd reduction levels land in P1, even ones in P2; one pass then gathers \
         them into the buffer that already holds more data, as Fig. 2 does (\"데이터가 많이 \
         저장되어 있는 버퍼로 모아주었다\"): the even levels' runs are copied into P1, which holds \
         level 1 (about half of all reduction texels).{sizes} The copy method copies each level's \
         run back into the one input texture as it goes (glCopyTexSubImage2D), so it needs no \
         gather pass. Both give bit-identical results (tests)."
    ));
    s.note(
        "Fig. 9 (3D): the paper gives no index arithmetic for the tiled texture (\"omitted\"). We \
         tile the N slices of an N×N×N grid on a ⌈√N⌉-column grid; every tile column is a 2D \
         batch with the 1D index mapping, so each level stays one draw call with one quad per \
         tile column (table fig9).",
    );
}
