//! The two float types the solvers run in, `f32` and `f64`, as one trait: the CPU loops
//! (tridiagonal's Thomas, LU's Fig. 2 loop) run in either, `f32` being the GPU's precision
//! (or the paper's CPU baseline) and `f64` the reference every GPU result is checked
//! against; the Bi-CG compute shaders are built for either (`REAL` in GLSL).

use std::ops::{Add, DivAssign, Mul, Sub, SubAssign};

/// `f32` or `f64`: arithmetic, conversions from the other widths, and the GLSL type name.
pub trait Real:
    bytemuck::Pod
    + Copy
    + Default
    + PartialEq
    + std::fmt::Debug
    + Into<f64>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + SubAssign
    + DivAssign
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    /// The GLSL type name (`REAL` in the Bi-CG shaders).
    const GLSL: &'static str;
    fn is_finite(self) -> bool;
    /// From an `f64` (rounded to nearest for `f32`).
    fn from_f64(v: f64) -> Self;
    /// From an `f32` (exact).
    fn of(v: f32) -> Self;
}

impl Real for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    const GLSL: &'static str = "float";
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
    fn from_f64(v: f64) -> f32 {
        v as f32
    }
    fn of(v: f32) -> f32 {
        v
    }
}

impl Real for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    const GLSL: &'static str = "double";
    fn is_finite(self) -> bool {
        f64::is_finite(self)
    }
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn of(v: f32) -> f64 {
        v as f64
    }
}
