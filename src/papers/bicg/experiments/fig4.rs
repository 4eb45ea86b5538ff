//! Fig. 4 (§V.2): Poisson solve time per mesh, GL fp64 Bi-CG against the single-threaded CPU
//! Bi-CG, at the paper's meshes 16³ … 128³ and the same-size permutations of 64×128×64
//! (524,288 nodes) and 128×128×64 (1,048,576 nodes). The paper prints two points (16³ and
//! 128³, read from the experiment file) and one claim checked here: 64×128×64 takes about as
//! long as the meshes with twice its nodes (the memory access pattern of that orientation).
//!
//! # The CPU time of a large mesh
//! Above `fig4.cpu_scaled_above` nodes the CPU Bi-CG runs to convergence once, untimed and on
//! all of the host's CPUs ([`cpu::Threads`]: the same bits as on one) — the solution the GPU's
//! is verified against and its iteration count `n` — and `CPU time` is [`MIN_SAMPLES_FOR_CI`]
//! one-thread runs of its first `k = fig4.cpu_timed_iterations` iterations, each time × `n /
//! k` (`scaled`). Every iteration of NR's `linbcg` does the same work (two products, two
//! preconditioner solves, three dot products, the updates), so `t(n) = t₀ + n·t₁` with `t₀`
//! the set-up before the first iteration (the residual, one product, and the vectors'
//! allocation), and the scaled time `t(k)·n/k = n·t₁ + (n/k)·t₀` over-counts only `t₀`, `n/k −
//! 1` times. At the meshes of `fig4.cpu_full_solve` the converging solve is instead the
//! paper's one-thread whole solve, timed once (`CPU full solve`), and a note sets it beside
//! the scaled estimate, so that a run shows how far the rule is off on its host. The paper
//! times whole solves; six of them per mesh, which an interval needs, were most of a full
//! run's CPU time, and one whole one-thread solve at every large mesh was still most of a GPU
//! run's (on the H200 run's host 58 s at 128³ alone: `figures/nvidia-h200-pcie-sse2/bicg/`),
//! where the GPU idles.

use std::collections::BTreeMap;

use super::config::{Config, PaperTime};
use super::solve::pending_mesh;
use super::solve::{
    SOLVE_KERNEL, cpu_reference, cpu_solve, gpu_solve, not_converged, solution_tolerance, time_cpu,
    time_gpu,
};
use crate::gl::{Timing, TimingPlan};
use crate::papers::bicg::cpu::{self, BicgParams};
use crate::papers::bicg::gpu::GpuOptions;
use crate::papers::bicg::poisson::{Mesh, fig4_problem};
use crate::report::{Audit, Column, Dot, DotChart, DotSeries, Finding, Table, with_bound_columns};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::{MIN_SAMPLES_FOR_CI, max_rel_error};

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let (params, opts) = (&cfg.solver.params(), cfg.solver.gpu_options());
    let meshes = cfg.fig4.meshes.pick(s.mode);
    let mut t = table(s, cfg, opts, meshes.len())?;
    for spec in meshes {
        let Some((mesh, key)) = pending_mesh(s, &mut t, spec)? else {
            continue;
        };
        mesh_row(s, &mut t, cfg, (params, opts), &mesh, &key)?;
    }
    let table = t.finish()?;
    let out = measured(&table);
    chart(s, cfg, &table)?;
    audits(s, cfg);
    spread_notes(s, &out);
    scaled_note(s, &table, cfg.fig4.cpu_timed_iterations);
    twice_findings(s, &table, cfg.fig4.about_as_long);
    super::fig4_speed::speed_findings(s, cfg, &table);
    Ok(())
}

/// The figure's table and its captions (`meshes`: how many rows it expects).
fn table(
    s: &Session,
    cfg: &Config,
    opts: GpuOptions,
    meshes: usize,
) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "fig4",
        "Fig. 4 — Poisson solve time, GL fp64 Bi-CG vs single-thread CPU Bi-CG",
        with_bound_columns(vec![
            Column::key("Mesh").text(),
            Column::ours("Nodes").int(),
            Column::ours("Iter GPU").int(),
            Column::ours("Iter CPU").int(),
            Column::ours("GPU time").unit("ms").fixed(1),
            Column::ours("CPU time").unit("ms").fixed(1),
            Column::ours(CPU_FULL).unit("ms").fixed(1),
            Column::ours("GPU/CPU").fixed(2),
            Column::ours("True residual").sci(1),
            Column::paper("Paper CPU").unit("ms").fixed(1),
            Column::paper("Paper GPU").unit("ms").fixed(1),
            Column::paper("Paper GPU/CPU").fixed(3),
        ]),
        &(&cfg.solver, &cfg.fig4),
    )?;
    t.expect_rows(meshes);
    t.caption(format!(
        "GPU time: matrix upload + solve + solution readback (glFinish-bracketed), {} threads \
         per work group; CPU time: the same iteration, f64, one thread. Above {} nodes the CPU \
         solve runs to convergence once on all {} of this host's CPUs, untimed (the same bits \
         as on one: its solution and iterations are the row's), and `CPU time` is \
         {MIN_SAMPLES_FOR_CI} one-thread runs of its first {} iterations, each × its \
         iterations / {} (every iteration does the same work; the set-up before the first is \
         counted that many times over); at {} that converging solve is the one-thread whole \
         solve, timed once (`{CPU_FULL}`), which the notes set beside the scaled time. True \
         residual: ‖b − A x‖∞/‖b‖∞ of the GPU solution, in f64 on the CPU. Verified: GPU vs \
         CPU solution, max-norm relative difference.",
        opts.local_size,
        cfg.fig4.cpu_scaled_above,
        cpu::Threads::All.count(),
        cfg.fig4.cpu_timed_iterations,
        cfg.fig4.cpu_timed_iterations,
        full_solve_meshes(cfg),
    ));
    t.caption(format!(
        "GPU time: {}. CPU time: {}. GPU/CPU: the ratio of the medians, its interval [GPU lo / \
         CPU hi, GPU hi / CPU lo] (the two are timed one after the other, not in rounds).",
        super::solve::rule(&cfg.fig4.gpu),
        super::solve::rule(&cfg.fig4.cpu)
    ));
    Ok(t)
}

/// The row `key` of `mesh`: the CPU and the GL solve timed, the GL solution verified
/// against the CPU's.
fn mesh_row(
    s: &Session,
    t: &mut TableWriter,
    cfg: &Config,
    (params, opts): (&BicgParams, GpuOptions),
    mesh: &Mesh,
    key: &str,
) -> Result<(), RunError> {
    t.start(key);
    let sys = fig4_problem(mesh);
    let n = mesh.nodes();
    let six = TimingPlan::fixed(0, MIN_SAMPLES_FOR_CI, std::time::Duration::from_secs(600));
    let large = n > cfg.fig4.cpu_scaled_above;
    let check = large && cfg.fig4.cpu_full_solve.iter().any(|m| m.0 == *mesh);
    let cpu_plan = if large {
        TimingPlan::once()
    } else if about_as_long_mesh(mesh) {
        // The claim's meshes: the six runs a 95 % interval needs.
        six
    } else {
        cfg.fig4.cpu.plan()
    };
    // The converging CPU solve: timed on one thread, or (a large mesh not checked) the
    // untimed reference on all threads.
    let whole = (!large || check)
        .then(|| time_cpu(cpu_plan, || cpu_solve(&sys, params)))
        .transpose()?;
    let reference;
    let (cpu_x, cpu_info) = match &whole {
        Some(runs) => {
            let (x, info) = runs.last();
            (x, info)
        }
        None => {
            reference = cpu_reference(&sys, params)?;
            (&reference.0, &reference.1)
        }
    };
    let tc = match &whole {
        Some(w) if !large => w.timing(),
        _ => {
            let k = cfg
                .fig4
                .cpu_timed_iterations
                .min(cpu_info.iterations)
                .max(1);
            let part = time_cpu(six, || cpu_solve(&sys, &BicgParams::iterations(k)))?;
            scaled(&part.timing(), cpu_info.iterations, k)
        }
    };
    let whole_ms = whole
        .as_ref()
        .filter(|_| large)
        .map(|w| w.timing().median_ms);
    let gpu_runs = time_gpu(&s.gl, cfg.fig4.gpu.plan(), || {
        gpu_solve(&s.gl, &sys, params, opts)
    })?;
    let (gx, ginfo, gw) = gpu_runs.median();
    let tg = gpu_runs.timing();
    let paper = paper_at(cfg, mesh);
    let row = t
        .row(key)
        .text("Mesh", key)
        .num("Nodes", n as f64)
        .num("Iter GPU", ginfo.iterations as f64)
        .num("Iter CPU", cpu_info.iterations as f64)
        .timed("GPU time", &tg)
        .timed("CPU time", &tc)
        .opt(CPU_FULL, whole_ms)
        .est(
            "GPU/CPU",
            crate::stats::Estimate::ratio_unpaired(&tg.est(), &tc.est()),
        )
        .num("True residual", cpu::true_residual(&sys.a, &sys.b, gx))
        .opt("Paper CPU", paper.map(|p| p.cpu_ms))
        .opt("Paper GPU", paper.map(|p| p.gpu_ms))
        .opt("Paper GPU/CPU", paper.map(|p| p.gpu_ms / p.cpu_ms))
        .runs(tg.runs)
        .work_timed(SOLVE_KERNEL, *gw, &tg);
    t.push(match not_converged(ginfo, cpu_info) {
        Some(why) => row.fail(why),
        None => row.verify(max_rel_error(gx, cpu_x), solution_tolerance(params.tol)),
    })?;
    Ok(())
}

/// The meshes of `fig4.cpu_full_solve`, for the caption.
fn full_solve_meshes(cfg: &Config) -> String {
    let m: Vec<String> = cfg
        .fig4
        .cpu_full_solve
        .iter()
        .map(|m| m.0.label())
        .collect();
    if m.is_empty() {
        "no mesh".into()
    } else {
        m.join(", ")
    }
}

/// The column of a large mesh's one whole CPU solve (see the module docs).
const CPU_FULL: &str = "CPU full solve";

/// The time of `n` iterations from runs of `k` ([`Timing`] `part`): every run's time × `n / k`
/// (see the module docs), its interval re-formed from the scaled runs.
fn scaled(part: &Timing, n: usize, k: usize) -> Timing {
    let f = n as f64 / k.max(1) as f64;
    let samples: Vec<f64> = part.samples_ms.iter().map(|ms| ms * f).collect();
    Timing::from_samples(&samples)
}

/// The paper's own speed-ups, recomputed from its printed times.
fn audits(s: &Session, cfg: &Config) {
    for p in &cfg.fig4.paper {
        if let Some(sp) = p.speedup {
            s.audit(Audit::new(
                format!(
                    "Fig. 4 text: {} CPU/GPU \"about {sp}×\" from {} ms / {} ms",
                    p.mesh.0.label(),
                    p.cpu_ms,
                    p.gpu_ms
                ),
                sp,
                p.cpu_ms / p.gpu_ms,
                0.02,
            ));
        }
    }
}

fn paper_at<'a>(cfg: &'a Config, mesh: &Mesh) -> Option<&'a PaperTime> {
    cfg.fig4.paper.iter().find(|p| p.mesh.0 == *mesh)
}

/// One measured mesh: (mesh, GPU ms, CPU ms, GPU iterations), from the table's rows.
/// A mesh, its GPU and CPU median times, GPU iterations, and the GPU time's 95 % interval.
type Measured = (Mesh, f64, f64, f64, (f64, f64));

fn measured(table: &Table) -> Vec<Measured> {
    let (g, c, it) = (
        table.numbers("GPU time"),
        table.numbers("CPU time"),
        table.numbers("Iter GPU"),
    );
    table
        .rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let mesh = r.key.parse::<Mesh>().ok()?;
            let gi = r.values[table.col("GPU time")]
                .interval()
                .unwrap_or((g[i]?, g[i]?));
            Some((mesh, g[i]?, c[i]?, it[i]?, gi))
        })
        .collect()
}

/// `fig4.png`: ours per measured mesh with its 95 % intervals, and the paper's points at its
/// meshes (shown even where this run did not measure them, e.g. 128³ in a quick run); dots
/// on a log axis, since the times span five decades.
fn chart(s: &Session, cfg: &Config, table: &Table) -> Result<(), RunError> {
    let rows: Vec<(Mesh, usize)> = (table.rows.iter().enumerate())
        .filter_map(|(i, r)| Some((r.key.parse::<Mesh>().ok()?, i)))
        .collect();
    let mut cats: Vec<Mesh> = rows.iter().map(|r| r.0).collect();
    for p in &cfg.fig4.paper {
        if !cats.contains(&p.mesh.0) {
            cats.push(p.mesh.0);
        }
    }
    let ours = |column: &str| -> Vec<Option<Dot>> {
        let (v, iv) = (table.numbers(column), table.intervals(column));
        cats.iter()
            .map(|m| {
                let &(_, i) = rows.iter().find(|r| r.0 == *m)?;
                Some(Dot::new(v[i]?, iv[i]))
            })
            .collect()
    };
    let theirs = |f: fn(&PaperTime) -> f64| -> Vec<Option<Dot>> {
        cats.iter()
            .map(|m| paper_at(cfg, m).map(|p| Dot::new(f(p), None)))
            .collect()
    };
    let series =
        |name: String, dots: Vec<Option<Dot>>, paper: bool| DotSeries { name, dots, paper };
    s.dot_chart(
        "fig4.png",
        &DotChart {
            title: "Fig. 4 — Poisson solve time per mesh, GL fp64 vs single-thread CPU".into(),
            category_label: "mesh (nx × ny × nz)".into(),
            value_label: "time (ms, log; whiskers: 95 % interval)".into(),
            log: true,
            categories: cats.iter().map(Mesh::label).collect(),
            series: vec![
                series(
                    format!("GL fp64 Bi-CG (ours, {})", s.gl.info().label()),
                    ours("GPU time"),
                    false,
                ),
                series("CPU f64 Bi-CG, 1 thread (ours)".into(), ours("CPU time"), false),
                series("paper GTX 285".into(), theirs(|p| p.gpu_ms), true),
                series(
                    "paper CPU (i7 at 16³, Core 2 Duo at 128³)".into(),
                    theirs(|p| p.cpu_ms),
                    true,
                ),
            ],
        },
        "Fig. 4: GL fp64 Bi-CG vs single-thread CPU Bi-CG per mesh (log time, median with its 95 % interval), with \
         the paper's published points where it gives them (its meshes appear even where this run \
         did not measure them).",
    )
}

/// Each large mesh's one whole CPU solve against its scaled `CPU time` (the module docs):
/// how far the scaling is off on this host; nothing where no mesh was scaled.
fn scaled_note(s: &Session, table: &Table, k: usize) {
    let (whole, est) = (table.numbers(CPU_FULL), table.numbers("CPU time"));
    let parts: Vec<String> = (table.rows.iter().enumerate())
        .filter_map(|(i, r)| {
            let (w, e) = (whole[i]?, est[i]?);
            Some(format!("{} {:.3}", r.key, w / e))
        })
        .collect();
    if !parts.is_empty() {
        s.note(format!(
            "CPU time of the large meshes, scaled from runs of {k} iterations: the one whole \
             solve / the scaled median, per mesh: {} (above 1: the whole solve took longer \
             than the scaled runs predict).",
            parts.join(", ")
        ));
    }
}

/// The spread of the times at equal node counts (the same mesh in different orientations).
fn spread_notes(s: &Session, out: &[Measured]) {
    let mut groups: BTreeMap<usize, Vec<&Measured>> = BTreeMap::new();
    for r in out {
        groups.entry(r.0.nodes()).or_default().push(r);
    }
    for (nodes, rs) in groups.iter().filter(|(_, v)| v.len() > 1) {
        let desc = rs
            .iter()
            .map(|r| {
                format!(
                    "{} GPU {:.0} ms / CPU {:.0} ms ({} iterations)",
                    r.0.label(),
                    r.1,
                    r.2,
                    r.3
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        let spread = |f: fn(&&Measured) -> f64| {
            let v: Vec<f64> = rs.iter().map(f).collect();
            v.iter().cloned().fold(f64::MIN, f64::max) / v.iter().cloned().fold(f64::MAX, f64::min)
        };
        s.note(format!(
            "Orientation at {nodes} nodes: {desc}. Max/min time: GPU {:.2}×, CPU {:.2}×; per \
             iteration GPU {:.2}×. The iteration counts differ with the shape (the electrodes \
             are placed on faces), so a time difference is not only memory access.",
            spread(|r| r.1),
            spread(|r| r.2),
            spread(|r| r.1 / r.3)
        ));
    }
}

/// Whether `m` is a mesh of the "about as long" claim (§V): the slow orientation
/// `a × 2a × a`, or one of the two meshes with twice its nodes that the paper names,
/// `2a × 2a × a` and `a × 2a × 2a` (it calls the third, `2a × a × 2a`, slower). Their CPU
/// times get the runs a 95 % interval needs.
fn about_as_long_mesh(m: &Mesh) -> bool {
    let slow = m.ny == 2 * m.nx && m.nx == m.nz;
    let wide = m.nx == m.ny && m.ny == 2 * m.nz;
    let deep = m.ny == m.nz && m.ny == 2 * m.nx;
    slow || wide || deep
}

/// The paper's claim (§V), per `a × 2a × a` mesh: its **CPU** time about as long as that of
/// `2a × 2a × a` and of `a × 2a × 2a` (the memory-access effect the paper names, visible on
/// the CPU bars); each pair judged on the ratio's 95 % interval against the band
/// [1/about, about] ([`Finding::judge_band`]).
fn twice_findings(s: &Session, table: &Table, about: f64) {
    let cpu = |m: Mesh| {
        let r = table.rows.iter().find(|r| r.key == m.label())?;
        r.values[table.col("CPU time")].estimate().cloned()
    };
    let meshes: Vec<Mesh> = table
        .rows
        .iter()
        .filter_map(|r| r.key.parse().ok())
        .collect();
    for slow in meshes.iter().filter(|m| m.ny == 2 * m.nx && m.nx == m.nz) {
        let Some(cs) = cpu(*slow) else {
            continue;
        };
        let partners = [
            Mesh {
                nx: 2 * slow.nx,
                ..*slow
            },
            Mesh {
                nz: 2 * slow.nz,
                ..*slow
            },
        ];
        for other in partners {
            let Some(co) = cpu(other) else {
                continue;
            };
            let ratio = crate::stats::Estimate::ratio_unpaired(&cs, &co);
            let name = format!("CPU time {} / CPU time {}", slow.label(), other.label());
            let f = Finding::new(
                "fig4",
                format!(
                    "{} takes about as long as the meshes with twice the nodes (Fig. 4, §V), against {}",
                    slow.label(),
                    other.label()
                ),
            )
            .paper("about as long (Fig. 4's CPU bars)")
            .judge_band(&name, &ratio, (1.0 / about, about));
            let why = format!(
                "{} \"About as long\" read as within {about}× either way \
                 (`experiments/bicg.toml`); the two sides were timed in their own rows ({} and \
                 {} runs), so the ratio's interval is the conservative one of two independent \
                 estimates.",
                f.why, cs.n, co.n
            );
            s.finding(f.why(why));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs of 40 iterations scaled to a 400-iteration solve: every run × 10, the interval
    /// re-formed from the scaled runs (so it is the unscaled one × 10).
    #[test]
    fn a_scaled_time_is_each_run_times_the_iterations_over_those_timed() {
        let runs = [12.0, 10.0, 15.0, 11.0, 14.0, 13.0];
        let part = Timing::from_samples(&runs);
        let t = scaled(&part, 400, 40);
        assert_eq!(t.runs, 6);
        assert_eq!(t.samples_ms, [120.0, 100.0, 150.0, 110.0, 140.0, 130.0]);
        assert_eq!(t.median_ms, 10.0 * part.median_ms);
        let near = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
        assert!(near(t.lo_ms, 10.0 * part.lo_ms) && near(t.hi_ms, 10.0 * part.hi_ms));
        // As many iterations as timed: the runs themselves.
        assert_eq!(scaled(&part, 40, 40).samples_ms, part.samples_ms);
    }
}
