//! Table 5: the error of one `+ − × ÷` in ULP in this device's fragment and compute shaders,
//! beside the paper's Quadro FX 3400 (GPU Paranoia).

use crate::gl::Need;
use crate::report::Column;
use crate::runner::{RunError, Session};

use super::super::ulp::{self, UlpStats};
use super::Config;
use super::config::ULP_WIDTH;

/// Statistics per operation in [`ulp::OPS`] order.
pub(super) type OpStats = [UlpStats; 4];

/// Fragment statistics, and compute statistics where the device has compute shaders (else
/// why not).
pub(super) struct Ulps {
    pub fragment: OpStats,
    pub compute: Result<OpStats, String>,
}

/// Runs the four operations on the configured operands in both shader stages (the compute
/// stage only where the device has it).
pub(super) fn measure(s: &Session, cfg: &Config) -> Result<Ulps, RunError> {
    let c = &cfg.table5;
    let ab = ulp::operands(*c.operands.pick(s.mode), c.seed);
    let frag = ulp::fragment_results(&s.gl, &ab, ULP_WIDTH).map_err(RunError::algorithm)?;
    let compute = match s.lacks(&[Need::Compute]) {
        Some(why) => Err(why),
        None => {
            let comp = ulp::compute_results(&s.gl, &ab).map_err(RunError::algorithm)?;
            Ok(ulp::stats(&ab, &comp))
        }
    };
    Ok(Ulps {
        fragment: ulp::stats(&ab, &frag),
        compute,
    })
}

/// Whether every operation was correctly rounded for every operand (IEEE round-to-nearest).
pub(super) fn rounds_correctly(stats: &[UlpStats; 4]) -> bool {
    stats
        .iter()
        .all(|x| x.correctly_rounded == 1.0 && x.non_finite == 0)
}

pub(super) fn table(s: &Session, cfg: &Config, ulps: &Ulps) -> Result<(), RunError> {
    let c = &cfg.table5;
    let count = *c.operands.pick(s.mode);
    let fs = &ulps.fragment;
    let cs = ulps.compute.as_ref().ok();
    let mut t = s.table(
        "table5",
        "Table 5 — error of one operation in ULP against the exact result (IEEE round-to-nearest: [−0.5, 0.5])",
        vec![
            Column::key("operation").text(),
            Column::ours("fragment min").fixed(5),
            Column::ours("fragment max").fixed(5),
            Column::ours("fragment correctly rounded").fixed(4),
            Column::ours("compute min").fixed(5),
            Column::ours("compute max").fixed(5),
            Column::ours("compute correctly rounded").fixed(4),
            Column::paper("Quadro min").fixed(5),
            Column::paper("Quadro max").fixed(5),
        ],
        c,
    )?;
    t.caption(format!("{count} random operand pairs (significands in [1, 2), exponents in [−8, 8], random signs) per operation; 'correctly rounded' = share of results equal to the exact result rounded to nearest f32."));
    if let Err(why) = &ulps.compute {
        t.caption(format!("Compute columns empty: the compute stage {why}."));
    }
    for (i, op) in ulp::OPS.iter().enumerate() {
        let paper = c.paper.get(*op).copied();
        let c = cs.map(|c| &c[i]);
        let bad = fs[i].non_finite + c.map_or(0, |c| c.non_finite);
        let row = t
            .row(*op)
            .text("operation", *op)
            .num("fragment min", fs[i].min)
            .num("fragment max", fs[i].max)
            .num("fragment correctly rounded", fs[i].correctly_rounded)
            .opt("compute min", c.map(|c| c.min))
            .opt("compute max", c.map(|c| c.max))
            .opt("compute correctly rounded", c.map(|c| c.correctly_rounded))
            .opt("Quadro min", paper.map(|p| p[0]))
            .opt("Quadro max", paper.map(|p| p[1]))
            .runs(count);
        // The check: every result finite (a NaN/∞ would mean broken plumbing, not rounding).
        t.push(if bad == 0 {
            row.unchecked("measured against exact f64 results")
        } else {
            row.fail(format!("{bad} non-finite results"))
        })?;
    }
    t.finish()?;
    Ok(())
}
