//! Tables 1 and 2: the paper's formulas for passes, copies, copied bytes, flops and bytes
//! referenced (§3.6), beside the counts of our runs.

use std::collections::HashMap;

use crate::gl::PingPongMethod;
use crate::report::Column;
use crate::runner::{RunError, Session, TableWriter};

use super::super::{Variant, theory};
use super::{Measured, key};

pub(super) fn run(
    s: &Session,
    sizes: &[u32],
    measured: &HashMap<String, Measured>,
) -> Result<(), RunError> {
    let mut t1 = s.table(
        "table1",
        "Table 1 — passes, VRAM copies and copied bytes: the paper's formulas vs the counts of our runs",
        table1_columns(),
        &sizes,
    )?;
    t1.caption("Ours counts the copy-method run (copies, bytes) and both runs (draws). The last step has nothing to update and issues no pass (the paper's sums run to i = N). The switch method copies nothing but must carry the texels the previous pass computed into the texture written two passes ago (last column; their draw time is table4's G carry); the paper's Table 1 lists no such cost.");
    let mut t2 = s.table(
        "table2",
        "Table 2 — flops and VRAM bytes referenced: the paper's formulas vs our counts",
        table2_columns(),
        &sizes,
    )?;
    t2.caption("Ours: the channels each draw updates × 2 flops (division = 2, as §3.6), and texture fetches × bytes per texel of the computing fragments (carried texels excluded).");
    // The copied-bytes ratio of I1 and I3 at the largest order, for the note below.
    let mut ratio: HashMap<Variant, (u32, f64)> = HashMap::new();
    for &n in sizes {
        for v in Variant::ALL {
            let k = format!("N={n} {v}");
            let (Some(c), Some(sw)) = (
                measured.get(&key(n, v, PingPongMethod::Copy)),
                measured.get(&key(n, v, PingPongMethod::Switch)),
            ) else {
                continue;
            };
            let r = push_rows((&mut t1, &mut t2), &k, (n, v), c, sw)?;
            ratio.insert(v, (n, r));
        }
    }
    t1.finish()?;
    t2.finish()?;
    let at = |v: Variant| {
        ratio
            .get(&v)
            .map(|(n, r)| format!("{r:.3} at N = {n}"))
            .unwrap_or_else(|| "not measured".into())
    };
    s.note(format!("Table 1, I1 copied bytes: the paper's 32N(N²−1)/3 is twice the bytes of the L and U regions (16·(S_L + S_U) = 16N(N²−1)/3, eqs. 1–2), and its measured T for I1 is twice I2's. It matches copying the whole active block (L column + trailing block) after *both* passes of a step; we copy exactly what each pass rendered, so our I1 copies about half the paper's bytes (table1: {}). The I3/I4 formula 2N(4N²+3N−4)/3 ≈ 8N³/3 has the same factor of 2 over the texels our passes render (≈ 4N³/3 bytes; table1: {}).", at(Variant::I1), at(Variant::I3)));
    s.note("Table 1, passes: we count one pass per render-target use (I1 and I3: 2 per step; I2: 1; I4: 2). The paper's 8N (I3) and 4N (I4), 'weighted 1/4', are twice our draws per step (I3: edge + rest for L and for U; I4: one per pass); the I3:I4 ratio agrees. The weight 1/4 reflects the N/4-wide texture.");
    Ok(())
}

fn table1_columns() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::key("impl").text(),
        Column::paper("passes (formula)").int(),
        Column::paper("weight").fixed(2),
        Column::ours("passes").int(),
        Column::ours("draws copy/switch").text(),
        Column::paper("copies (formula)").int(),
        Column::ours("copies").int(),
        Column::paper("copied bytes (formula)").int(),
        Column::ours("copied bytes").int(),
        Column::ours("ours / formula").fixed(3),
        Column::ours("switch: carried texels").int(),
    ]
}

fn table2_columns() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::key("impl").text(),
        Column::paper("flops (formula)").int(),
        Column::ours("flops").int(),
        Column::ours("flops / formula").fixed(3),
        Column::paper("bytes referenced (formula)").int(),
        Column::ours("bytes fetched").int(),
        Column::ours("bytes / formula").fixed(3),
    ]
}

/// Order `n`'s rows of `variant` in Table 1 (`c`: the copy-method run, `sw`: the switch
/// method's) and Table 2; the copied bytes over the paper's formula.
fn push_rows(
    (t1, t2): (&mut TableWriter, &mut TableWriter),
    k: &str,
    (n, v): (u32, Variant),
    c: &Measured,
    sw: &Measured,
) -> Result<f64, RunError> {
    let (passes, weight, copies, bytes) = theory::table1(v, n as f64);
    let ci = c.info;
    let r = ci.copied_bytes as f64 / bytes;
    t1.push(
        t1.row(k)
            .num("N", n as f64)
            .text("impl", v.name())
            .num("passes (formula)", passes)
            .num("weight", weight)
            .num("passes", ci.passes as f64)
            .text(
                "draws copy/switch",
                format!("{}/{}", ci.draws, sw.info.draws),
            )
            .num("copies (formula)", copies)
            .num("copies", ci.copies as f64)
            .num("copied bytes (formula)", bytes)
            .num("copied bytes", ci.copied_bytes as f64)
            .num("ours / formula", r)
            .num("switch: carried texels", sw.info.carried_fragments as f64)
            .unchecked("counts"),
    )?;
    let (flops, refd) = theory::table2(v, n as f64);
    t2.push(
        t2.row(k)
            .num("N", n as f64)
            .text("impl", v.name())
            .num("flops (formula)", flops)
            .num("flops", ci.flops as f64)
            .num("flops / formula", ci.flops as f64 / flops)
            .num("bytes referenced (formula)", refd)
            .num("bytes fetched", ci.fetched_bytes as f64)
            .num("bytes / formula", ci.fetched_bytes as f64 / refd)
            .unchecked("counts"),
    )?;
    Ok(r)
}
