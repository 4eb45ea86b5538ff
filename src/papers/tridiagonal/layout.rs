//! The index mapping of §3.2 (Fig. 2–4): where each reduction level is stored and which
//! texture coordinates its quad carries, precomputed at set-up as the paper advises.
//!
//! With `N' = 2^q` and `N = N' - 1` unknowns (equation `i` at texel `i - 1` of `P0`):
//!
//! | symbol | meaning | value |
//! |---|---|---|
//! | `PC_s` | equations produced by level `s` | `N'/2^s - 1` |
//! | `PS_s` | first texel of level `s`'s run | `PC_1 + … + PC_{s-1}`, `PS_1 = 0` |
//! | `TW_s` | equations of level `s-1` that level `s` reads | `N'/2^{s-1} - 1` |
//! | `TS_s` | first texel of level `s-1`'s run | `PC_1 + … + PC_{s-2}`, `TS_1 = TS_2 = 0` |
//!
//! # The half-texel convention (the paper's formulas are schematic)
//! Level `s` keeps the equations `i = 2^s, 2·2^s, …`; its `j`-th output (`j = 0..PC_s`) is
//! equation `i = (j+1)·2^s`, which sits at position `2j + 1` of level `s-1`'s run, with its
//! neighbours `i ∓ 2^{s-1}` at positions `2j` and `2j + 2`. The fragment of output texel
//! `PS_s + j` has its centre at `x = PS_s + j + ½`, and the rasterizer hands it
//! `u = u0 + (x - PS_s)·(u1 - u0)/PC_s`. For `u` to land on the centre `TS_s + 2j + 1 + ½`
//! for every `j`, the slope must be exactly 2 and
//!
//! > `u0 = TS_s + ½`, `u1 = TS_s + TW_s - ½` (since `TW_s = 2·PC_s + 1`),
//!
//! i.e. the paper's range `[TS_s, TS_s + TW_s]` inset by half a texel at both ends. Taken
//! literally, `[TS_s, TS_s + TW_s]` has slope `TW_s/PC_s = 2 + 1/PC_s` and drifts off by one
//! texel after `PC_s/2` fragments. The neighbours are fetched with the constant texel offsets
//! `∓1` (`textureOffset`), so the shader does no index arithmetic at all.
//!
//! # The fill mapping (Fig. 3)
//! Level `s` of the fill (`s = q … 1`) produces `y^(s)_m = x_{m·2^{s-1}}`, `m = 0 … N'/2^{s-1}`
//! (boundary zeros included) from `y^(s+1)` (half as many): even `m = 2m'` copy
//! `y^(s+1)_{m'}`; odd `m = 2m' + 1` solve eq. (16) with `y^(s+1)_{m'}`, `y^(s+1)_{m'+1}` and
//! the equation at position `m - 1` of level `s-1`'s run. Both reads are affine in the output
//! texel: the `.xy` coordinate `u = x/2` (fragment `m` gets `m/2 + ¼`: fraction ¼ for even `m`
//! and ¾ for odd `m`, both inside texel `m'`), the `.zw` coordinate `x + PS_{s-1} - 1`.
//! The X buffers hold `N' + 1` floats per system; the last level holds `x_0 … x_{N'}` in
//! natural order, and a final pass copies `x_1 … x_n` out.

use crate::gl::{Quad, Rect};

/// `q` with `2^q - 1 ≥ n` (at least 1): the level count for `n` unknowns padded to `2^q - 1`.
pub fn levels_for(n: usize) -> usize {
    let mut q = 1;
    while (1usize << q) - 1 < n {
        q += 1;
    }
    q
}

/// One reduction level `s`: its run and the source range (§3.2's four numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub s: usize,
    pub pc: u32,
    pub ps: u32,
    pub tw: u32,
    pub ts: u32,
}

/// The set-up of one problem size: `n` unknowns padded to `N = 2^q - 1`, `batch` systems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrLayout {
    pub n: usize,
    pub batch: usize,
    pub q: usize,
    /// `N' = 2^q`.
    pub np: u32,
    /// Reduction levels `s = 1 … q-1`.
    pub levels: Vec<Level>,
    /// Width of the P1/P2 buffers: `Σ PC_s = N' - q - 1` (at least 1).
    pub p_width: u32,
}

impl CrLayout {
    pub fn new(n: usize, batch: usize) -> CrLayout {
        let q = levels_for(n);
        let np = 1u32 << q;
        let pc = |s: usize| np / (1 << s) - 1;
        let sum = |upto: usize| (1..=upto).map(pc).sum::<u32>();
        let levels = (1..q)
            .map(|s| Level {
                s,
                pc: pc(s),
                ps: sum(s - 1),
                tw: np / (1 << (s - 1)) - 1,
                ts: if s <= 2 { 0 } else { sum(s - 2) },
            })
            .collect::<Vec<_>>();
        let p_width = levels.iter().map(|l| l.pc).sum::<u32>().max(1);
        CrLayout {
            n,
            batch,
            q,
            np,
            levels,
            p_width,
        }
    }

    /// Padded size `N = 2^q - 1`.
    pub fn padded(&self) -> u32 {
        self.np - 1
    }

    /// The quad of reduction level `s` (derived in the module docs).
    pub fn reduce_quad(&self, l: &Level) -> Quad {
        let b = self.batch as u32;
        Quad::mapped(
            Rect::new(l.ps, 0, l.pc, b),
            [l.ts as f32 + 0.5, 0.0, (l.ts + l.tw) as f32 - 0.5, b as f32],
        )
    }

    /// Number of `y^(s)` values written by fill level `s`: `N'/2^{s-1} + 1`.
    pub fn fill_width(&self, s: usize) -> u32 {
        self.np / (1 << (s - 1)) + 1
    }

    /// First texel of the run holding level `s` (`s = 0` is `P0`, whose run starts at 0).
    pub fn run_start(&self, s: usize) -> u32 {
        if s == 0 { 0 } else { self.levels[s - 1].ps }
    }

    /// The quad of fill level `s`: `.xy` into the previous X buffer, `.zw` into level `s-1`.
    pub fn fill_quad(&self, s: usize) -> Quad {
        let (w, b) = (self.fill_width(s), self.batch as f32);
        let ps = self.run_start(s - 1) as f32;
        Quad::mapped(
            Rect::new(0, 0, w, self.batch as u32),
            [0.0, 0.0, w as f32 / 2.0, b],
        )
        .with_zw([ps - 1.0, 0.0, ps - 1.0 + w as f32, b])
    }

    /// The quad of the final collect pass: `x_i` (texel `i` of the last X) to texel `i - 1`.
    pub fn collect_quad(&self) -> Quad {
        let (n, b) = (self.n as u32, self.batch as u32);
        Quad::mapped(Rect::new(0, 0, n, b), [1.0, 0.0, n as f32 + 1.0, b as f32])
    }

    /// Fragments of the reduction (`Σ PC_s` per system) and of the fill (`Σ (N'/2^{s-1}+1)`).
    pub fn fragments(&self) -> (u64, u64) {
        let b = self.batch as u64;
        let red: u64 = self.levels.iter().map(|l| l.pc as u64).sum();
        let fill: u64 = (1..=self.q).map(|s| self.fill_width(s) as u64).sum();
        (red * b, fill * b)
    }
}

/// `quad` repeated for tile columns `0 … cols-1`: the target shifted by `dst` texels per
/// column, the `.xy` and `.zw` coordinates by `xy` and `zw` texels.
pub(super) fn tiles(quad: Quad, cols: u32, dst: u32, xy: u32, zw: u32) -> Vec<Quad> {
    (0..cols)
        .map(|c| {
            let mut q = quad;
            q.dst[0] += (c * dst) as f32;
            q.dst[2] += (c * dst) as f32;
            for t in &mut q.tex {
                t[0] += (c * xy) as f32;
                t[2] += (c * zw) as f32;
            }
            q
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_example_n15() {
        // Fig. 2/4: N = 15, q = 4: runs of 7, 3, 1 at 0, 7, 10.
        let l = CrLayout::new(15, 1);
        assert_eq!(l.q, 4);
        let got: Vec<_> = l.levels.iter().map(|l| (l.pc, l.ps, l.tw, l.ts)).collect();
        assert_eq!(got, vec![(7, 0, 15, 0), (3, 7, 7, 0), (1, 10, 3, 7)]);
        assert_eq!(l.p_width, 11);
    }
}
