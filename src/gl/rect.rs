//! A rectangle of texels ([`Rect`]): a viewport, an upload or a readback region.

/// A rectangle of texels: origin `(x, y)` and size `w × h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl Rect {
    pub const fn new(x: u32, y: u32, w: u32, h: u32) -> Self {
        Rect { x, y, w, h }
    }
    /// The whole of a `w × h` texture.
    pub const fn full(w: u32, h: u32) -> Self {
        Rect { x: 0, y: 0, w, h }
    }
    pub fn area(&self) -> u64 {
        self.w as u64 * self.h as u64
    }
    pub fn is_empty(&self) -> bool {
        self.w == 0 || self.h == 0
    }
}
