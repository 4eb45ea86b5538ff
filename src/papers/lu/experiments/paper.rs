//! The paper as the runner runs it: its tables, what they need, and their order.

use std::collections::BTreeMap;

use super::config::Config;
use super::measured::{ComputeTimes, reference};
use super::{
    audits, compute, cpu, family, fig6, findings, sec4_3, sec5_1, sec5_1_2005, table4, table5,
    table5_family, tables_1_2,
};
use crate::gl::Need;
use crate::papers::lu::cpu::Reference;
use crate::runner::{RunError, Session, TableSpec};

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
        // The orders over Table 4's `max_run_s` are left out of every table after it.
        let (measured, sizes) = table4::run(s, cfg, fmt, &sizes, &refs, exact)?;
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
