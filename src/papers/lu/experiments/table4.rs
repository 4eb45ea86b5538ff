//! Table 4: the time A of the whole decomposition and its parts G (draw calls), C (the CPU
//! side: binds and uploads) and T (copies), every configuration at every order (§4.1).

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::timing::{TimingPlan, repeat};
use crate::gl::{Format, Gl};
use crate::report::{Column, bound_columns};
use crate::runner::{RunError, Session};
use crate::util::max_rel_error;

use super::super::fragment::{FragmentLu, LuInfo, Params};
use super::super::{LuError, theory};
use super::{Config, Measured, Reference, configs, gflops, key, verify_fragment};

/// The algorithm the fragment variants and the compute LU without pivoting share, for the
/// legacy-vs-compute table.
pub(super) const VERSUS: &str = "LU without pivoting";

/// The work of one decomposition (the time A), from the run's own counts (the ones Tables 1
/// and 2 print, [`LuInfo`]):
///
/// ```text
/// bytes  = fetched + texel·(fragments + 2·carried) + 2·copied
/// flops  = flops            (0 for the fetch-only variant: its arithmetic is removed)
/// passes = draws
/// ```
///
/// `fetched` is Table 2's count as we perform it (texture fetches × bytes per texel of the
/// computing fragments), each computing fragment writes one texel, the switch method's
/// carried texels are read and written once, and each `glCopyTexSubImage2D` byte (copy
/// method, Table 1) is read and written. Flops count a division as 2 (§3.6). No cache
/// model: each fetch is counted once though neighbouring fragments share rows and columns.
pub(super) fn fragment_work(info: &LuInfo, fetch_only: bool) -> Work {
    let texel = info.texel_bytes as f64;
    // One-channel textures (I1, I2) are scalar fetches, four-channel (I3, I4) RGBA.
    let fetch = if info.texel_bytes >= 16 {
        Access::TexRgba
    } else {
        Access::TexScalar
    };
    Work {
        bytes: Bytes::of(&[
            (
                fetch,
                info.fetched_bytes as f64 + texel * info.carried_fragments as f64,
            ),
            (
                Access::Target,
                texel * (info.fragments + info.carried_fragments) as f64,
            ),
            (Access::Copy, 2.0 * info.copied_bytes as f64),
        ]),
        flops32: if fetch_only { 0.0 } else { info.flops as f64 },
        passes: info.draws,
        kind: Kind::Fragment,
        ..Work::default()
    }
}

/// The roofline's name of a configuration: `"I3 switch"`.
pub(super) fn kernel(v: impl std::fmt::Display, m: impl std::fmt::Display) -> String {
    format!("{v} {m}")
}

/// The timing plan of an order: the table's, with a single timed run (after the same warm-up)
/// from `single_run_from` on.
pub(super) fn plan_for(cfg: &Config, n: u32) -> TimingPlan {
    let plan = cfg.table4.repeat.plan();
    if n >= cfg.table4.single_run_from {
        TimingPlan::new(plan.warmup, 1, Duration::ZERO)
    } else {
        plan
    }
}

/// Runs one configuration through the shared repetition loop (a fresh upload before each run,
/// outside A); returns the run with the median of `time` (A or G), the number of timed runs,
/// and the decomposition (holding the last run's result).
pub(super) fn measure(
    gl: &Gl,
    a: &[f32],
    n: usize,
    params: Params,
    plan: TimingPlan,
    time: fn(&LuInfo) -> f64,
) -> Result<(LuInfo, usize, FragmentLu), LuError> {
    let mut lu = FragmentLu::new(gl, a, n, params)?;
    let samples = repeat(plan, || -> Result<_, LuError> {
        lu.upload(a)?;
        let info = lu.run()?;
        Ok((info, time(&info)))
    })?;
    Ok((*samples.median(), samples.runs.len(), lu))
}

pub(super) fn run(
    s: &Session,
    cfg: &Config,
    fmt: Format,
    sizes: &[u32],
    refs: &BTreeMap<u32, Reference>,
    exact: bool,
) -> Result<HashMap<String, Measured>, RunError> {
    let c = &cfg.table4;
    let mut t = s.table(
        "table4",
        "Table 4 — time A of the whole decomposition and its parts G (draws), C (CPU side), T (copies), ms; paper: Quadro FX 3400",
        vec![
            Column::key("N").int(),
            Column::key("impl").text(),
            Column::key("method").text(),
            Column::ours("A").unit("ms"),
            Column::ours("G").unit("ms"),
            Column::ours("C").unit("ms"),
            Column::ours("T").unit("ms"),
            Column::ours("G carry").unit("ms"),
            Column::ours("GFLOPS"),
            Column::paper("Quadro A").unit("ms").int(),
            Column::paper("Quadro G").unit("ms").int(),
            Column::paper("Quadro C").unit("ms").int(),
            Column::paper("Quadro T").unit("ms").int(),
            Column::audit("Quadro GFLOPS"),
            Column::ours("A / paper A").fixed(2),
            Column::ours("error vs f64").sci(2),
        ]
        .into_iter()
        .chain(bound_columns())
        .collect(),
        &(c, &cfg.table4.scalar_format),
    )?;
    t.caption("GFLOPS = Table 2 flops / A (a division counted as 2; I2 counts its doubled arithmetic). As the paper defines them: G = the time in the draw calls alone, each bracketed by glFinish; T = the time in glCopyTexSubImage2D, bracketed the same way; C = A − G − T, the CPU side (binding the output, programs and textures, uniform and vertex uploads, and the instrumentation's glFinish calls). Upload and readback are excluded. G carry = the part of G that draws the switch method's carried texels (table1, last column).");
    t.caption(format!("Median of A over the timed runs (the shared repetition loop: {} warm-up, up to {} runs within {} s; one timed run from N = {} on); G, C, T and G carry are those of the median run. error = max |LU_gpu − LU_f64| / max |LU_f64| over the packed factors; tolerance = 4 × the CPU f32 loop's own error on the same matrix (at least 4 ULP){}.", c.repeat.warmup, c.repeat.repetitions, c.repeat.budget_s, c.single_run_from, if exact { ", and — this device rounds + − × ÷ correctly (Table 5) — factors bit-identical to the CPU f32 loop's" } else { "" }));
    let scalar_rows = sizes.iter().filter(|&&n| n <= c.scalar_max_n).count();
    t.expect_rows(sizes.len() * 4 + scalar_rows * 4);
    if sizes.iter().any(|&n| n > c.scalar_max_n) {
        t.caption(format!("I1 and I2 (scalar layout, 4× the fragments of I3/I4) run up to N = {} only, to keep the full run within its time budget.", c.scalar_max_n));
    }
    let mut out = HashMap::new();
    for &n in sizes {
        let r = &refs[&n];
        for (v, m) in configs() {
            s.check_interrupt()?;
            if !v.vector() && n > c.scalar_max_n {
                continue;
            }
            let k = key(n, v, m);
            let mut p = Params::new(v, m);
            p.scalar_format = fmt;
            p.profile = true;
            if let Some(row) = t.reuse(&k)? {
                // Tables 1, 2, Fig. 6, §4.3 and §5.1 need the run's counts and factors, which
                // a row does not hold: one untimed factorization (no warm-up) gives them, and
                // the times (A, G, C, T, G carry) and GFLOPS are the reused row's.
                let times = ["A", "G", "C", "T", "G carry", "GFLOPS"].map(|c| t.value(&row, c));
                if let [
                    Some(a),
                    Some(g),
                    Some(cpu),
                    Some(copy),
                    Some(carry),
                    Some(gf),
                ] = times
                {
                    let once = TimingPlan::new(0, 1, Duration::ZERO);
                    let res = measure(&s.gl, &r.a, n as usize, p, once, |i| i.a_ms)
                        .and_then(|(info, _, lu)| Ok((info, lu.factors()?)));
                    // Where that run fails, the row is measured again below (and fails there).
                    if let Ok((mut info, factors)) = res {
                        (info.a_ms, info.g_ms, info.c_ms, info.t_ms) = (a, g, cpu, copy);
                        info.g_carry_ms = carry;
                        let (gflops, reused) = (gf, true);
                        out.insert(
                            k,
                            Measured {
                                info,
                                gflops,
                                factors,
                                reused,
                            },
                        );
                        continue;
                    }
                }
            }
            t.start(&k);
            let flops = theory::table2(v, n as f64).0;
            let mut row = t
                .row(&k)
                .num("N", n as f64)
                .text("impl", v.name())
                .text("method", m.name());
            if let Some([pa, pg, pc, pt]) = c.paper.get(v, m, n) {
                row = row
                    .num("Quadro A", pa)
                    .num("Quadro G", pg)
                    .num("Quadro C", pc)
                    .num("Quadro T", pt)
                    .num("Quadro GFLOPS", gflops(flops, pa));
            }
            let paper_a = c.paper.get(v, m, n).map(|p| p[0]);
            let res = measure(&s.gl, &r.a, n as usize, p, plan_for(cfg, n), |i| i.a_ms)
                .and_then(|(info, runs, lu)| Ok((info, runs, lu.factors()?)));
            match res {
                Ok((info, runs, factors)) => {
                    let gf = gflops(flops, info.a_ms);
                    let row = row
                        .num("A", info.a_ms)
                        .num("G", info.g_ms)
                        .num("C", info.c_ms)
                        .num("T", info.t_ms)
                        .num("G carry", info.g_carry_ms)
                        .num("GFLOPS", gf)
                        .opt("A / paper A", paper_a.map(|p| info.a_ms / p))
                        .num("error vs f64", max_rel_error(&factors, &r.f64))
                        .work(kernel(v, m), fragment_work(&info, false), info.a_ms)
                        .versus(VERSUS, format!("N = {n}"))
                        .runs(runs);
                    t.push(verify_fragment(row, &factors, r, exact))?;
                    out.insert(
                        k,
                        Measured {
                            info,
                            gflops: gf,
                            factors,
                            reused: false,
                        },
                    );
                }
                Err(e) => t.push(row.fail(e.to_string()))?,
            }
        }
    }
    t.finish()?;
    Ok(out)
}
