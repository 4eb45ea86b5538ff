//! Table 5: the error of one `+ − × ÷` in ULP in this device's fragment and compute shaders,
//! beside the paper's Quadro FX 3400 (GPU Paranoia).

use crate::gl::Need;
use crate::report::Column;
use crate::runner::{RunError, Session, TableWriter};

use super::super::arith2005::{self, Arith2005};
use super::super::ulp::{self, UlpStats};
use super::config::Config;
use super::config::ULP_WIDTH;

/// Statistics per operation in [`ulp::OPS`] order.
pub(super) type OpStats = [UlpStats; 4];

/// Fragment statistics, and compute statistics where the device has compute shaders (else
/// why not).
pub(super) struct Ulps {
    pub fragment: OpStats,
    pub compute: Result<OpStats, String>,
    /// The fragment stage under the 2005 arithmetic model (issue 25), and how many of its
    /// results differ from the CPU twin's bits.
    pub emulated: OpStats,
    pub twin_mismatches: [usize; 4],
}

/// How close the emulated range must come to the paper's at each end (ULP).
pub(super) const MODEL_MATCH_ULP: f64 = 0.1;

/// Whether the emulated `[min, max]` reaches the paper's at its lower and upper end.
pub(super) fn ends_match(e: &UlpStats, paper: [f64; 2]) -> (bool, bool) {
    (
        (e.min - paper[0]).abs() <= MODEL_MATCH_ULP,
        (e.max - paper[1]).abs() <= MODEL_MATCH_ULP,
    )
}

/// Table 5's writer, opened before the LU tables: its statistics decide how they are verified.
pub(super) struct Table5 {
    t: TableWriter,
    /// Whether `--resume` reused every row (the statistics were read back from them).
    reused: bool,
}

fn columns() -> Vec<Column> {
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
        Column::ours("emulated 2005 min").fixed(5),
        Column::ours("emulated 2005 max").fixed(5),
        Column::ours("emulated 2005 correctly rounded").fixed(4),
        Column::ours("emulated ends matching Quadro").text(),
    ]
}

/// Opens Table 5 and runs the four operations on the configured operands in both shader
/// stages (the compute stage only where the device has it); with `--resume`, reads the
/// statistics back from the earlier run's rows instead where all four can be reused (a
/// reused row did not fail: all its results were finite).
pub(super) fn measure(s: &Session, cfg: &Config) -> Result<(Table5, Ulps), RunError> {
    let c = &cfg.table5;
    let count = *c.operands.pick(s.mode);
    let mut t = s.table(
        "table5",
        "Table 5 — error of one operation in ULP against the exact result (IEEE round-to-nearest: [−0.5, 0.5])",
        columns(),
        c,
    )?;
    t.caption(format!("{count} random operand pairs (significands in [1, 2), exponents in [−8, 8], random signs) per operation; 'correctly rounded' = share of results equal to the exact result rounded to nearest f32."));
    let lacks = s.lacks(&[Need::Compute]);
    if let Some(why) = &lacks {
        t.caption(format!("Compute columns empty: the compute stage {why}."));
    }
    let keys = ulp::OPS.map(String::from);
    if let Some(rows) = t.reuse_all(&keys)? {
        let stats = |stage: &str| -> Option<OpStats> {
            let mut out = [UlpStats::default(); 4];
            for (o, row) in out.iter_mut().zip(&rows) {
                *o = UlpStats {
                    min: t.value(row, &format!("{stage} min"))?,
                    max: t.value(row, &format!("{stage} max"))?,
                    correctly_rounded: t.value(row, &format!("{stage} correctly rounded"))?,
                    non_finite: 0,
                };
            }
            Some(out)
        };
        let compute = match &lacks {
            Some(why) => Some(Err(why.clone())),
            None => stats("compute").map(Ok),
        };
        if let (Some(fragment), Some(compute), Some(emulated)) =
            (stats("fragment"), compute, stats("emulated 2005"))
        {
            let ulps = Ulps {
                fragment,
                compute,
                emulated,
                twin_mismatches: [0; 4],
            };
            return Ok((Table5 { t, reused: true }, ulps));
        }
    }
    let ab = ulp::operands(count, c.seed);
    let frag = ulp::fragment_results(&s.gl, &ab, ULP_WIDTH).map_err(RunError::algorithm)?;
    let compute = match lacks {
        Some(why) => Err(why),
        None => {
            let comp = ulp::compute_results(&s.gl, &ab).map_err(RunError::algorithm)?;
            Ok(ulp::stats(&ab, &comp))
        }
    };
    let emul = ulp::fragment_results_with(&s.gl, &ab, ULP_WIDTH, &Arith2005::ALL.defines())
        .map_err(RunError::algorithm)?;
    let mut twin_mismatches = [0; 4];
    for (p, g) in ab.iter().zip(&emul) {
        let want = arith2005::ops05(*p);
        for op in 0..4 {
            if !arith2005::same_bits(g[op], want[op]) {
                twin_mismatches[op] += 1;
            }
        }
    }
    let ulps = Ulps {
        fragment: ulp::stats(&ab, &frag),
        compute,
        emulated: ulp::stats(&ab, &emul),
        twin_mismatches,
    };
    Ok((Table5 { t, reused: false }, ulps))
}

/// Whether every operation was correctly rounded for every operand (IEEE round-to-nearest).
pub(super) fn rounds_correctly(stats: &[UlpStats; 4]) -> bool {
    stats
        .iter()
        .all(|x| x.correctly_rounded == 1.0 && x.non_finite == 0)
}

/// Adds the rows of [`measure`]'s statistics (unless they were reused) and finishes the table.
pub(super) fn table(s: &Session, cfg: &Config, table: Table5, ulps: &Ulps) -> Result<(), RunError> {
    let Table5 { mut t, reused } = table;
    if reused {
        t.finish()?;
        return Ok(());
    }
    let c = &cfg.table5;
    let count = *c.operands.pick(s.mode);
    let fs = &ulps.fragment;
    let es = &ulps.emulated;
    let cs = ulps.compute.as_ref().ok();
    t.caption(format!("'emulated 2005': the fragment stage with every operation through the 2005 arithmetic model (glsl/common/arith2005.glsl, ARITH_2005 = {}; src/papers/lu/arith2005.rs says what each rule is and where it is a guess), same operands; every result checked bit for bit against the CPU twin. The model is accepted for an operation when each end of its range is within {MODEL_MATCH_ULP} ULP of the Quadro's.", Arith2005::ALL.bits()));
    for (i, op) in ulp::OPS.iter().enumerate() {
        let paper = c.paper.get(*op).copied();
        let c = cs.map(|c| &c[i]);
        let bad = fs[i].non_finite + c.map_or(0, |c| c.non_finite) + es[i].non_finite;
        let ends = paper.map(|p| ends_match(&es[i], p));
        let ends_text = match ends {
            None => "—",
            Some((true, true)) => "both",
            Some((true, false)) => "lower only",
            Some((false, true)) => "upper only",
            Some((false, false)) => "neither",
        };
        if let (Some(p), Some((lo, hi))) = (paper, ends) {
            for (ok, lower, ours, theirs) in
                [(lo, true, es[i].min, p[0]), (hi, false, es[i].max, p[1])]
            {
                if !ok {
                    s.note(format!(
                        "Table 5, emulated {op}: the {} end {ours:.5} is {:.3} ULP from the Quadro's {theirs} — {}",
                        if lower { "lower" } else { "upper" },
                        (ours - theirs).abs(),
                        arith2005::why_end_differs(i)
                    ));
                }
            }
        }
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
            .num("emulated 2005 min", es[i].min)
            .num("emulated 2005 max", es[i].max)
            .num("emulated 2005 correctly rounded", es[i].correctly_rounded)
            .text("emulated ends matching Quadro", ends_text)
            .runs(count);
        // The check: every result finite (a NaN/∞ would mean broken plumbing, not rounding).
        let twin = ulps.twin_mismatches[i];
        t.push(if bad > 0 {
            row.fail(format!("{bad} non-finite results"))
        } else if twin > 0 {
            row.fail(format!(
                "{twin} emulated results differ from the CPU twin's bits"
            ))
        } else {
            row.unchecked("measured against exact f64 results; emulated = CPU twin bit for bit")
        })?;
    }
    t.finish()?;
    Ok(())
}
