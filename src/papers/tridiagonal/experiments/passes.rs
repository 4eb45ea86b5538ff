//! Where the fragment CR's time goes: `glFinish` around each pass group (pad, reduction,
//! gather, fill, collect), the breakdown of the run whose total time is the median.

use serde::{Deserialize, Serialize};

use super::grid::GridData;
use super::keys::grids;
use super::measure::{DIRECT_TOL, alg};
use crate::gl::PingPongMethod;
use crate::gl::measure::once_gpu;
use crate::gl::timing::repeat as repeat_runs;
use crate::papers::tridiagonal::batch::BatchSolver;
use crate::papers::tridiagonal::fragment_cr::{CrParams, FragmentCr};
use crate::report::Column;
use crate::runner::{Repeat, RunError, Session, Sizes};
use crate::stats::max_rel_error;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PassesConfig {
    #[serde(deserialize_with = "grids")]
    pub grids: Sizes,
    repeat: Repeat,
}

const PARTS: [&str; 5] = ["pad", "reduction", "gather", "fill", "collect"];

pub(super) fn run(s: &Session, c: &PassesConfig) -> Result<(), RunError> {
    let gl = &s.gl;
    let mut columns = vec![Column::key("grid"), Column::key("method")];
    columns.extend(PARTS.iter().map(|p| Column::ours(p).unit("ms").fixed(2)));
    columns.push(Column::ours("dominant").text());
    let mut t = s.table(
        "passes",
        "Where the fragment CR's time goes (glFinish around each pass group)",
        columns,
        c,
    )?;
    t.caption(
        "Each pass group is bracketed by glFinish; the row shows the groups of the run whose \
         total time is the median of the repetitions.",
    );
    t.caption(format!("Repetitions: {}.", c.repeat.rule("run", "method")));
    for &g in c.grids.pick(s.mode) {
        let (n, batch) = (g as usize - 1, g as usize);
        let mut data = None;
        for m in PingPongMethod::ALL {
            s.check_interrupt()?;
            let key = format!("{g}×{g} {m}");
            if t.reuse(&key)?.is_some() {
                continue;
            }
            t.start(&key);
            let GridData { tex, want, .. } =
                GridData::get(&mut data, gl, (n, batch), 1.0, 9000 + g as u64)?;
            let mut p = CrParams::new(m);
            p.profile = true;
            let mut cr = FragmentCr::with_params(gl, n, batch, p).map_err(alg)?;
            let x = cr.solve(tex).map_err(alg)?.read()?;
            let err = max_rel_error(&x, want);
            cr.set_check_finite(false);
            let samples = repeat_runs(c.repeat.plan(), || {
                let ((), ms) = once_gpu(gl, || cr.solve(tex).map(drop))?;
                let p = cr.profile();
                let parts = [p.pad, p.reduce, p.gather, p.fill, p.collect];
                Ok::<_, crate::papers::tridiagonal::error::TridiagonalError>((
                    parts.map(|d| d.as_secs_f64() * 1e3),
                    ms,
                ))
            })
            .map_err(alg)?;
            let vals = *samples.median();
            let total: f64 = vals.iter().sum();
            let imax = (0..vals.len())
                .max_by(|&a, &b| vals[a].total_cmp(&vals[b]))
                .unwrap_or(0);
            let mut row = t
                .row(&key)
                .text("grid", format!("{g}×{g}"))
                .text("method", m.name());
            for (part, v) in PARTS.iter().zip(vals) {
                row = row.num(part, v);
            }
            let dominant = format!(
                "{} ({:.0}% of {:.1} ms)",
                PARTS[imax],
                100.0 * vals[imax] / total,
                total
            );
            t.push(
                row.text("dominant", dominant)
                    .runs(samples.runs.len())
                    .verify(err, DIRECT_TOL),
            )?;
        }
    }
    t.finish()?;
    Ok(())
}
