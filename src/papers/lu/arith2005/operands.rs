//! Operands that exercise every path of the 2005 model ([`super`]), for the tests that
//! compare the shaders with their CPU twin.

use super::round::TINY;

/// `count` operand pairs that exercise every path of the model (for the GPU–twin test):
/// random bit patterns (every exponent, subnormals, `±∞` and `NaN` included), neighbours
/// (cancellation), short significands at nearby exponents (ties and midpoints), Table 5's
/// operands, and values at the edges (`2⁻¹²⁶`, `2⁻⁶⁰`, `f32::MAX`).
pub fn test_operands(count: usize, seed: u64) -> Vec<[f32; 2]> {
    use crate::util::{RngExt, rng};
    let mut r = rng(seed);
    let edges = [
        f32::MIN_POSITIVE,
        TINY,
        f32::MAX,
        1.0,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
    ];
    (0..count)
        .map(|i| {
            let bits: u32 = r.random();
            let a = f32::from_bits(bits);
            match i % 5 {
                0 => [a, f32::from_bits(r.random())],
                1 => {
                    let d: i32 = r.random_range(-64..=64);
                    let b = f32::from_bits((bits as i32).wrapping_add(d) as u32);
                    [a, if r.random() { b } else { -b }]
                }
                2 => {
                    // 1–4 significant bits beside a full one, exponents within ±26.
                    let keep: u32 = r.random_range(20..=23);
                    let e: i32 = r.random_range(-26..=26);
                    let b = f32::from_bits(r.random::<u32>() & !((1 << keep) - 1) & 0x807f_ffff);
                    let ea = ((bits >> 23) & 0xff) as i32;
                    let eb = (ea + e).clamp(1, 254) as u32;
                    [a, f32::from_bits(b.to_bits() | eb << 23)]
                }
                3 => super::super::ulp::operands(1, r.random())[0],
                _ => {
                    let x = edges[r.random_range(0..edges.len())];
                    let d: i32 = r.random_range(-3..=3);
                    let x = f32::from_bits((x.to_bits() as i32 + d).max(0) as u32);
                    let s = if r.random() { x } else { -x };
                    if r.random() { [s, a] } else { [a, s] }
                }
            }
        })
        .collect()
}

/// Whether two results are the same bits (every `NaN` equal to every other).
pub fn same_bits(x: f32, y: f32) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

/// `count` operand triples `[c, a, b]` for the fused MAD `c − a·b`: random bit patterns,
/// cancellation (`c` within a few ULP of `a·b`), short significands at nearby exponents (ties
/// and exact eighths of an ULP), exponent gaps around [`super::mad::GAP`] (the proxy), a zero
/// `c`, and edges (`2⁻¹²⁶`, `f32::MAX`, subnormals, `±∞`, `NaN`).
pub fn test_triples(count: usize, seed: u64) -> Vec<[f32; 3]> {
    use crate::util::{RngExt, rng};
    let mut r = rng(seed);
    // A normal float of random sign and significand with its bits below `keep` cleared, at
    // binary exponent `e` (clamped to the normal range).
    let mut f = |keep: u32, e: i32| {
        let m: u32 = r.random::<u32>() & 0x807f_ffff & !((1u32 << keep) - 1);
        f32::from_bits(m | ((e + 127).clamp(1, 254) as u32) << 23)
    };
    let mut r2 = rng(seed ^ 0x5eed);
    (0..count)
        .map(|i| {
            let e: i32 = r2.random_range(-40..=40);
            let (a, b) = (f(0, e), f(0, r2.random_range(-40..=40)));
            match i % 7 {
                0 => [
                    f32::from_bits(r2.random()),
                    f32::from_bits(r2.random()),
                    f32::from_bits(r2.random()),
                ],
                1 => {
                    let d: i32 = r2.random_range(-4..=4);
                    let p = a * b;
                    [f32::from_bits((p.to_bits() as i32 + d) as u32), a, b]
                }
                2 => {
                    let (ka, kb, kc) = (
                        r2.random_range(12..=23),
                        r2.random_range(12..=23),
                        r2.random_range(0..=23),
                    );
                    let (a, b) = (f(ka, e), f(kb, -e + r2.random_range(-2..=2)));
                    [f(kc, r2.random_range(-30..=30)), a, b]
                }
                3 => {
                    let kp = ((a * b).to_bits() >> 23 & 0xff) as i32 - 127;
                    let gap: i32 = r2.random_range(44..=58);
                    let s = if r2.random() { gap } else { -gap };
                    [f(r2.random_range(0..=23), kp + s), a, b]
                }
                4 => [0.0, a, b],
                5 => {
                    // A product whose exact tail is an odd 1–9 units of its 48th bit, beside
                    // a `c` 2–6 binades above: `c − a·b` lies a hair off an eighth of an ULP
                    // (a tie of the rounding that only the tail breaks).
                    let mut one = |k: i32| {
                        let m = 1.0 + (2 * r2.random_range(0..2) + 1) as f32 * 2f32.powi(-23);
                        let m = if r2.random() { m } else { 3.0 - m };
                        let m = if r2.random() { m } else { -m };
                        m * 2f32.powi(k)
                    };
                    let (a, b) = (one(e / 2), one(-e / 2));
                    let kp = ((a * b).to_bits() >> 23 & 0xff) as i32 - 127;
                    [
                        f(r2.random_range(0..=23), kp + r2.random_range(2..=6)),
                        a,
                        b,
                    ]
                }
                _ => {
                    let edges = [
                        f32::MIN_POSITIVE,
                        f32::MAX,
                        f32::from_bits(0x007f_ffff),
                        f32::INFINITY,
                        f32::NAN,
                        0.0,
                    ];
                    let x = edges[r2.random_range(0..edges.len())];
                    let x = if r2.random() { x } else { -x };
                    match r2.random_range(0..3) {
                        0 => [x, a, b],
                        1 => [a, x, b],
                        _ => [b, a, f(0, -e - 126)],
                    }
                }
            }
        })
        .collect()
}
