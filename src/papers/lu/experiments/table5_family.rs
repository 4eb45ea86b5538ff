//! Table 5's error ends per member of the 2005 model family (issue 38), against the Quadro's:
//! each member's `+ − × ÷` measured in the fragment stage on Table 5's operands, every result
//! checked bit for bit against the member's CPU twin.

use crate::report::Column;
use crate::runner::{RunError, Session};

use super::super::arith2005::{Arith2005, Member, same_bits};
use super::super::ulp::{self, OPS};
use super::config::Config;
use super::config::ULP_WIDTH;
use super::table5::ends_match;

pub(super) fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let c = &cfg.table5;
    let mut t = s.table(
        "table5_family",
        "Table 5 per member of the 2005 model family — each member's error range (ULP) against the Quadro FX 3400's",
        vec![
            Column::key("member").text(),
            Column::key("operation").text(),
            Column::ours("min").fixed(5),
            Column::ours("max").fixed(5),
            Column::paper("Quadro min").fixed(5),
            Column::paper("Quadro max").fixed(5),
            Column::ours("ends matching Quadro").text(),
            Column::ours("≠ CPU twin").int(),
        ],
        c,
    )?;
    t.caption(format!(
        "The fragment stage built with each member (ARITH_2005 = 7 + the member's bits; src/papers/lu/arith2005_member.rs), on Table 5's operands (random signs, significands uniform in [1, 2)): the supremum and infimum of the error in ULP of the correctly rounded result. An end matches when within {} ULP of the Quadro's (GP², the paper's Table 5). '≠ CPU twin': results whose bits differ from the member's CPU twin (0 required). A fused MAD (bit 128) changes only the update c − a·b, which Table 5 does not measure: such a member's four rows are those of the same member unfused.",
        super::table5::MODEL_MATCH_ULP
    ));
    let ab = ulp::operands(*c.operands.pick(s.mode), c.seed);
    for member in Member::FAMILY {
        let model = Arith2005::ALL.with(member);
        let got = ulp::fragment_results_with(&s.gl, &ab, ULP_WIDTH, &model.defines())
            .map_err(RunError::algorithm)?;
        let mut mismatches = [0usize; 4];
        for (p, g) in ab.iter().zip(&got) {
            let want = model.ops(*p);
            for op in 0..4 {
                if !same_bits(g[op], want[op]) {
                    mismatches[op] += 1;
                }
            }
        }
        let st = ulp::stats(&ab, &got);
        for (i, op) in OPS.iter().enumerate() {
            let mut row = t
                .row(format!("{} | {op}", member.name()))
                .text("member", member.name())
                .text("operation", *op)
                .num("min", st[i].min)
                .num("max", st[i].max)
                .num("≠ CPU twin", mismatches[i] as f64);
            if let Some(&paper) = c.paper.get(*op) {
                let (lo, hi) = ends_match(&st[i], paper);
                let which = match (lo, hi) {
                    (true, true) => "both",
                    (true, false) => "lower",
                    (false, true) => "upper",
                    (false, false) => "neither",
                };
                row = row
                    .num("Quadro min", paper[0])
                    .num("Quadro max", paper[1])
                    .text("ends matching Quadro", which);
            }
            t.push(row.verify(mismatches[i] as f64, 0.0))?;
        }
    }
    t.finish()?;
    Ok(())
}
