//! The ADI simulations (Kim & Lee 2005 §2, §4): each GPU step against a CPU f64
//! implementation of the same scheme, and the physics each scheme must get right.

mod common;
use common::ctx;

use gpgpu_repro::sim::heat::{Heat, HeatCpu, HeatParams};
use gpgpu_repro::sim::pollutant::{Flow, Pollutant, PollutantCpu, PollutantParams};
use gpgpu_repro::sim::shallow_water::{Bottom, ShallowWater, WaterCpu, WaterParams};
use gpgpu_repro::sim::{Simulation, solver};

/// The solvers every GPU-vs-CPU comparison runs with.
const SOLVERS: &[&str] = &[
    "cr",
    "cr-copy",
    "compute-cr",
    "compute-pcr",
    "thomas",
    "gpu-thomas",
];

/// max |gpu - cpu| / max |cpu|.
fn rel_err(gpu: &[f32], cpu: &[f64]) -> f64 {
    let scale = cpu.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-30);
    gpu.iter()
        .zip(cpu)
        .map(|(&g, &c)| (g as f64 - c).abs())
        .fold(0.0, f64::max)
        / scale
}

fn gaussian(n: u32, centre: [f64; 2], sigma: f64, amp: f64) -> Vec<f32> {
    let n = n as usize;
    (0..n * n)
        .map(|k| {
            let (x, y) = ((k % n) as f64 + 0.5, (k / n) as f64 + 0.5);
            let r2 = (x - centre[0]).powi(2) + (y - centre[1]).powi(2);
            (amp * (-r2 / (2.0 * sigma * sigma)).exp()) as f32
        })
        .collect()
}

// f32 against f64 over 100 steps (200 tridiagonal solves of diagonally dominant systems whose
// inverse is a contraction): each step adds a few ulp of the field's scale, so the drift stays
// near 100 · 2·10⁻⁷ · (condition ≲ 10): 1·10⁻⁴ leaves a margin of about 5.
const STEP_TOL: f64 = 1e-4;

#[test]
fn heat_gpu_matches_cpu_over_100_steps() {
    let g = ctx();
    for &name in SOLVERS {
        let p = HeatParams::paper(31);
        let mut gpu = Heat::new(&g, p.clone(), solver::make(&g, name, 31, 31).unwrap()).unwrap();
        let mut cpu = HeatCpu::new(p).unwrap();
        for _ in 0..100 {
            gpu.step().unwrap();
            cpu.step();
        }
        let e = rel_err(&gpu.read().unwrap(), &cpu.t);
        assert!(e < STEP_TOL, "{name}: relative error {e:.2e}");
        let hot = cpu.t.iter().filter(|&&t| t > 0.1).count();
        assert!(
            hot > 100,
            "heat spread from the sources to {hot} cells only"
        );
    }
}

#[test]
fn heat_without_sources_conserves_total_heat() {
    let g = ctx();
    let n = 64;
    let mut p = HeatParams::paper(n);
    p.sources.clear();
    p.initial = Some(gaussian(n, [20.0, 40.0], 6.0, 1.0));
    let total0: f64 = p.initial.as_ref().unwrap().iter().map(|&v| v as f64).sum();
    let mut sim = Heat::new(&g, p, solver::make(&g, "gpu-thomas", n, n).unwrap()).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let t = sim.read().unwrap();
    let total: f64 = t.iter().map(|&v| v as f64).sum();
    // The scheme conserves exactly; f32 rounding of ~4096 values per pass over 200 passes
    // random-walks the sum by ~10⁻⁶ relative.
    let drift = (total - total0).abs() / total0;
    assert!(drift < 2e-5, "heat changed by {drift:.2e} (relative)");
    // ...and has spread: the peak fell well below the initial 1.
    let peak = t.iter().fold(0.0f32, |m, &v| m.max(v));
    assert!(peak < 0.2, "peak {peak}");
}

#[test]
fn heat_gaussian_diffuses_as_the_analytic_solution() {
    // T(r, t) = σ0²/(σ0² + 2ct) · exp(-r² / (2(σ0² + 2ct))) in the infinite plane.
    let g = ctx();
    let n = 96;
    let (sigma0, c, dt, steps) = (4.0f64, 1.0f32, 0.5f32, 80);
    let mut p = HeatParams::paper(n);
    p.sources.clear();
    p.diffusivity = c;
    p.dt = dt;
    let centre = [48.0, 48.0];
    p.initial = Some(gaussian(n, centre, sigma0, 1.0));
    let mut sim = Heat::new(&g, p, solver::make(&g, "gpu-thomas", n, n).unwrap()).unwrap();
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let t = steps as f64 * dt as f64;
    let s2 = sigma0 * sigma0 + 2.0 * c as f64 * t;
    let exact = gaussian(n, centre, s2.sqrt(), sigma0 * sigma0 / s2);
    let exact: Vec<f64> = exact.iter().map(|&v| v as f64).collect();
    let e = rel_err(&sim.read().unwrap(), &exact);
    // Second order in space and time: (Δh/σ)² / 12 ≈ 0.3 % and (cΔt)²-terms of similar size;
    // the walls (6 σ away) are negligible.
    assert!(
        e < 1e-2,
        "relative error against the analytic Gaussian: {e:.2e}"
    );
}

#[test]
fn pollutant_gpu_matches_cpu_over_100_steps() {
    let g = ctx();
    for &name in SOLVERS {
        for p in [PollutantParams::stream(31), PollutantParams::vortex(31)] {
            let mut gpu =
                Pollutant::new(&g, p.clone(), solver::make(&g, name, 31, 31).unwrap()).unwrap();
            let mut cpu = PollutantCpu::new(p).unwrap();
            for _ in 0..100 {
                gpu.step().unwrap();
                cpu.step();
            }
            let e = rel_err(&gpu.read().unwrap(), &cpu.c);
            assert!(
                e < STEP_TOL,
                "{name} {}: relative error {e:.2e}",
                gpu.name()
            );
        }
    }
}

fn centroid_x(c: &[f32], n: usize) -> (f64, f64) {
    let (mut m, mut mx) = (0.0, 0.0);
    for (k, &v) in c.iter().enumerate() {
        m += v as f64;
        mx += v as f64 * ((k % n) as f64 + 0.5);
    }
    (mx / m, m)
}

#[test]
fn pollutant_is_advected_at_the_flow_speed_and_stays_non_negative() {
    let g = ctx();
    let n = 128;
    let u = 0.5f32;
    let mut p = PollutantParams::stream(n);
    p.flow = Flow::Stream([u, 0.0]);
    p.diffusion = 0.2;
    p.source = None;
    // Inside the explicit limit's cell-Péclet bound, where the central explicit half keeps
    // the scheme positive.
    p.dt = 1.0;
    p.initial = Some(gaussian(n, [30.0, 64.0], 4.0, 1.0));
    let mut sim = Pollutant::new(&g, p, solver::make(&g, "gpu-thomas", n, n).unwrap()).unwrap();
    let (x0, m0) = centroid_x(&sim.read().unwrap(), n as usize);
    // 80 steps: the pulse (σ ≈ 10 after the upwind scheme's numerical diffusion) stays 3σ
    // away from the outflow wall, so no mass leaves.
    let steps = 80;
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let c = sim.read().unwrap();
    let (x1, m1) = centroid_x(&c, n as usize);
    let expected = u as f64 * steps as f64; // Δt = 1
    // The upwind operator adds numerical diffusion, which spreads but does not move the
    // centroid.
    assert!(
        ((x1 - x0) - expected).abs() < 0.02 * expected,
        "centroid moved {:.2}, flow moved {expected}",
        x1 - x0
    );
    assert!((m1 - m0).abs() / m0 < 1e-4, "mass {m0} -> {m1}");
    let min = c.iter().fold(f32::INFINITY, |m, &v| m.min(v));
    assert!(min > -1e-6, "negative concentration {min}");
}

/// Runs the explicit scheme (forward Euler, upwind advection, 5-point diffusion) for 100
/// steps and returns max |C|.
fn explicit_max(p: &PollutantParams) -> f64 {
    let nn = p.n as usize;
    let mut e: Vec<f64> = p
        .initial
        .as_ref()
        .unwrap()
        .iter()
        .map(|&v| v as f64)
        .collect();
    let dt = p.dt as f64;
    for _ in 0..100 {
        let at = |e: &[f64], i: isize, j: isize| {
            let cl = |v: isize| v.clamp(0, nn as isize - 1) as usize;
            e[cl(j) * nn + cl(i)]
        };
        let mut next = e.clone();
        for j in 0..nn as isize {
            for i in 0..nn as isize {
                let v = p.flow.at([i as f64 + 0.5, j as f64 + 0.5], p.n);
                let c0 = at(&e, i, j);
                let dx = if v[0] > 0.0 {
                    c0 - at(&e, i - 1, j)
                } else {
                    at(&e, i + 1, j) - c0
                };
                let dy = if v[1] > 0.0 {
                    c0 - at(&e, i, j - 1)
                } else {
                    at(&e, i, j + 1) - c0
                };
                let lap = at(&e, i + 1, j) + at(&e, i - 1, j) + at(&e, i, j + 1) + at(&e, i, j - 1)
                    - 4.0 * c0;
                next[j as usize * nn + i as usize] =
                    c0 + dt * (-v[0] * dx - v[1] * dy + p.diffusion as f64 * lap);
            }
        }
        e = next;
    }
    e.iter().fold(0.0f64, |m, &v| {
        if v.is_finite() {
            m.max(v.abs())
        } else {
            f64::INFINITY
        }
    })
}

#[test]
fn pollutant_stays_bounded_far_above_the_explicit_time_step_limit() {
    // Eq. 8 is unconditionally stable for a constant velocity (per Fourier mode each half-step
    // factor |1 - explicit| / |1 + implicit| ≤ 1): Δt = 50 × the explicit limit. In the
    // rotating flow the two directions' operators do not commute; there it stays bounded to
    // 20 × the limit (ω Δt = 0.32 rad per step) and grows at 50 × (0.8 rad per step), a
    // finding recorded in the report.
    let g = ctx();
    let n = 64;
    for (flow, mult) in [(Flow::Stream([1.0, 0.5]), 50.0), (Flow::Vortex(0.05), 20.0)] {
        let mut p = PollutantParams::vortex(n);
        p.source = None;
        p.flow = flow;
        p.diffusion = 0.05;
        p.dt = (mult * p.explicit_limit()) as f32;
        p.initial = Some(gaussian(n, [20.0, 20.0], 4.0, 1.0));
        let mut sim =
            Pollutant::new(&g, p.clone(), solver::make(&g, "gpu-thomas", n, n).unwrap()).unwrap();
        for _ in 0..100 {
            sim.step().unwrap();
        }
        let c = sim.read().unwrap();
        let max = c.iter().fold(0.0f32, |m, &v| m.max(v.abs()));
        assert!(c.iter().all(|v| v.is_finite()));
        assert!(
            max <= 1.0,
            "{flow:?}: max |C| = {max} at Δt = {mult} × explicit limit"
        );
        let emax = explicit_max(&p);
        assert!(
            emax > 1e3,
            "{flow:?}: the explicit scheme should blow up at this Δt, max {emax}"
        );
    }
}

fn flat_pond(n: u32, depth: f32) -> WaterParams {
    let mut p = WaterParams::paper(n);
    p.bottom = Bottom {
        base: -depth,
        slope: 0.0,
        hill: 0.0,
        radius: 1.0,
    };
    p.push = None;
    p
}

#[test]
fn water_gpu_matches_cpu_over_100_steps() {
    let g = ctx();
    for &name in SOLVERS {
        let mut p = WaterParams::paper(31);
        // A push fast enough to cross the small grid within the run.
        p.push.as_mut().unwrap().steps = 60;
        p.push.as_mut().unwrap().depth = 0.01;
        let mut gpu =
            ShallowWater::new(&g, p.clone(), solver::make(&g, name, 31, 31).unwrap()).unwrap();
        let mut cpu = WaterCpu::new(p).unwrap();
        for _ in 0..100 {
            gpu.step().unwrap();
            cpu.step();
        }
        let e = rel_err(&gpu.read().unwrap(), &cpu.h);
        // The surface is a small deviation (~10⁻²) over depths ~0.3: f32 holds h to ~10⁻⁸
        // absolute, and the matrix coefficients carry the depth's rounding; 10⁻³ of the
        // surface's own scale.
        assert!(e < 1e-3, "{name}: relative error {e:.2e}");
        let amp = cpu.h.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(amp > 1e-3, "the push made no waves ({amp})");
    }
}

#[test]
fn water_volume_is_conserved() {
    let g = ctx();
    let n = 64;
    let mut p = WaterParams::paper(n);
    p.push = None;
    p.initial = Some(gaussian(n, [20.0, 30.0], 3.0, 0.05));
    let depth0: f64 = (0..(n * n) as usize)
        .map(|k| -p.bottom.at(k % n as usize, k / n as usize, n) as f64)
        .sum();
    let v0: f64 = p.initial.as_ref().unwrap().iter().map(|&v| v as f64).sum();
    let mut sim = ShallowWater::new(&g, p, solver::make(&g, "gpu-thomas", n, n).unwrap()).unwrap();
    for _ in 0..150 {
        sim.step().unwrap();
    }
    let h = sim.read().unwrap();
    let v1: f64 = h.iter().map(|&v| v as f64).sum();
    // Relative to the water volume (Σ depth): exact in exact arithmetic; f32 rounding.
    let drift = (v1 - v0).abs() / depth0;
    assert!(drift < 1e-5, "volume changed by {drift:.2e} of the total");
    assert!(
        h.iter().fold(0.0f32, |m, &v| m.max(v)) < 0.04,
        "the bump did not spread"
    );
}

#[test]
fn water_waves_travel_at_sqrt_g_d() {
    let g = ctx();
    let n = 128;
    let depth = 0.25f32;
    let mut p = flat_pond(n, depth);
    p.gravity = 4.0; // c = √(g d) = 1 cell per time unit
    p.dt = 0.25;
    p.damping = 0.0;
    let centre = [64.0, 64.0];
    p.initial = Some(gaussian(n, centre, 2.5, 0.01));
    let mut sim = ShallowWater::new(&g, p, solver::make(&g, "gpu-thomas", n, n).unwrap()).unwrap();
    let steps = 160;
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let h = sim.read().unwrap();
    let t = steps as f64 * 0.25;
    let c = (4.0f64 * depth as f64).sqrt();
    // The crest of the ring along the row through the centre, right of the centre.
    let row = &h[64 * n as usize..65 * n as usize];
    let (imax, _) = row
        .iter()
        .enumerate()
        .skip(64 + 10)
        .fold((0, f32::MIN), |b, (i, &v)| if v > b.1 { (i, v) } else { b });
    let r = imax as f64 + 0.5 - centre[0];
    // The implicit scheme slows short waves (dispersion) and the crest of a spreading 2D
    // ring trails the front by about the bump's width: 15 %.
    assert!(
        (r - c * t).abs() < 0.15 * c * t,
        "crest at r = {r:.1}, c t = {:.1}",
        c * t
    );
}

#[test]
fn frame_png_has_a_colour_bar() {
    let g = ctx();
    let dir = tempfile::tempdir().unwrap();
    let mut sim =
        gpgpu_repro::sim::make(&g, gpgpu_repro::sim::Kind::Heat, 32, "gpu-thomas").unwrap();
    sim.step().unwrap();
    let path = dir.path().join("f.png");
    gpgpu_repro::sim::frames::write_frame(sim.as_ref(), &path).unwrap();
    let img = image::open(&path).unwrap().to_rgb8();
    assert!(img.width() > 512 && img.height() >= 512);
    // The colour bar's top is viridis(1) (yellow), its bottom viridis(0) (dark purple).
    let x = img.width() - 90 - 12;
    let top = img.get_pixel(x, 30).0;
    let bottom = img.get_pixel(x, img.height() - 14).0;
    assert!(top[0] > 200 && top[1] > 200 && top[2] < 80, "{top:?}");
    assert!(bottom[0] < 90 && bottom[2] > 60, "{bottom:?}");
}

#[test]
fn window_without_a_display_fails_with_a_clear_message() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .args(["sim", "heat", "--size", "32", "--window"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("display"), "{err}");
}
