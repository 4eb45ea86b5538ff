//! The `sim` command's dispatch: a registry entry and the command-line options in, a headless
//! run (frames, FPS printed) or a live viewer out. Command-line code (`anyhow`, printing)
//! stays here, at the edge.

use anyhow::Context;
use gpgpu_repro::gl;
use gpgpu_repro::papers::tridiagonal::adi::{self as adi, AdiSpec, solver};
use gpgpu_repro::registry::{SimEntry, SimKind};
use gpgpu_repro::sim::{self, SimArgs};

/// Runs the simulation `entry` as `gpgpu-repro sim` was asked to.
pub fn run_sim(entry: &SimEntry, a: &SimArgs) -> anyhow::Result<()> {
    match entry.kind {
        SimKind::Biofet => run_biofet(a),
        SimKind::Adi(adi) => run_adi(adi, a),
    }
}

fn run_adi(spec: &'static AdiSpec, a: &SimArgs) -> anyhow::Result<()> {
    let size = a.size.unwrap_or(adi::DEFAULT_SIZE);
    let n = adi::grid_of_size(size)?;
    let steps = a.steps.unwrap_or(spec.default_steps);
    let solver = a.solver.clone().unwrap_or(solver::DEFAULT.to_string());
    solver::check_name(&solver)?;
    if a.window {
        return sim::viewer::run(spec.name, spec.make, &solver::SOLVERS, n, &solver);
    }
    let g = gl::headless(&a.device).context("creating a headless GL context")?;
    eprintln!("device: {}", g.info().short());
    let mut sim = (spec.make)(&g, n, &solver)?;
    if let Some(padded) = solver::padded(&solver, n) {
        println!(
            "grid N′ = {size}: {n} unknowns per line; {solver} solves {n} systems of {padded} \
             unknowns (padded with identity rows to 2^q - 1)"
        );
    }
    if let Some(dir) = &a.frames {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the frame folder {}", dir.display()))?;
    }
    let stats = sim::headless::run_headless(sim.as_mut(), steps, a.frames.as_deref(), a.every)?;
    // The first step is reported apart: it carries the driver's first-use costs (llvmpipe
    // compiles each shader at its first dispatch), which a longer run does not pay again.
    let rate = match stats.steady_fps() {
        Some(fps) => format!(
            "the first in {:.3} s (with the driver's first use of each shader), the other {} \
             in {:.3} s = {fps:.1} FPS",
            stats.first_step.as_secs_f64(),
            stats.steps - 1,
            (stats.sim_time - stats.first_step).as_secs_f64(),
        ),
        None => format!(
            "{:.3} s = {:.1} FPS",
            stats.sim_time.as_secs_f64(),
            stats.fps()
        ),
    };
    println!(
        "{} N′ = {size} ({n}×{n} unknowns), solver {}: {} step{}, {rate} (steps per second; \
         frame output excluded){}",
        spec.name,
        sim.solver_name(),
        stats.steps,
        if stats.steps == 1 { "" } else { "s" },
        match &a.frames {
            Some(d) => format!("; {} frames in {}", stats.frames, d.display()),
            None => String::new(),
        }
    );
    Ok(())
}

/// `sim biofet`: the BioFET ion transport; its figures and frames go to `--frames DIR`.
pub fn run_biofet(a: &SimArgs) -> anyhow::Result<()> {
    use gpgpu_repro::papers::bicg::biofet::{self, BiofetOutput, BiofetParams, Tolerances};
    if a.window {
        anyhow::bail!(
            "biofet has no live window view; run it headless and look at the PNG slices \
             (--frames DIR)"
        );
    }
    if let Some(s) = &a.solver
        && s != "bicg"
    {
        anyhow::bail!("biofet solves Poisson with its GL Bi-CG only (--solver bicg), not `{s}`");
    }
    let mut params = BiofetParams::default();
    if let Some(n) = a.size {
        params.n = n as usize;
    }
    if let Some(s) = a.steps {
        params.max_steps = s as usize;
    }
    params.validate()?;
    let g = gl::headless(&a.device).context("creating a headless GL context")?;
    if let Some(why) = g
        .caps()
        .lacks(gpgpu_repro::papers::bicg::experiments::GL_FP64)
    {
        anyhow::bail!("biofet solves Poisson with the paper's fp64 compute Bi-CG: it {why}");
    }
    eprintln!("{}", params.describe());
    let out = BiofetOutput {
        figures: a.frames.clone(),
        frames: a.frames.clone().map(|d| (d, a.every as usize)),
    };
    let report = biofet::simulate(&g, &params, &out)?;
    println!("{report}");
    println!("wrote {} files", report.written.len());
    let failed: Vec<String> = report
        .checks(&Tolerances::default())
        .iter()
        .filter(|c| !c.passed())
        .map(|c| {
            format!(
                "{}: deviation {:.3e} > tolerance {:.1e}",
                c.name, c.deviation, c.tolerance
            )
        })
        .collect();
    if !failed.is_empty() {
        anyhow::bail!("biofet checks FAILED: {}", failed.join("; "));
    }
    Ok(())
}
