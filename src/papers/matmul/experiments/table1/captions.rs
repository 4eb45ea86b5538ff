//! Table 1's captions (timing, the paper's grid, the CPU rows, errors, the variants beyond
//! the paper, the bound) and that of `table1_kernels`.

use super::super::config::Table1Config;
use super::super::tune::Tuned;
use super::edge::full_edge;
use crate::papers::matmul::multipass::Multipass;
use crate::runner::{Session, TableWriter};

pub(super) fn table1(t: &mut TableWriter, s: &Session, cfg: &Table1Config, tuned: Tuned) {
    let repeat = cfg.repeat.pick(s.mode);
    t.caption(format!(
        "Times: median of the timed runs with its 95 % interval [lo, hi] (distribution-free, \
         order statistics); {} ({} mode; the least is the paper's count, §4); `runs` = timed \
         runs of the paper's kernel. `GPU mean` is the paper's statistic (mean). Interleaved: each \
         row's CPU loop, paper kernel, blocked and fragment kernels and SGEMM are timed in \
         rounds (every variant once per round, a shuffled order per round), the two CPU \
         variants leaving them once their own runs are enough by the rule above (`CPU runs`, \
         `SGEMM runs`; a CPU run takes seconds where a GPU kernel's takes milliseconds), so \
         that a ratio with them pairs the rounds both sides ran; the as-printed \
         launch, seconds per run, on its own after them, and not at all where one run of it \
         is predicted over this mode's max_run_s (its grid is fixed, so ∝ N from its last \
         size; at its first, the paper's kernel's time at that size × the printed grid's \
         work groups over the needed ones; the `table1_kernels` row says so). Speed-up = \
         CPU ms / GPU ms, `blocked / paper kernel` and `best GPU / SGEMM` are medians of the per-round ratios with their \
         intervals. The warm-up is skipped where the previous size's run, scaled ∝ N³ (∝ N \
         for the as-printed launch), predicts one run longer than the budget. \
         `glFinish` on both sides of each GPU run; upload and readback excluded. GFLOPS = \
         2N³/(10⁶·ms), eq. (2).",
        repeat.rule("run", "variant and row"),
        s.mode.name(),
    ));
    t.caption(format!(
        "The paper's kernel: Algorithm 2 with the work groups its matrix needs (§2.2: matrix \
         size / 32), at most 64×64 per dispatch (§3.1), sub-matrices beyond. `as printed`: \
         Algorithm 1's `glDispatchCompute(64, 64, 1)` on every dispatch whatever N (the same \
         launch where N is a multiple of {}, where it is not timed twice).",
        full_edge()
    ));
    t.caption(format!(
        "CPU: Algorithm 3 (naive i-j-k, f32, one thread); above N = {} only the first {} rows \
         of R are timed and the time is scaled by N/rows (`CPU rows timed`).",
        cfg.cpu_rows_max, cfg.cpu_rows_max
    ));
    t.caption(format!(
        "Errors: max|R − R₆₄| / max|R₆₄| against an f64 product of the same f32 inputs; \
         tolerance {:.0e}. `variants error` is the largest over the as-printed, blocked, \
         fragment and SGEMM results.",
        cfg.tolerance
    ));
    t.caption(format!(
        "Beyond the paper, each with the parameters tuned on this device (the `tuning` \
         table): `blocked` = blocked compute kernel ({}); `fragment` = multipass \
         fragment-shader matmul on RGBA32F textures, {} k per pass, switch method; `SGEMM` = \
         matrixmultiply::sgemm, one thread.",
        tuned.blocked.describe(),
        Multipass::chunk(tuned.k_chunk)
    ));
    t.caption(
        "Bound (the paper's kernel; every GPU kernel in `table1_kernels`): its work counted \
         from the tiling (src/papers/matmul/gpu.rs) against the median time and its interval.",
    );
}

pub(super) fn kernels(kt: &mut TableWriter) {
    kt.caption(
        "Each GPU kernel of Table 1 per N: time (median [95 % interval] from the rounds of \
         Table 1's row), GFLOPS = 2N³ / time, and the bound of its work counted from the \
         kernel (src/papers/matmul/gpu.rs: \
         tiles of A and B once per k-step and R stored every step for Algorithm 2; all \
         launched groups' multiply-adds for the as-printed grid; each SSBO access or texture \
         fetch once, no cache model).",
    );
}
