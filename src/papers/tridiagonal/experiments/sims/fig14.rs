//! Fig. 14: frames per second of the heat simulation per solver and size (`fig14_heat`,
//! visualisation excluded), and of all four simulations with GPU CR and their view
//! (`fig14_all`, beside the paper's 35 / 17 FPS); `fig14.png` draws both tables' rows.

use std::time::Instant;

use crate::gl::ledger::book_gpu;
use crate::gl::measure::measure_gpu;
use crate::gl::steady::rewarm;
use crate::gl::timing::{TimingPlan, median_index, repeat};
use crate::gl::{Format, Gl, RenderTexture, TexTarget};
use crate::report::table::Column;
use crate::report::{Dot, DotChart, DotSeries, Row, RowBuilder};
use crate::runner::{RunError, Session, TableWriter};
use crate::sim::SimError;
use crate::sim::Simulation;
use crate::sim::render::{MAX_MESH, Renderer, Target};

use super::config::{AllFps, Config, HeatFps};
use super::simulations::SIMULATIONS;
use super::verify::{TOL, verify};
use crate::papers::tridiagonal::adi::heat::HeatParams;
use crate::papers::tridiagonal::adi::scheme::AdiSim;
use crate::papers::tridiagonal::adi::{AdiSpec, HEAT, solver};

/// Fig. 14: FPS of the heat simulation per solver and size (visualisation excluded), and of
/// all four simulations at the largest size with visualisation included.
pub(super) fn fig14(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let gl = s.gl.clone();
    let mut bars = heat_table(s, &gl, &cfg.fig14_heat)?;
    bars.extend(all_table(s, &gl, &cfg.fig14_all)?);
    if bars.is_empty() {
        return Ok(());
    }
    let device = s.gl.info().label().to_string();
    s.dot_chart(
        "fig14.png",
        &fig14_chart(&bars, &device, cfg.fig14_all.paper_grid),
        &format!(
            "Fig. 14 as a chart, from the rows of `fig14_heat` and `fig14_all` (failed and \
             skipped rows left out): frames (time steps) per second on {device}, log scale, one \
             dot per grid N (unknowns per line) with its 95 % interval. `heat · <solver>`: the heat simulation with \
             that solver, visualisation excluded (the paper's Fig. 14 compares cr, cg and \
             thomas this way but prints no values, so no paper dot); `<simulation> + view`: \
             each simulation with GPU CR and its visualisation, beside the paper's rates on a \
             GeForce 6800 at N' = {g} (§4: 35, 35, 35 and 17 FPS).",
            g = cfg.fig14_all.paper_grid
        ),
    )
}

/// One dot of `fig14.png`: its category (the heat simulation with one solver, or one
/// simulation with its view), the grid N, our FPS with its 95 % interval, and the paper's
/// FPS for that category (at the paper's grid) where it gives one.
#[derive(Clone, Debug, PartialEq)]
pub struct Fig14Bar {
    pub category: String,
    pub n: u32,
    pub fps: f64,
    pub interval: Option<(f64, f64)>,
    pub paper: Option<f64>,
}

/// `fig14.png`: categories in the order of `bars`, one series of ours per grid N (ascending),
/// and the paper's series where any bar carries a paper value; dots with whiskers on a log
/// axis (the rates span two decades, so bars from an arbitrary baseline would mislead).
pub fn fig14_chart(bars: &[Fig14Bar], device: &str, paper_grid: u32) -> DotChart {
    let mut categories: Vec<String> = vec![];
    let mut sizes: Vec<u32> = vec![];
    for b in bars {
        if !categories.contains(&b.category) {
            categories.push(b.category.clone());
        }
        if !sizes.contains(&b.n) {
            sizes.push(b.n);
        }
    }
    sizes.sort_unstable();
    let mut series: Vec<DotSeries> = sizes
        .iter()
        .map(|&n| DotSeries {
            name: format!("ours ({device}), N = {n}"),
            dots: categories
                .iter()
                .map(|c| {
                    bars.iter()
                        .find(|b| b.n == n && &b.category == c)
                        .map(|b| Dot::new(b.fps, b.interval))
                })
                .collect(),
            paper: false,
        })
        .collect();
    let paper: Vec<Option<Dot>> = categories
        .iter()
        .map(|c| {
            let p = bars.iter().find(|b| &b.category == c).and_then(|b| b.paper);
            p.map(|v| Dot::new(v, None))
        })
        .collect();
    if paper.iter().any(Option::is_some) {
        series.push(DotSeries {
            name: format!("paper (GeForce 6800), N' = {paper_grid}"),
            dots: paper,
            paper: true,
        });
    }
    DotChart {
        title: format!("Fig. 14 — simulation frame rates, {device} vs the paper"),
        category_label: String::new(),
        value_label: "frames per second (FPS, log; whiskers: 95 % interval)".into(),
        log: true,
        categories,
        series,
    }
}

/// The 95 % interval of `row`'s cell in `column`, where the cell is an estimate.
fn interval(t: &TableWriter, row: &Row, column: &str) -> Option<(f64, f64)> {
    let c = t.table().col(column);
    row.values.get(c).and_then(|v| v.interval())
}

/// The heat table; returns its rows' bars for `fig14.png`.
fn heat_table(s: &Session, gl: &Gl, c: &HeatFps) -> Result<Vec<Fig14Bar>, RunError> {
    let mut t = s.table(
        "fig14_heat",
        "Fig. 14 — heat simulation, frames per second by solver (visualisation excluded)",
        vec![
            Column::key("N").int(),
            Column::key("solver").text(),
            Column::ours("step").unit("ms").fixed(2),
            Column::ours("FPS").fixed(1),
            Column::ours("solve share").unit("%").fixed(0),
            Column::ours("error vs CPU f64").sci(1),
        ],
        c,
    )?;
    t.caption(
        "One frame = one ADI time step (x and y half-steps: two build passes and two batched \
         solves of N systems of N unknowns), median of timed runs with glFinish at both ends. \
         `solve share`: the time of the two solves alone (same solver on the step's systems) \
         over the step's time: what bounds the step (timed separately, so on a loaded machine \
         it can exceed 100 %). \
         cr = the paper's fragment CR (switch method), cr-copy = copy method, cgN = fragment CG \
         with N fixed iterations, thomas = CPU Thomas with readback and upload (the paper's \
         baseline); compute-cr, compute-pcr, gpu-thomas (Thomas in a compute shader, one \
         invocation per line) and fused-thomas (the build pass and that Thomas solve in one \
         compute dispatch per half-step, no systems texture; no separate solve, so no share) \
         are beyond the paper.",
    );
    t.caption(format!(
        "gpu-thomas and fused-thomas keep each line's (c′, d′) in the invocation's own array \
         for lines of up to {} unknowns (in a scratch buffer above).",
        solver::THOMAS_PRIVATE_MAX
    ));
    let repeat = c.repeat.pick(s.mode);
    t.caption(format!("Repetitions: {}.", repeat.rule("run", "solver")));
    // One plan for every row of the table (the mode's).
    let plan = repeat.plan();
    let sizes = c.sizes.pick(s.mode).to_vec();
    let key = |n: u32, name: &String| format!("{n}/{name}");
    each_row(s, &mut t, (&sizes, &c.solvers), key, |t, key, n, name| {
        let row = t.row(key).num("N", n as f64).text("solver", name.clone());
        if let Some(why) = s.lacks(solver::needs(name)) {
            return Ok(row.skip(why));
        }
        t.start(key);
        Ok(match heat_row(gl, n, name, c, plan) {
            Ok((step, share, err, runs)) => {
                let row = row
                    .timed("step", &step)
                    .est("FPS", step.rate(1.0))
                    .opt("solve share", share.map(|s| 100.0 * s))
                    .num("error vs CPU f64", err)
                    .runs(runs);
                if name.starts_with("cg") {
                    row.unchecked(
                        "CG with a fixed iteration count does not solve the systems; its \
                         error is shown, not judged",
                    )
                } else {
                    row.verify(err, TOL)
                }
            }
            Err(e) => row.fail(e.to_string()),
        })
    })?;
    let bars = bars(&t, "FPS", None, |r| {
        Some(format!("heat · {}", t.text(r, "solver")?))
    });
    t.finish()?;
    Ok(bars)
}

/// A bar for each of `t`'s rows that did not fail and has a value: its FPS (and interval) in
/// column `fps`, the paper's in column `paper`, its label `category`'s.
fn bars(
    t: &TableWriter,
    fps: &str,
    paper: Option<&str>,
    category: impl Fn(&Row) -> Option<String>,
) -> Vec<Fig14Bar> {
    let bar = |r: &Row| {
        Some(Fig14Bar {
            category: category(r)?,
            n: t.value(r, "N")? as u32,
            fps: t.value(r, fps)?,
            interval: interval(t, r, fps),
            paper: paper.and_then(|c| t.value(r, c)),
        })
    };
    t.rows()
        .iter()
        .filter(|r| !r.status.failed())
        .filter_map(bar)
        .collect()
}

/// (the timed steps: median ms per step with its interval, share of the two solves (none for the fused path, which has no
/// separate solve), error vs CPU, timed runs).
fn heat_row(
    gl: &Gl,
    n: u32,
    name: &str,
    c: &HeatFps,
    plan: TimingPlan,
) -> Result<(crate::gl::Timing, Option<f64>, f64, usize), RunError> {
    let mut sim = AdiSim::new(gl, HeatParams::ours(n), name).map_err(RunError::algorithm)?;
    let step = measure_gpu(gl, plan, || sim.step()).map_err(RunError::algorithm)?;
    let share = if name == solver::FUSED {
        None
    } else {
        // The solve alone, on the systems the last half-step built.
        let mut solver = solver::make(gl, name, n, n).map_err(RunError::algorithm)?;
        let systems = sim.adi().systems();
        let solve = measure_gpu(gl, plan, || solver.solve(systems).map(|_| ()))
            .map_err(RunError::algorithm)?;
        Some(2.0 * solve.median_ms / step.median_ms)
    };
    let err = verify(gl, &HEAT, n, name, c.verify_steps)?;
    let runs = step.runs;
    Ok((step, share, err, runs))
}

/// The all-simulations table; returns its rows' bars for `fig14.png`.
fn all_table(s: &Session, gl: &Gl, c: &AllFps) -> Result<Vec<Fig14Bar>, RunError> {
    let mut t = all_writer(s, c)?;
    // One plan for every row of the table (the mode's).
    let plan = c.repeat.pick(s.mode).plan();
    let sizes = c.size.pick(s.mode).to_vec();
    let key = |n: u32, spec: &&AdiSpec| format!("{}/{n}", spec.name);
    each_row(s, &mut t, (&sizes, &SIMULATIONS), key, |t, key, n, spec| {
        t.start(key);
        let paper = c.paper_fps.get(spec.name).copied();
        let row = t
            .row(key)
            .text("simulation", spec.name)
            .num("N", n as f64)
            .opt("paper: FPS with view", paper);
        Ok(match all_row(gl, spec, n, c, plan) {
            Ok(AllRow {
                alone,
                between,
                view,
                err,
                runs,
            }) => row
                .num("FPS, compute only", 1e3 / alone)
                .num("FPS, step between views", 1e3 / between)
                .opt("ours / paper", paper.map(|p| 1e3 / view.median_ms / p))
                .est("FPS with view", view.rate(1.0))
                .num("error vs CPU f64", err)
                .runs(runs)
                .verify(err, TOL),
            Err(e) => row.fail(e.to_string()),
        })
    })?;
    let bars = bars(&t, "FPS with view", Some("paper: FPS with view"), |r| {
        Some(format!("{} + view", t.text(r, "simulation")?))
    });
    t.finish()?;
    Ok(bars)
}

/// The `fig14_all` table, its columns and its caption.
fn all_writer(s: &Session, c: &AllFps) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "fig14_all",
        "§4 performance — all simulations with GPU CR, visualisation included",
        vec![
            Column::key("simulation").text(),
            Column::key("N").int(),
            Column::ours("FPS, compute only").fixed(1),
            Column::ours("FPS, step between views").fixed(1),
            Column::ours("FPS with view").fixed(1),
            Column::paper("FPS with view").fixed(0),
            Column::ours("ours / paper").fixed(2),
            Column::ours("error vs CPU f64").sci(1),
        ],
        c,
    )?;
    let water = c
        .paper_fps
        .get("shallow-water")
        .map_or("the paper's".to_string(), |v| format!("the paper's {v}"));
    t.caption(format!(
        "A frame with view = one time step plus drawing the state into a {}×{} offscreen \
         colour buffer: the viridis field for simulations 1 and 2; for shallow water the GPU \
         normal pass and the lit surface mesh — at most {m}×{m} vertices, fetched from the \
         normal/height texture in the vertex shader, so its FPS beside {water} is for a mesh \
         of at most {m}² vertices, not of every grid point. `FPS, compute only`: steps back to \
         back with glFinish around each, as `fig14_heat` times them (so the heat row is the \
         same configuration as `fig14_heat`'s `{solver}` row, timed again). Then each repetition \
         times a step and then the view (glFinish around each): `FPS with view` is the median \
         of step + view, `FPS, step between views` the median of the step alone in that loop; \
         where it is below `FPS, compute only`, a step that follows a view costs more than one \
         that follows a step (the view's state and its reads of the field are the difference). \
         Simulation parameters are ours (the paper gives none). Paper: \
         GeForce 6800, its {g}×{g} grid (N' = {g}; our N = N' - 1 unknowns per line).",
        c.view[0],
        c.view[1],
        m = MAX_MESH,
        g = c.paper_grid,
        solver = c.solver,
    ));
    Ok(t)
}

/// The rows of `t` for every size of `sizes` and every item of `items` (key `key(n, item)`),
/// sizes outer: a row `--resume` can reuse is kept, any other is made by `row` after the
/// interrupt check, and pushed.
fn each_row<T>(
    s: &Session,
    t: &mut TableWriter,
    (sizes, items): (&[u32], &[T]),
    key: impl Fn(u32, &T) -> String,
    mut row: impl FnMut(&TableWriter, &str, u32, &T) -> Result<RowBuilder, RunError>,
) -> Result<(), RunError> {
    t.expect_rows(sizes.len() * items.len());
    for &n in sizes {
        for item in items {
            let key = key(n, item);
            if t.reuse(&key)?.is_some() {
                continue;
            }
            s.check_interrupt()?;
            let r = row(t, &key, n, item)?;
            t.push(r)?;
        }
    }
    Ok(())
}

/// One row of `fig14_all`: median ms of a step timed alone (steps back to back, as
/// `fig14_heat`), of a step in the loop that alternates step and view, the timing of step +
/// view in that loop (its FPS with a 95 % interval), the error against the CPU, and the
/// timed runs of that loop.
struct AllRow {
    alone: f64,
    between: f64,
    view: crate::gl::Timing,
    err: f64,
    runs: usize,
}

/// [`AllRow`]: first the steps alone ([`measure_gpu`], as `fig14_heat`'s rows), then one loop
/// that times both parts of every frame, so that step + view ≥ step in every repetition and
/// the two medians of that loop see the same load.
fn all_row(
    gl: &Gl,
    spec: &AdiSpec,
    n: u32,
    c: &AllFps,
    plan: TimingPlan,
) -> Result<AllRow, RunError> {
    let mut sim = (spec.make)(gl, n, &c.solver).map_err(RunError::algorithm)?;
    let alone = measure_gpu(gl, plan, || sim.step())
        .map_err(RunError::algorithm)?
        .median_ms;
    let [w, h] = c.view;
    let target = RenderTexture::new(gl, TexTarget::Tex2D, Format::RGBA32F, w, h, None)?;
    let mut renderer = Renderer::new(gl).map_err(RunError::algorithm)?;
    rewarm(gl, || sim.step()).map_err(RunError::algorithm)?;
    gl.finish();
    let samples = repeat(plan, || {
        book_gpu(|| {
            rewarm(gl, || sim.step())?;
            let t0 = Instant::now();
            sim.step()?;
            gl.finish();
            let step = t0.elapsed().as_secs_f64() * 1e3;
            target.clear([0.0, 0.0, 0.0, 1.0]);
            renderer.draw(sim.as_ref(), Target::Texture(&target), w, h)?;
            gl.finish();
            Ok::<_, SimError>((step, t0.elapsed().as_secs_f64() * 1e3))
        })
    })
    .map_err(RunError::algorithm)?;
    let mut steps: Vec<f64> = samples.runs.iter().map(|r| r.0).collect();
    steps.sort_by(f64::total_cmp);
    let between = steps[median_index(steps.len())];
    let view = samples.timing();
    let err = verify(gl, spec, n, &c.solver, c.verify_steps)?;
    Ok(AllRow {
        alone,
        between,
        runs: view.runs,
        view,
        err,
    })
}
