//! The simulations' part of `reproduce tridiagonal`: Fig. 14 as tables, and the frame
//! sequences of Figs. 13, 16, 18 and 19 as PNG montages (configuration:
//! `experiments/sims.toml`). The tridiagonal paper's `run` calls [`fig14`] and
//! [`frame_figures`].
//!
//! Every timed row is verified: a fresh simulation with the row's solver runs `verify_steps`
//! steps and is compared with the CPU f64 implementation of the same scheme (max |Δ| over
//! max |reference|). Fixed-iteration CG does not solve the systems, so its rows show that
//! error without a verdict.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::gl::timing::{TimingPlan, measure_gpu};
use crate::gl::{Format, Gl, RenderTexture, TexTarget};
use crate::report::table::{Column, Row};
use crate::runner::{Repeat, RunError, Session, Sizes};

use super::heat::{HeatCpu, HeatParams};
use super::pollutant::{PollutantCpu, PollutantParams};
use super::render::{Renderer, Target};
use super::shallow_water::{WaterCpu, WaterParams};
use super::{Kind, make, solver};

/// `experiments/sims.toml` (read through the tridiagonal paper's registry entry).
#[derive(Debug, Deserialize, Serialize)]
pub struct Config {
    fig14_heat: HeatFps,
    fig14_all: AllFps,
    frames: Frames,
}

#[derive(Debug, Deserialize, Serialize)]
struct HeatFps {
    sizes: Sizes,
    solvers: Vec<String>,
    verify_steps: u32,
    repeat: Repeat,
}

#[derive(Debug, Deserialize, Serialize)]
struct AllFps {
    size: Sizes,
    solver: String,
    view: [u32; 2],
    verify_steps: u32,
    repeat: Repeat,
    paper_fps: BTreeMap<String, f64>,
}

#[derive(Debug, Deserialize, Serialize)]
struct Frames {
    size: Sizes,
    solver: String,
    fig13: Vec<u64>,
    fig16: Vec<u64>,
    fig18: Vec<u64>,
    fig19: Vec<u64>,
}

impl crate::runner::Experiments for Config {}

fn config(s: &Session) -> Result<Config, RunError> {
    s.config_of("sims")
}

fn gl_of(s: &Session) -> Gl {
    s.gl.clone()
}

// f32 GPU against f64 CPU over a few steps: as in tests/sims.rs (1e-4 over 100 steps), with
// the same margin for the largest grids (more unknowns per line, same contraction).
const TOL: f64 = 1e-4;

/// max |gpu - cpu| / max |cpu| after `steps` steps of `kind` with `solver` on `n × n`.
fn verify(gl: &Gl, kind: Kind, n: u32, solver: &str, steps: u32) -> Result<f64, RunError> {
    let mut sim = make(gl, kind, n, solver).map_err(RunError::algorithm)?;
    for _ in 0..steps {
        sim.step().map_err(RunError::algorithm)?;
    }
    let gpu = sim.read().map_err(RunError::algorithm)?;
    let cpu = cpu_reference(kind, n, steps).map_err(RunError::algorithm)?;
    let scale = cpu.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-30);
    Ok(gpu
        .iter()
        .zip(&cpu)
        .map(|(&g, &c)| (g as f64 - c).abs())
        .fold(0.0, f64::max)
        / scale)
}

fn cpu_reference(kind: Kind, n: u32, steps: u32) -> Result<Vec<f64>, super::SimError> {
    Ok(match kind {
        Kind::Heat => {
            let mut c = HeatCpu::new(HeatParams::paper(n))?;
            (0..steps).for_each(|_| c.step());
            c.t
        }
        Kind::PollutantStream | Kind::PollutantVortex => {
            let p = if kind == Kind::PollutantStream {
                PollutantParams::stream(n)
            } else {
                PollutantParams::vortex(n)
            };
            let mut c = PollutantCpu::new(p)?;
            (0..steps).for_each(|_| c.step());
            c.c
        }
        Kind::ShallowWater => {
            let mut c = WaterCpu::new(WaterParams::paper(n))?;
            (0..steps).for_each(|_| c.step());
            c.h
        }
    })
}

fn notes(s: &Session) {
    s.note(
        "Simulations: grids of N = 2^q - 1 points per line (255², 1023²), the paper's CR \
         convention N = N' - 1 (§3.1); its \"1024×1024\" is N' = 1024. Fragment CR pads other \
         sizes to 2^q - 1 with identity rows, which would double the work at N = 1024.",
    );
    s.note(
        "Simulations: the transposition between the x and y half-steps is fused into the next \
         build pass, which reads the previous solution with swapped coordinates; the state stays \
         in the solver's output texture between steps and is never read back (only for frames \
         and checks). The tridiagonal solvers return their solution by reference, so the \
         simulations copy it into a texture of their own (one R32F pass per half-step, \
         included in every timing).",
    );
    s.note(
        "Simulation 2 (eq. 8): with a constant velocity the upwind-implicit/central-explicit \
         ADI stays bounded at 50× the explicit time-step limit (tests/sims.rs), as the paper \
         says. In the rotating flow of Fig. 17 the x and y operators do not commute: we \
         measured boundedness up to 20× the explicit limit (ω Δt = 0.32 rad per step) and \
         growth at 50× (0.8 rad per step), so \"unconditionally stable\" holds for constant \
         coefficients only. The scheme is not positivity-preserving at large Δt either (the \
         explicit central half undershoots where the cell Péclet number exceeds 2).",
    );
    s.note(
        "Simulation 3: e_i = 1 + gΔt²(d_{i-1} + 2d_i + d_{i+1})/(2Δh²), with the factor 2 on \
         d_i that the seed's rendering lost: Kass & Miller's matrix has rows that sum to one \
         (a flat surface stays flat, volume is conserved; tests/sims.rs checks both). The \
         depth comes from h^{n-1} in both sweeps; the diagonal disturbance is a moving \
         Gaussian depression imposed as a displacement (second difference in time), so it \
         adds no net volume.",
    );
}

/// Everything of the simulations in `reproduce tridiagonal`: [`fig14`], then
/// [`frame_figures`].
pub fn run(s: &Session) -> Result<(), RunError> {
    fig14(s)?;
    frame_figures(s)
}

/// Fig. 14: FPS of the heat simulation per solver and size (visualisation excluded), and of
/// all four simulations at the largest size with visualisation included.
pub fn fig14(s: &Session) -> Result<(), RunError> {
    let cfg = config(s)?;
    let gl = gl_of(s);
    notes(s);
    heat_table(s, &gl, &cfg.fig14_heat)?;
    all_table(s, &gl, &cfg.fig14_all)?;
    Ok(())
}

fn heat_table(s: &Session, gl: &Gl, c: &HeatFps) -> Result<(), RunError> {
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
         `solve share`: the time of the two solves alone (same solver on the step's systems, \
         including the adapter's R32F copy) over the step's time: what bounds the step (timed \
         separately, so on a loaded machine it can exceed 100 %). \
         cr = the paper's fragment CR (switch method), cr-copy = copy method, cgN = fragment CG \
         with N fixed iterations, thomas = CPU Thomas with readback and upload (the paper's \
         baseline); compute-cr, compute-pcr, gpu-thomas are beyond the paper.",
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
            t.start(&key);
            let row = Row::new(key.clone()).num(n as f64).text(name.clone());
            let row = match heat_row(gl, n, name, c) {
                Ok((step, share, err, runs)) => {
                    let row = row
                        .num(step)
                        .num(1e3 / step)
                        .num(100.0 * share)
                        .num(err)
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
                Err(e) => row
                    .missing()
                    .missing()
                    .missing()
                    .missing()
                    .fail(e.to_string()),
            };
            t.push(row)?;
        }
    }
    t.finish()?;
    Ok(())
}

/// (median ms per step, share of the two solves, error vs CPU, timed runs).
fn heat_row(gl: &Gl, n: u32, name: &str, c: &HeatFps) -> Result<(f64, f64, f64, usize), RunError> {
    let plan: TimingPlan = c.repeat.plan();
    let mut sim = make(gl, Kind::Heat, n, name).map_err(RunError::algorithm)?;
    let step = measure_gpu(gl, plan, || sim.step()).map_err(RunError::algorithm)?;
    // The solve alone, on the systems the last half-step built.
    let mut solver = solver::make(gl, name, n, n).map_err(RunError::algorithm)?;
    let systems = sim.adi().systems();
    let solve = measure_gpu(gl, plan, || solver.solve(systems)).map_err(RunError::algorithm)?;
    let err = verify(gl, Kind::Heat, n, name, c.verify_steps)?;
    Ok((
        step.median_ms,
        2.0 * solve.median_ms / step.median_ms,
        err,
        step.runs,
    ))
}

fn all_table(s: &Session, gl: &Gl, c: &AllFps) -> Result<(), RunError> {
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
    t.caption(format!(
        "A frame with view = one time step plus drawing the state into a {}×{} offscreen \
         colour buffer: the viridis field for simulations 1 and 2; for shallow water the GPU \
         normal pass and the lit surface mesh (at most {m}×{m} vertices, fetched from the \
         normal/height texture in the vertex shader). Paper: GeForce 6800, its 1024×1024 \
         grid.",
        c.view[0],
        c.view[1],
        m = super::render::MAX_MESH
    ));
    let sizes = c.size.pick(s.mode).to_vec();
    t.expect_rows(sizes.len() * Kind::ALL.len());
    for &n in &sizes {
        for kind in Kind::ALL {
            let key = format!("{}/{n}", kind.name());
            if t.reuse(&key)?.is_some() {
                continue;
            }
            s.check_interrupt()?;
            t.start(&key);
            let paper = c.paper_fps.get(kind.name()).copied();
            let row = Row::new(key.clone()).text(kind.name()).num(n as f64);
            let row = match all_row(gl, kind, n, c) {
                Ok((bare, view, err, runs)) => row
                    .num(1e3 / bare)
                    .num(1e3 / view)
                    .opt(paper)
                    .opt(paper.map(|p| 1e3 / view / p))
                    .num(err)
                    .runs(runs)
                    .verify(err, TOL),
                Err(e) => row
                    .missing()
                    .missing()
                    .opt(paper)
                    .missing()
                    .missing()
                    .fail(e.to_string()),
            };
            t.push(row)?;
        }
    }
    t.finish()?;
    Ok(())
}

fn all_row(gl: &Gl, kind: Kind, n: u32, c: &AllFps) -> Result<(f64, f64, f64, usize), RunError> {
    let plan = c.repeat.plan();
    let mut sim = make(gl, kind, n, &c.solver).map_err(RunError::algorithm)?;
    let bare = measure_gpu(gl, plan, || sim.step()).map_err(RunError::algorithm)?;
    let [w, h] = c.view;
    let target = RenderTexture::new(gl, TexTarget::Tex2D, Format::RGBA32F, w, h, None)?;
    let mut renderer = Renderer::new(gl).map_err(RunError::algorithm)?;
    let view = measure_gpu(gl, plan, || {
        sim.step()?;
        target.clear([0.0, 0.0, 0.0, 1.0]);
        renderer.draw(sim.as_ref(), Target::Texture(&target), w, h)
    })
    .map_err(RunError::algorithm)?;
    let err = verify(gl, kind, n, &c.solver, c.verify_steps)?;
    Ok((bare.median_ms, view.median_ms, err, view.runs))
}

/// Figs. 13, 16, 18, 19: frame sequences, one montage PNG per figure.
pub fn frame_figures(s: &Session) -> Result<(), RunError> {
    let cfg = config(s)?.frames;
    let gl = gl_of(s);
    let n = *cfg.size.pick(s.mode).first().unwrap_or(&255);
    let figs: [(&str, Kind, &[u64], &str); 4] = [
        (
            "fig13",
            Kind::Heat,
            &cfg.fig13,
            "Fig. 13 — heat conduction: temperature over time from two sources held at 1, \
             Neumann walls",
        ),
        (
            "fig16",
            Kind::PollutantStream,
            &cfg.fig16,
            "Fig. 16 — pollutant in a uniform stream along x, continuous source left of the \
             centre",
        ),
        (
            "fig18",
            Kind::PollutantVortex,
            &cfg.fig18,
            "Fig. 18 — pollutant in a rotating flow (constant ω), short release near the lower \
             left",
        ),
        (
            "fig19",
            Kind::ShallowWater,
            &cfg.fig19,
            "Fig. 19 — shallow water (Kass & Miller): a depression pushed along the diagonal \
             over a sloping bottom with a hill (lighter = shallower)",
        ),
    ];
    for (id, kind, steps, caption) in figs {
        s.check_interrupt()?;
        let mut sim = make(&gl, kind, n, &cfg.solver).map_err(RunError::algorithm)?;
        let mut renderer = None;
        let mut tiles = Vec::new();
        for &at in steps {
            while sim.steps() < at {
                sim.step().map_err(RunError::algorithm)?;
            }
            let path = s.dir().join(format!("{id}_step{at:04}.png"));
            super::write_frame(sim.as_ref(), &path, &mut renderer).map_err(RunError::algorithm)?;
            tiles.push(path);
        }
        let file = format!("{id}.png");
        montage(&tiles, &s.dir().join(&file)).map_err(RunError::algorithm)?;
        for t in &tiles {
            let _ = std::fs::remove_file(t);
            let _ = std::fs::remove_file(t.with_file_name(format!(
                "{}_field.png",
                t.file_stem().unwrap_or_default().to_string_lossy()
            )));
        }
        s.add_plot(
            &file,
            &format!(
                "{caption}. {n}×{n}, solver {}, steps {}.",
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

/// Puts PNGs side by side (scaled to a common height of at most 400 px).
fn montage(paths: &[std::path::PathBuf], out: &std::path::Path) -> Result<(), super::SimError> {
    let err = |m: String| super::SimError::Frame {
        path: out.to_path_buf(),
        message: m,
    };
    let imgs: Vec<image::RgbImage> = paths
        .iter()
        .map(|p| {
            image::open(p)
                .map(|i| i.to_rgb8())
                .map_err(|e| err(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let h = imgs.iter().map(|i| i.height()).min().unwrap_or(1).min(400);
    let scaled: Vec<image::RgbImage> = imgs
        .iter()
        .map(|i| {
            let w = (i.width() as u64 * h as u64 / i.height() as u64) as u32;
            image::imageops::resize(i, w, h, image::imageops::FilterType::Triangle)
        })
        .collect();
    let w: u32 = scaled.iter().map(|i| i.width()).sum::<u32>() + 8 * (scaled.len() as u32 - 1);
    let mut canvas = image::RgbImage::from_pixel(w, h, image::Rgb([255, 255, 255]));
    let mut x = 0;
    for i in &scaled {
        image::imageops::replace(&mut canvas, i, x as i64, 0);
        x += i.width() + 8;
    }
    let (w, h) = canvas.dimensions();
    crate::report::plot::write_png(out, canvas.as_raw(), w, h, image::ExtendedColorType::Rgb8)
        .map_err(|e| err(format!("{e}: {}", e.source)))
}
