//! Table 2's two largest kernels block by block (B4): the profiled solve's calls cut into
//! `BLOCKS` stretches, and the finding that SpMV takes the largest share.

use super::config::Config;
use crate::papers::bicg::gpu::{Kernel, Profile};
use crate::report::{Column, Finding};
use crate::runner::{RunError, Session};

/// The blocks of a solve's calls that B4 pairs the kernels' times over.
pub(super) const BLOCKS: usize = 16;

/// The paper's share of kernel `k` in Table 2 (`None`: the paper lists none).
pub(super) fn paper_share(cfg: &Config, k: Kernel) -> Option<f64> {
    cfg.table2
        .paper
        .iter()
        .find(|p| p.kernel == k.name())
        .map(|p| p.share)
}

/// The paper's largest share of a kernel other than SpMV (Table 2).
fn paper_largest_other(cfg: &Config) -> Option<f64> {
    cfg.table2
        .paper
        .iter()
        .filter(|p| p.kernel != Kernel::SpMV.name())
        .map(|p| p.share)
        .reduce(f64::max)
}

/// B4, "SpMV takes the largest share" (§V.2.d, Fig. 7): SpMV's time over the largest other
/// kernel's, paired block by block over the profiled solve (each kernel's calls cut into
/// [`BLOCKS`] consecutive blocks of equal counts: the same stretch of iterations, table
/// `table2_blocks`), judged ≥ 1 over the whole interval; the paper's own shares' ratio beside
/// it. The blocks are recomputed with every profiled solve (also under `--resume`).
pub(super) fn spmv_largest(s: &Session, cfg: &Config, profile: &Profile) -> Result<(), RunError> {
    let Some(other) = Kernel::ALL
        .into_iter()
        .filter(|&k| k != Kernel::SpMV)
        .max_by(|a, b| profile.seconds(*a).total_cmp(&profile.seconds(*b)))
    else {
        return Ok(());
    };
    let (spmv, rest) = (
        profile.blocks(Kernel::SpMV, BLOCKS),
        profile.blocks(other, BLOCKS),
    );
    blocks_table(s, cfg, other, &spmv, &rest)?;
    let Some(ratio) = crate::stats::paired_ratio(&spmv, &rest) else {
        return Ok(());
    };
    let paper_other = paper_largest_other(cfg);
    let f = Finding::new(
        "table2_blocks",
        "SpMV takes the largest share of the solve time",
    )
    .paper("SpMV the largest share (Fig. 7, Table 2)")
    .judge(
        &format!("SpMV time / {} time", other.name()),
        &ratio,
        1.0,
        true,
    );
    let why = format!(
        "{} The largest other kernel here: {}; the times paired over {BLOCKS} consecutive \
         blocks of each kernel's calls in the profiled solve (glFinish around every call).",
        f.why,
        other.name()
    );
    let f = f.why(why);
    s.finding(match (paper_share(cfg, Kernel::SpMV), paper_other) {
        (Some(a), Some(b)) => f.paper_value(a / b),
        _ => f,
    });
    Ok(())
}

/// The `table2_blocks` table: the SpMV's and the largest `other` kernel's time per block.
fn blocks_table(
    s: &Session,
    cfg: &Config,
    other: Kernel,
    spmv: &[f64],
    rest: &[f64],
) -> Result<(), RunError> {
    let mut t = s.table(
        "table2_blocks",
        "Table 2's two largest kernels over the profiled solve, block by block (B4)",
        vec![
            Column::key("block").int(),
            Column::ours("SpMV").unit("ms").fixed(3),
            Column::ours("largest other").unit("ms").fixed(3),
            Column::ours("SpMV / other").fixed(3),
        ],
        &(&cfg.table2, BLOCKS),
    )?;
    t.caption(format!(
        "Each kernel's calls in the profiled solve (table2) cut into {BLOCKS} consecutive \
         blocks of equal counts, the block's time summed (glFinish around every call); the \
         largest other kernel here: {}. B4 judges the median of the blocks' ratios with its \
         distribution-free 95 % interval.",
        other.name()
    ));
    t.expect_rows(spmv.len().min(rest.len()));
    for (b, (a, o)) in spmv.iter().zip(rest).enumerate() {
        let key = b.to_string();
        t.start(&key);
        t.push(
            t.row(&key)
                .num("block", b as f64)
                .num("SpMV", a * 1e3)
                .num("largest other", o * 1e3)
                .num("SpMV / other", a / o)
                .unchecked("times of the profiled solve, verified in table2"),
        )?;
    }
    t.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::finding::{Verdict, decide};
    use crate::stats::Estimate;

    /// B4's and B6's rules, run on the paper's own Table 2 (`experiments/bicg.toml`), give the
    /// paper's side: SpMV's share over the largest other one ≥ 1, and the V_plus_bU count
    /// fits linbcg's 5k − 2 with a whole k.
    #[test]
    fn b4_and_b6_on_the_papers_table_2_give_the_papers_side() {
        let cfg: Config = toml::from_str(include_str!("../../../../experiments/bicg.toml"))
            .expect("bicg.toml parses");
        let spmv = paper_share(&cfg, Kernel::SpMV).expect("SpMV printed");
        let other = paper_largest_other(&cfg).expect("other kernels printed");
        let b4 = decide("r", &Estimate::of(&[spmv / other; 6]).unwrap(), 1.0, true).0;
        assert_eq!(b4, Verdict::Held);
        let calls = cfg.table2.paper.iter().find_map(|p| p.calls).expect("838");
        assert_eq!((calls + 2) % 5, 0, "{calls} = 5k − 2 with a whole k");
    }
}
