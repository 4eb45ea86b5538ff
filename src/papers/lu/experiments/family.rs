//! §5.1 under the 2005 model as a family over matrix classes (issue 38): the verdict "GPU
//! and CPU results differ, mainly from division" rests on a guessed arithmetic and on the
//! test matrices, so it is re-judged for each member of the model family
//! ([`Member::FAMILY`]) on each [`MatrixClass`]. Per cell, at one order: the whole model and
//! the ablation (÷, ±, × alone) on I1 + copy, each checked bit for bit against its CPU twin;
//! the distances from the CPU's IEEE `f32` loop; and the first order in `1 … family_scan` at
//! which the emulated GPU and that loop differ (the paper: equal up to N = 4).

use crate::gl::PingPongMethod;
use crate::report::Column;
use crate::runner::{RunError, Session};

use super::super::arith2005::{Arith2005, Member};
use super::super::cpu::{MatrixClass, Update, lu_f32, lu_f32_twin};
use super::super::fragment::{FragmentLu, Params};
use super::config::Config;
use super::forms::ABLATION_VARIANT;
use super::measured::bit_identical;
use super::sec5_1_2005::Distance;
use crate::papers::lu::error::LuError;

/// One member × class cell.
#[derive(Clone, Debug)]
pub(super) struct Cell {
    pub member: Member,
    pub class: MatrixClass,
    pub n: u32,
    /// Every GPU factorization of the cell equalled its CPU twin's bits.
    pub twin: bool,
    /// The whole model's and each ablation model's distance from the CPU's IEEE loop.
    pub all: Distance,
    pub ablation: [Distance; 3],
    /// The first order at which the whole model's GPU factors differ from the CPU's IEEE
    /// loop (`None`: equal up to the scan's end).
    pub first_diff: Option<usize>,
    /// The largest multiplier |l| of the class's matrix (what division's error scales with).
    pub max_l: f64,
}

impl Cell {
    /// Finding 4a: the whole model's factors differ from the CPU's IEEE loop.
    pub fn differ(&self) -> bool {
        self.all.differing > 0.0
    }
    /// Finding 4b: division alone moves the factors further than ± alone and × alone, by
    /// both distances.
    pub fn div_leads(&self) -> bool {
        let [d, a, m] = &self.ablation;
        d.normwise > a.normwise.max(m.normwise) && d.mean_ulps > a.mean_ulps.max(m.mean_ulps)
    }
}

/// GPU factors of `a` (I1 + copy) under `arith`, and whether they equal the CPU twin's.
fn run_one(
    s: &Session,
    a: &[f32],
    n: usize,
    arith: Arith2005,
) -> Result<(Vec<f32>, bool), LuError> {
    let mut p = Params::new(ABLATION_VARIANT, PingPongMethod::Copy);
    p.arith = arith;
    let mut lu = FragmentLu::new(&s.gl, a, n, p)?;
    lu.run()?;
    let got = lu.factors()?;
    let mut twin = a.to_vec();
    lu_f32_twin(&mut twin, n, arith, Update::Stored)?;
    let same = bit_identical(&got, &twin);
    Ok((got, same))
}

/// The first order in `1 ..= scan` at which the GPU under `arith` differs from the CPU's
/// IEEE loop on `class`'s matrices (each GPU run also checked against its twin: `false` in
/// the second place when one was not).
fn first_difference(
    s: &Session,
    class: MatrixClass,
    arith: Arith2005,
    scan: usize,
    seed: u64,
) -> Result<(Option<usize>, bool), LuError> {
    let mut twin_ok = true;
    for n in 1..=scan {
        let a = class.matrix(n, seed + n as u64);
        let mut c = a.clone();
        lu_f32(&mut c, n)?;
        let (g, same) = run_one(s, &a, n, arith)?;
        twin_ok &= same;
        if !bit_identical(&g, &c) {
            return Ok((Some(n), twin_ok));
        }
    }
    Ok((None, twin_ok))
}

/// One cell at order `n`.
fn cell(
    s: &Session,
    cfg: &Config,
    member: Member,
    class: MatrixClass,
    n: u32,
) -> Result<Cell, LuError> {
    let nn = n as usize;
    let seed = cfg.sec51.seed;
    let a = class.matrix(nn, seed + nn as u64);
    let mut ieee = a.clone();
    lu_f32(&mut ieee, nn)?;
    let mut twin = true;
    let mut dist = vec![];
    for m in std::iter::once(Arith2005::ALL.with(member)).chain(Arith2005::ablation(member)) {
        let (g, same) = run_one(s, &a, nn, m)?;
        twin &= same;
        dist.push(Distance::of(&g, &ieee));
    }
    let scan = cfg.sec51_2005.family_scan;
    let (first_diff, ok) = first_difference(s, class, Arith2005::ALL.with(member), scan, seed)?;
    let max_l = (0..nn)
        .flat_map(|j| (0..j).map(move |k| (j, k)))
        .map(|(j, k)| (ieee[j * nn + k] as f64).abs())
        .fold(0.0, f64::max);
    Ok(Cell {
        member,
        class,
        n,
        twin: twin && ok,
        all: dist[0],
        ablation: [dist[1], dist[2], dist[3]],
        first_diff,
        max_l,
    })
}

pub(super) fn run(s: &Session, cfg: &Config) -> Result<Vec<Cell>, RunError> {
    let n = *cfg.sec51_2005.family_n.pick(s.mode);
    let scan = cfg.sec51_2005.family_scan;
    let mut t = s.table(
        "sec5_1_family",
        "§5.1 under the 2005 model, per model member and matrix class — do GPU and CPU differ (4a), and is division the main cause (4b)?",
        columns(),
        &cfg.sec51_2005,
    )?;
    t.caption(format!(
        "Members of the model family (src/papers/lu/arith2005_member.rs; 'fitted' is the model of Table 5's 'emulated 2005' columns): '± by effective op' picks the ± rule by the operands' signs (one adder with a negate modifier); '÷ = 1/b ×₀₅' forms the quotient with the model's own multiply; '× chopped' chops products toward zero (pre-Fermi MAD's truncated product, unfused); '1/b chopped' a reciprocal within 1 ULP; 'MAD fused' computes the update a − u·l as one MAD, the exact value rounded once by the ± rule (the Cg fp30/fp40 profiles' MAD; under it × alone leaves the update IEEE, a MAD having no rounded product). Classes: src/papers/lu/cpu.rs (`MatrixClass`); max |l|: the largest multiplier. At N = {n}, {} + copy under the whole model and each operation alone; every GPU factorization (and every one of the scan) checked bit for bit against its CPU twin. Distances from the CPU's IEEE f32 loop: normwise / mean ULP per entry. 4a: the whole model's factors differ from that loop; 4b: ÷ alone moves them further than ± alone and × alone by both distances. 'first N ≠': the first order in 1 … {scan} at which they differ (the paper: equal up to N = {}).",
        ABLATION_VARIANT, cfg.sec51.paper_equal_up_to
    ));
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut cells = vec![];
    for member in Member::FAMILY {
        for class in MatrixClass::ALL {
            let key = format!("{} | {}", member.name(), class.name());
            let row = t
                .row(&key)
                .text("member", member.name())
                .text("class", class.name())
                .num("N", n as f64);
            let c = match cell(s, cfg, member, class, n) {
                Ok(c) => c,
                Err(e) => {
                    t.push(row.fail(format!("under the model: {e}")))?;
                    continue;
                }
            };
            let [d, a, m] = &c.ablation;
            let row = row
                .num("max |l|", c.max_l)
                .text("GPU = CPU twin (bits)", yes_no(c.twin))
                .text("4a: differ", yes_no(c.differ()))
                .text(
                    "first N ≠",
                    c.first_diff
                        .map_or(format!("none ≤ {scan}"), |k| k.to_string()),
                )
                .num("all (mean ULP)", c.all.mean_ulps)
                .num("÷ alone", d.mean_ulps)
                .num("± alone", a.mean_ulps)
                .num("× alone", m.mean_ulps)
                .num("÷ alone (normwise)", d.normwise)
                .num("± alone (normwise)", a.normwise)
                .num("× alone (normwise)", m.normwise)
                .text("4b: ÷ leads", yes_no(c.div_leads()));
            let row = if c.twin {
                row.verify(0.0, 0.0)
            } else {
                row.fail("a GPU factorization differs from its CPU twin's bits")
            };
            t.push(row)?;
            cells.push(c);
        }
    }
    t.finish()?;
    Ok(cells)
}

fn columns() -> Vec<Column> {
    vec![
        Column::key("member").text(),
        Column::key("class").text(),
        Column::ours("N").int(),
        Column::ours("max |l|").fixed(3),
        Column::ours("GPU = CPU twin (bits)").text(),
        Column::ours("4a: differ").text(),
        Column::ours("first N ≠").text(),
        Column::ours("all (mean ULP)").fixed(3),
        Column::ours("÷ alone").fixed(3),
        Column::ours("± alone").fixed(3),
        Column::ours("× alone").fixed(3),
        Column::ours("÷ alone (normwise)").sci(2),
        Column::ours("± alone (normwise)").sci(2),
        Column::ours("× alone (normwise)").sci(2),
        Column::ours("4b: ÷ leads").text(),
    ]
}
