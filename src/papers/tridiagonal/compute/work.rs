//! The work of the one-dispatch compute solvers, [`ComputeCr`](super::ComputeCr) and
//! [`ComputePcr`](super::ComputePcr), on the shared-memory and the global-memory path.

use super::launch::Memory;
use crate::bench::{Access, Bytes, Kind, Work};
use crate::papers::tridiagonal::fragment_cr::{FILL_FLOPS, REDUCE_FLOPS};
use crate::papers::tridiagonal::layout::CrLayout;

/// The work of one [`ComputeCr`](super::ComputeCr) solve (`cr.comp`, one dispatch) of `b`
/// systems of `n` unknowns, padded to `N' − 1 = 2^q − 1`:
///
/// ```text
/// bytes = b·(16·n + 4·n)                                   imageLoad of P, imageStore of x
///       + global path: b·(16·(N'−1) + 8 + 64·Σ_s PC_s + 28·(N'−1) + 4·n)
/// flops = b·(12·Σ_s PC_s + 5·(N' − 1))
/// ```
///
/// Shared-memory accesses are not device-memory traffic and are not counted; on the global
/// path every scratch access is (the initial store of P and the two boundary x, 3 loads and a
/// store of 16 B per reduced equation, a P load, 2 x loads and an x store per unknown of the
/// fill, the final x loads). No cache model.
pub fn cr_work(n: usize, b: usize, memory: Memory) -> Work {
    let l = CrLayout::new(n, 1);
    let red: f64 = l.levels.iter().map(|v| v.pc as f64).sum();
    let unknowns = l.padded() as f64;
    let (n, b) = (n as f64, b as f64);
    // Global scratch: stores of P and the boundary x, of each reduced equation and each
    // unknown; loads of 3 P per reduced equation, a P and 2 x per unknown, the final x.
    let (loads, stores) = match memory {
        Memory::Shared => (0.0, 0.0),
        Memory::Global => (
            48.0 * red + 24.0 * unknowns + 4.0 * n,
            16.0 * unknowns + 8.0 + 16.0 * red + 4.0 * unknowns,
        ),
    };
    let flops = REDUCE_FLOPS * red + FILL_FLOPS * unknowns;
    one_dispatch(n, b, (loads, stores), flops)
}

/// The work of one [`ComputePcr`](super::ComputePcr) solve (`pcr.comp`, one dispatch) of
/// `b` systems of `n` unknowns, in `S = ⌈log₂ n⌉` steps that each reduce every equation:
///
/// ```text
/// bytes = b·(16·n + 4·n)  + global path: b·(16·n + 64·n·S + 16·n)
/// flops = b·(12·n·S + n)
/// ```
///
/// (the last term: `x_i = k_i / b_i`). Shared-memory accesses are not counted; on the
/// global path the initial store, 3 loads and a store per equation and step, and the final
/// load are. No cache model.
pub fn pcr_work(n: usize, b: usize, memory: Memory) -> Work {
    let steps = (n.max(1) as f64).log2().ceil();
    let (n, b) = (n as f64, b as f64);
    // Global scratch: the initial store and a store per equation and step; 3 loads per
    // equation and step and the final load.
    let (loads, stores) = match memory {
        Memory::Shared => (0.0, 0.0),
        Memory::Global => (48.0 * n * steps + 16.0 * n, 16.0 * n + 16.0 * n * steps),
    };
    one_dispatch(n, b, (loads, stores), REDUCE_FLOPS * n * steps + n)
}

/// One dispatch over `b` systems of `n` unknowns, per system: the coefficients read as an
/// image (16 B an unknown) and x stored (4 B), `loads` and `stores` bytes of SSBO scratch,
/// `flops` fp32 operations.
fn one_dispatch(n: f64, b: f64, (loads, stores): (f64, f64), flops: f64) -> Work {
    let bytes = Bytes::of(&[
        (Access::ImageRead, 16.0 * n),
        (Access::ImageWrite, 4.0 * n),
        (Access::SsboRead, loads),
        (Access::SsboWrite, stores),
    ]);
    Work {
        bytes: bytes.scale(b),
        flops32: b * flops,
        dispatches: 1,
        kind: Kind::Compute,
        ..Work::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compute_work_of_small_systems() {
        // CR, n = 3: one reduced equation (12 flops), 3 unknowns filled (5 each); the image
        // traffic is 16 B in and 4 B out per unknown.
        let w = cr_work(3, 2, Memory::Shared);
        assert_eq!(
            (w.bytes.total(), w.flops32, w.dispatches),
            (2.0 * 60.0, 2.0 * 27.0, 1)
        );
        // PCR, n = 4: 2 steps of 4 equations, then 4 divisions.
        let p = pcr_work(4, 1, Memory::Shared);
        assert_eq!((p.bytes.total(), p.flops32), (80.0, 12.0 * 8.0 + 4.0));
        // The global path adds the scratch traffic.
        assert!(cr_work(3, 1, Memory::Global).bytes.total() > 60.0);
        assert_eq!(
            pcr_work(4, 1, Memory::Global).bytes.total(),
            80.0 + 32.0 * 4.0 + 64.0 * 8.0
        );
    }
}
