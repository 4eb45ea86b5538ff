//! Tuning of the variants beyond the paper (issue 13's "tuning, not hand-picking"): before
//! Table 1, the blocked compute kernel sweeps its register block (`tm` rows × `tn` vec4
//! columns per invocation), work-group shape and shared-memory k tile (`kwg`, single or
//! double-buffered; CLBlast's parameters), and the multipass fragment kernel its k
//! per pass, each sweep's candidates timed interleaved in rounds on one N×N product of
//! `[table1.tune]` ([`crate::runner::tuning::Tuner::pick_interleaved`], `glFinish` around
//! the dispatch loop as in Table 1) and verified against the
//! f64 product with Table 1's tolerance. The fastest verified candidate of each, judged on
//! the rounds' paired ratios (else the least median of the tied) runs in
//! Table 1 and `table1_kernels`; every candidate is a row of the `tuning` table
//! ([`crate::runner::tuning`]). The paper's kernel keeps the paper's 32×32 tiles.

use super::config::{Table1Config, TuneConfig};
use super::kernels::KERNELS;
use std::cell::RefCell;
use std::rc::Rc;

use crate::papers::matmul::cpu;
use crate::papers::matmul::gpu::{Blocked, BlockedParams};
use crate::papers::matmul::matrix::Matrix;
use crate::papers::matmul::multipass::Multipass;
use crate::runner::tuning::Candidate;
use crate::runner::{RunError, Session};

/// The parameters Table 1 runs the variants with.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Tuned {
    pub blocked: BlockedParams,
    /// k per pass as requested (see [`Multipass::chunk`]).
    pub k_chunk: u32,
}

pub fn run(s: &Session, cfg: &Table1Config) -> Result<Tuned, RunError> {
    let tune = &cfg.tune;
    let n = *tune.n.pick(s.mode) as usize;
    let plan = tune.repeat.plan();
    let a = Matrix::random(n, n, cfg.seed ^ 0x7u64.rotate_right(3));
    let b = Matrix::random(n, n, cfg.seed ^ 0xbu64.rotate_right(3));
    let reference = cpu::reference_f64(&a, &b);
    let err = |m: &Matrix| crate::stats::max_rel_error(&m.data, &reference);
    let input = format!("N = {n}");
    let alg = RunError::algorithm;
    let mut tuner = s.tuner(&(tune, cfg.seed, cfg.tolerance))?;
    tuner.caption(format!(
        "{}: every register block tm ∈ {:?} (rows) × tn ∈ {:?} (vec4 columns) with every \
             work group {:?} (x × y invocations), shared-memory k tile kwg ∈ {:?} (0: none), \
             single or double-buffered (db ∈ {:?}, with tiles only), and A and B read from {:?} \
             (texture: texelFetch from rectangle textures), then the CPU-shaped candidates \
             named one by one ({}), {} candidates in all (those whose tiles exceed GL's \
             guaranteed {} bytes of shared memory left out), timed at N = {n}. {}",
        KERNELS[2],
        tune.tm,
        tune.tn,
        tune.wg
            .iter()
            .map(|w| format!("{}×{}", w[0], w[1]))
            .collect::<Vec<_>>(),
        tune.kwg,
        tune.db,
        tune.reads.iter().map(|r| r.name()).collect::<Vec<_>>(),
        extra_labels(tune),
        tune.blocked_candidates().len(),
        crate::papers::matmul::gpu::MIN_SHARED_BYTES,
        tune.why_n
    ));
    let blocked = tuner.pick_interleaved(
        s,
        KERNELS[2],
        &input,
        &tune.blocked_candidates(),
        cfg.tolerance,
        plan,
        |p| {
            let k = Rc::new(Blocked::new(&s.gl, *p).map_err(alg)?);
            let ops = Rc::new(k.upload(&a, &b).map_err(alg)?);
            let (k2, ops2) = (k.clone(), ops.clone());
            Ok(Candidate {
                run: Box::new(move || k2.run(&ops2).map_err(alg)),
                check: Box::new(move || Ok(err(&k.read(&ops).map_err(alg)?))),
                work: p.work(n, n, n),
            })
        },
    )?;
    tuner.caption(format!(
        "{}: k per pass ∈ {:?} (rounded up to a multiple of 4), timed at N = {n}.",
        KERNELS[3], tune.k_chunk
    ));
    let k_chunk = tuner.pick_interleaved(
        s,
        KERNELS[3],
        &input,
        &tune.k_chunk_candidates(),
        cfg.tolerance,
        plan,
        |&c| {
            let k = Rc::new(Multipass::new(&s.gl, c).map_err(alg)?);
            let ops = Rc::new(RefCell::new(k.upload(&a, &b).map_err(alg)?));
            let (k2, ops2) = (k.clone(), ops.clone());
            Ok(Candidate {
                run: Box::new(move || k2.run(&mut ops2.borrow_mut()).map(drop).map_err(alg)),
                check: Box::new(move || Ok(err(&k.read(&ops.borrow()).map_err(alg)?))),
                work: Multipass::work(c, n, n, n),
            })
        },
    )?;
    tuner.rounds_caption("Each sweep's", "one product", &tune.repeat);
    tuner.finish()?;
    let tuned = Tuned { blocked, k_chunk };
    tuned_note(s, n, tuned);
    Ok(tuned)
}

/// The candidates named one by one (`extra`), for the caption: `none` when there are none.
fn extra_labels(tune: &TuneConfig) -> String {
    let v: Vec<String> = tune.extra.iter().map(|p| p.label()).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join("; ")
    }
}

/// What was picked at size `n`, which Table 1 runs with.
fn tuned_note(s: &Session, n: usize, t: Tuned) {
    s.note(format!(
        "Tuned on this device at N = {n} (the `tuning` table): {} with {}; {} with {} k per \
         pass. Table 1 runs both with these.",
        KERNELS[2],
        t.blocked.describe(),
        KERNELS[3],
        Multipass::chunk(t.k_chunk)
    ));
}
