//! §4.3: the fetch-only variant of the best configuration (arithmetic removed, the same
//! texture reads), its bandwidth under the paper's model, and the fraction of this device's
//! texture-read bandwidth.

use std::collections::{BTreeMap, HashMap};

use crate::gl::Format;
use crate::report::{Column, bound_columns};
use crate::runner::{RunError, Session};

use super::super::fragment::Params;
use super::super::theory;
use super::{Config, Measured, Reference, configs, key, table4};

/// What §4.3 measured, for the findings.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bandwidth {
    /// Achieved GB/s of the fetch-only run and the device's texture-read GB/s.
    pub gbps: f64,
    pub device_gbps: f64,
    /// G of the fetch-only run over G of the full run.
    pub fetch_over_full: f64,
}

/// The fetch-only run's work over its time G (the draw calls alone, no copies): the draws'
/// fetches and writes, [`table4::fragment_work`] without its copies and arithmetic.
fn fetch_work(info: &super::super::fragment::LuInfo) -> crate::bench::Work {
    let mut w = table4::fragment_work(info, true);
    w.bytes.copy -= 2.0 * info.copied_bytes as f64;
    w
}

pub(super) fn run(
    s: &Session,
    cfg: &Config,
    fmt: Format,
    sizes: &[u32],
    refs: &BTreeMap<u32, Reference>,
    measured: &HashMap<String, Measured>,
) -> Result<Option<Bandwidth>, RunError> {
    let n = *sizes.last().expect("validated: sizes are not empty");
    let best = configs()
        .into_iter()
        .filter_map(|(v, m)| measured.get(&key(n, v, m)).map(|x| (v, m, x)))
        .max_by(|a, b| a.2.gflops.total_cmp(&b.2.gflops));
    let Some((v, m, full)) = best else {
        return Ok(None);
    };
    let b = &cfg.bandwidth;
    let mut t = s.table(
        "sec4_3",
        "§4.3 — fetch-only variant of the best configuration: achieved bandwidth vs this device's texture-read bandwidth",
        vec![
            Column::key("config").text(),
            Column::ours("G full").unit("ms"),
            Column::ours("G fetch-only").unit("ms"),
            Column::ours("bandwidth").unit("GB/s"),
            Column::ours("device texture read").unit("GB/s"),
            Column::ours("fraction").fixed(2),
            Column::paper("Quadro bandwidth").unit("GB/s"),
            Column::paper("Quadro cache bandwidth").unit("GB/s"),
            Column::paper("Quadro fraction").fixed(2),
        ]
        .into_iter()
        .chain(bound_columns())
        .collect(),
        &(b, n, v, m),
    )?;
    t.caption("Bandwidth = Table 2 bytes referenced / G of the fetch-only run (the paper's model: every fetch from the texture cache, no reuse in registers); median of G over the timed runs, with table4's repetitions. Device texture read: `gpgpu_repro::bench::texture_read_bandwidth` (a fragment pass reading 8 consecutive RGBA32F texels per fragment, verified). Paper: I3 + switch, N = 2048, Quadro FX 3400. Not verified: the fetch-only program's result is not a factorization.");
    let k = format!("N={n} {v} {m}");
    // With `--resume` the row is reused where table4's row it compares with was too (its
    // "G full" is that row's G).
    if full.reused
        && let Some(row) = t.reuse(&k)?
    {
        let [gbps, dev, g_full, g_fetch] =
            ["bandwidth", "device texture read", "G full", "G fetch-only"]
                .map(|c| t.value(&row, c).unwrap_or(f64::NAN));
        t.finish()?;
        return Ok(Some(Bandwidth {
            gbps,
            device_gbps: dev,
            fetch_over_full: g_fetch / g_full,
        }));
    }
    t.start(&k);
    let dev = crate::bench::texture_read_bandwidth(&s.gl, b.texture_size)?.gb_per_s;
    let mut p = Params::new(v, m);
    p.scalar_format = fmt;
    p.profile = true;
    p.fetch_only = true;
    let r = &refs[&n];
    let (info, runs, _) =
        table4::measure(&s.gl, &r.a, n as usize, p, table4::plan_for(cfg, n), |i| {
            i.g_ms
        })
        .map_err(RunError::algorithm)?;
    let bytes = theory::table2(v, n as f64).1;
    let gbps = bytes / (info.g_ms * 1e-3) / 1e9;
    t.push(
        t.row(&k)
            .text("config", format!("{v} {m}, N = {n}"))
            .num("G full", full.info.g_ms)
            .num("G fetch-only", info.g_ms)
            .num("bandwidth", gbps)
            .num("device texture read", dev)
            .num("fraction", gbps / dev)
            .num("Quadro bandwidth", b.paper_gbps)
            .num("Quadro cache bandwidth", b.paper_cache_gbps)
            .num("Quadro fraction", b.paper_fraction)
            .work(
                format!("{} fetch-only", table4::kernel(v, m)),
                fetch_work(&info),
                info.g_ms,
            )
            .runs(runs)
            .unchecked("fetch-only: its result is not a factorization"),
    )?;
    t.finish()?;
    Ok(Some(Bandwidth {
        gbps,
        device_gbps: dev,
        fetch_over_full: info.g_ms / full.info.g_ms,
    }))
}
