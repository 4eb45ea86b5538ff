//! The paper's experiments, one file per table or figure: [`table1`] (Table 1 with the
//! variants beyond the paper in the same table), [`fig3`] (Fig. 3 from Table 1's rows) and
//! [`audit`] (the paper's own Table 1 recomputed with its eq. (1)/(2)).
//!
//! Everything an experiment needs is checked here before any work starts: the keys of
//! `experiments/matmul.toml` ([`Table1Config::validate`]) and the memory each size needs
//! against this device's SSBO and texture limits and the machine's memory ([`Footprint`]).

pub mod audit;
pub mod fig3;
pub mod findings;
pub mod table1;
pub mod tune;

use serde::{Deserialize, Serialize};

use super::gpu::{BlockedParams, MIN_SHARED_BYTES, Reads};
use crate::gl::{DeviceInfo, Need};
use crate::report::Table;
use crate::runner::{Mode, PerMode, Repeat, RunError, Session, Sizes, TableSpec};

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
    /// The sweeps of the variants beyond the paper ([`tune`]).
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
        v
    }

    /// Every k per pass, labelled with the k actually used.
    pub fn k_chunk_candidates(&self) -> Vec<(String, u32)> {
        self.k_chunk
            .iter()
            .map(|&k| {
                (
                    format!("k={} per pass", super::multipass::Multipass::chunk(k)),
                    k,
                )
            })
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

/// One row of the paper's Table 1, each number as printed ([`Printed`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    pub n: u32,
    pub cpu_ms: Printed,
    pub cpu_gflops: Printed,
    pub gpu_ms: Printed,
    pub gpu_gflops: Printed,
    pub speedup: Printed,
}

/// A number as the paper prints it: its value and how many decimals it shows, so that an
/// audit knows the printed precision (0.40 stands for [0.395, 0.405]). In the TOML a string
/// keeps trailing zeros (`"0.40"`); a plain number counts the decimals it is written with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "PrintedText", into = "String")]
pub struct Printed {
    pub value: f64,
    pub decimals: u32,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum PrintedText {
    Text(String),
    Int(i64),
    Float(f64),
}

impl Printed {
    /// Parses "86,792", "0.40", "1831".
    pub fn parse(text: &str) -> Result<Printed, String> {
        let t = text.trim().replace(',', "");
        let value: f64 = t
            .parse()
            .map_err(|_| {
                format!("`{text}` is not a number as printed: expected digits as the paper prints them (\"86,792\", \"0.40\")")
            })?;
        if !value.is_finite() {
            return Err(format!("`{text}` is not a finite number"));
        }
        let decimals = t.split_once('.').map_or(0, |(_, d)| d.len() as u32);
        Ok(Printed { value, decimals })
    }
    /// Half a unit of the last printed digit: the rounding the printed value may carry.
    pub fn half_unit(&self) -> f64 {
        0.5 * 10f64.powi(-(self.decimals as i32))
    }
}

impl TryFrom<PrintedText> for Printed {
    type Error = String;
    fn try_from(t: PrintedText) -> Result<Printed, String> {
        match t {
            PrintedText::Text(s) => Printed::parse(&s),
            PrintedText::Int(i) => Printed::parse(&i.to_string()),
            PrintedText::Float(f) => Printed::parse(&f.to_string()),
        }
    }
}

impl From<Printed> for String {
    fn from(p: Printed) -> String {
        format!("{:.*}", p.decimals as usize, p.value)
    }
}

impl Table1Config {
    /// Refuses values no run can use, naming the key (before any shader is built).
    pub fn validate(&self) -> Result<(), String> {
        self.sizes.at_least("table1.sizes", 1, "(N)")?;
        if self.cpu_rows_max == 0 {
            return Err("table1.cpu_rows_max = 0: must be ≥ 1".into());
        }
        if let Some(cap) = &self.max_run_s {
            for (mode, &v) in cap.each() {
                if !(v.is_finite() && v > 0.0) {
                    return Err(format!(
                        "table1.max_run_s.{mode} = {v}: must be a finite number of seconds > 0"
                    ));
                }
            }
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(format!(
                "table1.tolerance = {}: must be finite and > 0",
                self.tolerance
            ));
        }
        self.tune.validate()
    }
}

/// What one row of Table 1 needs, computed from N before anything is allocated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    /// The largest SSBO (one N×N f32 matrix; the blocked kernel's are padded to vec4 rows).
    pub ssbo_bytes: u64,
    /// The largest texture edge of the fragment variant (the padded B has 4·⌈N/4⌉ rows).
    pub texture_edge: u64,
    /// Host memory held at once: A, B, R read back, the CPU rows, SGEMM's R (f32) and the
    /// f64 reference, plus the vec4 copies of B made for upload.
    pub host_bytes: u64,
}

impl Footprint {
    pub fn of(n: u64) -> Footprint {
        let n4 = n.div_ceil(4) * 4;
        Footprint {
            ssbo_bytes: 4 * n * n4,
            texture_edge: n4,
            host_bytes: 4 * n * n * 5 + 8 * n * n + 2 * 4 * n * n4,
        }
    }

    /// `Err` names the limit this size would break on `info` and a machine of `host` bytes.
    pub fn check(&self, n: u64, info: &DeviceInfo, host: Option<u64>) -> Result<(), String> {
        let max_ssbo = info.max_ssbo_bytes.max(0) as u64;
        if max_ssbo > 0 && self.ssbo_bytes > max_ssbo {
            return Err(format!(
                "N = {n} needs an SSBO of {} bytes per matrix; this device's \
                 GL_MAX_SHADER_STORAGE_BLOCK_SIZE is {max_ssbo} bytes",
                self.ssbo_bytes
            ));
        }
        let max_tex = info.max_rectangle_texture_size.max(0) as u64;
        if max_tex > 0 && self.texture_edge > max_tex {
            return Err(format!(
                "N = {n} needs textures {} texels tall; this device's \
                 GL_MAX_RECTANGLE_TEXTURE_SIZE is {max_tex}",
                self.texture_edge
            ));
        }
        if let Some(h) = host.filter(|&h| self.host_bytes > h / 2) {
            return Err(format!(
                "N = {n} needs {:.1} GB of host memory at once; half of this machine's {:.1} GB \
                 is the most a row may take",
                self.host_bytes as f64 / 1e9,
                h as f64 / 1e9
            ));
        }
        Ok(())
    }
}

/// Runs the paper's experiments, after checking the file and every size of this mode.
/// The paper's table: a 2019 compute-shader paper, so Table 1 (and Fig. 3 from its rows)
/// needs compute shaders; the audit of the paper's own numbers runs anywhere.
pub const TABLES: &[TableSpec] = &[
    TableSpec::needs("table1", &[Need::Compute]),
    TableSpec::needs("table1_kernels", &[Need::Compute]),
    TableSpec::needs("tuning", &[Need::Compute]),
];

pub struct Matmul;

impl crate::runner::Paper for Matmul {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        audit::run(s, &cfg.table1.published);
        if s.runs("table1") && s.runs("tuning") {
            let tuned = tune::run(s, &cfg.table1)?;
            table1::run(s, &cfg.table1, tuned)?;
        }
        Ok(())
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

/// The roofline names of the GPU kernels, in the order of `table1_kernels`' rows.
pub const KERNELS: [&str; 4] = [
    "Alg. 2 (paper)",
    "Alg. 1 as printed",
    "blocked compute",
    "fragment multipass",
];

/// The number in column `col` of the row for size `n`.
pub fn at(t: &Table, n: u32, col: &str) -> Option<f64> {
    t.rows
        .iter()
        .find(|r| r.key == n.to_string())
        .and_then(|r| r.values[t.col(col)].as_f64())
}

/// The estimate (median and 95 % interval) in column `col` of the row for size `n`; a plain
/// number as an exact one.
pub fn at_est(t: &Table, n: u32, col: &str) -> Option<crate::stats::Estimate> {
    let r = t.rows.iter().find(|r| r.key == n.to_string())?;
    let v = &r.values[t.col(col)];
    v.estimate()
        .cloned()
        .or_else(|| v.as_f64().map(crate::stats::Estimate::exact))
}
