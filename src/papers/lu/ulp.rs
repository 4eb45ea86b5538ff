//! Table 5 (§5.1): the error of one `+`, `−`, `×`, `÷` in units in the last place (ULP),
//! measured on this device's fragment and compute shaders over many random operands against
//! the exact result — a small version of Hillesland & Lastra's GPU Paranoia (the paper's
//! ref. 21).
//!
//! For `f32` operands the sum, difference and product are exact in `f64` (for the exponent
//! range used here), and the `f64` quotient is within 2⁻²⁹ ULP of the exact one. The error of
//! a GPU result `r` is `(r − exact) / ulp`, with `ulp` the spacing of `f32` at the correctly
//! rounded result; IEEE 754 round-to-nearest gives `[−0.5, 0.5]` for every operation. A result
//! is *correctly rounded* when it equals `exact` rounded to `f32` (`f64 → f32` rounding after
//! one `f64` operation is correct: 53 ≥ 2·24 + 2, so double rounding is innocuous).

use crate::gl::{
    Buffer, Define, Format, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture,
};
use crate::util::{RngExt, rng};

use super::error::LuError;

/// The four operations, in the order the shaders write them.
pub const OPS: [&str; 4] = ["add", "subtract", "multiply", "divide"];

/// The ULP error range of one operation over all operands.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct UlpStats {
    pub min: f64,
    pub max: f64,
    /// Share of results equal to the correctly rounded one.
    pub correctly_rounded: f64,
    /// Results that are not finite (none expected for these operands).
    pub non_finite: usize,
}

/// The shader files of Table 5.
pub const ULP_FRAG: &str = "lu/ulp.frag";
pub const ULP_COMP: &str = "lu/ulp.comp";

/// `count` operand pairs: signs random, significands uniform in `[1, 2)`, exponents in
/// `[−8, 8]` (so sums and differences stay exact in `f64`), `b ≠ 0`.
pub fn operands(count: usize, seed: u64) -> Vec<[f32; 2]> {
    let mut r = rng(seed);
    let one = |r: &mut rand_chacha::ChaCha8Rng| {
        let m: f32 = r.random_range(1.0f32..2.0);
        let e: i32 = r.random_range(-8..=8);
        let s = if r.random_range(0..2) == 0 { 1.0 } else { -1.0 };
        s * m * 2f32.powi(e)
    };
    (0..count).map(|_| [one(&mut r), one(&mut r)]).collect()
}

/// The exact results (in `f64`) of the four operations.
pub fn exact(ab: [f32; 2]) -> [f64; 4] {
    let (a, b) = (ab[0] as f64, ab[1] as f64);
    [a + b, a - b, a * b, a / b]
}

/// The spacing of `f32` numbers at `x` (the ULP of the correctly rounded value).
pub fn ulp_f32(x: f64) -> f64 {
    let r = (x as f32).abs();
    if r == 0.0 || !r.is_finite() {
        return f32::MIN_POSITIVE as f64 * f32::EPSILON as f64;
    }
    let exp = ((r.to_bits() >> 23) & 0xff) as i32 - 127;
    2f64.powi(exp.max(-126) - 23)
}

/// Error statistics of `results[i][op]` against the exact values of `ab[i]`.
pub fn stats(ab: &[[f32; 2]], results: &[[f32; 4]]) -> [UlpStats; 4] {
    let mut out = [UlpStats {
        min: f64::INFINITY,
        max: f64::NEG_INFINITY,
        ..Default::default()
    }; 4];
    let mut exact_count = [0usize; 4];
    for (p, r) in ab.iter().zip(results) {
        let ex = exact(*p);
        for op in 0..4 {
            let g = r[op];
            if !g.is_finite() {
                out[op].non_finite += 1;
                continue;
            }
            let e = (g as f64 - ex[op]) / ulp_f32(ex[op]);
            out[op].min = out[op].min.min(e);
            out[op].max = out[op].max.max(e);
            if g == ex[op] as f32 {
                exact_count[op] += 1;
            }
        }
    }
    for op in 0..4 {
        out[op].correctly_rounded = exact_count[op] as f64 / ab.len().max(1) as f64;
    }
    out
}

/// The four operations on `ab` in a fragment shader (one texel per pair, rows of `width`).
pub fn fragment_results(gl: &Gl, ab: &[[f32; 2]], width: u32) -> Result<Vec<[f32; 4]>, LuError> {
    fragment_results_with(gl, ab, width, &[])
}

/// [`fragment_results`] built with `defines`: `Arith2005::defines` makes the operations of a
/// model follow the 2005 arithmetic ([`super::arith2005`]; the others are the device's own).
pub fn fragment_results_with(
    gl: &Gl,
    ab: &[[f32; 2]],
    width: u32,
    defines: &[Define],
) -> Result<Vec<[f32; 4]>, LuError> {
    let texels: Vec<[f32; 4]> = ab.iter().map(|p| [p[0], p[1], 1.0, 1.0]).collect();
    run_ulp_frag(gl, &texels, width, defines)
}

/// The update `c − a·b` (`F_MSUB`, a fused MAD under a member with one) on each triple
/// `[c, a, b]` in the fragment shader built with `defines` (the GPU side of the fused MAD's
/// twin test).
pub fn fragment_msub_with(
    gl: &Gl,
    cab: &[[f32; 3]],
    width: u32,
    defines: &[Define],
) -> Result<Vec<f32>, LuError> {
    let texels: Vec<[f32; 4]> = cab.iter().map(|t| [t[0], t[1], t[2], 1.0]).collect();
    let mut d = defines.to_vec();
    d.push(Define::flag("ULP_MSUB"));
    Ok(run_ulp_frag(gl, &texels, width, &d)?
        .into_iter()
        .map(|r| r[0])
        .collect())
}

/// `lu/ulp.frag` built with `defines` on one texel per item (rows of `width`).
fn run_ulp_frag(
    gl: &Gl,
    texels: &[[f32; 4]],
    width: u32,
    defines: &[Define],
) -> Result<Vec<[f32; 4]>, LuError> {
    if width == 0 {
        return Err(LuError::Size("texture width 0".into()));
    }
    let h = (texels.len() as u32).div_ceil(width);
    let mut data = vec![1.0f32; (width * h * 4) as usize];
    for (i, t) in texels.iter().enumerate() {
        data[i * 4..i * 4 + 4].copy_from_slice(t);
    }
    let src = Texture::new(gl, TexTarget::Rect, Format::RGBA32F, width, h, Some(&data))?;
    let dst = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, width, h, None)?;
    let prog = Program::fragment(gl, ULP_FRAG, defines)?;
    let quad = QuadBatch::new(gl, &[Quad::identity(Rect::full(width, h))])?;
    dst.bind();
    prog.bind_texture(0, "u_ab", &src);
    quad.draw(&prog, width, h)?;
    let out = dst.texture().read()?;
    Ok(out
        .chunks_exact(4)
        .take(texels.len())
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect())
}

/// The four operations on `ab` in a compute shader.
pub fn compute_results(gl: &Gl, ab: &[[f32; 2]]) -> Result<Vec<[f32; 4]>, LuError> {
    let input = Buffer::<[f32; 2]>::from_slice(gl, ab)?;
    let output = Buffer::<[f32; 4]>::zeroed(gl, ab.len())?;
    let prog = Program::compute(gl, ULP_COMP, &[])?;
    input.bind(0);
    output.bind(1);
    prog.set_u32("u_n", ab.len() as u32);
    prog.dispatch_1d(ab.len() as u32)?;
    Ok(output.read()?)
}
