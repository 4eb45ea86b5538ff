//! Table 5: the error of one `+ − × ÷` in ULP in this device's fragment and compute shaders,
//! beside the paper's Quadro FX 3400 (GPU Paranoia).

use crate::report::Column;
use crate::runner::{RunError, Session};

use super::super::ulp::{self, UlpStats};
use super::Config;
use super::config::ULP_WIDTH;

/// Fragment and compute statistics, per operation in [`ulp::OPS`] order.
pub(super) type Ulps = [[UlpStats; 4]; 2];

/// Runs the four operations on the configured operands in both shader stages.
pub(super) fn measure(s: &Session, cfg: &Config) -> Result<Ulps, RunError> {
    let c = &cfg.table5;
    let ab = ulp::operands(*c.operands.pick(s.mode), c.seed);
    let frag = ulp::fragment_results(&s.gl, &ab, ULP_WIDTH).map_err(RunError::algorithm)?;
    let comp = ulp::compute_results(&s.gl, &ab).map_err(RunError::algorithm)?;
    Ok([ulp::stats(&ab, &frag), ulp::stats(&ab, &comp)])
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
    let [fs, cs] = ulps;
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
    for (i, op) in ulp::OPS.iter().enumerate() {
        let paper = c.paper.get(*op).copied();
        let bad = fs[i].non_finite + cs[i].non_finite;
        let row = t
            .row(*op)
            .text("operation", *op)
            .num("fragment min", fs[i].min)
            .num("fragment max", fs[i].max)
            .num("fragment correctly rounded", fs[i].correctly_rounded)
            .num("compute min", cs[i].min)
            .num("compute max", cs[i].max)
            .num("compute correctly rounded", cs[i].correctly_rounded)
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
