//! `experiments/matmul.toml` ([`Config`]): Table 1's sizes, repetitions and tolerance, the
//! candidates of the variants beyond the paper ([`TuneConfig`]) and the paper's printed
//! numbers; every key checked before any shader is built, every size against the device.

use serde::{Deserialize, Serialize};

use super::footprint::Footprint;
use super::published::Published;
use crate::gl::DeviceInfo;
use crate::papers::matmul::gpu::{BlockedParams, MIN_SHARED_BYTES, Reads};
use crate::papers::matmul::multipass::Multipass;
use crate::runner::config::positive;
use crate::runner::{Mode, PerMode, Repeat, Sizes};

/// `experiments/matmul.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub table1: Table1Config,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table1Config {
    pub sizes: Sizes,
    /// Full mode times as many runs as the paper (10) within a larger budget than quick mode.
    pub repeat: PerMode<Repeat>,
    pub cpu_rows_max: usize,
    /// The longest one run of the paper's kernel may take (s): a size whose run the last
    /// size predicts (∝ N³) to take longer is not run, its rows marked skipped with the
    /// prediction. Absent: no cap. (On a software rasterizer the 32×32-group kernel at
    /// N = 4096 runs for many minutes; on a GPU it is milliseconds.)
    #[serde(default)]
    pub max_run_s: Option<PerMode<f64>>,
    pub tolerance: f64,
    pub seed: u64,
    /// The sweeps of the variants beyond the paper ([`tune`](super::tune)).
    pub tune: TuneConfig,
    pub published: Vec<Published>,
}

/// `[table1.tune]`: the candidates of the variants beyond the paper and where they are timed.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneConfig {
    /// The N×N product every candidate is timed on.
    pub n: PerMode<u32>,
    /// Why that size (printed under the tuning table).
    #[serde(default)]
    pub why_n: String,
    /// Register block of the blocked kernel: rows of R per invocation.
    pub tm: Vec<u32>,
    /// Register block: vec4 columns of R per invocation.
    pub tn: Vec<u32>,
    /// Work-group shapes `[x, y]`.
    pub wg: Vec<[u32; 2]>,
    /// Where the blocked kernel reads A and B from: `"ssbo"`, `"texture"` (texelFetch).
    pub reads: Vec<Reads>,
    /// k per shared-memory tile of the blocked kernel (0: no shared memory).
    #[serde(default = "no_tiles")]
    pub kwg: Vec<u32>,
    /// Double-buffered tiles (tried only where `kwg` > 0).
    #[serde(default = "single_buffer")]
    pub db: Vec<bool>,
    /// Candidates of the blocked kernel named one by one, after the product of the lists
    /// above: the shapes a SIMD CPU rasterizer needs (`ka` = 4, texture reads, one row of
    /// groups) without multiplying the GPU-shaped sweep.
    #[serde(default)]
    pub extra: Vec<BlockedParams>,
    /// k per pass of the multipass fragment kernel.
    pub k_chunk: Vec<u32>,
    pub repeat: Repeat,
}

impl TuneConfig {
    /// Every (tm, tn, work group, k tile, buffering, reads) combination, labelled; `db` only
    /// with tiles, and combinations whose tiles exceed GL's guaranteed shared memory are
    /// left out (as CLBlast's tuner leaves out configurations its constraints reject).
    pub fn blocked_candidates(&self) -> Vec<(String, BlockedParams)> {
        let mut v = Vec::new();
        for &tm in &self.tm {
            for &tn in &self.tn {
                for &[wg_x, wg_y] in &self.wg {
                    for &kwg in &self.kwg {
                        for &db in &self.db {
                            if db && kwg == 0 {
                                continue;
                            }
                            for &reads in &self.reads {
                                let p = BlockedParams {
                                    tm,
                                    tn,
                                    wg_x,
                                    wg_y,
                                    reads,
                                    kwg,
                                    db,
                                    ka: 1,
                                };
                                if p.shared_bytes() <= MIN_SHARED_BYTES {
                                    v.push((p.label(), p));
                                }
                            }
                        }
                    }
                }
            }
        }
        v.extend(self.extra.iter().map(|p| (p.label(), *p)));
        v
    }

    /// Every k per pass, labelled with the k actually used.
    pub fn k_chunk_candidates(&self) -> Vec<(String, u32)> {
        self.k_chunk
            .iter()
            .map(|&k| (format!("k={} per pass", Multipass::chunk(k)), k))
            .collect()
    }

    fn validate(&self) -> Result<(), String> {
        for (key, empty) in [
            ("tm", self.tm.is_empty()),
            ("tn", self.tn.is_empty()),
            ("wg", self.wg.is_empty()),
            ("reads", self.reads.is_empty()),
            ("kwg", self.kwg.is_empty()),
            ("db", self.db.is_empty()),
            ("k_chunk", self.k_chunk.is_empty()),
        ] {
            if empty {
                return Err(format!("table1.tune.{key}: give at least one candidate"));
            }
        }
        for (mode, &n) in self.n.each() {
            if n == 0 {
                return Err(format!("table1.tune.n.{mode} = 0: must be ≥ 1"));
            }
        }
        if let Some(k) = self.k_chunk.iter().find(|&&k| k == 0) {
            return Err(format!("table1.tune.k_chunk: {k} must be ≥ 1 (k per pass)"));
        }
        let candidates = self.blocked_candidates();
        if candidates.is_empty() {
            return Err(format!(
                "table1.tune: every blocked candidate's tiles exceed the {MIN_SHARED_BYTES} \
                 bytes of shared memory GL guarantees (lower kwg, tm, tn or the work group)"
            ));
        }
        for (_, p) in candidates {
            p.validate().map_err(|e| format!("table1.tune: {e}"))?;
        }
        Ok(())
    }
}

fn no_tiles() -> Vec<u32> {
    vec![0]
}

fn single_buffer() -> Vec<bool> {
    vec![false]
}

impl Table1Config {
    /// Refuses values no run can use, naming the key (before any shader is built).
    pub fn validate(&self) -> Result<(), String> {
        self.sizes.at_least("table1.sizes", 1, "(N)")?;
        if self.cpu_rows_max == 0 {
            return Err("table1.cpu_rows_max = 0: must be ≥ 1".into());
        }
        if let Some(cap) = &self.max_run_s {
            crate::runner::cap::check_max_run_s("table1.max_run_s", cap)?;
        }
        positive("table1.tolerance", self.tolerance)?;
        self.tune.validate()
    }
}

/// Every number in range, then every size of `mode` against a device's limits: the error
/// names the key.
fn check_on(cfg: &Config, info: &DeviceInfo, mode: Mode) -> Result<(), String> {
    cfg.table1.validate()?;
    let host = crate::util::host_memory_bytes();
    let tune_n = *cfg.table1.tune.n.pick(mode);
    Footprint::of(tune_n as u64)
        .check(tune_n as u64, info, host)
        .map_err(|e| format!("table1.tune.n.{}: {e}", mode.name()))?;
    for &n in cfg.table1.sizes.pick(mode) {
        Footprint::of(n as u64)
            .check(n as u64, info, host)
            .map_err(|e| format!("table1.sizes.{}: {e}", mode.name()))?;
    }
    Ok(())
}

/// Checked by the runner before any work starts.
impl crate::runner::Experiments for Config {
    fn validate(&self, check: &crate::runner::Check) -> Result<(), String> {
        check_on(self, check.device, check.mode)
    }
}
