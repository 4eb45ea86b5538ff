//! Today's anchor (beyond the paper): the same symmetric Poisson matrices solved directly
//! by `faer`'s sparse Cholesky ([`crate::papers::bicg::anchor`]), beside the CPU Bi-CG.

use super::config::Config;
use super::solve::pending_mesh;
use super::solve::{cpu_solve, time_cpu};
use crate::gl::TimingPlan;
use crate::papers::bicg::anchor::cholesky_solve;
use crate::papers::bicg::cpu;
use crate::papers::bicg::cpu::Stop;
use crate::papers::bicg::poisson::fig4_problem;
use crate::report::Column;
use crate::runner::{RunError, Session};
use crate::stats::max_rel_error;

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let params = &cfg.solver.params();
    let meshes = cfg.anchor.meshes.pick(s.mode);
    let mut t = s.table(
        "anchor",
        "Today's anchor — faer sparse Cholesky on the same matrices",
        vec![
            Column::key("Mesh").text(),
            Column::beyond("faer LLᵀ time").unit("ms").fixed(1),
            Column::beyond("faer true residual").sci(1),
            Column::ours("CPU Bi-CG time").unit("ms").fixed(1),
            Column::ours("Bi-CG vs faer").sci(2),
        ],
        &(&cfg.anchor, params),
    )?;
    t.expect_rows(meshes.len());
    t.caption(
        "faer: symbolic + numeric sparse Cholesky + solve, one run. Verified: the CPU Bi-CG \
         solution against the direct one (max-norm relative difference ≤ 1000·tol: NR's \
         estimate bounds the error only up to the conditioning).",
    );
    for spec in meshes {
        let Some((mesh, key)) = pending_mesh(s, &mut t, spec)? else {
            continue;
        };
        t.start(&key);
        let sys = fig4_problem(&mesh);
        let faer = time_cpu(TimingPlan::once(), || {
            cholesky_solve(&sys.a, &sys.b).map_err(RunError::algorithm)
        })?;
        let bicg = time_cpu(TimingPlan::once(), || cpu_solve(&sys, params))?;
        let (xf, (xb, info)) = (faer.last(), bicg.last());
        let (tf, tb) = (faer.timing().median_ms, bicg.timing().median_ms);
        let err = max_rel_error(xb, xf);
        let row = t
            .row(&key)
            .text("Mesh", &key)
            .num("faer LLᵀ time", tf)
            .num("faer true residual", cpu::true_residual(&sys.a, &sys.b, xf))
            .num("CPU Bi-CG time", tb)
            .num("Bi-CG vs faer", err)
            .runs(1);
        t.push(if info.stop == Stop::Converged {
            row.verify(err, 1000.0 * params.tol)
        } else {
            row.fail(info.stop.describe())
        })?;
    }
    t.finish()?;
    Ok(())
}
