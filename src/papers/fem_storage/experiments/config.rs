//! The typed keys of `experiments/fem-storage.toml`.

use serde::{Deserialize, Serialize};

use crate::gl::Reads;
use crate::papers::fem_storage::assembly::Problem;
use crate::papers::fem_storage::mesh::Grid;
use crate::runner::{Mode, PerMode, Repeat, RunError, Sizes};

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub problem: Problem,
    pub table2: Table2Config,
    pub table4: Table4Config,
    pub perf: PerfConfig,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table2Config {
    pub grids_2d: Sizes,
    pub grids_3d: Sizes,
    pub dense_alloc_max: usize,
    pub skyline_alloc_max: usize,
    pub paper: Vec<PaperTable2Row>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperTable2Row {
    pub grid: usize,
    pub dense: f64,
    pub proposed: f64,
    pub with_indices: f64,
    pub skyline: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table4Config {
    pub max_aspect: f64,
    pub dims: Vec<usize>,
    pub sizes: Sizes,
    pub direct_max_3d: usize,
    pub tol: f64,
    pub max_iterations: usize,
    /// Wall-time budget of each GPU Jacobi solve, one per size.
    pub jacobi_budget_s: PerMode<Vec<f64>>,
    pub direct: PerMode<Repeat>,
    pub paper_gpu_s: Vec<f64>,
    pub paper_matlab_s: Vec<f64>,
    pub c1060_bandwidth_gbs: f64,
    /// How the sweep reads its inputs: `texture` (buffer textures, as Fig. 5 reads them with
    /// `tex1Dfetch`) or `ssbo`.
    #[serde(default = "paper_reads")]
    pub reads: Reads,
}

/// Fig. 5 reads every input with `tex1Dfetch`.
fn paper_reads() -> Reads {
    Reads::Texture
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerfConfig {
    pub unknowns: Sizes,
    pub dim: usize,
    pub sweeps: usize,
    pub repeat: PerMode<Repeat>,
}

impl PerfConfig {
    /// The grids of the `perf` and `legacy` tables in `mode`: for each size, the grid of
    /// `dim` dimensions whose unknowns are nearest it (aspect at most 1.1).
    pub fn grids(&self, mode: Mode) -> Result<Vec<Grid>, RunError> {
        self.unknowns
            .pick(mode)
            .iter()
            .map(|&size| Grid::nearest(self.dim, size as usize, 1.1).map_err(RunError::algorithm))
            .collect()
    }
}
