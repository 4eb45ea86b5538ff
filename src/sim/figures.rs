//! The simulations' part of `reproduce tridiagonal`: Fig. 14 as two tables and one bar chart
//! (`fig14.png`, drawn from the tables' rows: [`fig14_chart`]), and the frame sequences of
//! Figs. 13, 16, 18 and 19 as PNG montages (configuration: `experiments/sims.toml`,
//! [`super::config`]).
//!
//! Every timed row is verified: a fresh simulation with the row's solver runs `verify_steps`
//! steps and is compared with the CPU f64 twin of the same scheme (max |Δ| over
//! max |reference|). Fixed-iteration CG does not solve the systems, so its rows show that
//! error without a verdict.

use std::time::Instant;

use crate::gl::timing::{TimingPlan, measure_gpu, median_index, repeat};
use crate::gl::{Format, Gl, Need, RenderTexture, TexTarget};
use crate::report::BarChart;
use crate::report::Row;
use crate::report::table::Column;
use crate::runner::{RunError, Session, TableSpec, TableWriter};
use crate::util::max_rel_error;

use super::config::{AllFps, HeatFps, Stability, config};
use super::pollutant::{Flow, PollutantParams};
use super::render::{Renderer, Target};
use super::scheme::AdiCpu;
use super::{AdiSpec, SimEntry, adi_sims, find_adi, solver};

pub use super::config::{EXPERIMENTS, check_config};

// f32 GPU against f64 CPU over a few steps: as in tests/sims.rs (1e-4 over 100 steps), with
// the same margin for the largest grids (more unknowns per line, same contraction).
const TOL: f64 = 1e-4;

/// max |gpu - cpu| / max |cpu| after `steps` steps of `spec` with `solver` on `n × n`.
fn verify(gl: &Gl, spec: &AdiSpec, n: u32, solver: &str, steps: u32) -> Result<f64, RunError> {
    let mut sim = (spec.make)(gl, n, solver).map_err(RunError::algorithm)?;
    for _ in 0..steps {
        sim.step().map_err(RunError::algorithm)?;
    }
    let gpu = sim.read().map_err(RunError::algorithm)?;
    let cpu = (spec.reference)(n, steps).map_err(RunError::algorithm)?;
    Ok(max_rel_error(&gpu, &cpu))
}

/// max |C| after `steps` steps of the rotating-flow scheme at Δt = `mult` × the explicit
/// limit, from a unit Gaussian, on the CPU twin; and ω Δt (radians per step).
fn stability(st: &Stability, mult: f64) -> Result<(f64, f64), RunError> {
    let mut p = PollutantParams::vortex_ours(st.n);
    p.source = None;
    p.flow = Flow::Vortex(st.omega as f32);
    p.diffusion = st.diffusion as f32;
    p.dt = (mult * p.explicit_limit()) as f32;
    let n = st.n as usize;
    let (c, sigma) = (0.3 * st.n as f64, 0.06 * st.n as f64);
    p.initial = Some(
        (0..n * n)
            .map(|k| {
                let (x, y) = ((k % n) as f64 + 0.5 - c, (k / n) as f64 + 0.5 - c);
                (-(x * x + y * y) / (2.0 * sigma * sigma)).exp() as f32
            })
            .collect(),
    );
    let turn = st.omega * p.dt as f64;
    let u = AdiCpu::run(p, st.steps).map_err(RunError::algorithm)?;
    let max = u.iter().fold(0.0f64, |m, v| {
        if v.is_finite() {
            m.max(v.abs())
        } else {
            f64::INFINITY
        }
    });
    Ok((max, turn))
}

/// Simulation 2's stability in the rotating flow: max |C| after a few steps of the CPU f64
/// twin at multiples of the explicit time-step limit (a property of the scheme, measured on
/// the CPU; nothing to verify against).
fn stability_table(s: &Session, st: &Stability) -> Result<(), RunError> {
    if !s.runs("stability") {
        return Ok(());
    }
    let mut t = s.table(
        "stability",
        "Simulation 2 (eq. 8): the ADI scheme in the rotating flow, CPU f64 twin",
        vec![
            Column::key("× explicit limit").fixed(1),
            Column::ours("ω Δt").unit("rad/step").fixed(2),
            Column::ours("max |C|").sci(3),
            Column::ours("grows").text(),
        ],
        st,
    )?;
    t.caption(format!(
        "{n}² grid, ω = {w}, D = {d}, a unit Gaussian, {k} steps; max |C| > 1 means growth.",
        n = st.n,
        w = st.omega,
        d = st.diffusion,
        k = st.steps,
    ));
    for &m in &st.multiples {
        let key = format!("{m}");
        if t.reuse(&key)?.is_some() {
            continue;
        }
        let (max, turn) = stability(st, m)?;
        t.push(
            t.row(key)
                .num("× explicit limit", m)
                .num("ω Δt", turn)
                .num("max |C|", max)
                .text("grows", if max > 1.0 { "yes" } else { "no" })
                .unchecked("a property of the scheme, measured on its CPU f64 twin"),
        )?;
    }
    t.finish()?;
    Ok(())
}

fn notes(s: &Session, st: &Stability) -> Result<(), RunError> {
    s.note(
        "Simulations: `--size` and the tables count the grid as the paper does for CR (§3.1): \
         its \"1024×1024\" is N' = 1024 points per line, N = N' - 1 unknowns between the two \
         boundary values; the tables' N is the unknowns per line (2^q - 1, unpadded for \
         fragment CR, which pads other sizes to 2^q - 1 with identity rows).",
    );
    s.note(
        "Simulations: the transposition between the x and y half-steps is fused into the next \
         build pass, which reads the previous solution with swapped coordinates; the state stays \
         in the solver's output texture between steps (read in place, no copy) and is never \
         read back (only for frames and checks).",
    );
    s.note(
        "Simulation parameters the paper does not give are ours: Δt, the diffusivities c and \
         D, the velocities and ω, g, τ, the bottom's shape, the sources' and the push's \
         positions, sizes, rates and durations (src/sim/heat.rs, pollutant.rs, \
         shallow_water.rs, `*_ours`).",
    );
    s.note(format!(
        "Simulation 2 (eq. 8): with a constant velocity the upwind-implicit/central-explicit \
         ADI stays bounded far above the explicit time-step limit (tests/sims.rs), as the \
         paper says. In the rotating flow the x and y operators do not commute: table \
         `stability` runs the CPU f64 twin ({n}², ω = {w}, D = {d}, a unit Gaussian, {k} \
         steps) at multiples of the explicit limit; a maximum above 1 means growth, so \
         \"unconditionally stable\" holds for constant coefficients only where it does. The \
         scheme is not positivity-preserving at large Δt either (the explicit central half \
         undershoots where the cell Péclet number exceeds 2).",
        n = st.n,
        w = st.omega,
        d = st.diffusion,
        k = st.steps,
    ));
    s.note(
        "Simulation 3: e_i = 1 + gΔt²(d_{i-1} + 2d_i + d_{i+1})/(2Δh²), with the factor 2 on \
         d_i that the seed's rendering lost: Kass & Miller's matrix has rows that sum to one \
         (a flat surface stays flat, volume is conserved; tests/sims.rs checks both). The \
         depth comes from h^{n-1} in both sweeps; the diagonal disturbance is a moving \
         Gaussian depression imposed as a displacement (second difference in time), so it \
         adds no net volume.",
    );
    Ok(())
}

/// Everything of the simulations in `reproduce tridiagonal`: [`fig14`], then
/// [`frame_figures`].
pub fn run(s: &Session) -> Result<(), RunError> {
    fig14(s)?;
    frame_figures(s)
}

/// The simulations' tables in `reproduce tridiagonal`: they run on GL 3.3 (the paper's
/// fragment CR); the heat table's compute-shader solvers are skipped where compute is lacking.
pub const TABLES: &[TableSpec] = &[
    TableSpec::any("fig14_heat").rows_need(&[Need::Compute]),
    TableSpec::any("fig14_all"),
    TableSpec::any("stability"),
];

/// Fig. 14: FPS of the heat simulation per solver and size (visualisation excluded), and of
/// all four simulations at the largest size with visualisation included.
pub fn fig14(s: &Session) -> Result<(), RunError> {
    let cfg = config(s)?;
    let gl = s.gl.clone();
    stability_table(s, &cfg.stability)?;
    notes(s, &cfg.stability)?;
    let mut bars = heat_table(s, &gl, &cfg.fig14_heat)?;
    bars.extend(all_table(s, &gl, &cfg.fig14_all)?);
    if bars.is_empty() {
        return Ok(());
    }
    let device = s.gl.info().label().to_string();
    s.bar_chart(
        "fig14.png",
        &fig14_chart(&bars, &device, cfg.fig14_all.paper_grid),
        &format!(
            "Fig. 14 as a chart, from the rows of `fig14_heat` and `fig14_all` (failed and \
             skipped rows left out): frames (time steps) per second on {device}, log scale, one \
             bar per grid N (unknowns per line). `heat · <solver>`: the heat simulation with \
             that solver, visualisation excluded (the paper's Fig. 14 compares cr, cg and \
             thomas this way but prints no values, so no paper bar); `<simulation> + view`: \
             each simulation with GPU CR and its visualisation, beside the paper's rates on a \
             GeForce 6800 at N' = {g} (§4: 35, 35, 35 and 17 FPS).",
            g = cfg.fig14_all.paper_grid
        ),
    )
}

/// One bar of `fig14.png`: its category (the heat simulation with one solver, or one
/// simulation with its view), the grid N, our FPS, and the paper's FPS for that category (at
/// the paper's grid) where it gives one.
#[derive(Clone, Debug, PartialEq)]
pub struct Fig14Bar {
    pub category: String,
    pub n: u32,
    pub fps: f64,
    pub paper: Option<f64>,
}

/// `fig14.png`: categories in the order of `bars`, one series of ours per grid N (ascending),
/// and the paper's series where any bar carries a paper value.
pub fn fig14_chart(bars: &[Fig14Bar], device: &str, paper_grid: u32) -> BarChart {
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
    let mut series: Vec<(String, Vec<Option<f64>>)> = sizes
        .iter()
        .map(|&n| {
            let values = categories
                .iter()
                .map(|c| {
                    bars.iter()
                        .find(|b| b.n == n && &b.category == c)
                        .map(|b| b.fps)
                })
                .collect();
            (format!("ours ({device}), N = {n}"), values)
        })
        .collect();
    let paper: Vec<Option<f64>> = categories
        .iter()
        .map(|c| bars.iter().find(|b| &b.category == c).and_then(|b| b.paper))
        .collect();
    if paper.iter().any(Option::is_some) {
        series.push((format!("paper (GeForce 6800), N' = {paper_grid}"), paper));
    }
    BarChart {
        title: format!("Fig. 14 — simulation frame rates, {device} vs the paper"),
        x_label: String::new(),
        y_label: "frames per second (FPS, log scale)".into(),
        log_y: true,
        categories,
        series,
    }
}

fn heat_spec() -> &'static AdiSpec {
    find_adi("heat").expect("heat is registered")
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
    let sizes = c.sizes.pick(s.mode).to_vec();
    t.expect_rows(sizes.len() * c.solvers.len());
    for &n in &sizes {
        for name in &c.solvers {
            let key = format!("{n}/{name}");
            if t.reuse(&key)?.is_some() {
                continue;
            }
            s.check_interrupt()?;
            let row = t.row(&key).num("N", n as f64).text("solver", name.clone());
            if let Some(why) = s.lacks(solver::needs(name)) {
                t.push(row.skip(why))?;
                continue;
            }
            t.start(&key);
            let row = match heat_row(gl, n, name, c) {
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
            };
            t.push(row)?;
        }
    }
    let bars = bars(&t, |r| {
        Some(Fig14Bar {
            category: format!("heat · {}", t.text(r, "solver")?),
            n: t.value(r, "N")? as u32,
            fps: t.value(r, "FPS")?,
            paper: None,
        })
    });
    t.finish()?;
    Ok(bars)
}

/// The bars `bar` makes of `t`'s rows that did not fail and have a value.
fn bars(t: &TableWriter, bar: impl Fn(&Row) -> Option<Fig14Bar>) -> Vec<Fig14Bar> {
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
) -> Result<(crate::gl::Timing, Option<f64>, f64, usize), RunError> {
    let plan: TimingPlan = c.repeat.plan();
    let spec = heat_spec();
    let mut sim = (spec.make)(gl, n, name).map_err(RunError::algorithm)?;
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
    let err = verify(gl, spec, n, name, c.verify_steps)?;
    let runs = step.runs;
    Ok((step, share, err, runs))
}

/// The all-simulations table; returns its rows' bars for `fig14.png`.
fn all_table(s: &Session, gl: &Gl, c: &AllFps) -> Result<Vec<Fig14Bar>, RunError> {
    let mut t = s.table(
        "fig14_all",
        "§4 performance — all simulations with GPU CR, visualisation included",
        vec![
            Column::key("simulation").text(),
            Column::key("N").int(),
            Column::ours("FPS, compute only").fixed(1),
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
         of at most {m}² vertices, not of every grid point. Each repetition times the step and \
         then the view (glFinish around each); `FPS, compute only` is the median of the steps, \
         `FPS with view` the median of step + view over the same repetitions, so both see the \
         same machine load. Simulation parameters are ours (the paper gives none). Paper: \
         GeForce 6800, its {g}×{g} grid (N' = {g}; our N = N' - 1 unknowns per line).",
        c.view[0],
        c.view[1],
        m = super::render::MAX_MESH,
        g = c.paper_grid,
    ));
    let sizes = c.size.pick(s.mode).to_vec();
    let sims: Vec<(&SimEntry, &AdiSpec)> = adi_sims().collect();
    t.expect_rows(sizes.len() * sims.len());
    for &n in &sizes {
        for &(entry, spec) in &sims {
            let key = format!("{}/{n}", entry.name);
            if t.reuse(&key)?.is_some() {
                continue;
            }
            s.check_interrupt()?;
            t.start(&key);
            let paper = c.paper_fps.get(entry.name).copied();
            let row = t
                .row(&key)
                .text("simulation", entry.name)
                .num("N", n as f64)
                .opt("paper: FPS with view", paper);
            let row = match all_row(gl, spec, n, c) {
                Ok((bare, view, err, runs)) => row
                    .num("FPS, compute only", 1e3 / bare)
                    .num("FPS with view", 1e3 / view)
                    .opt("ours / paper", paper.map(|p| 1e3 / view / p))
                    .num("error vs CPU f64", err)
                    .runs(runs)
                    .verify(err, TOL),
                Err(e) => row.fail(e.to_string()),
            };
            t.push(row)?;
        }
    }
    let bars = bars(&t, |r| {
        Some(Fig14Bar {
            category: format!("{} + view", t.text(r, "simulation")?),
            n: t.value(r, "N")? as u32,
            fps: t.value(r, "FPS with view")?,
            paper: t.value(r, "paper: FPS with view"),
        })
    });
    t.finish()?;
    Ok(bars)
}

/// (median ms of a step, median ms of step + view, error vs CPU, timed runs): one loop times
/// both parts of every frame, so the two medians see the same load and step + view ≥ step in
/// every repetition.
fn all_row(
    gl: &Gl,
    spec: &AdiSpec,
    n: u32,
    c: &AllFps,
) -> Result<(f64, f64, f64, usize), RunError> {
    let mut sim = (spec.make)(gl, n, &c.solver).map_err(RunError::algorithm)?;
    let [w, h] = c.view;
    let target = RenderTexture::new(gl, TexTarget::Tex2D, Format::RGBA32F, w, h, None)?;
    let mut renderer = Renderer::new(gl).map_err(RunError::algorithm)?;
    gl.finish();
    let samples = repeat(c.repeat.plan(), || {
        let t0 = Instant::now();
        sim.step()?;
        gl.finish();
        let step = t0.elapsed().as_secs_f64() * 1e3;
        target.clear([0.0, 0.0, 0.0, 1.0]);
        renderer.draw(sim.as_ref(), Target::Texture(&target), w, h)?;
        gl.finish();
        Ok::<_, super::SimError>((step, t0.elapsed().as_secs_f64() * 1e3))
    })
    .map_err(RunError::algorithm)?;
    let mut steps: Vec<f64> = samples.runs.iter().map(|r| r.0).collect();
    steps.sort_by(f64::total_cmp);
    let bare = steps[median_index(steps.len())];
    let view = samples.timing();
    let err = verify(gl, spec, n, &c.solver, c.verify_steps)?;
    Ok((bare, view.median_ms, err, view.runs))
}

/// Figs. 13, 16, 18, 19: frame sequences, one figure each: the snapshots with their step
/// numbers and one shared colour bar ([`super::frames::snapshot_grid`]).
pub fn frame_figures(s: &Session) -> Result<(), RunError> {
    let cfg = config(s)?.frames;
    let gl = s.gl.clone();
    let n = *cfg.size.pick(s.mode).first().unwrap_or(&255);
    let figs: [(&str, &str, &[u64], &str); 4] = [
        (
            "fig13",
            "heat",
            &cfg.fig13,
            "Fig. 13 — heat conduction: two sources held at 1, Neumann walls",
        ),
        (
            "fig16",
            "pollutant-stream",
            &cfg.fig16,
            "Fig. 16 — pollutant in a uniform stream along x, source left of the centre",
        ),
        (
            "fig18",
            "pollutant-vortex",
            &cfg.fig18,
            "Fig. 18 — pollutant in a rotating flow (constant ω), release near the lower left",
        ),
        (
            "fig19",
            "shallow-water",
            &cfg.fig19,
            "Fig. 19 — shallow water pushed along the diagonal (red: above rest, blue: below)",
        ),
    ];
    for (id, name, steps, title) in figs {
        s.check_interrupt()?;
        let spec = find_adi(name).expect("registered simulation");
        let mut sim = (spec.make)(&gl, n, &cfg.solver).map_err(RunError::algorithm)?;
        let mut renderer = None;
        let mut panels = Vec::new();
        for &at in steps {
            while sim.steps() < at {
                sim.step().map_err(RunError::algorithm)?;
            }
            let view = if sim.is_surface() {
                if renderer.is_none() {
                    renderer = Some(Renderer::new(&gl).map_err(RunError::algorithm)?);
                }
                let r = renderer.as_mut().expect("made above");
                let img = super::render::view_image(r, sim.as_ref(), 800, 600)
                    .map_err(RunError::algorithm)?;
                Some(crop_white(&img))
            } else {
                None
            };
            panels.push(super::frames::Panel {
                label: format!("step {at}"),
                n: sim.adi().n() as usize,
                field: sim.read().map_err(RunError::algorithm)?,
                view,
            });
        }
        let file = format!("{id}.png");
        let surface = sim.is_surface();
        // A surface's height is shown against its rest level in a diverging map (blue below,
        // red above), so that a depression reads as one; a concentration or temperature in
        // viridis.
        let (cmap, quantity): (fn(f32) -> [u8; 3], String) = if surface {
            (
                |t| crate::report::plot::diverging(t as f64),
                format!("{} above rest (red: above, blue: below)", sim.quantity()),
            )
        } else {
            (super::frames::viridis, sim.quantity().to_string())
        };
        super::frames::snapshot_grid(
            title,
            &panels,
            sim.range(),
            &quantity,
            cmap,
            &s.dir().join(&file),
        )
        .map_err(RunError::algorithm)?;
        let how = if surface {
            " Each step: the lit 3D surface (colour: water depth, lighter = shallower, over a \
             sloping bottom with a hill) above the surface height seen from above, red above \
             the rest level and blue below it. The push is a moving Gaussian depression \
             imposed as a displacement (its second difference in time, see the notes), so the \
             surface at its centre stands raised (red) between troughs (blue) ahead of and \
             behind it: the bump in the 3D view is in the data, not an effect of the shading."
        } else {
            ""
        };
        s.add_plot(
            &file,
            &format!(
                "{title}.{how} {n}×{n}, solver {}, steps {}; one colour scale for all panels.",
                cfg.solver,
                steps
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    Ok(())
}

/// `img` without its white border (the 3D view's empty sky and sides), keeping 8 px.
fn crop_white(img: &image::RgbImage) -> image::RgbImage {
    let (w, h) = img.dimensions();
    let ink = |x: u32, y: u32| img.get_pixel(x, y).0.iter().any(|&c| c < 245);
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if ink(x, y) {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    if x1 < x0 || y1 < y0 {
        return img.clone();
    }
    let (x0, y0) = (x0.saturating_sub(8), y0.saturating_sub(8));
    let (x1, y1) = ((x1 + 8).min(w - 1), (y1 + 8).min(h - 1));
    image::imageops::crop_imm(img, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image()
}
