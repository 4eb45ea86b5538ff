//! The typed form of `experiments/bicg.toml`, checked on load: every number finite and in
//! range, every mesh parsed, and every mesh the run will solve small enough for this device
//! and this host (refused with the limit it would break, before anything is allocated).

use serde::{Deserialize, Deserializer, Serialize};

use crate::papers::bicg::biofet::BiofetParams;
use crate::papers::bicg::charged::ChargedParams;
use crate::papers::bicg::cpu::BicgParams;
use crate::papers::bicg::fragment;
use crate::papers::bicg::gpu::{self, GpuOptions, LOCAL_SIZES};
use crate::papers::bicg::poisson::Mesh;
use crate::runner::{Mode, PerMode, Repeat, RunError};

/// A mesh written "64x128x64" in the file, parsed on load.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MeshSpec(pub Mesh);

impl TryFrom<String> for MeshSpec {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse::<Mesh>().map(MeshSpec).map_err(|e| e.to_string())
    }
}

impl From<MeshSpec> for String {
    fn from(m: MeshSpec) -> String {
        let Mesh { nx, ny, nz } = m.0;
        format!("{nx}x{ny}x{nz}")
    }
}

/// A float that must be finite and > 0; the error names the key.
fn positive<'de, D: Deserializer<'de>>(d: D, key: &str) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    crate::runner::config::positive(key, v)
        .map(|()| v)
        .map_err(serde::de::Error::custom)
}

fn positive_tol<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    positive(d, "tol")
}

/// The experiment file, checked on load ([`Fields::validate`]): a bad value is an error of
/// the file read, naming its key.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "Fields")]
pub struct Config(pub Fields);

impl TryFrom<Fields> for Config {
    type Error = String;
    fn try_from(f: Fields) -> Result<Config, String> {
        f.validate()?;
        Ok(Config(f))
    }
}

impl std::ops::Deref for Config {
    type Target = Fields;
    fn deref(&self) -> &Fields {
        &self.0
    }
}

/// The tables of `experiments/bicg.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fields {
    pub solver: SolverCfg,
    pub fig4: Fig4Cfg,
    pub periter: PerIterCfg,
    pub spmv: SpmvCfg,
    pub table2: Table2Cfg,
    pub fig6: Fig6Cfg,
    pub precision: PrecisionCfg,
    pub precision_charged: PrecisionChargedCfg,
    pub anchor: AnchorCfg,
    pub biofet: BiofetCfg,
    pub legacy: LegacyCfg,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverCfg {
    #[serde(deserialize_with = "positive_tol")]
    pub tol: f64,
    pub max_iter: usize,
    pub local_size: u32,
}

impl SolverCfg {
    /// The solver's stopping rule (tolerance and iteration cap), as every table solves.
    pub fn params(&self) -> BicgParams {
        BicgParams {
            tol: self.tol,
            max_iter: self.max_iter,
        }
    }

    /// The GPU build every table runs: the paper's kernels with this local size.
    pub fn gpu_options(&self) -> GpuOptions {
        GpuOptions {
            local_size: self.local_size,
            ..GpuOptions::default()
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fig4Cfg {
    pub meshes: PerMode<Vec<MeshSpec>>,
    pub gpu: Repeat,
    pub cpu: Repeat,
    /// Above this many nodes the CPU Bi-CG runs to convergence once and its time is
    /// estimated from runs of its first `cpu_timed_iterations` iterations (`fig4.rs`).
    pub cpu_scaled_above: usize,
    pub cpu_timed_iterations: usize,
    /// The large meshes whose converging CPU solve is the one-thread whole solve, timed once
    /// (the scaled rule's check); at the others it is an untimed reference on all CPUs.
    pub cpu_full_solve: Vec<MeshSpec>,
    /// "About as long" in the paper's orientation claim: a time ratio within this factor.
    pub about_as_long: f64,
    pub paper: Vec<PaperTime>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperTime {
    pub mesh: MeshSpec,
    pub cpu_ms: f64,
    pub gpu_ms: f64,
    #[serde(default)]
    pub speedup: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerIterCfg {
    pub mesh: PerMode<MeshSpec>,
    pub iterations: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpmvCfg {
    pub mesh: PerMode<MeshSpec>,
    pub repeat: Repeat,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table2Cfg {
    pub mesh: PerMode<MeshSpec>,
    /// The SpMV share the paper's text (§V.2.d) prints beside its table.
    #[serde(default)]
    pub spmv_text_share: Option<f64>,
    /// A call count implied by the paper's shares "fits" ours within this factor.
    pub fit_within: f64,
    pub paper: Vec<PaperShare>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperShare {
    pub kernel: String,
    pub share: f64,
    #[serde(default)]
    pub calls: Option<u64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fig6Cfg {
    pub mesh: PerMode<MeshSpec>,
    pub local_sizes: Vec<u32>,
    pub repeat: Repeat,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrecisionCfg {
    pub mesh: PerMode<MeshSpec>,
    /// The fp32 solve's cap, as a multiple of the fp64 iteration count.
    pub cap_factor: usize,
}

/// The precision question on the charged systems (see [`super::precision_charged`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrecisionChargedCfg {
    pub mesh: PerMode<MeshSpec>,
    /// The fp32 solve's cap, as a multiple of the fp64 iteration count.
    pub cap_factor: usize,
    /// The physics of [`crate::papers::bicg::charged`].
    pub physics: ChargedParams,
}

impl PrecisionChargedCfg {
    /// Every number in range, the oxide inside every mesh; the error names the key.
    fn validate(&self) -> Result<(), String> {
        let bad = |key: &str, why: String| Err(format!("`precision_charged.{key}`: {why}"));
        crate::runner::config::at_least("precision_charged.cap_factor", self.cap_factor, 1)?;
        let p = &self.physics;
        for (key, v) in [
            ("physics.spacing_nm", p.spacing_nm),
            ("physics.eps_oxide", p.eps_oxide),
            ("physics.eps_electrolyte", p.eps_electrolyte),
            ("physics.concentration_mm", p.concentration_mm),
            ("physics.diffusivity", p.diffusivity),
            ("physics.time_step_ns", p.time_step_ns),
        ] {
            crate::runner::config::positive(&format!("precision_charged.{key}"), v)?;
        }
        for (key, v) in [
            ("physics.bio_charge", p.bio_charge),
            ("physics.reference_v", p.reference_v),
        ] {
            if !v.is_finite() {
                return bad(key, format!("{v}: must be a finite number"));
            }
        }
        for m in [self.mesh.full.0, self.mesh.quick.0] {
            // Electrolyte above the biomolecule layer, and a top electrode above that.
            if p.oxide_layers == 0 || p.oxide_layers + 4 > m.nz {
                return bad(
                    "physics.oxide_layers",
                    format!(
                        "{} must be in 1..={} for mesh {} (the oxide, the biomolecule layer \
                         and electrolyte below the top electrode fit along z)",
                        p.oxide_layers,
                        m.nz.saturating_sub(4),
                        m.label()
                    ),
                );
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnchorCfg {
    pub meshes: PerMode<Vec<MeshSpec>>,
}

/// Beyond the paper: fragment vs compute fp32 iterations (see [`super::legacy`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyCfg {
    pub meshes: PerMode<Vec<MeshSpec>>,
    pub iterations: usize,
    pub repeat: PerMode<Repeat>,
}

/// The BioFET check run inside `reproduce` (see [`super::biofet`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BiofetCfg {
    /// Nodes along z (electrode to electrode) for a full and a quick run.
    pub nodes: PerMode<usize>,
    /// Time-step cap.
    pub max_steps: usize,
}

impl Fields {
    /// Every number checked (finite, in range); the error names the table and key.
    pub fn validate(&self) -> Result<(), String> {
        let bad = |key: &str, why: String| Err(format!("`{key}`: {why}"));
        if self.solver.max_iter == 0 {
            return bad("solver.max_iter", "must be at least 1".into());
        }
        if !LOCAL_SIZES.contains(&self.solver.local_size) {
            return bad(
                "solver.local_size",
                format!("{} is not one of {LOCAL_SIZES:?}", self.solver.local_size),
            );
        }
        if let Some(l) = self
            .fig6
            .local_sizes
            .iter()
            .find(|l| !LOCAL_SIZES.contains(l))
        {
            return bad(
                "fig6.local_sizes",
                format!("{l} is not one of {LOCAL_SIZES:?}"),
            );
        }
        for (key, k) in [
            ("periter.iterations", self.periter.iterations),
            ("fig4.cpu_timed_iterations", self.fig4.cpu_timed_iterations),
            ("legacy.iterations", self.legacy.iterations),
        ] {
            if k == 0 {
                return bad(key, "must be at least 1".into());
            }
        }
        if self.precision.cap_factor == 0 {
            return bad("precision.cap_factor", "must be at least 1".into());
        }
        self.precision_charged.validate()?;
        // The paper's kernel names are a closed set: a misspelt one would match no kernel
        // of ours and its share would silently drop out of Table 2 (issue 40).
        if let Some(p) = self
            .table2
            .paper
            .iter()
            .find(|p| !gpu::Kernel::ALL.iter().any(|k| k.name() == p.kernel))
        {
            let names: Vec<&str> = gpu::Kernel::ALL.iter().map(|k| k.name()).collect();
            return bad(
                "table2.paper.kernel",
                format!("`{}` is not one of {}", p.kernel, names.join(", ")),
            );
        }
        for p in &self.fig4.paper {
            if !(p.cpu_ms > 0.0 && p.gpu_ms > 0.0 && p.cpu_ms.is_finite() && p.gpu_ms.is_finite()) {
                return bad("fig4.paper", "times must be finite and > 0".into());
            }
        }
        let f4 = &self.fig4;
        if let Some(m) = f4.cpu_full_solve.iter().find(|m| {
            m.0.nodes() <= f4.cpu_scaled_above
                || ![&f4.meshes.full, &f4.meshes.quick]
                    .iter()
                    .any(|list| list.iter().any(|l| l.0 == m.0))
        }) {
            return bad(
                "fig4.cpu_full_solve",
                format!(
                    "{} is not one of fig4.meshes with more than fig4.cpu_scaled_above = {} \
                     nodes (only there is the CPU time scaled, so only there is a whole solve \
                     its check)",
                    m.0.label(),
                    f4.cpu_scaled_above
                ),
            );
        }
        if !(self.fig4.about_as_long.is_finite() && self.fig4.about_as_long >= 1.0) {
            return bad(
                "fig4.about_as_long",
                format!("{}: must be a finite number ≥ 1", self.fig4.about_as_long),
            );
        }
        if !(self.table2.fit_within.is_finite() && self.table2.fit_within >= 1.0) {
            return bad(
                "table2.fit_within",
                format!("{}: must be a finite number ≥ 1", self.table2.fit_within),
            );
        }
        let b = &self.biofet;
        for n in [b.nodes.full, b.nodes.quick] {
            if let Err(e) = self.biofet_params(n).validate() {
                return bad("biofet.nodes", e.to_string());
            }
        }
        Ok(())
    }

    /// The BioFET parameters of this file for `nodes` along z.
    pub fn biofet_params(&self, nodes: usize) -> BiofetParams {
        BiofetParams {
            n: nodes,
            max_steps: self.biofet.max_steps,
            ..BiofetParams::default()
        }
    }

    /// Every mesh `mode` will solve, with the key it comes from.
    pub fn meshes(&self, mode: Mode) -> Vec<(&'static str, Mesh)> {
        let mut v: Vec<(&str, Mesh)> = Vec::new();
        v.extend(
            self.fig4
                .meshes
                .pick(mode)
                .iter()
                .map(|m| ("fig4.meshes", m.0)),
        );
        v.extend(
            self.anchor
                .meshes
                .pick(mode)
                .iter()
                .map(|m| ("anchor.meshes", m.0)),
        );
        v.extend(
            self.legacy
                .meshes
                .pick(mode)
                .iter()
                .map(|m| ("legacy.meshes", m.0)),
        );
        for (key, m) in [
            ("periter.mesh", &self.periter.mesh),
            ("spmv.mesh", &self.spmv.mesh),
            ("table2.mesh", &self.table2.mesh),
            ("fig6.mesh", &self.fig6.mesh),
            ("precision.mesh", &self.precision.mesh),
            ("precision_charged.mesh", &self.precision_charged.mesh),
        ] {
            v.push((key, m.pick(mode).0));
        }
        v
    }
}

/// Host bytes per node at the peak of a solve: the assembly's row lists (≈ 150 B), the
/// ELLPACK-R matrix (7 × 12 B + 4 B), right-hand side, permittivity, sources and electrode
/// map (40 B), the CPU solver's nine vectors (72 B) and the solutions kept for verification.
const HOST_BYTES_PER_NODE: u64 = 400;

/// A mesh of the run that this device or host cannot hold.
#[derive(Debug, thiserror::Error)]
#[error("bicg `{key}` mesh {mesh}: {why}")]
pub struct SizeError {
    pub key: &'static str,
    pub mesh: String,
    pub why: String,
}

/// Refuses any mesh of the run that the shaders, the device or the host memory cannot
/// hold, naming the limit: checked before any table starts.
pub fn check_sizes(info: &crate::gl::DeviceInfo, cfg: &Config, mode: Mode) -> Result<(), RunError> {
    let available = crate::util::available_memory();
    for (key, mesh) in cfg.meshes(mode) {
        let n = mesh.nodes();
        let too_large = |why: String| {
            RunError::algorithm(SizeError {
                key,
                mesh: mesh.label(),
                why,
            })
        };
        gpu::check_fits_on(info, n, 7, 8).map_err(|e| too_large(e.to_string()))?;
        if key == "legacy.meshes" {
            // The fragment build keeps the matrix in textures.
            fragment::layout(n, 7, info.max_texture_size).map_err(|e| too_large(e.to_string()))?;
        }
        let need = HOST_BYTES_PER_NODE * n as u64 + gpu::device_bytes(n, 7, 8, true);
        if let Some(avail) = available
            && need > avail
        {
            return Err(too_large(format!(
                "needs about {need} bytes of memory (host and llvmpipe device) but the host \
                 has {avail} bytes available (MemAvailable)"
            )));
        }
    }
    Ok(())
}

/// Checked by the runner before any work starts: every number, then every mesh of this mode
/// against the device and the host.
impl crate::runner::Experiments for Config {
    fn validate(&self, check: &crate::runner::Check) -> Result<(), String> {
        Fields::validate(self)?;
        check_sizes(check.device, self, check.mode).map_err(|e| e.to_string())
    }
}
