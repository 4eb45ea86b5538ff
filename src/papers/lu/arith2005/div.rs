//! Division by integer significand arithmetic, exact on every driver ([`super`]).

/// IEEE's correctly rounded `a / b` (nearest, ties to even; subnormals, `±0`, `±∞`, NaN as
/// IEEE's) from integer significand arithmetic alone: the CPU mirror of `a05_div_rn` in
/// `glsl/common/arith2005.glsl`, step for step. The shaders divide this way wherever the
/// twin expects IEEE's quotient (the model's reciprocal, the ablation's IEEE division),
/// because GLSL promises `/` only to 2.5 ULP (an H200's is within about ±2 ULP, Table 5) while
/// integer and bit operations are exact on every driver. Its test compares it with Rust's `/`.
///
/// Restoring long division: with both significands `m` in `[2²³, 2²⁴)` (a subnormal's
/// normalised first) and the dividend's doubled when it is the smaller, `r / m_b ∈ [1, 2)`
/// gives 24 quotient bits `q`; the final remainder `ρ` (kept doubled, `2ρ < 2²⁵`) rounds `q`
/// up when `2ρ > m_b`, or `2ρ = m_b` (a tie) and `q` is odd. A result below `2⁻¹²⁶` keeps
/// `q >> s` units of `2⁻¹⁴⁹` and rounds on the bits shifted out, `ρ ≠ 0` breaking ties.
pub fn div_rn_bits(a: f32, b: f32) -> f32 {
    div_bits(a, b, true)
}

/// [`div_rn_bits`] rounded to nearest (`nearest`) or chopped toward zero (the quotient's
/// bits kept, the remainder dropped): `a05_div_bits` in the GLSL.
pub fn div_bits(a: f32, b: f32, nearest: bool) -> f32 {
    let (ua, ub) = (a.to_bits(), b.to_bits());
    let sign = (ua ^ ub) & 0x8000_0000;
    let (ea, eb) = ((ua >> 23) & 0xff, (ub >> 23) & 0xff);
    let (fa, fb) = (ua & 0x7f_ffff, ub & 0x7f_ffff);
    let (za, zb) = (ea == 0 && fa == 0, eb == 0 && fb == 0);
    let (ia, ib) = (ea == 255, eb == 255);
    if (ia && fa != 0) || (ib && fb != 0) || (ia && ib) || (za && zb) {
        return f32::from_bits(0x7fc0_0000);
    }
    if ia || zb {
        return f32::from_bits(sign | 0x7f80_0000);
    }
    if za || ib {
        return f32::from_bits(sign);
    }
    // The significand in [2^23, 2^24) and the exponent of its leading bit.
    let sig = |e: u32, f: u32| -> (u32, i32) {
        if e != 0 {
            return (f | 0x80_0000, e as i32 - 127);
        }
        let (mut f, mut x) = (f, -126);
        while f < 0x80_0000 {
            f <<= 1;
            x -= 1;
        }
        (f, x)
    };
    let ((mut r, xa), (mb, xb)) = (sig(ea, fa), sig(eb, fb));
    let mut e = xa - xb;
    if r < mb {
        r <<= 1;
        e -= 1;
    }
    let mut q = 0u32;
    for _ in 0..24 {
        q <<= 1;
        if r >= mb {
            r -= mb;
            q |= 1;
        }
        r <<= 1;
    }
    let mut biased = e + 127;
    if biased >= 1 {
        if nearest && (r > mb || (r == mb && q & 1 == 1)) {
            q += 1;
        }
        if q == 0x100_0000 {
            q = 0x80_0000;
            biased += 1;
        }
        if biased >= 255 {
            return f32::from_bits(sign | 0x7f80_0000);
        }
        return f32::from_bits(sign | (biased as u32) << 23 | (q & 0x7f_ffff));
    }
    let s = (1 - biased) as u32;
    if s >= 25 {
        return f32::from_bits(sign);
    }
    let mut kept = q >> s;
    let low = q & ((1 << s) - 1);
    let half = 1 << (s - 1);
    if nearest && (low > half || (low == half && (r != 0 || kept & 1 == 1))) {
        kept += 1;
    }
    f32::from_bits(sign | kept)
}
