//! Table 4: the time A of the whole decomposition and its parts G (draw calls), C (the CPU
//! side: binds and uploads) and T (copies), every configuration at every order (§4.1).

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::steady::warm_run;
use crate::gl::timing::{Rounds, TimingPlan, repeat, rounds};
use crate::gl::{Format, Gl};
use crate::report::{Column, Row, RowBuilder, with_bound_columns};
use crate::runner::cap::over_cap;
use crate::runner::{Mode, RunError, Session, TableWriter};
use crate::stats::Estimate;
use crate::stats::max_rel_error;

use super::super::fragment::{Feed, FragmentLu, LuInfo, Params};
use super::super::theory;
use super::config::Config;
use super::forms::{Form, configs, form_key, labelled_configs};
use super::measured::{Measured, gflops, verify_fragment};
use crate::papers::lu::cpu::Reference;
use crate::papers::lu::error::LuError;

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
/// from `single_run_from` on — except at the paper's N in a full run, where findings 1, 2 and
/// §4.2's claims are judged: there exactly the rounds a 95 % interval needs (issue 37; on
/// llvmpipe about 7 × 70 s for the eight paper forms at N = 2048).
pub(super) fn plan_for(cfg: &Config, n: u32, mode: Mode) -> TimingPlan {
    let plan = cfg.table4.repeat.pick(mode).plan();
    if mode == Mode::Full && n == cfg.table4.paper.top() {
        // The budget only guards a stuck device: the rounds are the point.
        TimingPlan::fixed(
            plan.warmup,
            crate::stats::MIN_SAMPLES_FOR_CI,
            Duration::from_secs(900),
        )
    } else if n >= cfg.table4.single_run_from {
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
        let info = warm_run(gl, || {
            lu.upload(a)?;
            lu.run()
        })?;
        Ok((info, time(&info)))
    })?;
    Ok((*samples.median(), samples.runs.len(), lu))
}

/// The rows of one order: every configuration that runs there (scalar ones up to
/// `scalar_max_n`), the paper's forms in [`configs`]' order, then (at `labelled_sizes`) the
/// labelled alternatives.
fn configs_at(cfg: &Config, n: u32, mode: Mode) -> Vec<Form> {
    let labelled = cfg.table4.labelled_sizes.pick(mode).contains(&n);
    configs()
        .into_iter()
        .map(|(v, m)| (v, m, Feed::Paper))
        .chain(labelled_configs().into_iter().filter(|_| labelled))
        .filter(|(v, _, _)| v.vector() || n <= cfg.table4.scalar_max_n)
        .collect()
}

/// The method's name in a row: `copy`, `switch`, `copy (rendered only)`, `switch (carry)`.
fn method_name((_, m, f): Form) -> &'static str {
    crate::papers::lu::fragment::method_label(m, f)
}

/// One configuration during an order's rounds: its decomposition (or why it could not be
/// built or run) and the info of each of its timed runs, round by round.
struct InRounds {
    lu: Result<FragmentLu, String>,
    infos: Vec<LuInfo>,
}

/// The table, with its captions for `sizes`.
fn table(s: &Session, cfg: &Config, sizes: &[u32], exact: bool) -> Result<TableWriter, RunError> {
    let c = &cfg.table4;
    let mut t = s.table(
        "table4",
        "Table 4 — time A of the whole decomposition and its parts G (draws), C (CPU side), T (copies), ms; paper: Quadro FX 3400",
        with_bound_columns(vec![
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
        ]),
        &(c, &cfg.table4.scalar_format),
    )?;
    t.caption("GFLOPS = Table 2 flops / A (a division counted as 2; I2 counts its doubled arithmetic). As the paper defines them: G = the time in the draw calls alone, each bracketed by glFinish; T = the time in glCopyTexSubImage2D, bracketed the same way; C = A − G − T, the CPU side (binding the output, programs and textures, uniform and vertex uploads, and the instrumentation's glFinish calls). Upload and readback are excluded. G carry = the part of G that draws carried texels: only the labelled \"switch (carry)\" form has any (table1).");
    t.caption("Methods (issue 38; src/papers/lu/fragment/mod.rs says why): `copy` and `switch` are the paper's forms (§3.3, Table 1). `copy` copies the step's whole active block (L column and trailing block) after each of the step's passes, which gives Table 1's bytes for I1 and I2 (table1). `switch` draws no texel twice: I2 ping-pongs two textures; I1, I3 and I4 add a third texture for the L values, which the text of §3.3 (one input and one output texture) does not mention but the paper's G times require (a two-texture I1 must redraw the previous trailing block in each L pass). The labelled alternatives, built first, run beside them: `copy (rendered only)` copies each pass's own rectangle (half the bytes for I1, I3, I4; for I2 the same as `copy`, not repeated), `switch (carry)` has two textures and every pass also redraws the texels the previous pass computed. All forms compute the same operations in the same order; their factors are verified alike. The paper's Quadro numbers stand beside the paper's forms only.");
    let r = c.repeat.pick(s.mode);
    t.caption(format!(
        "Interleaved: at each order the eight configurations (I1–I4 × copy/switch, the paper's forms; at N = {} also the labelled alternatives) factor the same matrix in rounds — each round runs every configuration once, in a shuffled order, with a fresh upload before each run (outside A) — {} (the medians: the configurations' A); from N = {} on a single round. A = median [95 % interval] over the rounds (distribution-free order-statistic interval of the median; `*` marks fewer than 6 rounds, where it is [min, max]); G and T = median [95 % interval] over the same rounds (their own interval, no between-run term); C and G carry are those of the run whose A is the median (not intervals). GFLOPS, A / paper A and `of bound` carry A's interval. Ratios between configurations (findings 1 and 2, on the paper's forms) are paired by round. error = max |LU_gpu − LU_f64| / max |LU_f64| over the packed factors; tolerance = 4 × the CPU f32 loop's own error on the same matrix (at least 4 ULP){}.",
        {
            let l = c.labelled_sizes.pick(s.mode);
            if l.is_empty() {
                "none".to_string()
            } else {
                l.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
            }
        },
        r.rule("round", "configuration"),
        c.single_run_from,
        if exact {
            ", and — this device rounds + − × ÷ correctly (Table 5) — factors bit-identical to the CPU f32 loop's"
        } else {
            ""
        }
    ));
    let rows: usize = sizes
        .iter()
        .map(|&n| configs_at(cfg, n, s.mode).len())
        .sum();
    t.expect_rows(rows);
    if s.mode == Mode::Full && sizes.contains(&c.paper.top()) {
        t.caption(format!(
            "At the paper's N = {} (where findings 1, 2 and §4.2 are judged) exactly {} rounds, \
             whatever the single-round rule above says.",
            c.paper.top(),
            crate::stats::MIN_SAMPLES_FOR_CI
        ));
    }
    if sizes.iter().any(|&n| n > c.scalar_max_n) {
        t.caption(format!("I1 and I2 (scalar layout, 4× the fragments of I3/I4) run up to N = {} only, to keep the full run within its time budget.", c.scalar_max_n));
    }
    Ok(t)
}

/// The parameters of configuration `(v, m)` in form `f`: profiled, with the scalar layout's
/// format.
fn params(fmt: Format, (v, m, f): Form) -> Params {
    let mut p = Params::new(v, m);
    p.scalar_format = fmt;
    p.profile = true;
    p.feed = f;
    p
}

/// One order of the table: its references and the configurations that run at it, with their
/// row keys.
struct Order<'a> {
    n: u32,
    r: &'a Reference,
    cfgs: Vec<Form>,
    keys: Vec<String>,
}

/// Table 4, order by order, and the orders it ran: from the first order predicted over the
/// mode's `max_run_s` on, the rows say why they were not run ([`over_cap`]).
pub(super) fn run(
    s: &Session,
    cfg: &Config,
    fmt: Format,
    sizes: &[u32],
    refs: &BTreeMap<u32, Reference>,
    exact: bool,
) -> Result<(HashMap<String, Measured>, Vec<u32>), RunError> {
    let mut t = table(s, cfg, sizes, exact)?;
    let mut out = HashMap::new();
    let cap = Some(*cfg.table4.max_run_s.pick(s.mode));
    // The last order run and its slowest configuration's median A (ms): the cap's predictor.
    let mut last: Option<(usize, f64)> = None;
    let mut over: Option<String> = None;
    let mut ran = vec![];
    for &n in sizes {
        s.check_interrupt()?;
        let cfgs = configs_at(cfg, n, s.mode);
        let keys: Vec<String> = cfgs.iter().map(|&f| form_key(n, f)).collect();
        let o = Order {
            n,
            r: &refs[&n],
            cfgs,
            keys,
        };
        // Over the cap, this order and every larger one are not run.
        over = over.or_else(|| over_cap("the slowest configuration", last, n as usize, cap, 3));
        if let Some(why) = &over {
            for (&(v, m, f), k) in o.cfgs.iter().zip(&o.keys) {
                let row = t.row(k).num("N", n as f64).text("impl", v.name());
                t.push(row.text("method", method_name((v, m, f))).skip(why.clone()))?;
            }
            continue;
        }
        ran.push(n);
        // Where a reused row cannot give its counts, the order is measured again (and fails
        // there, row by row).
        let reused = match t.reuse_all(&o.keys)? {
            Some(rows) => reuse_order(s, &t, fmt, &o, &rows, &mut out),
            None => false,
        };
        if !reused {
            measure_order(s, &mut t, cfg, fmt, &o, exact, &mut out)?;
        }
        let slowest = o.keys.iter().filter_map(|k| out.get(k)).map(|m| m.a.median);
        last = slowest.reduce(f64::max).map(|ms| (n as usize, ms)).or(last);
    }
    t.finish()?;
    Ok((out, ran))
}

/// An order whose rows are all reused: whether each gave its counts and factors (into
/// `out`).
fn reuse_order(
    s: &Session,
    t: &TableWriter,
    fmt: Format,
    o: &Order,
    rows: &[Row],
    out: &mut HashMap<String, Measured>,
) -> bool {
    // Tables 1, 2, Fig. 6, §4.3 and §5.1 need the run's counts and factors, which a
    // row does not hold: one untimed factorization (no warm-up) each gives them; the
    // times (A with its rounds, G, C, T, G carry) and GFLOPS are the reused rows'.
    let mut all = true;
    for ((&form, k), row) in o.cfgs.iter().zip(&o.keys).zip(rows) {
        let times = ["C", "G carry", "GFLOPS"].map(|c| t.value(row, c));
        let est = |c: &str| row.values[t.table().col(c)].estimate().cloned();
        let (a, g, copy) = (est("A"), est("G"), est("T"));
        let once = TimingPlan::once();
        let res = measure(&s.gl, &o.r.a, o.n as usize, params(fmt, form), once, |i| {
            i.a_ms
        })
        .and_then(|(info, _, lu)| Ok((info, lu.factors()?)));
        match (a, g, copy, times, res) {
            (
                Some(a),
                Some(g),
                Some(copy),
                [Some(cpu), Some(carry), Some(gf)],
                Ok((mut info, factors)),
            ) => {
                (info.a_ms, info.g_ms, info.c_ms, info.t_ms) =
                    (a.median, g.median, cpu, copy.median);
                info.g_carry_ms = carry;
                out.insert(
                    k.clone(),
                    Measured {
                        info,
                        a,
                        g,
                        t: copy,
                        gflops: gf,
                        factors,
                    },
                );
            }
            _ => all = false,
        }
    }
    all
}

/// An order measured: the configurations timed in rounds, a row each (into `t` and `out`).
fn measure_order(
    s: &Session,
    t: &mut TableWriter,
    cfg: &Config,
    fmt: Format,
    o: &Order,
    exact: bool,
    out: &mut HashMap<String, Measured>,
) -> Result<(), RunError> {
    let (c, n, r) = (&cfg.table4, o.n, o.r);
    for k in &o.keys {
        t.start(k);
    }
    let (runs, timed) = time_in_rounds(s, cfg, fmt, o)?;
    for (i, (&form, k)) in o.cfgs.iter().zip(&o.keys).enumerate() {
        let (v, m, f) = form;
        let flops = theory::table2(v, n as f64).0;
        let mut row = t
            .row(k)
            .num("N", n as f64)
            .text("impl", v.name())
            .text("method", method_name(form));
        // The paper's numbers beside the paper's forms only.
        let printed = c.paper.get(v, m, n).filter(|_| f == Feed::Paper);
        if let Some(p) = printed {
            row = paper_cells(row, p, flops);
        }
        let paper_a = printed.map(|p| p[0]);
        let x = &runs[i];
        let factors = (x.lu.as_ref().map_err(Clone::clone))
            .and_then(|lu| lu.factors().map_err(|e| e.to_string()));
        let timing = &timed.timings[i];
        let factors = match factors {
            Ok(f) => f,
            Err(why) => {
                t.push(row.fail(why))?;
                continue;
            }
        };
        let (info, g, copy) = median_parts(&x.infos, timing.median_ms);
        let a = timing.est();
        let gf = timing.rate(flops / 1e9);
        let row = row
            .timed("A", timing)
            .est("G", g.clone())
            .num("C", info.c_ms)
            .est("T", copy.clone())
            .num("G carry", info.g_carry_ms)
            .est("GFLOPS", gf.clone())
            .opt_est("A / paper A", paper_a.map(|p| a.map(|ms| ms / p)))
            .num("error vs f64", max_rel_error(&factors, &r.f64))
            .work_timed(
                kernel(v, method_name(form)),
                fragment_work(&info, false),
                timing,
            )
            .versus(VERSUS, format!("N = {n}"))
            .runs(timing.runs);
        t.push(verify_fragment(
            row,
            &factors,
            r,
            exact,
            params(fmt, form).update(),
        ))?;
        out.insert(
            k.clone(),
            Measured {
                info,
                a,
                g,
                t: copy,
                gflops: gf.median,
                factors,
            },
        );
    }
    Ok(())
}

/// The Quadro's `[A, G, C, T]` of this configuration (Table 4) and its GFLOPS, in `row`.
fn paper_cells(row: RowBuilder, [pa, pg, pc, pt]: [f64; 4], flops: f64) -> RowBuilder {
    row.num("Quadro A", pa)
        .num("Quadro G", pg)
        .num("Quadro C", pc)
        .num("Quadro T", pt)
        .num("Quadro GFLOPS", gflops(flops, pa))
}

/// The parts of the run whose A is `median_ms` (C and G carry of that run), with G and T
/// over the rounds `infos` (their own interval, round order kept for the paired ratios of
/// §4.2's L6) and their medians in the info.
fn median_parts(infos: &[LuInfo], median_ms: f64) -> (LuInfo, Estimate, Estimate) {
    let mut info = infos
        .iter()
        .find(|info| info.a_ms == median_ms)
        .copied()
        .unwrap_or_else(|| *infos.last().expect("at least one round"));
    let over_rounds = |part: fn(&LuInfo) -> f64| {
        let v: Vec<f64> = infos.iter().map(part).collect();
        crate::stats::per_round(&v).expect("at least one round")
    };
    let (g, copy) = (over_rounds(|i| i.g_ms), over_rounds(|i| i.t_ms));
    (info.g_ms, info.t_ms) = (g.median, copy.median);
    (info, g, copy)
}

/// The order's configurations timed in interleaved rounds (each with its decomposition, or
/// why it failed, and the info of its timed runs).
fn time_in_rounds(
    s: &Session,
    cfg: &Config,
    fmt: Format,
    o: &Order,
) -> Result<(Vec<InRounds>, Rounds), RunError> {
    let (n, r) = (o.n, o.r);
    let mut runs: Vec<InRounds> = o
        .cfgs
        .iter()
        .map(|&form| InRounds {
            lu: FragmentLu::new(&s.gl, &r.a, n as usize, params(fmt, form))
                .map_err(|e| e.to_string()),
            infos: vec![],
        })
        .collect();
    let plan = plan_for(cfg, n, s.mode);
    let warmup = plan.warmup;
    let mut calls = vec![0usize; runs.len()];
    // A configuration that fails is dropped from the rounds (its row fails); the others
    // go on. Its later "runs" take no time.
    let timed = rounds(plan, runs.len(), |i| -> Result<f64, RunError> {
        s.check_interrupt()?;
        calls[i] += 1;
        let timed_run = calls[i] > warmup;
        let x = &mut runs[i];
        let Ok(lu) = x.lu.as_mut() else {
            return Ok(0.0);
        };
        match warm_run(&s.gl, || {
            lu.upload(&r.a)?;
            lu.run()
        }) {
            Ok(info) => {
                if timed_run {
                    x.infos.push(info);
                }
                Ok(info.a_ms)
            }
            Err(e) => {
                x.lu = Err(e.to_string());
                Ok(0.0)
            }
        }
    })?;
    Ok((runs, timed))
}
