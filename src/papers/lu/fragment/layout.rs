//! Where the matrix lives and what each pass covers: the texture layouts of the module docs
//! ([`pack`] / [`unpack`] between a row-major matrix and a layout's texels), the passes of a
//! step with their rectangles (`step_passes`), and [`rect_minus`], the texels a switch-method
//! pass must carry.

use super::{Params, Variant};
use crate::gl::{Format, Rect};

/// One draw: a program variant over a rectangle.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    L,
    U,
    OnePass,
}

/// One pass of a step: its kind, its rectangle, and (vector) the edge's first channel.
pub(super) struct PassPlan {
    pub(super) kind: Kind,
    pub(super) step: usize,
    pub(super) rect: Rect,
    pub(super) start: u32,
}

impl PassPlan {
    fn single(kind: Kind, step: usize, rect: Rect) -> PassPlan {
        PassPlan {
            kind,
            step,
            rect,
            start: 0,
        }
    }
    fn vector(kind: Kind, step: usize, rect: Rect, start: u32) -> PassPlan {
        PassPlan {
            kind,
            step,
            rect,
            start,
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
    match variant {
        Variant::I1 => vec![
            PassPlan::single(Kind::L, i, Rect::new(i32_, i32_ + 1, 1, rem)),
            PassPlan::single(Kind::U, i, Rect::new(i32_ + 1, i32_ + 1, rem, rem)),
        ],
        Variant::I2 => vec![PassPlan::single(
            Kind::OnePass,
            i,
            Rect::new(i32_, i32_ + 1, rem + 1, rem),
        )],
        Variant::I3 | Variant::I4 => {
            let nb = n / 4;
            let b0 = (i32_ + 1) / 4;
            let s = (i32_ + 1) % 4;
            vec![
                PassPlan::vector(Kind::L, i, Rect::new(b0, i32_, nb - b0, 1), s),
                PassPlan::vector(Kind::U, i, Rect::new(b0, i32_ + 1, nb - b0, rem), s),
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
