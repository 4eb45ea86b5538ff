//! What one row of Table 4 found, for the notes: from a measured row or read back from a
//! reused one.

use crate::papers::fem_storage::experiments::config::Table4Config;
use crate::papers::fem_storage::jacobi::{JacobiInfo, Stop};
use crate::papers::fem_storage::mesh::Grid;
use crate::report::Row;
use crate::runner::TableWriter;
use crate::stats::Estimate;

/// What one row found, for the notes.
pub(super) struct Finding {
    pub(super) text: String,
    /// (paper size, paper GPU s, iterations needed, C1060 µs per sweep).
    pub(super) feasibility: Option<(usize, f64, f64, f64)>,
    /// (mesh, iterations, Jacobi residual) of a run that passed the stopping test.
    pub(super) converged: Option<(String, usize, f64)>,
    /// F5 on the paper's (2D) rows: (paper size index, mesh, GPU seconds to the tolerance —
    /// measured where converged, else the estimate —, the direct solve's seconds).
    pub(super) versus: Option<(usize, String, f64, Estimate)>,
}

/// The finding of a reused row of the paper size `size` (index `si`) on `grid` (`dim`D),
/// from the row's cells as [`solve_row`](super::solve::solve_row) wrote them.
pub(super) fn finding_of(
    t: &TableWriter,
    row: &Row,
    c: &Table4Config,
    (si, size, dim): (usize, usize, usize),
    grid: &Grid,
) -> Option<Finding> {
    let num = |col: &str| t.value(row, col);
    let stopped = t.text(row, "stopped by")?;
    let stop = [Stop::Converged, Stop::IterationCap, Stop::TimeBudget]
        .into_iter()
        .find(|s| s.describe() == stopped)?;
    let info = JacobiInfo {
        iterations: num("Jacobi iterations")? as usize,
        rel_change: num("final rel. change")?,
        stop,
        seconds: num("GPU total")?,
        history: vec![],
    };
    let (jacobi_res, rho) = (num("Jacobi residual")?, num("ρ exact")?);
    let fitted = num("ρ fitted");
    let needed = num(&format!("iterations to {:.0e} (estimate)", c.tol));
    let bound = num("C1060 bound µs/iter")?;
    let chol = row.values[t.table().col("Cholesky")].estimate().cloned();
    let on_paper_row = dim == 2 || c.dims.len() == 1;
    Some(Finding {
        text: describe(grid, dim, &info, jacobi_res, rho, fitted, needed, c.tol),
        feasibility: needed
            .zip(c.paper_gpu_s.get(si).copied())
            .map(|(k, p)| (size, p, k, bound)),
        converged: (stop == Stop::Converged).then(|| (grid.label(), info.iterations, jacobi_res)),
        versus: versus(si, grid, &info, needed, chol, on_paper_row),
    })
}

/// F5's numbers of a paper (2D) row: the GPU's seconds to the tolerance (the solve's own
/// where it converged, else its seconds per iteration × the iterations `needed`, an
/// estimate) against the direct solve's.
pub(super) fn versus(
    si: usize,
    grid: &Grid,
    info: &JacobiInfo,
    needed: Option<f64>,
    chol: Option<Estimate>,
    on_paper_row: bool,
) -> Option<(usize, String, f64, Estimate)> {
    if !on_paper_row || info.iterations == 0 {
        return None;
    }
    let per_iteration = info.seconds / info.iterations as f64;
    let gpu = match info.stop {
        Stop::Converged => info.seconds,
        _ => needed? * per_iteration,
    };
    Some((si, grid.label(), gpu, chol?))
}

#[allow(clippy::too_many_arguments)]
pub(super) fn describe(
    grid: &Grid,
    dim: usize,
    info: &JacobiInfo,
    jacobi_res: f64,
    rho: f64,
    fitted: Option<f64>,
    needed: Option<f64>,
    tol: f64,
) -> String {
    let mut text = format!(
        "{} ({} unknowns, {}D): {} Jacobi iterations in {:.1} s ({:.3} ms each, stopped by {}), \
         relative change {:.2e}, true residual {:.2e}",
        grid.label(),
        grid.nodes(),
        dim,
        info.iterations,
        info.seconds,
        info.ms_per_iteration(),
        info.stop.describe(),
        info.rel_change,
        jacobi_res
    );
    if let (false, Some(k)) = (info.stop == Stop::Converged, needed) {
        text.push_str(&format!(
            "; with the exact Jacobi spectral radius ρ = {rho:.7} (fitted over the run's second \
             half: {}) the estimate is {k:.2e} iterations for {tol:.0e} (≈ {:.2e} s here), \
             assuming the change keeps shrinking by ρ per iteration",
            fitted.map_or("—".to_string(), |r| format!("{r:.7}")),
            k * info.ms_per_iteration() / 1e3
        ));
    }
    text
}
