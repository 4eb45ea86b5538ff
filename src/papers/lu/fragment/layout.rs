//! Where the matrix lives and what each pass covers: the texture layouts of the module docs
//! ([`pack`] / [`unpack`] between a row-major matrix and a layout's texels), the passes of a
//! step with their rectangles (`step_passes`), and [`rect_minus`], the texels a switch-method
//! pass must carry.

use super::params::{Params, Variant};
use crate::gl::{Format, Rect};

/// One draw: a program variant over a rectangle.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    L,
    U,
    OnePass,
}

/// One pass of a step: its kind, its rectangle, (vector) the edge's first channel, and the
/// step's active block — the bounding rectangle of all the step's passes (the L column and
/// the trailing block: Fig. 5(c) for the scalar layout), which the paper's copy method copies
/// after each pass (Table 1; see the module docs of `super`).
pub(super) struct PassPlan {
    pub(super) kind: Kind,
    pub(super) step: usize,
    pub(super) rect: Rect,
    pub(super) start: u32,
    pub(super) block: Rect,
}

impl PassPlan {
    fn single(kind: Kind, step: usize, rect: Rect, block: Rect) -> PassPlan {
        PassPlan {
            kind,
            step,
            rect,
            start: 0,
            block,
        }
    }
    fn vector(kind: Kind, step: usize, rect: Rect, start: u32, block: Rect) -> PassPlan {
        PassPlan {
            kind,
            step,
            rect,
            start,
            block,
        }
    }
}

/// The passes of step `i` of a matrix of padded order `np` (empty for the last step).
pub(super) fn step_passes(variant: Variant, np: usize, i: usize) -> Vec<PassPlan> {
    let (n, i32_) = (np as u32, i as u32);
    let rem = n - i32_ - 1;
    if rem == 0 {
        return vec![];
    }
    // Scalar: columns i…N−1 of rows i+1…N−1 (Fig. 5(c)).
    let scalar_block = Rect::new(i32_, i32_ + 1, rem + 1, rem);
    match variant {
        Variant::I1 => vec![
            PassPlan::single(Kind::L, i, Rect::new(i32_, i32_ + 1, 1, rem), scalar_block),
            PassPlan::single(
                Kind::U,
                i,
                Rect::new(i32_ + 1, i32_ + 1, rem, rem),
                scalar_block,
            ),
        ],
        Variant::I2 => vec![PassPlan::single(
            Kind::OnePass,
            i,
            scalar_block,
            scalar_block,
        )],
        Variant::I3 | Variant::I4 => {
            let nb = n / 4;
            let b0 = (i32_ + 1) / 4;
            let s = (i32_ + 1) % 4;
            // Texel rows (columns of A) i…N−1, texel columns b0…N/4−1.
            let block = Rect::new(b0, i32_, nb - b0, rem + 1);
            vec![
                PassPlan::vector(Kind::L, i, Rect::new(b0, i32_, nb - b0, 1), s, block),
                PassPlan::vector(Kind::U, i, Rect::new(b0, i32_ + 1, nb - b0, rem), s, block),
            ]
        }
    }
}

/// Texture width, height and format of a layout.
pub(super) fn layout(p: Params, np: usize) -> (u32, u32, Format) {
    if p.variant.vector() {
        (np as u32 / 4, np as u32, Format::RGBA32F)
    } else {
        (np as u32, np as u32, p.scalar_format)
    }
}

/// The texture contents of a row-major `n × n` matrix in the variant's layout.
pub fn pack(a: &[f32], n: usize, p: Params) -> Vec<f32> {
    if p.variant.vector() {
        let np = n.div_ceil(4) * 4;
        let nb = np / 4;
        let mut t = vec![0f32; nb * np * 4];
        for k in 0..np {
            for row in 0..np {
                let v = if row < n && k < n {
                    a[row * n + k]
                } else if row == k {
                    1.0
                } else {
                    0.0
                };
                t[(k * nb + row / 4) * 4 + row % 4] = v;
            }
        }
        t
    } else {
        let c = p.scalar_format.channels();
        let mut t = vec![0f32; n * n * c];
        for (i, &v) in a.iter().enumerate() {
            t[i * c] = v;
        }
        t
    }
}

/// The row-major `n × n` matrix held by texture contents in the variant's layout.
pub fn unpack(t: &[f32], n: usize, p: Params) -> Vec<f32> {
    if p.variant.vector() {
        let np = n.div_ceil(4) * 4;
        let nb = np / 4;
        let mut a = vec![0f32; n * n];
        for k in 0..n {
            for row in 0..n {
                a[row * n + k] = t[(k * nb + row / 4) * 4 + row % 4];
            }
        }
        a
    } else {
        let c = p.scalar_format.channels();
        (0..n * n).map(|i| t[i * c]).collect()
    }
}

/// Where element `(row, col)` of the padded order-`np` matrix lives in a layout's texel data
/// (the index of its float; the scalar layout's red channel).
fn element_index(p: Params, np: usize, row: usize, col: usize) -> usize {
    if p.variant.vector() {
        (col * (np / 4) + row / 4) * 4 + row % 4
    } else {
        (row * np + col) * p.scalar_format.channels()
    }
}

/// The switch method without carried texels (the paper's, issue 38): every finished entry
/// gathered from the texture that holds it, into one texel array of the layout (read as the
/// ping-pong's state otherwise is). `pair`: the two ping-pong textures' contents; `first`: the
/// one the first pass read (both start holding the matrix); `written[i]`: the one the U pass
/// (I2: the only pass) of step `i` wrote; `l`: the L texture's contents (I1, I3, I4).
///
/// - With an L texture, `L_jk` (`j > k`) was written by step `k`'s L pass, into it; row `j`
///   of `U` (`j ≤ k`) was finished by step `j−1`'s U pass (its rectangle is rows and columns
///   `≥ j`), and no later pass writes that texture's row `j` with another value (later U
///   passes start at row `j+1`; the vector edge texel keeps the finished channels it reads).
/// - Without (I2): entry `(j, k)` is in the rectangles of steps `0 … min(j−1, k)` (rows `> i`,
///   columns `≥ i`), so its last writer is step `min(j−1, k)`.
///
/// Row 0 is never written: the matrix's own, in `pair[first]`.
pub(super) fn merge(
    p: Params,
    np: usize,
    pair: [&[f32]; 2],
    first: usize,
    written: &[usize],
    l: Option<&[f32]>,
) -> Vec<f32> {
    let mut out = pair[first].to_vec();
    for row in 1..np {
        for col in 0..np {
            let src = match l {
                Some(l) if row > col => l,
                Some(_) => pair[written[row - 1]],
                None => pair[written[(row - 1).min(col)]],
            };
            let at = element_index(p, np, row, col);
            out[at] = src[at];
        }
    }
    out
}

/// `a \ b` as up to four rectangles (above, below, left, right of the overlap).
pub fn rect_minus(a: Rect, b: Rect) -> Vec<Rect> {
    let (ax1, ay1, bx1, by1) = (a.x + a.w, a.y + a.h, b.x + b.w, b.y + b.h);
    let (ix0, iy0) = (a.x.max(b.x), a.y.max(b.y));
    let (ix1, iy1) = (ax1.min(bx1), ay1.min(by1));
    if ix0 >= ix1 || iy0 >= iy1 {
        return if a.is_empty() { vec![] } else { vec![a] };
    }
    let mut out = vec![
        Rect::new(a.x, a.y, a.w, iy0 - a.y),
        Rect::new(a.x, iy1, a.w, ay1 - iy1),
        Rect::new(a.x, iy0, ix0 - a.x, iy1 - iy0),
        Rect::new(ix1, iy0, ax1 - ix1, iy1 - iy0),
    ];
    out.retain(|r| !r.is_empty());
    out
}
