//! A simulation run without a window: timed steps (steps per second, `glFinish` at both ends
//! of each timed stretch) and, when asked, a PNG frame every few steps ([`write_frame`]).

use std::path::Path;
use std::time::{Duration, Instant};

use super::error::SimError;
use super::frames;
use super::render::{self, Renderer};
use super::simulation::Simulation;

/// What a headless run measured.
#[derive(Clone, Copy, Debug)]
pub struct RunStats {
    pub steps: u64,
    /// Time in the steps alone (`glFinish` at both ends; frame readback and PNG excluded).
    pub sim_time: Duration,
    /// The first step's share of `sim_time`, timed alone: it carries the driver's first-use
    /// costs (a JIT such as llvmpipe's compiles each shader at its first dispatch, seconds for
    /// some, unless Mesa's shader cache already holds it).
    pub first_step: Duration,
    pub frames: u32,
}

impl RunStats {
    /// Steps per second over every step.
    pub fn fps(&self) -> f64 {
        self.steps as f64 / self.sim_time.as_secs_f64().max(1e-12)
    }

    /// Steps per second after the first step (`None` for a run of one step): the rate a
    /// longer run settles at.
    pub fn steady_fps(&self) -> Option<f64> {
        let rest = self.sim_time.saturating_sub(self.first_step);
        (self.steps > 1).then(|| (self.steps - 1) as f64 / rest.as_secs_f64().max(1e-12))
    }
}

/// Runs `steps` steps headless, writing a frame every `every` steps (and at step 0) into
/// `frames` when given.
pub fn run_headless(
    sim: &mut dyn Simulation,
    steps: u32,
    frames: Option<&Path>,
    every: u32,
) -> Result<RunStats, SimError> {
    let gl = sim.gl().clone();
    let mut stats = RunStats {
        steps: 0,
        sim_time: Duration::ZERO,
        first_step: Duration::ZERO,
        frames: 0,
    };
    let mut renderer = None;
    let mut write = |sim: &dyn Simulation, stats: &mut RunStats| -> Result<(), SimError> {
        if let Some(dir) = frames {
            let path = dir.join(format!("{}_{:05}.png", sim.name(), sim.steps()));
            write_frame(sim, &path, &mut renderer)?;
            stats.frames += 1;
        }
        Ok(())
    };
    write(sim, &mut stats)?;
    let every = every.max(1);
    let mut done = 0;
    let timed = |sim: &mut dyn Simulation, count: u32| -> Result<Duration, SimError> {
        gl.finish();
        let t0 = Instant::now();
        for _ in 0..count {
            sim.step()?;
        }
        gl.finish();
        Ok(t0.elapsed())
    };
    while done < steps {
        let chunk = every.min(steps - done);
        if done == 0 {
            stats.first_step = timed(sim, 1)?;
            stats.sim_time += stats.first_step + timed(sim, chunk - 1)?;
        } else {
            stats.sim_time += timed(sim, chunk)?;
        }
        stats.steps += chunk as u64;
        done += chunk;
        write(sim, &mut stats)?;
    }
    Ok(stats)
}

/// Writes the frame of `sim` at `path`: the colour-mapped field with its colour bar, or for a
/// surface the lit 3D view (and the field beside it as `…_field.png`).
pub fn write_frame(
    sim: &dyn Simulation,
    path: &Path,
    renderer: &mut Option<Renderer>,
) -> Result<(), SimError> {
    if sim.is_surface() {
        if renderer.is_none() {
            *renderer = Some(Renderer::new(sim.gl())?);
        }
        render::save_view(renderer.as_mut().unwrap(), sim, 800, 600, path)?;
        let field = path.with_file_name(format!(
            "{}_field.png",
            path.file_stem().unwrap_or_default().to_string_lossy()
        ));
        frames::write_frame(sim, &field)
    } else {
        frames::write_frame(sim, path)
    }
}
