//! The experiment file `experiments/lu.toml`, parsed and checked before any work starts:
//! every number finite and in range (named by its key when not), and the sizes of this run
//! within the device's texture and buffer limits and the host's memory.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::gl::{DeviceInfo, PingPongMethod};
use crate::runner::config::{at_least, positive};
use crate::runner::{PerMode, Repeat, Sizes};

use crate::papers::lu::fragment::Variant;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub table4: Table4Cfg,
    pub cpu: CpuCfg,
    pub bandwidth: BandwidthCfg,
    pub table5: Table5Cfg,
    pub sec51: Sec51Cfg,
    pub sec51_2005: Sec51ModelCfg,
    pub compute: ComputeCfg,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table4Cfg {
    pub sizes: Sizes,
    /// Per mode: the rounds of Table 4 (and §4.3).
    pub repeat: PerMode<Repeat>,
    pub single_run_from: u32,
    /// Largest order for the scalar variants I1/I2 in a full run (the time budget).
    pub scalar_max_n: u32,
    /// The scalar variants' (I1/I2) texture format: a closed set, so that a typo such as
    /// `"bgr32f"` is refused when the file is read (`reproduce --check` included), not when
    /// the paper starts (issue 40).
    pub scalar_format: ScalarFormat,
    /// Orders (a subset of `sizes`, per mode) at which the labelled alternative forms of the
    /// methods (issue 38: "copy (rendered only)", "switch (carry)") run beside the paper's,
    /// in the same rounds.
    pub labelled_sizes: Sizes,
    /// Per mode: the longest one run of the slowest configuration may take (s); an order
    /// predicted over it is not run, nor any larger one ([`crate::runner::cap`]).
    pub max_run_s: PerMode<f64>,
    pub seed: u64,
    pub paper: PaperTable4,
}

/// `table4.scalar_format`: the texture format of the scalar variants I1/I2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScalarFormat {
    /// Four channels per texel, one used (the paper's).
    Rgba32f,
    /// One channel per texel.
    R32f,
}

impl ScalarFormat {
    /// The GL texture format.
    pub fn format(self) -> crate::gl::Format {
        match self {
            ScalarFormat::Rgba32f => crate::gl::Format::RGBA32F,
            ScalarFormat::R32f => crate::gl::Format::R32F,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperTable4 {
    pub sizes: Vec<u32>,
    pub copy: BTreeMap<String, Vec<[f64; 4]>>,
    pub switch: BTreeMap<String, Vec<[f64; 4]>>,
    pub best_gflops_n1024: f64,
    /// §4.1: the order from which CPU branching (I1, I3) beats GPU branching (I2, I4) with
    /// the switch method.
    pub branch_crossover_n: u32,
}

impl PaperTable4 {
    /// The paper's [A, G, C, T] for a configuration and order, if printed.
    pub fn get(&self, v: Variant, m: PingPongMethod, n: u32) -> Option<[f64; 4]> {
        let idx = self.sizes.iter().position(|&s| s == n)?;
        let t = match m {
            PingPongMethod::Copy => &self.copy,
            PingPongMethod::Switch => &self.switch,
        };
        t.get(v.name()).and_then(|rows| rows.get(idx)).copied()
    }
    /// The paper's largest order.
    pub fn top(&self) -> u32 {
        self.sizes.last().copied().unwrap_or(0)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CpuCfg {
    pub repeat: Repeat,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BandwidthCfg {
    pub texture_size: u32,
    pub paper_gbps: f64,
    pub paper_cache_gbps: f64,
    pub paper_fraction: f64,
    pub paper_geforce_gbps: f64,
    pub paper_geforce_cache_gbps: f64,
    pub paper_geforce_fraction: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table5Cfg {
    pub operands: PerMode<usize>,
    pub seed: u64,
    pub paper: BTreeMap<String, [f64; 2]>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sec51Cfg {
    pub scan: usize,
    pub seed: u64,
    /// §5.1: the paper found GPU and CPU factors equal only up to this order.
    pub paper_equal_up_to: usize,
}

/// §5.1 under the 2005 arithmetic model (issue 25).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sec51ModelCfg {
    /// Orders of the table (every configuration and the ablation at each).
    pub sizes: Sizes,
    /// Per mode: the longest one order's measurement may take (s); an order predicted over
    /// it is not run ([`crate::runner::cap`]).
    pub max_run_s: PerMode<f64>,
    /// Issue 38: the order of the family table (every model member × matrix class, the
    /// whole model and the ablation at each), per mode.
    pub family_n: PerMode<u32>,
    /// The first order at which the emulated GPU and the CPU's IEEE loop differ is searched
    /// over 1 … this, per member and class.
    pub family_scan: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputeCfg {
    /// Candidate panel widths, tuned on the device ([`super::compute`]).
    pub blocks: Vec<u32>,
    /// The order the candidates are timed at.
    pub tune_n: PerMode<u32>,
    pub repeat: Repeat,
}

/// Width of the Table 5 operand texture (one operand pair per texel).
pub const ULP_WIDTH: u32 = 1024;

/// A map's key from a closed set (the implementations, the operations).
fn one_of<const N: usize>(key: &str, name: &str, names: [&str; N]) -> Result<(), String> {
    if names.contains(&name) {
        Ok(())
    } else {
        Err(format!(
            "`{key}`: unknown name `{name}`; expected one of {}",
            names.join(", ")
        ))
    }
}

impl Config {
    /// Every number of the file in range; the first that is not, named by its key.
    pub fn validate(&self) -> Result<(), String> {
        self.check_table4()?;
        self.check_bandwidth()?;
        self.check_table5()?;
        self.check_sec51()?;
        self.check_compute()
    }

    /// `[table4]`: the sizes (the labelled ones among them), the single-run and scalar
    /// limits, the paper's times.
    fn check_table4(&self) -> Result<(), String> {
        let t = &self.table4;
        for (mode, sizes) in t.sizes.each() {
            if sizes.is_empty() {
                return Err(format!("`table4.sizes.{mode}` is empty"));
            }
        }
        t.sizes.at_least("table4.sizes", 1, "(N)")?;
        for (mode, l) in t.labelled_sizes.each() {
            let all = t.sizes.pick(mode);
            if let Some(n) = l.iter().find(|n| !all.contains(n)) {
                return Err(format!(
                    "`table4.labelled_sizes.{mode}` holds N = {n}, which `table4.sizes.{mode}` does not"
                ));
            }
        }
        at_least("table4.single_run_from", t.single_run_from, 1)?;
        at_least("table4.scalar_max_n", t.scalar_max_n, 1)?;
        crate::runner::cap::check_max_run_s("table4.max_run_s", &t.max_run_s)?;
        let p = &t.paper;
        for (m, table) in [("copy", &p.copy), ("switch", &p.switch)] {
            for (v, rows) in table {
                one_of(
                    &format!("table4.paper.{m}.{v}"),
                    v,
                    Variant::ALL.map(Variant::name),
                )?;
                if rows.len() != p.sizes.len() {
                    return Err(format!(
                        "`table4.paper.{m}.{v}` has {} rows for {} sizes",
                        rows.len(),
                        p.sizes.len()
                    ));
                }
                for row in rows {
                    for &x in row {
                        if !(x.is_finite() && x >= 0.0) {
                            return Err(format!(
                                "`table4.paper.{m}.{v}` holds {x}: times must be finite and ≥ 0"
                            ));
                        }
                    }
                    positive(&format!("table4.paper.{m}.{v} (A)"), row[0])?;
                }
            }
        }
        positive("table4.paper.best_gflops_n1024", p.best_gflops_n1024)?;
        at_least("table4.paper.branch_crossover_n", p.branch_crossover_n, 1)?;
        Ok(())
    }

    /// `[bandwidth]`: the texture size and the paper's rates and shares.
    fn check_bandwidth(&self) -> Result<(), String> {
        let b = &self.bandwidth;
        at_least("bandwidth.texture_size", b.texture_size, 1)?;
        for (k, v) in [
            ("paper_gbps", b.paper_gbps),
            ("paper_cache_gbps", b.paper_cache_gbps),
            ("paper_fraction", b.paper_fraction),
            ("paper_geforce_gbps", b.paper_geforce_gbps),
            ("paper_geforce_cache_gbps", b.paper_geforce_cache_gbps),
            ("paper_geforce_fraction", b.paper_geforce_fraction),
        ] {
            positive(&format!("bandwidth.{k}"), v)?;
        }
        Ok(())
    }

    /// `[table5]`: the operand counts and the paper's ULP ranges.
    fn check_table5(&self) -> Result<(), String> {
        at_least("table5.operands.full", self.table5.operands.full, 1)?;
        at_least("table5.operands.quick", self.table5.operands.quick, 1)?;
        for (op, [lo, hi]) in &self.table5.paper {
            one_of(
                &format!("table5.paper.{op}"),
                op,
                crate::papers::lu::ulp::OPS,
            )?;
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(format!(
                    "`table5.paper.{op}` = [{lo}, {hi}]: must be finite with min ≤ max"
                ));
            }
        }
        Ok(())
    }

    /// `[sec51]` and `[sec51_2005]`: the scans, sizes and family orders.
    fn check_sec51(&self) -> Result<(), String> {
        at_least("sec51.scan", self.sec51.scan, 1)?;
        crate::runner::cap::check_max_run_s("sec51_2005.max_run_s", &self.sec51_2005.max_run_s)?;
        let m = &self.sec51_2005.sizes;
        for (mode, sizes) in m.each() {
            if sizes.is_empty() {
                return Err(format!("`sec51_2005.sizes.{mode}` is empty"));
            }
            for &n in sizes {
                at_least(&format!("sec51_2005.sizes.{mode}"), n, 1)?;
            }
        }
        at_least(
            "sec51_2005.family_n.full",
            self.sec51_2005.family_n.full as usize,
            2,
        )?;
        at_least(
            "sec51_2005.family_n.quick",
            self.sec51_2005.family_n.quick as usize,
            2,
        )?;
        at_least("sec51_2005.family_scan", self.sec51_2005.family_scan, 1)?;
        Ok(())
    }

    /// `[compute]`: the panel widths and the tuning orders.
    fn check_compute(&self) -> Result<(), String> {
        if self.compute.blocks.is_empty() {
            return Err("`compute.blocks` is empty: give at least one panel width".into());
        }
        if let Some(b) = self.compute.blocks.iter().find(|b| !(1..=64).contains(*b)) {
            return Err(format!("`compute.blocks` has {b}: each must be in 1 … 64"));
        }
        at_least("compute.tune_n.full", self.compute.tune_n.full as usize, 2)?;
        at_least(
            "compute.tune_n.quick",
            self.compute.tune_n.quick as usize,
            2,
        )?;
        Ok(())
    }

    /// Whether this run's sizes fit the device and the host, computed before anything is
    /// allocated: the limit each would break, or `Ok`.
    pub fn check_resources(
        &self,
        info: &DeviceInfo,
        sizes: &[u32],
        operands: usize,
    ) -> Result<(), String> {
        let rect = info.max_rectangle_texture_size.max(0) as u64;
        let tex = info.max_texture_size.max(0) as u64;
        for &n in sizes.iter().chain(self.sec51_2005.sizes.full.iter()) {
            if n as u64 > rect {
                return Err(format!(
                    "`table4.sizes` holds N = {n}: the matrix texture needs {n} rows, above this device's largest rectangle texture ({rect})"
                ));
            }
            let ssbo = 4 * (n as u64).pow(2);
            if info.compute && ssbo as i64 > info.max_ssbo_bytes {
                return Err(format!(
                    "`table4.sizes` holds N = {n}: the compute LU's buffer needs {ssbo} bytes, above this device's largest SSBO ({} bytes)",
                    info.max_ssbo_bytes
                ));
            }
        }
        if self.bandwidth.texture_size as u64 > rect.min(tex) {
            return Err(format!(
                "`bandwidth.texture_size` = {}: above this device's largest texture ({})",
                self.bandwidth.texture_size,
                rect.min(tex)
            ));
        }
        let rows = (operands as u64).div_ceil(ULP_WIDTH as u64);
        if rows > rect {
            return Err(format!(
                "`table5.operands` = {operands}: needs a texture of {rows} rows of {ULP_WIDTH}, above this device's largest rectangle texture ({rect})"
            ));
        }
        if self.sec51.scan as u64 > rect {
            return Err(format!(
                "`sec51.scan` = {}: above this device's largest rectangle texture ({rect})",
                self.sec51.scan
            ));
        }
        let need = host_bytes(sizes, operands);
        if let Some(avail) = crate::util::available_memory()
            && need > avail
        {
            return Err(format!(
                "these sizes need about {need} bytes of memory (matrices, references and kept factors for every order, the textures of the largest), more than the {avail} bytes available (MemAvailable)"
            ));
        }
        Ok(())
    }
}

/// Bytes a run holds at its peak: per order the matrix (4N²), its `f64` factors (8N²), the CPU
/// `f32` factors (4N²) and the eight configurations' factors (32N²); for the largest order the
/// texture data in flight (packed RGBA upload and readback, 2 × 16N²), two RGBA32F textures
/// (2 × 16N², host memory on a software rasterizer) and faer's copy (4N²); Table 5's operands
/// and results (40 bytes a pair, twice).
pub fn host_bytes(sizes: &[u32], operands: usize) -> u64 {
    let sq = |n: u32| (n as u64).pow(2);
    let kept: u64 = sizes.iter().map(|&n| 48 * sq(n)).sum();
    let top = sizes.iter().copied().max().unwrap_or(0);
    kept + 68 * sq(top) + 80 * operands as u64
}

/// Checked by the runner before any work starts: every number, then the sizes of this mode
/// against the device and the host.
impl crate::runner::Experiments for Config {
    fn validate(&self, check: &crate::runner::Check) -> Result<(), String> {
        Config::validate(self)?;
        self.check_resources(
            check.device,
            self.table4.sizes.pick(check.mode),
            *self.table5.operands.pick(check.mode),
        )
    }
}
