//! The `sim` command's dispatch: a registry entry and the command-line options in, a headless
//! run (frames, FPS printed) or a live viewer out. Command-line code (`anyhow`, printing)
//! stays here, at the edge.

use anyhow::Context;
use gpgpu_repro::gl;
use gpgpu_repro::registry::{SimEntry, SimKind};
use gpgpu_repro::sim::{self, SimArgs};

/// Runs the simulation `entry` as `gpgpu-repro sim` was asked to.
pub fn run_sim(entry: &SimEntry, a: &SimArgs) -> anyhow::Result<()> {
    match entry.kind {
        SimKind::Biofet => gpgpu_repro::papers::bicg::biofet::run_sim(a),
        SimKind::Adi(kind) => run_adi(entry, kind, a),
    }
}

fn run_adi(entry: &SimEntry, kind: sim::Kind, a: &SimArgs) -> anyhow::Result<()> {
    let n = a.size.unwrap_or(entry.default_size());
    let steps = a.steps.unwrap_or(entry.default_steps());
    let solver = a.solver.clone().unwrap_or(sim::solver::DEFAULT.to_string());
    if a.window {
        return sim::viewer::run(kind, n, &solver);
    }
    let g = gl::headless(&a.device).context("creating a headless GL context")?;
    eprintln!("device: {}", g.info().short());
    let mut s = sim::make(&g, kind, n, &solver)?;
    if let Some(dir) = &a.frames {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the frame folder {}", dir.display()))?;
    }
    let stats = sim::run_headless(s.as_mut(), steps, a.frames.as_deref(), a.every)?;
    println!(
        "{} {n}×{n}, solver {}: {} steps in {:.3} s = {:.1} FPS (steps per second; frame \
         output excluded){}",
        entry.name,
        s.adi().solver_name(),
        stats.steps,
        stats.sim_time.as_secs_f64(),
        stats.fps(),
        match &a.frames {
            Some(d) => format!("; {} frames in {}", stats.frames, d.display()),
            None => String::new(),
        }
    );
    Ok(())
}
