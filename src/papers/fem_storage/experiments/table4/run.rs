//! Table 4's table: its columns, one row per paper size and dimension, its caption.

use super::finding::finding_of;
use super::notes;
use super::solve::solve_row;
use crate::gl::Reads;
use crate::papers::fem_storage::experiments::config::{Config, Table4Config};
use crate::papers::fem_storage::mesh::Grid;
use crate::report::{Column, Fmt, with_bound_columns};
use crate::runner::{RunError, Session};

fn cols(c: &Table4Config) -> Vec<Column> {
    with_bound_columns(vec![
        Column::key("paper size").int(),
        Column::key("mesh").text(),
        Column::key("unknowns").int(),
        Column::ours("Jacobi iterations").int(),
        Column::ours("stopped by").text(),
        Column::ours("final rel. change").sci(2),
        Column::ours("Jacobi residual").sci(2),
        Column::ours("GPU ms/iter").fixed(3),
        Column::ours("GPU total").unit("s").fixed(2),
        Column::paper("paper GPU").unit("s").fixed(6),
        Column::ours("Cholesky").unit("s").fixed(3),
        Column::ours("Cholesky residual").sci(2),
        Column::paper("paper MATLAB A\\b").unit("s").fixed(6),
        Column::beyond("ρ exact").fixed(7),
        Column::beyond("ρ fitted").fixed(7),
        Column::beyond(&format!("iterations to {:.0e} (estimate)", c.tol)).sci(2),
        Column::beyond(&format!("time to {:.0e} here (estimate)", c.tol))
            .unit("s")
            .sci(2),
        Column::beyond("paper-implied µs/iter").fixed(3),
        Column::beyond("C1060 bound µs/iter").fixed(1),
        Column::beyond("sweeps in paper time at C1060 peak").fmt(Fmt::Sig(4)),
        Column::beyond(&format!("C1060 time to {:.0e} (estimate)", c.tol))
            .unit("s")
            .sci(2),
    ])
}

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let c = &cfg.table4;
    let sizes = c.sizes.pick(s.mode);
    let budgets = c.jacobi_budget_s.pick(s.mode);
    let mut t = s.table(
        "table4",
        "Table 4 — GPU Jacobi (GL compute, paper's layout) vs direct sparse Cholesky",
        cols(c),
        c,
    )?;
    let mut rows = Vec::new();
    for (si, &size) in sizes.iter().enumerate() {
        for &dim in &c.dims {
            rows.push((si, size as usize, dim));
        }
    }
    t.expect_rows(rows.len());
    let mut findings = Vec::new();
    for (si, size, dim) in rows {
        s.check_interrupt()?;
        let grid = Grid::nearest(dim, size, c.max_aspect).map_err(RunError::algorithm)?;
        let key = format!("{size} {dim}D {}", grid.label());
        // A reused row's finding (for the notes) is read back from its cells (a row that
        // lacks one is measured again).
        if let Some(row) = t.reuse(&key)?
            && let Some(f) = finding_of(&t, &row, c, (si, size, dim), &grid)
        {
            findings.push(f);
            continue;
        }
        t.start(&key);
        let row = t
            .row(&key)
            .num("paper size", size as f64)
            .text("mesh", grid.label())
            .num("unknowns", grid.nodes() as f64);
        match solve_row(s, cfg, si, dim, grid, budgets[si], row.clone()) {
            Ok((r, mut f)) => {
                t.push(r)?;
                // F5 reads the direct solve's time as the table holds it (its interval with
                // the row's between-run term), as a reused row's finding does.
                if let Some(v) = f.versus.as_mut() {
                    let col = t.table().col("Cholesky");
                    let pushed = t.table().rows.iter().find(|r| r.key == key);
                    if let Some(e) = pushed.and_then(|r| r.values[col].estimate()) {
                        v.3 = e.clone();
                    }
                }
                findings.push(f);
            }
            Err(e) => t.push(row.fail(e.to_string()))?,
        }
    }
    t.caption(caption(c));
    t.finish()?;
    notes::notes(s, c, &findings);
    Ok(())
}

/// Table 4's caption: the solver, the stopping test, the (estimate) columns and the
/// direct solve.
fn caption(c: &Table4Config) -> String {
    format!(
        "Jacobi: GL compute shader on the paper's flattened layout (f32, as the paper's float \
         arrays; inputs read from {reads}{as_paper}), x⁽⁰⁾ = 0, stopping test \
         ‖Δx‖/‖x‖ ≤ {tol:.0e} reduced on the GPU and read back every iteration; each solve is \
         capped by a wall-time budget. The (estimate) columns \
         extrapolate the iterations to {tol:.0e} from the last relative change, assuming it \
         keeps shrinking by exactly the spectral radius ρ = (1 + 3cos(π/(nx−1)))/4 of the \
         Jacobi matrix per iteration (the contraction fitted over the run's second half is \
         shown beside it: still faster, the run has not reached the asymptotic rate; an f32 \
         iterate may also stall before, see the notes). Residuals are ‖b − Ax‖/‖b‖ in f64. \
         Cholesky: faer's sparse Cholesky (symbolic + numeric + solve, f64, median of runs) in \
         the role of MATLAB's A\\b. Paper times are shown on the 2D rows (the paper does not \
         say which mesh). paper-implied µs/iter = paper GPU time / iterations to {tol:.0e}; \
         C1060 bound = compulsory bytes of one sweep / {bw} GB/s. Verified: one GPU sweep vs \
         the CPU sweep from the same iterate.",
        tol = c.tol,
        bw = c.c1060_bandwidth_gbs,
        reads = c.reads.describe(),
        as_paper = if c.reads == Reads::Texture {
            " (buffer textures: Fig. 5's tex1Dfetch)"
        } else {
            ", not Fig. 5's tex1Dfetch"
        },
    )
}
