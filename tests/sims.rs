//! The ADI simulations (Kim & Lee 2005 §2, §4): each GPU step against a CPU f64
//! implementation of the same scheme, and the physics each scheme must get right.

use std::sync::{Mutex, MutexGuard};

use gpgpu_repro::gl::{self, DeviceSelector, Gl};
use gpgpu_repro::papers::tridiagonal::adi::heat::HeatParams;
use gpgpu_repro::papers::tridiagonal::adi::pollutant::{Flow, PollutantParams};
use gpgpu_repro::papers::tridiagonal::adi::scheme::{AdiCpu, AdiSim};
use gpgpu_repro::papers::tridiagonal::adi::shallow_water::{Bottom, WaterParams};
use gpgpu_repro::papers::tridiagonal::adi::{self as adi, AdiSpec};
use gpgpu_repro::registry::{SIMS, SimKind};
use gpgpu_repro::sim::{SimError, Simulation};

/// The ADI simulations of the registry's one list, in its order.
fn adi_sims() -> Vec<&'static AdiSpec> {
    SIMS.iter()
        .filter_map(|e| match e.kind {
            SimKind::Adi(a) => Some(a),
            SimKind::Biofet => None,
        })
        .collect()
}

/// One test at a time on the GL device: with these tests' mix of fragment and compute work on
/// several llvmpipe contexts at once (Mesa 22.3.6), the test process intermittently crashed
/// with SIGSEGV (2 runs in 3); run one after the other it never did. The cause is not
/// isolated (each test owns its context, on its own thread).
fn ctx() -> (MutexGuard<'static, ()>, Gl) {
    static GL: Mutex<()> = Mutex::new(());
    let lock = GL.lock().unwrap_or_else(|e| e.into_inner());
    let g = gl::headless(&DeviceSelector::Auto).expect("a headless GL 4.3 context (Mesa llvmpipe)");
    (lock, g)
}

/// The solvers every GPU-vs-CPU comparison runs with.
const ALL_SOLVERS: &[&str] = &[
    "cr",
    "cr-copy",
    "compute-cr",
    "compute-pcr",
    "thomas",
    "gpu-thomas",
];

/// The solver of the physics checks: Thomas in a compute shader where the device has compute
/// shaders (exact elimination, one invocation per line), else the paper's fragment CR.
fn physics_solver(g: &Gl) -> &'static str {
    if g.caps().has(gpgpu_repro::gl::Need::Compute) {
        "gpu-thomas"
    } else {
        "cr"
    }
}

/// Those of [`ALL_SOLVERS`] this device can run (on GL 3.3 the paper's fragment CR and CPU
/// Thomas; the compute solvers are checked to be refused with the reason).
fn solvers(g: &Gl) -> Vec<&'static str> {
    ALL_SOLVERS
        .iter()
        .copied()
        .filter(|&name| match g.caps().lacks(adi::solver::needs(name)) {
            None => true,
            Some(why) => {
                let p = HeatParams::ours(31);
                let err = AdiSim::new(g, p, name).err().expect("refused");
                assert!(err.to_string().contains(&why), "{name}: {err}");
                false
            }
        })
        .collect()
}

/// Whether a test of a compute path must skip on this device (GL 3.3: no compute shaders),
/// saying so with the reason.
fn skips_without_compute(g: &Gl, what: &str) -> bool {
    match g.caps().lacks(&[gpgpu_repro::gl::Need::Compute]) {
        Some(why) => {
            println!("skipped: {what} {why}");
            true
        }
        None => false,
    }
}

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

/// The registry's `fused` flag, which `sim --help` lists `fused-thomas` by, is what the
/// simulation does with the fused solver: built where listed, refused (a previous state the
/// fused dispatch would overwrite) where not.
#[test]
fn fused_thomas_is_listed_exactly_for_the_simulations_that_run_it() {
    let (_lock, g) = ctx();
    if skips_without_compute(&g, "fused-thomas") {
        return;
    }
    for a in adi_sims() {
        let made = (a.make)(&g, 16, adi::solver::FUSED);
        let fused = (a.fused)(16);
        assert_eq!(made.is_ok(), fused, "{}: {:?}", a.name, made.err());
        let listed = SIMS.iter().find(|e| e.name == a.name).unwrap().solvers();
        assert_eq!(listed.contains(&adi::solver::FUSED), fused, "{}", a.name);
    }
}

#[test]
fn heat_gpu_matches_cpu_over_100_steps() {
    let (_serial, g) = ctx();
    for name in solvers(&g) {
        let p = HeatParams::ours(31);
        let mut gpu = AdiSim::new(&g, p.clone(), name).unwrap();
        let mut cpu = AdiCpu::new(p).unwrap();
        for _ in 0..100 {
            gpu.step().unwrap();
            cpu.step().unwrap();
        }
        let e = rel_err(&gpu.read().unwrap(), &cpu.u);
        assert!(e < STEP_TOL, "{name}: relative error {e:.2e}");
        let hot = cpu.u.iter().filter(|&&t| t > 0.1).count();
        assert!(
            hot > 100,
            "heat spread from the sources to {hot} cells only"
        );
    }
}

#[test]
fn heat_without_sources_conserves_total_heat() {
    let (_serial, g) = ctx();
    let n = 64;
    let mut p = HeatParams::ours(n);
    p.sources.clear();
    p.initial = Some(gaussian(n, [20.0, 40.0], 6.0, 1.0));
    let total0: f64 = p.initial.as_ref().unwrap().iter().map(|&v| v as f64).sum();
    let mut sim = AdiSim::new(&g, p, physics_solver(&g)).unwrap();
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
    let (_serial, g) = ctx();
    let n = 96;
    let (sigma0, c, dt, steps) = (4.0f64, 1.0f32, 0.5f32, 80);
    let mut p = HeatParams::ours(n);
    p.sources.clear();
    p.diffusivity = c;
    p.dt = dt;
    let centre = [48.0, 48.0];
    p.initial = Some(gaussian(n, centre, sigma0, 1.0));
    let mut sim = AdiSim::new(&g, p, physics_solver(&g)).unwrap();
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
    let (_serial, g) = ctx();
    for name in solvers(&g) {
        for p in [
            PollutantParams::stream_ours(31),
            PollutantParams::vortex_ours(31),
        ] {
            let mut gpu = AdiSim::new(&g, p.clone(), name).unwrap();
            let mut cpu = AdiCpu::new(p).unwrap();
            for _ in 0..100 {
                gpu.step().unwrap();
                cpu.step().unwrap();
            }
            let e = rel_err(&gpu.read().unwrap(), &cpu.u);
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
    let (_serial, g) = ctx();
    let n = 128;
    let u = 0.5f32;
    let mut p = PollutantParams::stream_ours(n);
    p.flow = Flow::Stream([u, 0.0]);
    p.diffusion = 0.2;
    p.source = None;
    // Inside the explicit limit's cell-Péclet bound, where the central explicit half keeps
    // the scheme positive.
    p.dt = 1.0;
    p.initial = Some(gaussian(n, [30.0, 64.0], 4.0, 1.0));
    let mut sim = AdiSim::new(&g, p, physics_solver(&g)).unwrap();
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
    let (_serial, g) = ctx();
    let n = 64;
    for (flow, mult) in [(Flow::Stream([1.0, 0.5]), 50.0), (Flow::Vortex(0.05), 20.0)] {
        let mut p = PollutantParams::vortex_ours(n);
        p.source = None;
        p.flow = flow;
        p.diffusion = 0.05;
        p.dt = (mult * p.explicit_limit()) as f32;
        p.initial = Some(gaussian(n, [20.0, 20.0], 4.0, 1.0));
        let mut sim = AdiSim::new(&g, p.clone(), physics_solver(&g)).unwrap();
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
    let mut p = WaterParams::ours(n);
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
    let (_serial, g) = ctx();
    for name in solvers(&g) {
        let mut p = WaterParams::ours(31);
        // A push fast enough to cross the small grid within the run.
        p.push.as_mut().unwrap().steps = 60;
        p.push.as_mut().unwrap().depth = 0.01;
        let mut gpu = AdiSim::new(&g, p.clone(), name).unwrap();
        let mut cpu = AdiCpu::new(p).unwrap();
        for _ in 0..100 {
            gpu.step().unwrap();
            cpu.step().unwrap();
        }
        let e = rel_err(&gpu.read().unwrap(), &cpu.u);
        // The surface is a small deviation (~10⁻²) over depths ~0.3: f32 holds h to ~10⁻⁸
        // absolute, and the matrix coefficients carry the depth's rounding; 10⁻³ of the
        // surface's own scale.
        assert!(e < 1e-3, "{name}: relative error {e:.2e}");
        let amp = cpu.u.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(amp > 1e-3, "the push made no waves ({amp})");
    }
}

#[test]
fn water_volume_is_conserved() {
    let (_serial, g) = ctx();
    let n = 64;
    let mut p = WaterParams::ours(n);
    p.push = None;
    p.initial = Some(gaussian(n, [20.0, 30.0], 3.0, 0.05));
    let depth0: f64 = (0..(n * n) as usize)
        .map(|k| -p.bottom.at(k % n as usize, k / n as usize, n) as f64)
        .sum();
    let v0: f64 = p.initial.as_ref().unwrap().iter().map(|&v| v as f64).sum();
    let mut sim = AdiSim::new(&g, p, physics_solver(&g)).unwrap();
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
    let (_serial, g) = ctx();
    let n = 128;
    let depth = 0.25f32;
    let mut p = flat_pond(n, depth);
    p.gravity = 4.0; // c = √(g d) = 1 cell per time unit
    p.dt = 0.25;
    p.damping = 0.0;
    let centre = [64.0, 64.0];
    p.initial = Some(gaussian(n, centre, 2.5, 0.01));
    let mut sim = AdiSim::new(&g, p, physics_solver(&g)).unwrap();
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
    let (_serial, g) = ctx();
    let dir = tempfile::tempdir().unwrap();
    let mut sim = (adi::HEAT.make)(&g, 31, physics_solver(&g)).unwrap();
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

fn run_sim(args: &[&str]) -> (bool, String, std::time::Duration) {
    let t0 = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"))
        .arg("sim")
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    (out.status.success(), text, t0.elapsed())
}

/// `GPGPU_REPRO_GLSL`: an edited shader replaces the built-in one without a rebuild (a fused
/// Thomas whose back substitution writes zeros: the field changes, and the command says
/// which file it replaced); a file that is not one of the shaders, or a folder that does not
/// exist, is refused before anything runs.
#[test]
fn edited_shaders_replace_the_built_in_ones_and_bad_folders_are_refused() {
    let sim = |glsl: Option<&std::path::Path>, frames: &std::path::Path| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_gpgpu-repro"));
        c.args([
            "sim", "heat", "--size", "31", "--steps", "4", "--every", "4",
        ])
        .args(["--solver", "fused-thomas", "--frames"])
        .arg(frames)
        .env_remove("GPGPU_REPRO_GLSL");
        if let Some(d) = glsl {
            c.env("GPGPU_REPRO_GLSL", d);
        }
        let out = c.output().unwrap();
        let text = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        (out.status.success(), text)
    };
    let dir = tempfile::tempdir().unwrap();
    let file = "tridiagonal/sim/thomas.glsl";
    let landed = gpgpu_repro::gl::program::source(file).unwrap();
    let edited = landed.replace("x = s.y - s.x * x;", "x = 0.0;");
    assert_ne!(edited, landed, "the edit must change the shader");
    let path = dir.path().join("glsl").join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, edited).unwrap();
    let (ok, text) = sim(None, &dir.path().join("a"));
    assert!(ok, "{text}");
    assert!(!text.contains("GPGPU_REPRO_GLSL"), "{text}");
    let (ok, text) = sim(Some(&dir.path().join("glsl")), &dir.path().join("b"));
    assert!(ok, "{text}");
    assert!(
        text.contains(&format!("replaced the built-in copies of `{file}`")),
        "{text}"
    );
    let frame = |d: &str| std::fs::read(dir.path().join(d).join("heat_00004.png")).unwrap();
    assert_ne!(frame("a"), frame("b"), "the edited shader changed nothing");

    std::fs::write(dir.path().join("glsl/tridiagonal/sim/thomas.gls"), "").unwrap();
    let (ok, text) = sim(Some(&dir.path().join("glsl")), &dir.path().join("c"));
    assert!(!ok);
    assert!(
        text.contains("`tridiagonal/sim/thomas.gls` is not one of the shader files"),
        "{text}"
    );
    let (ok, text) = sim(Some(&dir.path().join("missing")), &dir.path().join("d"));
    assert!(!ok);
    assert!(text.contains("not a folder"), "{text}");
    assert!(!dir.path().join("c").exists() && !dir.path().join("d").exists());
}

/// The headless FPS line reports the first step apart (it carries the driver's first use of
/// each shader, seconds on llvmpipe without Mesa's shader cache) and the rate after it.
#[test]
fn sim_reports_the_first_step_apart_from_the_rate_after_it() {
    let (ok, text, _) = run_sim(&["heat", "--size", "31", "--steps", "3"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("3 steps, the first in ") && text.contains("the other 2 in "),
        "{text}"
    );
    let (ok, text, _) = run_sim(&["heat", "--size", "31", "--steps", "1"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("1 step, ") && !text.contains("the other"),
        "{text}"
    );
}

#[test]
fn sim_size_8193_and_0_are_refused_with_the_range_at_once() {
    for size in ["8193", "0", "3"] {
        let (ok, text, took) = run_sim(&["heat", "--size", size, "--steps", "1"]);
        assert!(!ok, "--size {size} ran: {text}");
        assert!(text.contains("4..=8192"), "--size {size}: {text}");
        assert!(!text.contains("GL_OUT_OF_MEMORY"), "{text}");
        assert!(took.as_secs_f64() < 5.0, "--size {size} took {took:?}");
    }
}

#[test]
fn sim_size_is_the_papers_grid_and_padding_is_printed() {
    // --size 64 is N' = 64: 63 unknowns per line, no padding for CR; --size 40 pads to 63.
    assert_eq!(adi::grid_of_size(1024).unwrap(), 1023);
    let (ok, text, _) = run_sim(&["heat", "--size", "64", "--steps", "2"]);
    assert!(ok, "{text}");
    assert!(text.contains("63×63"), "{text}");
    assert!(!text.contains("padded"), "{text}");
    let (ok, text, _) = run_sim(&["heat", "--size", "40", "--steps", "2"]);
    assert!(ok, "{text}");
    assert!(text.contains("39 systems of 63 unknowns"), "{text}");
}

#[test]
fn sim_that_does_not_fit_the_device_is_refused_before_allocating() {
    use gpgpu_repro::papers::tridiagonal::adi::solver::{footprint, padded};
    // N' = 8192 with fragment CR: the P1/P2 and X ping-pongs dominate, about 6 GiB in all.
    let fp = footprint("cr", 8191);
    let gib = fp.bytes as f64 / (1u64 << 30) as f64;
    assert!((5.0..8.0).contains(&gib), "{gib} GiB");
    assert_eq!(fp.widest, 8195);
    assert_eq!(padded("cr", 8191), None);
    assert_eq!(padded("cr", 1024), Some(2047));
    assert_eq!(padded("gpu-thomas", 1024), None);
    // A simulation whose textures are wider than the device allows is refused by name.
    let (_serial, g) = ctx();
    let max = g.info().max_rectangle_texture_size as u32;
    if max < 8195 {
        let e = AdiSim::new(&g, HeatParams::ours(8191), "cr").err().unwrap();
        assert!(e.to_string().contains("rectangle-texture limit"), "{e}");
    }
}

#[test]
fn sims_toml_nan_inf_and_negative_numbers_are_refused_naming_the_key() {
    // The same loader as every experiment file: the registry's entry, read from a folder.
    let paper = gpgpu_repro::registry::PAPERS
        .iter()
        .find(|p| p.files.iter().any(|f| f.name == "sims"))
        .unwrap();
    let builtin = |name: &str| paper.files.iter().find(|f| f.name == name).unwrap().builtin;
    let (_lock, g) = ctx();
    let check = gpgpu_repro::runner::Check {
        mode: gpgpu_repro::Mode::Quick,
        device: g.info(),
    };
    let dir = tempfile::tempdir().unwrap();
    for f in paper.files {
        std::fs::write(dir.path().join(format!("{}.toml", f.name)), f.builtin).unwrap();
    }
    let check_config = |text: &str| {
        std::fs::write(dir.path().join("sims.toml"), text).unwrap();
        gpgpu_repro::runner::entry::load(paper.files, Some(dir.path()), &check).map(drop)
    };
    const EXPERIMENTS: &str = include_str!("../experiments/sims.toml");
    assert_eq!(builtin("sims"), EXPERIMENTS);
    check_config(EXPERIMENTS).unwrap();
    for (from, to, key) in [
        (
            "budget_s = 4.0, max_repetitions = 20 } }\n# §4",
            "budget_s = nan, max_repetitions = 20 } }\n# §4",
            "fig14_all.repeat.quick.budget_s",
        ),
        (
            "budget_s = 4.0 }, quick = { repetitions = 15",
            "budget_s = -1.0 }, quick = { repetitions = 15",
            "fig14_heat.repeat.full.budget_s",
        ),
        ("omega = 0.05", "omega = inf", "stability.omega"),
        (
            "verify_steps = 5\nrepeat = { full = { repetitions = 10",
            "verify_steps = 0\nrepeat = { full = { repetitions = 10",
            "fig14_all.verify_steps",
        ),
        (
            "quick = [63, 255]",
            "quick = [63, 0]",
            "fig14_heat.sizes.quick",
        ),
        (
            "solver = \"cr\"\nview",
            "solver = \"cg0\"\nview",
            "fig14_all.solver",
        ),
    ] {
        assert!(EXPERIMENTS.contains(from), "{from}");
        let text = EXPERIMENTS.replacen(from, to, 1);
        let e = check_config(&text).unwrap_err().to_string();
        // Serde-level checks (`Repeat`) name the field and show the line, not the path.
        let leaf = key.rsplit('.').next().unwrap_or(key);
        assert!(e.contains(key) || e.contains(leaf), "{key}: {e}");
        assert!(e.contains("sims.toml"), "{e}");
    }
}

#[test]
fn cpu_thomas_is_one_generic_function_in_f32_and_f64() {
    use gpgpu_repro::papers::tridiagonal::{Systems, thomas_batch_f32, thomas_batch_f64};
    let s = Systems::random(37, 5, false, 7);
    let want = thomas_batch_f64(&s).unwrap();
    let mut x = vec![0f32; 37 * 5];
    thomas_batch_f32(&s, &mut x).unwrap();
    let e = gpgpu_repro::stats::max_rel_error(&x, &want);
    // Diagonally dominant (|b| ≥ |a| + |c| + 1): f32 rounding, a few ulp per row.
    assert!(e < 1e-5, "{e:.2e}");
    assert!(s.residual(&x) < 1e-5);
    let mut singular = s.clone();
    singular.data[4 * (2 * 37 + 3) + 1] = 0.0; // b of row 3, system 2
    singular.data[4 * (2 * 37 + 3)] = 0.0; // a: the pivot is exactly b = 0
    assert!(thomas_batch_f64(&singular).is_err());
}

#[test]
fn every_adi_simulation_is_registered_once_and_matches_its_cpu_twin() {
    let (_serial, g) = ctx();
    let names: Vec<&str> = adi_sims().iter().map(|a| a.name).collect();
    assert_eq!(
        names,
        [
            "heat",
            "pollutant-stream",
            "pollutant-vortex",
            "shallow-water"
        ]
    );
    let paper: Vec<&str> = gpgpu_repro::papers::tridiagonal::experiments::sims::SIMULATIONS
        .iter()
        .map(|a| a.name)
        .collect();
    assert_eq!(names, paper, "the registry lists the paper's simulations");
    for spec in adi_sims() {
        let e = spec;
        let mut sim = (spec.make)(&g, 15, "cr").unwrap();
        assert_eq!(sim.name(), e.name);
        for _ in 0..3 {
            sim.step().unwrap();
        }
        let want = (spec.reference)(15, 3).unwrap();
        let err = gpgpu_repro::stats::max_rel_error(&sim.read().unwrap(), &want);
        assert!(err < 1e-4, "{}: {err:.2e}", e.name);
        // A reset brings back the initial state (and the step count).
        sim.reset().unwrap();
        assert_eq!(sim.steps(), 0);
        let init = (spec.reference)(15, 0).unwrap();
        let back: Vec<f64> = sim.read().unwrap().iter().map(|&v| v as f64).collect();
        assert_eq!(back, init, "{}", e.name);
    }
}

#[test]
fn a_bad_parameter_is_refused_before_any_gl_work() {
    let (_serial, g) = ctx();
    let mut p = HeatParams::ours(31);
    p.dt = f32::NAN;
    assert!(matches!(AdiSim::new(&g, p, "cr"), Err(SimError::Params(_))));
    let mut p = HeatParams::ours(31);
    p.initial = Some(vec![0.0; 10]);
    assert!(matches!(AdiCpu::new(p), Err(SimError::Params(_))));
}

#[test]
fn fused_build_and_solve_matches_the_cpu_twin_and_is_refused_for_water() {
    let (_serial, g) = ctx();
    if skips_without_compute(&g, "the fused compute path") {
        return;
    }
    let mut heat = AdiSim::new(&g, HeatParams::ours(31), "fused-thomas").unwrap();
    let mut cpu = AdiCpu::new(HeatParams::ours(31)).unwrap();
    for p in [
        PollutantParams::stream_ours(31),
        PollutantParams::vortex_ours(31),
    ] {
        let mut gpu = AdiSim::new(&g, p.clone(), "fused-thomas").unwrap();
        let mut cpu = AdiCpu::new(p).unwrap();
        for _ in 0..100 {
            gpu.step().unwrap();
            cpu.step().unwrap();
        }
        let e = rel_err(&gpu.read().unwrap(), &cpu.u);
        assert!(e < STEP_TOL, "{}: relative error {e:.2e}", gpu.name());
    }
    for _ in 0..100 {
        heat.step().unwrap();
        cpu.step().unwrap();
    }
    let e = rel_err(&heat.read().unwrap(), &cpu.u);
    assert!(e < STEP_TOL, "heat: relative error {e:.2e}");
    // Switching to it and away keeps the state.
    heat.set_solver("cr").unwrap();
    heat.set_solver("fused-thomas").unwrap();
    assert_eq!(rel_err(&heat.read().unwrap(), &cpu.u), e);
    let e = AdiSim::new(&g, WaterParams::ours(31), "fused-thomas")
        .err()
        .unwrap();
    assert!(matches!(e, SimError::Params(_)), "{e}");
}

/// The GPU Thomas solvers keep (c′, d′) in a private array up to `THOMAS_PRIVATE_MAX`
/// unknowns per line and in a scratch buffer above: both sides of the switch against the CPU
/// twin (heat, a few steps of a grid at the limit and one past it).
#[test]
fn gpu_thomas_is_right_on_both_sides_of_the_private_scratch_limit() {
    use gpgpu_repro::papers::tridiagonal::adi::solver::THOMAS_PRIVATE_MAX;
    let (_serial, g) = ctx();
    if skips_without_compute(&g, "the compute Thomas solvers") {
        return;
    }
    for n in [THOMAS_PRIVATE_MAX, THOMAS_PRIVATE_MAX + 1] {
        let p = HeatParams::ours(n);
        let mut cpu = AdiCpu::new(p.clone()).unwrap();
        for _ in 0..3 {
            cpu.step().unwrap();
        }
        for name in ["gpu-thomas", "fused-thomas"] {
            let mut gpu = AdiSim::new(&g, p.clone(), name).unwrap();
            for _ in 0..3 {
                gpu.step().unwrap();
            }
            let e = rel_err(&gpu.read().unwrap(), &cpu.u);
            assert!(e < STEP_TOL, "{name} at N = {n}: relative error {e:.2e}");
        }
    }
}

#[test]
fn fig14_chart_draws_one_series_per_grid_and_the_papers_where_it_gives_a_value() {
    use gpgpu_repro::papers::tridiagonal::experiments::sims::{Fig14Bar, fig14_chart};
    let bar = |c: &str, n: u32, fps: f64, paper: Option<f64>| Fig14Bar {
        category: c.into(),
        n,
        fps,
        interval: Some((0.9 * fps, 1.1 * fps)),
        paper,
    };
    let bars = [
        bar("heat · cr", 255, 80.0, None),
        bar("heat · thomas", 255, 120.0, None),
        bar("heat · cr", 63, 900.0, None),
        bar("heat + view", 255, 60.0, Some(35.0)),
        bar("shallow-water + view", 255, 30.0, Some(17.0)),
    ];
    let chart = fig14_chart(&bars, "llvmpipe", 1024);
    assert_eq!(
        chart.categories,
        [
            "heat · cr",
            "heat · thomas",
            "heat + view",
            "shallow-water + view"
        ]
    );
    let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ours (llvmpipe), N = 63",
            "ours (llvmpipe), N = 255",
            "paper (GeForce 6800), N' = 1024"
        ]
    );
    let values = |k: usize| -> Vec<Option<f64>> {
        chart.series[k]
            .dots
            .iter()
            .map(|d| d.map(|d| d.value))
            .collect()
    };
    assert_eq!(values(0), [Some(900.0), None, None, None]);
    assert_eq!(values(1), [Some(80.0), Some(120.0), Some(60.0), Some(30.0)]);
    assert_eq!(values(2), [None, None, Some(35.0), Some(17.0)]);
    // Ours carry their intervals; the paper's values have none.
    assert_eq!(
        chart.series[1].dots[0].unwrap().interval,
        Some((72.0, 88.0))
    );
    assert!(
        chart.series[2]
            .dots
            .iter()
            .flatten()
            .all(|d| d.interval.is_none())
    );
    assert!(chart.series[2].paper && !chart.series[1].paper);
    assert!(chart.log && chart.title.contains("llvmpipe"));
    // Without paper values there is no paper series.
    assert_eq!(fig14_chart(&bars[..3], "d", 1024).series.len(), 2);
    let path = std::env::temp_dir().join("gpgpu-repro-fig14-test.png");
    chart.save(&path).expect("the chart renders");
    assert!(std::fs::metadata(&path).unwrap().len() > 1000);
}
