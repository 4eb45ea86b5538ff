//! The fragment CG's work model (bytes, flops, passes of a [`super::FragmentCg`] solve: the
//! bound columns of Table 1 and Fig. 11 read it), its exact static fetch count (Table 1,
//! counted), and its CPU reference in f64 — apart from the solver so that each file says
//! one thing.

use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::Format;

/// How CG's vectors are stored (Table 1's "scalar" and "vector" textures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Packing {
    Scalar,
    Rgba,
}

impl Packing {
    pub fn lanes(self) -> u32 {
        match self {
            Packing::Scalar => 1,
            Packing::Rgba => 4,
        }
    }
    pub(super) fn format(self) -> Format {
        match self {
            Packing::Scalar => Format::R32F,
            Packing::Rgba => Format::RGBA32F,
        }
    }
}

/// Texels the reduction chain's passes fetch for one dot product of a `w × batch` texture:
/// every texel of each source once (`w × batch`, then each ⌈/2⌉ × ⌈/2⌉ step down to 1×1).
/// Returns `(texels read, passes)`; a single texel takes one copying pass.
pub fn reduction_texels(w: u64, batch: u64) -> (u64, u64) {
    let (mut red, mut passes) = (0u64, 0u64);
    let (mut cw, mut ch) = (w, batch);
    while cw > 1 || ch > 1 {
        red += cw * ch;
        passes += 1;
        (cw, ch) = (cw.div_ceil(2), ch.div_ceil(2));
    }
    if passes == 0 { (1, 1) } else { (red, passes) }
}

/// Exact static count of the floats [`super::FragmentCg`] fetches, `(set-up, per iteration)`, as
/// Table 1 counts them: the set-up `r = k − Mx` fetches 7 vector texels per vector texel; an
/// iteration 15 (`r²`: 1, `p`: 2, `Mp`: 3 p + 3 coefficients, `p·q`: 2, `x`: 2, `r`: 2)
/// plus its two reductions, which fetch every texel of each source once. The 1×1 scalar
/// textures (ρ, p·q) are not counted, as in the paper.
pub fn static_fetches(packing: Packing, n: usize, batch: usize) -> (u64, u64) {
    let lanes = packing.lanes() as u64;
    let (w, b) = ((n as u64).div_ceil(lanes), batch as u64);
    let red = if w * b > 1 {
        reduction_texels(w, b).0
    } else {
        0
    };
    (7 * w * b * lanes, (15 * w * b + 2 * red) * lanes)
}

/// Flops per unknown of one CG iteration: `r²` 1, direction 2 (an FMA), `Mp` 5 (2 FMAs and a
/// multiply), `p·q` 1, `x` 2, `r` 2; the reductions add 3 per texel they write per lane.
pub const ITERATION_FLOPS: f64 = 13.0;
/// Flops per unknown of the set-up residual `k − (a x_l + b x + c x_r)`: 3 FMAs.
pub const SETUP_FLOPS: f64 = 6.0;

/// The work of one [`super::FragmentCg`] solve of `batch` systems of `n` unknowns that ran
/// `iterations` iterations (`extra_sums` further dot products `u·u`: the converging variant's
/// ‖k‖, the check that stopped it and the final residual). With `T = ⌈n/L⌉·batch` vector
/// texels of `4L` bytes (`L` lanes), `R` the texels a reduction reads and `P_R` its passes:
///
/// ```text
/// bytes  = 4·(16·L·T + 4·L·T)             pack: the coefficients into a, b, c, k textures
///        + 4L·(7T + T)                    r = k − Mx
///        + it·4L·(15T + 2R + 6T + 2(R − T + 1))   an iteration: fetches ([`static_fetches`]), 6 full writes, 2 reductions' writes
///        + extra·4L·(T + T + R − T + 1)   a further u·u
///        + 4L·T + 4·n·batch               unpack x
/// flops  = 6·L·T + it·(13·L·T + 2·3L·(R − T + 1)) + extra·(L·T + 3L·(R − T + 1))
/// passes = 4 + 1 + it·(6 + 2·P_R) + extra·(1 + P_R) + 1
/// ```
///
/// The 1×1 scalar fetches, the clears of x and p and the converging variant's readbacks (a
/// stall each) are not counted. No cache model.
pub fn cg_work(
    packing: Packing,
    n: usize,
    batch: usize,
    iterations: usize,
    extra_sums: usize,
) -> Work {
    let l = packing.lanes() as f64;
    let w = (n as u64).div_ceil(packing.lanes() as u64);
    let t = (w * batch as u64) as f64;
    let (r, pr) = reduction_texels(w, batch as u64);
    let (r, pr) = (r as f64, pr as f64);
    let texel = 4.0 * l;
    let red_writes = r - t + 1.0;
    let (it, ex) = (iterations as f64, extra_sums as f64);
    let bytes = 4.0 * (16.0 * l * t + texel * t)
        + texel * 8.0 * t
        + it * texel * (15.0 * t + 2.0 * r + 6.0 * t + 2.0 * red_writes)
        + ex * texel * (2.0 * t + red_writes)
        + texel * t
        + 4.0 * (n * batch) as f64;
    let flops = SETUP_FLOPS * l * t
        + it * (ITERATION_FLOPS * l * t + 2.0 * 3.0 * l * red_writes)
        + ex * (l * t + 3.0 * l * red_writes);
    // The CG passes' fetches and writes, split: every pass writes its output texels (the
    // `texel·…` write terms below), the rest are fetches of `texel`-byte texels.
    let written = texel * t
        + it * texel * (6.0 * t + 2.0 * red_writes)
        + ex * texel * red_writes
        + texel * t
        + 4.0 * (n * batch) as f64;
    let fetch = if l >= 4.0 {
        Access::TexRgba
    } else {
        Access::TexScalar
    };
    Work {
        bytes: Bytes::of(&[(fetch, bytes - written), (Access::Target, written)]),
        flops32: flops,
        passes: (6.0 + it * (6.0 + 2.0 * pr) + ex * (1.0 + pr)) as u64,
        kind: Kind::Fragment,
        ..Work::default()
    }
}

/// The CPU reference of a fixed-iteration CG: the same iteration as [`super::FragmentCg`] in f64,
/// from the same start (`x = 0`, `p = 0`, `ρ_old = 1`), with one global dot product over the
/// whole batch (the block-diagonal system of `n·batch` unknowns). Returns `x` after
/// `iterations` iterations (fewer if `r` becomes exactly zero).
pub fn cg_fixed_f64(sys: &super::cpu::Systems, iterations: usize) -> Vec<f64> {
    let (n, len) = (sys.n, sys.n * sys.batch);
    let coef = |i: usize| sys.data[4 * i..4 * i + 4].iter().map(|&v| v as f64);
    let matvec = |v: &[f64], out: &mut [f64]| {
        for (i, o) in out.iter_mut().enumerate() {
            let mut c = coef(i);
            let (a, b, cc) = (c.next().unwrap(), c.next().unwrap(), c.next().unwrap());
            let left = if i % n > 0 { v[i - 1] } else { 0.0 };
            let right = if i % n + 1 < n { v[i + 1] } else { 0.0 };
            *o = a * left + b * v[i] + cc * right;
        }
    };
    let dot = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(a, b)| a * b).sum::<f64>();
    let mut x = vec![0.0; len];
    let mut r: Vec<f64> = (0..len).map(|i| sys.data[4 * i + 3] as f64).collect();
    let mut p = vec![0.0; len];
    let mut q = vec![0.0; len];
    let mut rho_old = 1.0;
    for _ in 0..iterations {
        let rho = dot(&r, &r);
        if rho == 0.0 {
            break;
        }
        let beta = rho / rho_old;
        for (pi, ri) in p.iter_mut().zip(&r) {
            *pi = ri + beta * *pi;
        }
        matvec(&p, &mut q);
        let alpha = rho / dot(&p, &q);
        for i in 0..len {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        rho_old = rho;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cg_work_of_one_unknown() {
        // n = batch = 1, scalar: every vector is one texel and each reduction one copying
        // pass. Pack: 4 × (16 B in, 4 B out); residual 7 + 1 texels; an iteration 15 fetched
        // + 2 reduced + 6 written + 2 reduction writes; unpack 1 + 1.
        let w = cg_work(Packing::Scalar, 1, 1, 1, 0);
        assert_eq!(w.bytes.total(), (4 * 20 + 4 * 8 + 4 * 25 + 4 + 4) as f64);
        assert_eq!(w.passes, 4 + 1 + (6 + 2) + 1);
        assert_eq!(w.flops32, 6.0 + 13.0 + 6.0);
        assert_eq!(reduction_texels(4, 2), (4 * 2 + 2, 2));
    }
}
