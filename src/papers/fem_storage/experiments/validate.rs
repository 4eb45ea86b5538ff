//! Every key of `experiments/fem-storage.toml` checked, and what each size needs against
//! this machine and device, before any work starts.

use super::config::{Config, PerfConfig, Table4Config};
use crate::gl::DeviceInfo;
use crate::papers::fem_storage::mesh::Grid;
use crate::runner::Mode;
use crate::runner::config::{at_least, positive};

impl Config {
    /// Refuses values no run can use, naming the key.
    pub fn validate(&self) -> Result<(), String> {
        let p = &self.problem;
        for (k, v) in [
            ("problem.chi", p.chi),
            ("problem.source", p.source),
            ("problem.t_left", p.t_left),
            ("problem.t_right", p.t_right),
            ("problem.flux", p.flux),
        ] {
            if !v.is_finite() {
                return Err(format!("{k} = {v}: must be finite"));
            }
        }
        positive("problem.chi", p.chi)?;
        let t2 = &self.table2;
        for (k, sizes) in [
            ("table2.grids_2d", &t2.grids_2d),
            ("table2.grids_3d", &t2.grids_3d),
        ] {
            sizes.at_least(k, 2, "nodes per side")?;
        }
        check_table4(&self.table4)?;
        check_perf(&self.perf)
    }
}

/// Table 4's keys: the aspect limit, dimensions, tolerance, sizes and their budgets, the
/// paper's times and the C1060's bandwidth.
fn check_table4(t4: &Table4Config) -> Result<(), String> {
    if !(t4.max_aspect.is_finite() && (1.0..=MAX_ASPECT).contains(&t4.max_aspect)) {
        return Err(format!(
            "table4.max_aspect = {}: must be in 1..={MAX_ASPECT} (a grid whose sides differ more is not the paper's square or cube)",
            t4.max_aspect
        ));
    }
    if let Some(d) = t4.dims.iter().find(|&&d| d != 2 && d != 3) {
        return Err(format!("table4.dims: {d}: dimensions are 2 or 3"));
    }
    positive("table4.tol", t4.tol)?;
    at_least("table4.max_iterations", t4.max_iterations, 1)?;
    for mode in Mode::ALL {
        let (sizes, budgets) = (t4.sizes.pick(mode), t4.jacobi_budget_s.pick(mode));
        if let Some(n) = sizes.iter().find(|&&n| n < 4) {
            return Err(format!("table4.sizes.{mode}: {n} unknowns: must be ≥ 4"));
        }
        if budgets.len() != sizes.len() {
            return Err(format!(
                "table4.jacobi_budget_s.{mode} has {} budgets for {} sizes",
                budgets.len(),
                sizes.len()
            ));
        }
        for b in budgets {
            positive(&format!("table4.jacobi_budget_s.{mode}"), *b)?;
        }
    }
    for v in t4.paper_gpu_s.iter().chain(&t4.paper_matlab_s) {
        positive("table4.paper_gpu_s / paper_matlab_s", *v)?;
    }
    positive("table4.c1060_bandwidth_gbs", t4.c1060_bandwidth_gbs)?;
    Ok(())
}

/// `[perf]`'s keys: sizes (the `legacy` table's fragment Jacobi keeps indices exact in f32),
/// the dimension and the sweeps.
fn check_perf(pf: &PerfConfig) -> Result<(), String> {
    for (mode, v) in pf.unknowns.each() {
        if let Some(n) = v.iter().find(|&&n| n < 4) {
            return Err(format!("perf.unknowns.{mode}: {n}: must be ≥ 4"));
        }
    }
    if pf.dim != 2 && pf.dim != 3 {
        return Err(format!("perf.dim = {}: dimensions are 2 or 3", pf.dim));
    }
    for (mode, v) in pf.unknowns.each() {
        for &n in v {
            // The `legacy` table's fragment Jacobi stores indices and offsets as exact floats.
            let entries = n as u64 * (2 * upper_per_row(pf.dim) - 1);
            let max = crate::papers::fem_storage::fragment::MAX_EXACT;
            if entries > max as u64 {
                return Err(format!(
                    "perf.unknowns.{mode}: {n} unknowns ({}D) store about {entries} entries; \
                 the `legacy` table's fragment Jacobi keeps indices and offsets as f32, \
                 exact up to {max}",
                    pf.dim
                ));
            }
        }
    }
    at_least("perf.sweeps", pf.sweeps, 1)
}

/// Upper-triangle entries per row of the assembled matrix (the paper's 5 in 2D, 14 in 3D).
fn upper_per_row(dim: usize) -> u64 {
    if dim == 3 { 14 } else { 5 }
}

/// Host bytes to assemble an `nodes`-node grid in the proposed, CSR and symbolic skyline
/// structures at once (per row: two growable vectors with their headers and spare capacity,
/// CSR's index + value + pointers, the skyline profile) — an upper estimate — plus the
/// flattened arrays of the GPU layout (both triangles: 2·upper − 1 entries per row).
pub fn need_host_bytes(dim: usize, nodes: u64) -> u64 {
    let u = upper_per_row(dim);
    nodes * (64 + 2 * 16 * u + 12 * u + 24 + 8 * (2 * u - 1) + 32)
}

/// SSBO bytes of the largest GPU Jacobi array (the values, 2·upper − 1 per row, f32).
pub fn need_ssbo_bytes(dim: usize, nodes: u64) -> u64 {
    4 * nodes * (2 * upper_per_row(dim) - 1)
}

/// `Err` names the limit a grid of `nodes` nodes would break (host memory; with `gpu`, the
/// device's SSBO and buffer-texture sizes).
pub fn need(info: &DeviceInfo, dim: usize, nodes: u64, gpu: bool) -> Result<(), String> {
    let host = crate::util::host_memory_bytes();
    let bytes = need_host_bytes(dim, nodes);
    if let Some(h) = host.filter(|&h| bytes > h / 2) {
        return Err(format!(
            "{nodes} nodes ({dim}D) need about {:.1} GB of host memory; half of this machine's \
             {:.1} GB is the most a row may take",
            bytes as f64 / 1e9,
            h as f64 / 1e9
        ));
    }
    let max = info.max_ssbo_bytes.max(0) as u64;
    let ssbo = need_ssbo_bytes(dim, nodes);
    if gpu && max > 0 && ssbo > max {
        return Err(format!(
            "{nodes} nodes ({dim}D) need an SSBO of {ssbo} bytes; this device's \
             GL_MAX_SHADER_STORAGE_BLOCK_SIZE is {max} bytes"
        ));
    }
    // The texture reads view the same array as a buffer texture, one texel per value.
    let texels = ssbo / 4;
    let max = info.max_texture_buffer_size.max(0) as u64;
    if gpu && max > 0 && texels > max {
        return Err(format!(
            "{nodes} nodes ({dim}D) need a buffer texture of {texels} texels; this device's \
             GL_MAX_TEXTURE_BUFFER_SIZE is {max}"
        ));
    }
    Ok(())
}

/// Every number in range, then every size of `mode` against a device's limits: the error
/// names the key.
fn check_on(cfg: &Config, info: &DeviceInfo, run_mode: Mode) -> Result<(), String> {
    cfg.validate()?;
    let mode = run_mode.name();
    let t2 = &cfg.table2;
    for (dim, key, sizes) in [(2, "grids_2d", &t2.grids_2d), (3, "grids_3d", &t2.grids_3d)] {
        for &n in sizes.pick(run_mode) {
            let nodes = (n as u64).pow(dim as u32);
            need(info, dim, nodes, false).map_err(|e| format!("table2.{key}.{mode}: {e}"))?;
        }
    }
    for &n in cfg.table4.sizes.pick(run_mode) {
        for &dim in &cfg.table4.dims {
            // The target first: the nearest grid is within the aspect limit of it, and the
            // search for it is itself long at absurd sizes.
            need(info, dim, n as u64, true).map_err(|e| format!("table4.sizes.{mode}: {e}"))?;
            let g = Grid::nearest(dim, n as usize, cfg.table4.max_aspect)
                .map_err(|e| format!("table4.sizes.{mode}: {e}"))?;
            need(info, dim, g.nodes() as u64, true)
                .map_err(|e| format!("table4.sizes.{mode}: {e}"))?;
        }
    }
    for &n in cfg.perf.unknowns.pick(run_mode) {
        need(info, cfg.perf.dim, n as u64, true)
            .map_err(|e| format!("perf.unknowns.{mode}: {e}"))?;
    }
    Ok(())
}

/// Checked by the runner before any work starts.
impl crate::runner::Experiments for Config {
    fn validate(&self, check: &crate::runner::Check) -> Result<(), String> {
        check_on(self, check.device, check.mode)
    }
}

/// The largest side ratio `table4.max_aspect` may allow: the nearest-grid search scans the
/// sides within it, and the paper's meshes are squares and cubes.
const MAX_ASPECT: f64 = 4.0;
