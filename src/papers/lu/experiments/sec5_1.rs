//! §5.1: are I1–I4 bit-identical, how far are the GPU factors from the CPU's (the same loop in
//! f32) as N grows, and the first N at which they differ.

use std::collections::{BTreeMap, HashMap};

use crate::gl::PingPongMethod;
use crate::report::Column;
use crate::runner::{RunError, Session};
use crate::util::max_rel_error;

use super::super::cpu::{diag_dominant, lu_f32};
use super::super::fragment::{FragmentLu, Params};
use super::super::{LuError, Variant};
use super::{Config, Measured, Reference, bit_identical, configs, form_key, key, labelled_configs};

pub(super) fn run(
    s: &Session,
    cfg: &Config,
    sizes: &[u32],
    refs: &BTreeMap<u32, Reference>,
    measured: &HashMap<String, Measured>,
) -> Result<Option<usize>, RunError> {
    let mut t = s.table(
        "sec5_1",
        "§5.1 — are I1–I4 bit-identical, and how far are GPU factors from the CPU's (same loop, f32) as N grows",
        vec![
            Column::key("N").int(),
            Column::ours("8 configs bit-identical").text(),
            Column::ours("labelled forms bit-identical").text(),
            Column::ours("GPU = CPU f32 (bits)").text(),
            Column::ours("GPU vs CPU f32").sci(2),
            Column::ours("GPU vs f64").sci(2),
            Column::ours("CPU f32 vs f64").sci(2),
        ],
        &cfg.sec51,
    )?;
    t.caption("Differences: max |x − y| / max |y| over the packed factors. GPU = I1 + copy (every configuration is compared with it bit for bit: the paper's eight, and the labelled forms \"copy (rendered only)\" and \"switch (carry)\" at the orders table4 ran them); verified within table4's tolerance.");
    for &n in sizes {
        let Some(base) = measured.get(&key(n, Variant::I1, PingPongMethod::Copy)) else {
            continue;
        };
        let r = &refs[&n];
        let identical = configs().iter().all(|&(v, m)| {
            measured
                .get(&key(n, v, m))
                .is_some_and(|x| bit_identical(&x.factors, &base.factors))
        });
        // The labelled alternative forms (issue 38), where table4 ran them.
        let labelled: Vec<bool> = labelled_configs()
            .into_iter()
            .filter_map(|f| measured.get(&form_key(n, f)))
            .map(|x| bit_identical(&x.factors, &base.factors))
            .collect();
        let same_cpu = bit_identical(&base.factors, &r.cpu_f32);
        let cpu64: Vec<f64> = r.cpu_f32.iter().map(|&x| x as f64).collect();
        let e_gpu = max_rel_error(&base.factors, &r.f64);
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        t.push(
            t.row(format!("N={n}"))
                .num("N", n as f64)
                .text("8 configs bit-identical", yes_no(identical))
                .text(
                    "labelled forms bit-identical",
                    if labelled.is_empty() {
                        "not run"
                    } else {
                        yes_no(labelled.iter().all(|&b| b))
                    },
                )
                .text("GPU = CPU f32 (bits)", yes_no(same_cpu))
                .num("GPU vs CPU f32", max_rel_error(&base.factors, &cpu64))
                .num("GPU vs f64", e_gpu)
                .num("CPU f32 vs f64", max_rel_error(&r.cpu_f32, &r.f64))
                .verify(e_gpu, r.tol),
        )?;
    }
    t.finish()?;
    let first = first_difference(s, cfg).map_err(RunError::algorithm)?;
    let (scan, paper) = (cfg.sec51.scan, cfg.sec51.paper_equal_up_to);
    match first {
        Some(n) => s.note(format!("§5.1: GPU (I1 switch) and CPU (the same loop in f32, no FMA) factors first differ at N = {n} (scanned N = 1 … {scan}; the paper: never equal for N > {paper}).")),
        None => s.note(format!("§5.1: GPU (I1 switch) and CPU (the same loop in f32, no FMA) factors are bit-identical for every N = 1 … {scan} scanned (the paper: never equal for N > {paper}).")),
    }
    Ok(first)
}

/// The first N in `1 ..= scan` at which GPU (I1 switch) and CPU f32 factors differ.
fn first_difference(s: &Session, cfg: &Config) -> Result<Option<usize>, LuError> {
    for n in 1..=cfg.sec51.scan {
        let a = diag_dominant(n, cfg.sec51.seed + n as u64);
        let mut c = a.clone();
        lu_f32(&mut c, n)?;
        let p = Params::new(Variant::I1, PingPongMethod::Switch);
        let mut lu = FragmentLu::new(&s.gl, &a, n, p)?;
        lu.run()?;
        if !bit_identical(&lu.factors()?, &c) {
            return Ok(Some(n));
        }
    }
    Ok(None)
}
