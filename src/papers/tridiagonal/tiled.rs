//! Fig. 9: the tridiagonal systems of a 3D problem tiled into one 2D texture.
//!
//! One ADI direction of an `N×N×N` grid is a batch of `N²` independent systems (one per
//! `(y, z)` line, §3.2 and Fig. 6), here of `N − 1` unknowns as in the rest of the paper's
//! experiments. Instead of a cube map, the paper stores them in one 2D texture (Fig. 9):
//! the `N` slices `z` (each an `N×N` 2D batch, Fig. 7/8: one system per row) are tiles laid
//! out on a grid of `cols × ⌈N/cols⌉` tiles, `cols = ⌈√N⌉`, so that the texture is close to
//! square. System `k = z·N + y` sits in tile column `c = ⌊k / rows⌋`, row `k mod rows`
//! (`rows = ⌈N/cols⌉·N`): a column of tiles is one tall 2D batch. Slots beyond `N²` in the
//! last column hold identity equations `(0, 1, 0, 0)`.
//!
//! [`FragmentCr::tiled`](super::FragmentCr::tiled) solves the whole texture with one draw
//! call per reduction and fill level (one quad per tile column; a single quad when one
//! column fits the device's texture height), the index mapping of every tile column the same
//! as a 2D batch's.

use super::cpu::Systems;
use crate::gl::{Format, Gl, GlError, TexTarget, Texture};

/// Where the `N²` systems of an `N×N×N` grid sit in the tiled texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiling3d {
    /// Grid points per side `N` (systems of `N − 1` unknowns).
    pub g: usize,
    /// Unknowns per system, `N − 1`.
    pub n: usize,
    /// Tile columns side by side, `⌈√N⌉`.
    pub cols: usize,
    /// Systems (texture rows) per tile column, `⌈N/cols⌉·N`.
    pub rows: usize,
}

impl Tiling3d {
    /// The tiling of an `N×N×N` grid, `N = g ≥ 2`.
    pub fn new(g: usize) -> Tiling3d {
        let g = g.max(2);
        let cols = g.isqrt() + usize::from(g.isqrt() * g.isqrt() < g);
        Tiling3d {
            g,
            n: g - 1,
            cols,
            rows: g.div_ceil(cols) * g,
        }
    }

    /// Systems of the grid, `N²`.
    pub fn systems(&self) -> usize {
        self.g * self.g
    }

    /// Texture size `(cols·n, rows)`.
    pub fn size(&self) -> (usize, usize) {
        (self.cols * self.n, self.rows)
    }

    /// The tiled texture holding `sys` ([`Tiling3d::tile`]) as the fragment CR reads it: an
    /// RGBA32F rectangle texture of [`Tiling3d::size`] (the tiled twin of
    /// [`super::upload`]).
    pub fn upload(&self, gl: &Gl, sys: &Systems) -> Result<Texture, GlError> {
        let (w, h) = self.size();
        let data = self.tile(sys);
        Texture::new(
            gl,
            TexTarget::Rect,
            Format::RGBA32F,
            w as u32,
            h as u32,
            Some(&data),
        )
    }

    /// The texel data (RGBA, row-major) of the tiled texture holding `sys` (`N²` systems of
    /// `n` unknowns); unused slots are identity equations.
    pub fn tile(&self, sys: &Systems) -> Vec<f32> {
        assert_eq!((sys.n, sys.batch), (self.n, self.systems()), "tile: shape");
        let (w, h) = self.size();
        let mut out = [0.0, 1.0, 0.0, 0.0].repeat(w * h);
        for k in 0..self.systems() {
            let (c, r) = (k / self.rows, k % self.rows);
            let dst = 4 * (r * w + c * self.n);
            let src = 4 * k * self.n;
            out[dst..dst + 4 * self.n].copy_from_slice(&sys.data[src..src + 4 * self.n]);
        }
        out
    }

    /// `x` of the tiled result (`cols·n × rows`, one float per texel) in system order:
    /// system `k`'s `n` unknowns at `k·n`.
    pub fn untile(&self, x: &[f32]) -> Vec<f32> {
        let (w, _) = self.size();
        let mut out = Vec::with_capacity(self.systems() * self.n);
        for k in 0..self.systems() {
            let (c, r) = (k / self.rows, k % self.rows);
            let at = r * w + c * self.n;
            out.extend_from_slice(&x[at..at + self.n]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiling_is_near_square_and_round_trips() {
        let t = Tiling3d::new(16);
        assert_eq!((t.cols, t.rows, t.n), (4, 64, 15));
        let t = Tiling3d::new(10);
        assert_eq!((t.cols, t.rows), (4, 30)); // 3 slices per column, 12 ≥ 10 slots
        let sys = Systems::random(t.n, t.systems(), false, 3);
        let tiled = t.tile(&sys);
        let b: Vec<f32> = tiled.chunks(4).map(|p| p[3]).collect();
        let k: Vec<f32> = sys.data.chunks(4).map(|p| p[3]).collect();
        assert_eq!(t.untile(&b), k);
    }
}
