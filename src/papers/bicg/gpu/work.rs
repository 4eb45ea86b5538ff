//! The work of the solver's dispatches, counted from the shaders under `glsl/bicg/` (what the
//! bound columns of Fig. 4, Table 2, the per-iteration table and Fig. 6 read against the
//! device's limits).
//!
//! With `n` rows, `nnz = Σ rl[i]` stored non-zeros, elements of `e` bytes (8 for the fp64
//! build, 4 for fp32), `I` invocations launched (groups × local size) and `R` partial sums
//! (`red_groups`), one dispatch of each program reads plus writes (bytes) and computes
//! (flops, in the build's precision; an FMA = 2, a division, a max or a compare = 1):
//!
//! | program | bytes | flops |
//! |---|---|---|
//! | `spmv` | `4n + nnz(2e + 4) + n·e` (rl, val + col + gathered x, y) | `2·nnz` |
//! | `v_plus_bu` | `3n·e + I·e` (v, u, out; coef once per invocation) | `2n` |
//! | `v_mul_u`, `sub` | `3n·e` | `n` |
//! | `asolve` | `3n·e` (r, diag, z) | `n` |
//! | `copy` | `2n·e` | 0 |
//! | stage 1 Σ / max (`reduce_grid_stride`) | `n·e + R·e` | `n` |
//! | stage 1 fused dot | `2n·e + R·e` | `2n` |
//! | stage 2 (`reduce_partials`, one group) | `R·e + e` | `R` |
//! | `fused_asolve_dot` | `4n·e + R·e` | `3n` |
//! | `fused_p_update` | `6n·e + I·e` | `4n` |
//! | `fused_spmv_dot` | SpMV + `n·e + R·e` (w, partials) | `2·nnz + 2n` |
//! | `fused_update` (x) | `3n·e + 2R·e + I·e` | `4n` (FMA, two max) |
//! | `fused_update` (r) | `8n·e + R·e + I·e` | `6n` (two FMA, a division, a max) |
//!
//! Every SSBO access counts once (no cache model: the gathered `x[col]` of the SpMV is an
//! upper bound on the memory traffic); the shared-memory tree of a reduction (`local − 1`
//! combines per group) is not counted. One dispatch each. The host transfers (memcpyHtoD,
//! memcpyDtoH) are not dispatches and count nothing: where a timed region includes them
//! (Fig. 4's matrix upload) the bound is lower still.

use super::kernels::Prog;
use crate::bench::{Access, Bytes, Kind, Work};

/// The sizes a dispatch's work depends on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub n: usize,
    pub nnz: usize,
    /// Bytes per element (8 or 4).
    pub e: usize,
    /// Invocations of a full-grid dispatch (`groups × local`).
    pub invocations: usize,
    /// Partial sums of a reduction's first stage.
    pub red_groups: usize,
    /// fp64 build.
    pub fp64: bool,
}

/// The work of one dispatch of `p` (see the module docs).
pub(super) fn dispatch_work(p: Prog, s: &Shape) -> Work {
    let (n, nnz, e, i, r) = (
        s.n as f64,
        s.nnz as f64,
        s.e as f64,
        s.invocations as f64,
        s.red_groups as f64,
    );
    // (loads, stores) of each kernel; a reduction's first stage stores its partial sums.
    let spmv = 4.0 * n + nnz * (2.0 * e + 4.0);
    let ((rd, wr), flops) = match p {
        Prog::Spmv => ((spmv, n * e), 2.0 * nnz),
        Prog::VPlusBU => ((2.0 * n * e + i * e, n * e), 2.0 * n),
        Prog::VMulU | Prog::Sub | Prog::Asolve => ((2.0 * n * e, n * e), n),
        Prog::Copy => ((n * e, n * e), 0.0),
        Prog::Sum | Prog::Max => ((n * e, r * e), n),
        Prog::Dot => ((2.0 * n * e, r * e), 2.0 * n),
        Prog::SumFinal | Prog::MaxFinal => ((r * e, e), r),
        Prog::FusedAsolveDot => ((3.0 * n * e, n * e + r * e), 3.0 * n),
        Prog::FusedP => ((4.0 * n * e + i * e, 2.0 * n * e), 4.0 * n),
        Prog::FusedSpmvDot => ((spmv + n * e, n * e + r * e), 2.0 * nnz + 2.0 * n),
        Prog::FusedUpdateX => ((2.0 * n * e + 2.0 * r * e + i * e, n * e), 4.0 * n),
        Prog::FusedUpdateR => ((6.0 * n * e + i * e, 2.0 * n * e + r * e), 6.0 * n),
    };
    Work {
        bytes: Bytes::of(&[(Access::SsboRead, rd), (Access::SsboWrite, wr)]),
        flops32: if s.fp64 { 0.0 } else { flops },
        flops64: if s.fp64 { flops } else { 0.0 },
        passes: 0,
        dispatches: 1,
        kind: Kind::Compute,
    }
}

/// No work (a compute kernel that has not run).
pub fn none() -> Work {
    Work {
        kind: Kind::Compute,
        ..Default::default()
    }
}

/// `a + b`, count by count (both compute).
pub fn add(a: Work, b: Work) -> Work {
    Work {
        bytes: a.bytes + b.bytes,
        flops32: a.flops32 + b.flops32,
        flops64: a.flops64 + b.flops64,
        passes: a.passes + b.passes,
        dispatches: a.dispatches + b.dispatches,
        kind: Kind::Compute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spmv_of_a_tridiagonal_matrix_by_hand() {
        // n = 4, 10 non-zeros, fp64: rl 16 B, val 80 B, col 40 B, x 80 B, y 32 B.
        let s = Shape {
            n: 4,
            nnz: 10,
            e: 8,
            invocations: 32,
            red_groups: 1,
            fp64: true,
        };
        let w = dispatch_work(Prog::Spmv, &s);
        assert_eq!(w.bytes.total(), 16.0 + 80.0 + 40.0 + 80.0 + 32.0);
        assert_eq!((w.flops64, w.flops32, w.dispatches), (20.0, 0.0, 1));
        let c = dispatch_work(
            Prog::Copy,
            &Shape {
                fp64: false,
                e: 4,
                ..s
            },
        );
        assert_eq!((c.bytes.total(), c.flops32), (32.0, 0.0));
        assert_eq!(c.bytes.get(Access::SsboWrite), 16.0);
    }
}
