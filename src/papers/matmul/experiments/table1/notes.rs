//! Table 1's reproduction notes: which grid is the paper's kernel, the mapping of its
//! wrapper calls, what its times include, the measured comparisons, and each comparison
//! read against both sides' bounds.

use super::super::cells::at;
use super::super::config::Table1Config;
use super::super::kernels::KERNELS;
use super::edge::full_edge;
use crate::papers::matmul::gpu::Park2019Params;
use crate::report::{OF_BOUND, Table};
use crate::runner::Session;

pub(super) fn notes(s: &Session, t: &Table, cfg: &Table1Config) {
    grid_note(s, cfg);
    s.note(
        "Algorithm 2 as printed stores Rsub inside the tile loop (every tile step writes the \
         partial sum; the last one leaves the final value). The semantics are unchanged and we \
         time the kernel as printed. The helper `__memoryBarrierShared` is renamed `sync_shared` \
         (GLSL reserves identifiers containing `__`).",
    );
    s.note(
        "The paper's wrapper calls map to GL as: glOpenBuffer = glGenBuffers; glWriteBuffer = \
         glBindBuffer + glBufferData + glBindBufferBase; glReadBuffer = glGetBufferSubData; \
         glCloseBuffer = glBindBufferBase(0) + glDeleteBuffers (src/papers/matmul/gpu.rs).",
    );
    s.note(
        "The paper does not say whether its GPU times include the transfers; ours time the \
         dispatch loop only (glFinish on both sides), matching its description of the \
         measured \"computing time\" of Algorithm 2.",
    );
    as_printed_notes(s, t);
    measured_notes(s, t, cfg);
}

/// Which grid is the paper's kernel: the needed groups, not the printed full grid, which the
/// paper's own times rule out at its smallest N.
fn grid_note(s: &Session, cfg: &Table1Config) {
    let pp = Park2019Params::default();
    let edge = (pp.block * pp.max_groups) as f64;
    if let Some(p0) = cfg.published.iter().min_by_key(|p| p.n) {
        let tflop = 2.0 * edge * edge * p0.n as f64 / 1e12;
        s.note(format!(
            "Which grid is the paper's kernel: §2.2 sets the number of work groups to the \
             matrix size divided by the work-group size, §3.1 caps it at {g}×{g} (Windows TDR) \
             and cuts larger matrices into sub-matrices; Algorithm 1 as printed dispatches the \
             full {g}×{g} grid every time. The paper's own times rule the printed launch out at \
             small N: at N = {n} it is 2·{e}²·{n} = {tflop:.3} TFLOP of work, {:.2} TFLOPS in \
             the paper's {} ms. The needed-groups launch is therefore the paper's kernel here; \
             the printed launch is the labelled `as printed` variant.",
            tflop / (p0.gpu_ms.value * 1e-3),
            String::from(p0.gpu_ms),
            g = pp.max_groups,
            n = p0.n,
            e = edge,
        ));
    }
}

/// Per size where the two launches differ: the paper's kernel against Algorithm 1 as printed.
fn as_printed_notes(s: &Session, t: &Table) {
    for r in &t.rows {
        let n: u32 = r.key.parse().unwrap_or(0);
        if let (Some(f), Some(pr)) = (at(t, n, "GPU GFLOPS"), at(t, n, "as printed GFLOPS"))
            && !(n as usize).is_multiple_of(full_edge())
        {
            s.note(format!(
                "N = {n}: the paper's kernel {f:.2} GFLOPS, Algorithm 1 as printed \
                     {pr:.2} GFLOPS ({:.1}× slower: its {} work groups against {}).",
                f / pr,
                at(t, n, "as printed work groups").unwrap_or(f64::NAN),
                at(t, n, "work groups").unwrap_or(f64::NAN)
            ));
        }
    }
}

/// The kernels compared at the largest N ≤ 1024, and ours against the paper's GFLOPS at the
/// largest N.
fn measured_notes(s: &Session, t: &Table, cfg: &Table1Config) {
    let sizes = cfg.sizes.pick(s.mode);
    let mid = sizes.iter().copied().filter(|&n| n <= 1024).max();
    if let Some(n) = mid
        && let (Some(f), Some(b), Some(fr)) = (
            at(t, n, "GPU GFLOPS"),
            at(t, n, "blocked GFLOPS"),
            at(t, n, "fragment GFLOPS"),
        )
    {
        s.note(format!(
            "At N = {n} the paper's kernel reaches {f:.2} GFLOPS on this device, the \
                 blocked kernel {b:.2} GFLOPS ({:.1}× the paper's kernel) and the \
                 fragment multipass {fr:.2} GFLOPS (blocked / fragment = {:.2}).",
            b / f,
            b / fr
        ));
    }
    let largest = sizes.iter().copied().max().unwrap_or(0);
    if let (Some(ours), Some(p)) = (
        at(t, largest, "GPU GFLOPS"),
        cfg.published.iter().find(|p| p.n == largest),
    ) {
        s.note(format!(
            "At N = {largest}: the paper's kernel gives {ours:.2} GFLOPS here against the \
             paper's {} GFLOPS on a Quadro 4000 ({:.3}×).",
            String::from(p.gpu_gflops),
            ours / p.gpu_gflops.value
        ));
    }
}

/// Kernel `k`'s fraction of its bound at size `n`, from `table1_kernels`.
fn fraction(kt: &Table, n: u32, k: &str) -> Option<f64> {
    kt.rows
        .iter()
        .find(|r| r.key == format!("{n} {k}"))
        .and_then(|r| r.values[kt.col(OF_BOUND)].as_f64())
}

/// Whether each side of a comparison is within half of its bound; where not, the comparison
/// says more about the implementations than about the algorithms (issue 13).
pub fn within_half(name: &str, f: Option<f64>) -> String {
    match f {
        Some(f) if f >= 0.5 => format!("{name} at {f:.2} of its bound (within half)"),
        Some(f) => format!(
            "{name} at {f:.2} of its bound ({:.1}× from it: implementation-bound)",
            1.0 / f
        ),
        None => format!("{name} without a bound"),
    }
}

/// Table 1's comparisons (paper kernel vs as printed, blocked and fragment vs the paper's
/// kernel) read against each side's bound at the largest size measured.
pub(super) fn bound_notes(s: &Session, kt: &Table, sizes: &[u32]) {
    let Some(&n) = sizes.iter().max() else {
        return;
    };
    let sides: Vec<String> = KERNELS
        .iter()
        .map(|k| within_half(k, fraction(kt, n, k)))
        .collect();
    if KERNELS.iter().all(|k| fraction(kt, n, k).is_none()) {
        return;
    }
    s.note(format!(
        "Table 1's comparisons against the bounds at N = {n} (table1_kernels): {}. A \
         comparison between two kernels that are not both within half of their bounds ranks \
         their implementations on this device, not the algorithms.",
        sides.join("; ")
    ));
}
