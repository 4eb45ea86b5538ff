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
    pub frames: u32,
}

impl RunStats {
    pub fn fps(&self) -> f64 {
        self.steps as f64 / self.sim_time.as_secs_f64().max(1e-12)
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
    while done < steps {
        let chunk = every.min(steps - done);
        gl.finish();
        let t0 = Instant::now();
        for _ in 0..chunk {
            sim.step()?;
        }
        gl.finish();
        stats.sim_time += t0.elapsed();
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
