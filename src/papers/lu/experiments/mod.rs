//! The paper's tables and figures, regenerated, one file each: Tables 1 and 2
//! (`tables_1_2.rs`), Table 4 (`table4.rs`), Table 5 (`table5.rs`), Fig. 6 (`fig6.rs`), §4.3
//! (`sec4_3.rs`), §5.1 (`sec5_1.rs`), the audit of the paper's own numbers (`audits.rs`), the
//! four findings re-tested (`findings/`), the CPU baselines (`cpu.rs`) and the compute-shader
//! LU beyond the paper (`compute.rs`).
//!
//! # Verification
//! Every factorization is compared with the `f64` factors of the same loop
//! (`max_rel_error`, the max-norm difference over the packed factors relative to the largest
//! `f64` entry) within [`super::cpu::tolerance`], four times the error of the CPU `f32` loop
//! on the same matrix. Where this device's fragment arithmetic rounds `+ − × ÷` correctly
//! (Table 5, measured first) the fragment factors must moreover be bit-identical to that
//! loop's (§5.1: same operations, same order, same rounding).
//!
//! # `--resume`
//! Every measuring table reuses the rows of an earlier run with the same configuration on the
//! same device: Table 5 all four or none (their statistics decide how the factorizations are
//! verified), Table 4 per configuration (with one untimed factorization for the counts and
//! factors the later tables need), `compute` and `cpu` per row, §4.3 where Table 4's row it
//! compares with was reused; table4 and `compute` all rows of an order or none (they are
//! timed in the same rounds). Tables 1 and 2 and §5.1 measure nothing of their own: they are
//! recomputed from Table 4's counts and factors (instant).

mod audits;
mod compute;
mod config;
mod cpu;
mod family;
mod fig6;
mod findings;
mod sec4_3;
mod sec5_1;
mod sec5_1_2005;
mod table4;
mod table5;
mod table5_family;
mod tables_1_2;

use std::collections::{BTreeMap, HashMap};

use crate::gl::{Need, PingPongMethod};
use crate::report::RowBuilder;
use crate::runner::{RunError, Session, TableSpec};
use crate::util::max_rel_error;

use super::LuInfo;
use super::Variant;
use super::cpu::{Reference, Update, diag_dominant};
use super::{Feed, method_label};

pub use config::{Config, host_bytes};

/// What one configuration measured at one order (for Tables 1, 2, Fig. 6, §4.3 and §5.1).
#[derive(Clone, Debug)]
struct Measured {
    info: LuInfo,
    /// A over table4's rounds (its samples in round order: configurations of one order pair
    /// by index).
    a: crate::stats::Estimate,
    /// G and T over the same rounds (round order, as `a`); `info` holds their medians (its
    /// other parts are the median run's).
    g: crate::stats::Estimate,
    t: crate::stats::Estimate,
    gflops: f64,
    factors: Vec<f32>,
}

/// The order-`n` test matrix of the tables and its references.
fn reference(cfg: &Config, n: u32) -> Result<Reference, RunError> {
    let a = diag_dominant(n as usize, cfg.table4.seed + n as u64);
    Reference::of(a, n as usize).map_err(RunError::algorithm)
}

/// The configuration (with the copy method) that §5.1's ablation under the 2005 arithmetic
/// model runs with one operation emulated at a time.
pub const ABLATION_VARIANT: Variant = Variant::I1;

/// The eight configurations, copy method first.
fn configs() -> Vec<(Variant, PingPongMethod)> {
    let mut v = vec![];
    for m in PingPongMethod::ALL {
        for var in Variant::ALL {
            v.push((var, m));
        }
    }
    v
}

fn key(n: u32, v: Variant, m: PingPongMethod) -> String {
    format!("N={n} {v} {m}")
}

/// A configuration with its form of the method (issue 38): the paper's ([`configs`], keyed
/// by [`key`]) or a labelled alternative ([`labelled_configs`]).
type Form = (Variant, PingPongMethod, Feed);

/// The labelled alternatives that differ from the paper's form: "copy (rendered only)" for
/// I1, I3, I4 (I2 copies its rectangle either way), "switch (carry)" for all four.
fn labelled_configs() -> Vec<Form> {
    let mut v = vec![];
    for m in PingPongMethod::ALL {
        for var in Variant::ALL {
            if !(m == PingPongMethod::Copy && var == Variant::I2) {
                v.push((var, m, Feed::Alt));
            }
        }
    }
    v
}

/// The row key of a configuration in a form: [`key`] for the paper's, `N=64 I1 switch (carry)`
/// for an alternative.
fn form_key(n: u32, (v, m, f): Form) -> String {
    match f {
        Feed::Paper => key(n, v, m),
        Feed::Alt => format!("N={n} {v} {}", method_label(m, f)),
    }
}

/// Whether two factorizations hold the same bits.
fn bit_identical(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Verifies fragment-shader factors (see the module docs): error vs `f64` within the
/// tolerance, and, on a correctly rounding device, the bits of the CPU `f32` loop.
fn verify_fragment(
    row: RowBuilder,
    factors: &[f32],
    r: &Reference,
    exact: bool,
    form: Update,
) -> RowBuilder {
    let err = max_rel_error(factors, &r.f64);
    if exact && !bit_identical(factors, r.cpu_f32_of(form)) {
        row.fail(format!(
            "factors differ from the CPU f32 loop's bits ({form:?} update) although this device rounds + − × ÷ correctly (Table 5); error vs f64 {err:.3e}"
        ))
    } else {
        row.verify(err, r.tol)
    }
}

/// The tables and what they need: the paper's fragment-shader LU (Tables 1, 2, 4, §4.3,
/// §5.1) runs on GL 3.3 core; the compute-shader LU beyond the paper needs GL 4.3, and so
/// does Table 5's compute column (empty where compute is lacking).
pub const TABLES: &[TableSpec] = &[
    TableSpec::any("table4"),
    TableSpec::needs("compute", &[Need::Compute]),
    TableSpec::needs("tuning", &[Need::Compute]),
    TableSpec::any("cpu"),
    TableSpec::any("table1"),
    TableSpec::any("table2"),
    TableSpec::any("sec4_3"),
    TableSpec::any("table5"),
    TableSpec::any("sec5_1"),
    TableSpec::any("sec5_1_2005"),
    TableSpec::any("sec5_1_family"),
    TableSpec::any("table5_family"),
];

/// Runs the paper's experiments.
pub struct Lu;

impl crate::runner::Paper for Lu {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        let sizes = cfg.table4.sizes.pick(s.mode).to_vec();
        let fmt = cfg.table4.scalar_format.format();
        // Table 5's measurement first: whether the fragment arithmetic rounds correctly decides
        // how the factorizations are verified.
        let (t5, ulps) = table5::measure(s, cfg)?;
        let exact = table5::rounds_correctly(&ulps.fragment);
        let mut refs: BTreeMap<u32, Reference> = BTreeMap::new();
        for &n in &sizes {
            refs.insert(n, reference(cfg, n)?);
        }
        let measured = table4::run(s, cfg, fmt, &sizes, &refs, exact)?;
        let compute = if s.runs("compute") && s.runs("tuning") {
            compute::run(s, cfg, &sizes, &refs)?
        } else {
            ComputeTimes::new()
        };
        let cpu = cpu::run(s, cfg, &sizes, &refs)?;
        fig6::run(s, cfg, &sizes, &measured, &compute)?;
        tables_1_2::run(s, &sizes, &measured)?;
        let bw = sec4_3::run(s, cfg, fmt, &sizes, &refs, &measured)?;
        table5::table(s, cfg, t5, &ulps)?;
        let first_diff = sec5_1::run(s, cfg, &sizes, &refs, &measured)?;
        let model = sec5_1_2005::run(s, cfg)?;
        if s.runs("table5_family") {
            table5_family::run(s, cfg)?;
        }
        let family = if s.runs("sec5_1_family") {
            family::run(s, cfg)?
        } else {
            vec![]
        };
        audits::run(s, cfg);
        findings::run(
            s,
            cfg,
            &findings::Results {
                sizes: &sizes,
                measured: &measured,
                cpu: &cpu,
                compute: &compute,
                bw,
                ulps: &ulps,
                first_diff,
                model: &model,
                family: &family,
            },
        );
        Ok(())
    }
}

/// GFLOPS of `flops` done in `ms` milliseconds.
fn gflops(flops: f64, ms: f64) -> f64 {
    flops / (ms * 1e-3) / 1e9
}

/// The compute rows' (time ms, GFLOPS with its interval) by row key.
type ComputeTimes = HashMap<String, (f64, crate::stats::Estimate)>;
