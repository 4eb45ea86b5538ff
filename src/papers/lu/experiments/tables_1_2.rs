//! Tables 1 and 2: the paper's formulas for passes, copies, copied bytes, flops and bytes
//! referenced (§3.6), beside the counts of our runs.

use std::collections::HashMap;

use crate::gl::PingPongMethod;
use crate::report::Column;
use crate::runner::{RunError, Session, TableWriter};

use super::super::theory;
use super::forms::{form_key, key};
use super::measured::Measured;
use crate::papers::lu::fragment::{Feed, Variant};

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
    t1.caption("Ours counts the paper's forms (issue 38): the copy-method run (copies, bytes) and both runs (draws). The last step has nothing to update and issues no pass (the paper's sums run to i = N). `closed form` is theory::copied_bytes for our passes (a row fails when the counted bytes differ). The labelled alternatives' counts where they ran (table4's labelled orders): `copy (rendered only)` bytes, and the texels `switch (carry)` redraws (their draw time is table4's G carry); the paper's switch carries none (its column), and the paper's Table 1 lists no such cost.");
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
            let alt = |m| measured.get(&form_key(n, (v, m, Feed::Alt)));
            let alts = (alt(PingPongMethod::Copy), alt(PingPongMethod::Switch));
            let r = push_rows((&mut t1, &mut t2), &k, (n, v), (c, sw), alts)?;
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
    s.note(format!("Table 1, copied bytes (issue 38): the paper's I1 formula 32N(N²−1)/3 is twice the bytes of the L and U regions (16·(S_L + S_U) = 16N(N²−1)/3, eqs. 1–2), and its measured T for I1 is twice I2's: the paper copied the step's whole active block (L column + trailing block) after *both* passes of a step. Our `copy` (the paper's form) does that (ours / formula, I1: {}); I3/I4 then copy 2·16·(ΣL_i + ΣU_i) bytes, where the formula 2N(4N²+3N−4)/3 = 2·16·ΣU_i (eq. 5) leaves out the L row's 4N(N+2) bytes, an O(N²) term (I3: {}). `copy (rendered only)`, the form built first, copies exactly what each pass rendered: half of that (its column).", at(Variant::I1), at(Variant::I3)));
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
        Column::ours("closed form").int(),
        Column::ours("copy (rendered only): bytes").int(),
        Column::ours("switch: carried texels").int(),
        Column::ours("switch (carry): carried texels").int(),
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

/// Order `n`'s rows of `variant` in Table 1 (`c`: the paper's copy-method run, `sw`: its
/// switch method's; `alts`: the labelled alternatives' runs, where they ran) and Table 2; the
/// copied bytes over the paper's formula.
fn push_rows(
    (t1, t2): (&mut TableWriter, &mut TableWriter),
    k: &str,
    (n, v): (u32, Variant),
    (c, sw): (&Measured, &Measured),
    (alt_c, alt_sw): (Option<&Measured>, Option<&Measured>),
) -> Result<f64, RunError> {
    let (passes, weight, copies, bytes) = theory::table1(v, n as f64);
    let ci = c.info;
    let r = ci.copied_bytes as f64 / bytes;
    let closed = theory::copied_bytes(v, Feed::Paper, ci.padded as u64, ci.texel_bytes);
    // I2's two copy forms are one (table4 runs it once).
    let rendered_only = match (v, alt_c) {
        (Variant::I2, _) => Some(ci.copied_bytes),
        (_, a) => a.map(|a| a.info.copied_bytes),
    };
    let mut row = t1
        .row(k)
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
        .num("closed form", closed as f64)
        .num("switch: carried texels", sw.info.carried_fragments as f64);
    if let Some(b) = rendered_only {
        row = row.num("copy (rendered only): bytes", b as f64);
    }
    if let Some(a) = alt_sw {
        row = row.num(
            "switch (carry): carried texels",
            a.info.carried_fragments as f64,
        );
    }
    let row = if ci.copied_bytes != closed || sw.info.carried_fragments != 0 {
        row.fail(format!(
            "counted {} copied bytes and {} carried texels; the closed form says {closed} and 0",
            ci.copied_bytes, sw.info.carried_fragments
        ))
    } else {
        row.unchecked("counts")
    };
    t1.push(row)?;
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
