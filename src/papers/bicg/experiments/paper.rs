//! The paper as the runner runs it: its tables, what they need, and the notes on the solver and
//! the problem.

use super::config::Config;
use super::solve::warm_up;
use super::{
    anchor, biofet, fig4, fig6, legacy, periter, precision, precision_charged, spmv, table2,
};
use crate::gl::Need;
use crate::papers::bicg::cpu::BicgParams;
use crate::runner::{RunError, Session, TableSpec};

/// Runs every experiment of the paper.
/// What the paper's GL Bi-CG needs: compute shaders and fp64 (the paper ran double
/// precision throughout, §V.2).
pub const GL_FP64: &[Need] = &[Need::Compute, Need::Fp64];

/// The tables and what they need: every GL solve is the paper's fp64 compute Bi-CG, except
/// the precision table's fp32 build (compute only; its fp64 row is skipped without fp64);
/// today's anchor (faer on the CPU) runs anywhere, and so do the `legacy` table's fragment
/// rows (its compute rows need compute shaders).
pub const TABLES: &[TableSpec] = &[
    TableSpec::needs("fig4", GL_FP64),
    TableSpec::needs("periter", GL_FP64),
    TableSpec::needs("spmv", GL_FP64),
    TableSpec::needs("table2", GL_FP64),
    TableSpec::needs("table2_calls", GL_FP64),
    TableSpec::needs("fig6", GL_FP64),
    TableSpec::needs("precision", &[Need::Compute]).rows_need(&[Need::Fp64]),
    TableSpec::needs("precision_charged", GL_FP64),
    TableSpec::any("anchor"),
    TableSpec::any("legacy").rows_need(&[Need::Compute]),
    TableSpec::needs("biofet", GL_FP64),
];

pub struct Bicg;

impl crate::runner::Paper for Bicg {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        let (params, opts) = (cfg.solver.params(), cfg.solver.gpu_options());
        notes(s, &params);
        // Compile every kernel once, outside any timed region.
        if s.lacks(GL_FP64).is_none() {
            warm_up(s, opts)?;
        }
        type Run = fn(&Session, &Config) -> Result<(), RunError>;
        let tables: [(&str, Run); 10] = [
            ("fig4", fig4::run),
            ("periter", periter::run),
            ("spmv", spmv::run),
            ("table2", table2::run),
            ("fig6", fig6::run),
            ("precision", precision::run),
            ("precision_charged", precision_charged::run),
            ("anchor", anchor::run),
            ("legacy", legacy::run),
            ("biofet", biofet::run),
        ];
        for (id, run) in tables {
            if s.runs(id) {
                run(s, cfg)?;
            }
        }
        Ok(())
    }
}

fn notes(s: &Session, params: &BicgParams) {
    s.note(format!(
        "Solver: NR linbcg with the diagonal preconditioner and itol = 4 (the max-norm estimate of \
         the relative error of x), tol = {:.0e}, cap {} iterations, x₀ = 0. The paper states no \
         tolerance; {:.0e} lies below what fp32 (ε ≈ {:.0e}) can resolve in x, so the precision \
         comparison asks the paper's question.",
        params.tol,
        params.max_iter,
        params.tol,
        f32::EPSILON
    ));
    s.note(
        "Problem: the 7-point Laplace operator (ε = 1, no charge) on nx×ny×nz nodes, node \
         x + nx·(y + ny·z); Fig. 3's electrodes as Dirichlet nodes (0 V on z = 0, 0.5 V on the \
         centred half-width square of z = nz−1, 0.25 V on x = 0; the paper shows but does not \
         specify the geometry); the other faces insulating. Dirichlet rows are identity rows \
         and their values moved to the right-hand side, so A is symmetric and Aᵀ reuses A.",
    );
    s.note(
        "Fig. 5 (the same GPU behind an i7 and a Core 2 Duo) is skipped: it needs two host \
         machines, and on llvmpipe the 'GPU' is the host CPU itself, so the question it asks \
         (does the host CPU matter?) has no meaning here.",
    );
}
