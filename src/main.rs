//! `gpgpu-repro`: the command line. Thin: parse arguments, call the library, print errors
//! with their chain and exit non-zero.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::builder::PossibleValuesParser;
use clap::{Parser, Subcommand};
use gpgpu_repro::gl::{self, DeviceSelector};
use gpgpu_repro::registry;
use gpgpu_repro::report::load::QuietPolicy;
use gpgpu_repro::runner::{self, Mode, Options};

mod cli;

#[derive(Parser)]
#[command(
    version,
    about = "Re-creates five historical GPGPU papers on OpenGL and regenerates their tables and figures"
)]
struct Cli {
    /// EGL device by index or name (see `info`); default: first hardware device, else llvmpipe.
    #[arg(
        long,
        global = true,
        env = "GPGPU_REPRO_DEVICE",
        default_value = "auto"
    )]
    device: DeviceSelector,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The GL device in use, its driver and limits, every EGL device, and the CPU.
    Info,
    /// Run papers' experiments, verify every GPU result, write tables, plots and REPORT.md.
    Reproduce(ReproduceArgs),
    /// Two runs side by side (e.g. two devices): every measured value of both, the ratio B / A,
    /// and the verdicts that change.
    Compare {
        /// The first run's output folder (e.g. figures/llvmpipe-intel-xeon-2cpu).
        a: PathBuf,
        /// The second run's output folder.
        b: PathBuf,
        /// Write the Markdown report here (default: print it).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Where the time of a run's rows went: each row's profiled warm-up run, pass by pass
    /// (`reproduce` keeps them in each paper's record).
    Profile {
        /// The run's output folder (e.g. figures/llvmpipe-intel-xeon-2cpu).
        dir: PathBuf,
        /// The paper key.
        paper: String,
        /// Only the rows whose table or row name contains this text.
        #[arg(long)]
        row: Option<String>,
    },
    /// Rewrite figures/REPORT.md, the index of the devices' result folders, and each device's
    /// REPORT.md from its papers' records (a full run does both; use it after adding a
    /// device's folder or a paper's results).
    Index {
        /// The folder holding one results folder per device.
        #[arg(default_value = "figures")]
        root: PathBuf,
    },
    /// Run a simulation headless (PNG frames, FPS) or live in a window.
    #[command(after_help = registry::sims_help())]
    Sim {
        /// The simulation (listed below with its defaults).
        #[arg(value_parser = PossibleValuesParser::new(registry::SIMS.iter().map(|s| s.name)))]
        name: String,
        #[command(flatten)]
        options: SimOptions,
    },
    /// Run a legacy fragment technique on a small input pass by pass: a PNG per pass of every
    /// texture it reads and writes, an animated GIF, and trace.md narrating each pass.
    #[command(after_help = gpgpu_repro::trace::help())]
    Trace(TraceArgs),
    /// Measure the device's limits (bandwidths, FMA rates, fixed costs); write device.json.
    Bench(BenchArgs),
}

// The options of `reproduce` (no doc comment: clap would take it for the
// command's about text).
#[derive(clap::Args)]
struct ReproduceArgs {
    /// Paper keys (tridiagonal, matmul, lu, bicg, fem-storage) or `all`.
    #[arg(default_value = "all")]
    papers: Vec<String>,
    /// Capped sizes (minutes on a 2-core machine); writes to figures/quick/.
    #[arg(long)]
    quick: bool,
    /// Output folder (default: figures/, or figures/quick/ with --quick).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep rows already measured with the same configuration on the same device.
    #[arg(long)]
    resume: bool,
    /// Read every experiment file (<paper>.toml, sims.toml) from this folder instead of the
    /// built-in experiments/.
    #[arg(long)]
    experiments: Option<PathBuf>,
    /// Only read and check the experiment files (types, ranges, device limits); run
    /// nothing and write nothing.
    #[arg(long)]
    check: bool,
    /// Do not read the rows against the device's limits (no `bench` first, no bound
    /// columns, no roofline).
    #[arg(long)]
    no_bench: bool,
    /// A full run on a busy machine (other processes using more than a quarter of the
    /// cores) waits up to this many seconds for quiet, then refuses (quick runs only warn).
    #[arg(long, value_name = "SECONDS", default_value_t = gpgpu_repro::report::load::DEFAULT_WAIT_S)]
    wait_quiet: u64,
    /// Run anyway on a busy machine after the wait (the report marks the run noisy).
    #[arg(long)]
    allow_noisy: bool,
}

// The options of `trace` (no doc comment: clap would take it for the
// command's about text).
#[derive(clap::Args)]
struct TraceArgs {
    /// The technique (listed below with its default input).
    technique: String,
    /// Problem size (unknowns per system, matrix order; see below). Default: the
    /// technique's.
    #[arg(long)]
    size: Option<usize>,
    /// Systems side by side (one texture row each). Default: the technique's.
    #[arg(long)]
    batch: Option<usize>,
    /// Seed of the random input.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output folder (default: figures/quick/trace/<technique>/).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Show the passes in a window instead (→ / ← step, Space plays, Q quits).
    #[arg(long)]
    window: bool,
    /// With --window: show every pass once and close (for tests under xvfb-run).
    #[arg(long, hide = true, requires = "window")]
    autoplay_exit: bool,
}

// The options of `bench` (no doc comment: clap would take it for the
// command's about text).
#[derive(clap::Args)]
struct BenchArgs {
    /// Smaller sizes and a 50 s time budget on a software renderer, 75 s on a GPU
    /// (`bench::budget`; the full bench 240 s and 75 s).
    #[arg(long, conflicts_with = "show")]
    quick: bool,
    /// Where to write the profile (default: figures/device.json, figures/quick/ with --quick).
    #[arg(long)]
    out: Option<PathBuf>,
    /// A full run on a busy machine (other processes using more than a quarter of the
    /// cores) waits up to this many seconds for quiet, then refuses (quick runs only warn).
    #[arg(long, value_name = "SECONDS", default_value_t = gpgpu_repro::report::load::DEFAULT_WAIT_S)]
    wait_quiet: u64,
    /// Run anyway on a busy machine after the wait (the report marks the run noisy).
    #[arg(long)]
    allow_noisy: bool,
    /// Measure only the rows whose key contains this (a diagnostic; needs --out, so
    /// that an incomplete profile never replaces the one `reproduce` reads).
    #[arg(long, value_name = "KEY", requires = "out")]
    only: Option<String>,
    /// Measure pass K alone and write it to --out, with no load gate (how a bench runs each
    /// of its passes in a process of its own).
    #[arg(long, value_name = "K", hide = true, requires = "out")]
    pass: Option<u32>,
    /// With --pass: keep this process on one CPU and measure only the fixed costs (the
    /// floor a bench adds to the fixed costs it measures on all CPUs).
    #[arg(long, hide = true, requires = "pass")]
    one_cpu: bool,
    /// Print a saved profile (`device.json`: its table, and its between-run terms per limiter
    /// as this build derives them) and measure nothing.
    #[arg(long, value_name = "DEVICE_JSON", conflicts_with_all = ["out", "only", "pass"])]
    show: Option<PathBuf>,
}

// The options of `sim` besides its name (no doc comment: clap would take it for the
// command's about text).
#[derive(clap::Args)]
struct SimOptions {
    /// Size N: an N × N grid (biofet: an 8 × 8 × N mesh). Default: the simulation's.
    #[arg(long)]
    size: Option<u32>,
    /// Time steps. Default: the simulation's.
    #[arg(long)]
    steps: Option<u32>,
    /// Solver (cr, cgN, thomas, …; listed below per simulation). Default: the first.
    #[arg(long)]
    solver: Option<String>,
    /// Write PNG frames into this folder.
    #[arg(long)]
    frames: Option<PathBuf>,
    /// Steps between frames.
    #[arg(long, default_value_t = 10)]
    every: u32,
    /// Open a live viewer (needs a display).
    #[arg(long)]
    window: bool,
}

impl SimOptions {
    /// The library's arguments of a run on `device`.
    fn into_args(self, device: DeviceSelector) -> gpgpu_repro::sim::SimArgs {
        gpgpu_repro::sim::SimArgs {
            size: self.size,
            steps: self.steps,
            solver: self.solver,
            frames: self.frames,
            every: self.every,
            window: self.window,
            device,
        }
    }
}

/// How a run treats a busy machine: `--wait-quiet`, `--allow-noisy`, the mode's defaults.
fn quiet_policy(mode: Mode, wait_s: u64, allow_noisy: bool) -> QuietPolicy {
    QuietPolicy {
        wait: std::time::Duration::from_secs(wait_s),
        allow_noisy,
        ..QuietPolicy::for_run(mode)
    }
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            // A run ended by Ctrl-C / SIGTERM exits as an interrupted Unix program does (128 +
            // SIGINT), whether it stopped between rows or by the stop's backstop.
            match e.downcast_ref::<gpgpu_repro::runner::RunError>() {
                Some(gpgpu_repro::runner::RunError::Interrupted) => ExitCode::from(130),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

/// A closed stdout (`gpgpu-repro info | head -1`) ends the program quietly, as it does any
/// Unix filter: SIGPIPE back to its default action, so that the write kills the process with
/// SIGPIPE (the shell's status 141) instead of returning EPIPE, which `println!` turns into a
/// panic ("failed printing to stdout", exit 101). Rust's runtime ignores SIGPIPE before `main`;
/// nothing here writes to a pipe or socket whose reader may go away except stdout and stderr
/// (child processes' output is read, not written), so the default action loses nothing.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with SIG_DFL installs no handler; it runs first in `main`, before any
    // thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let device = cli.device;
    if gpgpu_repro::gl::program::inexact_division() {
        eprintln!(
            "warning: {} is set: every device division in the shaders is a deliberately \
             inexact one (a test of the 2005 arithmetic's emulation); results are not this \
             device's",
            gpgpu_repro::gl::program::INEXACT_DIV_DEFINE
        );
    }
    gpgpu_repro::gl::program::overrides::check()?;
    let replaced = gpgpu_repro::gl::program::overrides::describe();
    if !replaced.is_empty() {
        eprintln!("note: {replaced}");
    }
    // A bench (alone or before a reproduce) runs each pass in a process of its own, on the
    // same device.
    if let Ok(exe) = std::env::current_exe() {
        gpgpu_repro::bench::passes_in_processes(vec![
            exe.into(),
            "--device".into(),
            device.to_string().into(),
        ]);
    }
    match cli.command {
        Command::Info => info(&device),
        Command::Reproduce(a) => reproduce(&device, a),
        Command::Index { root } => index(&root),
        Command::Compare { a, b, out } => compare(&a, &b, out.as_deref()),
        Command::Profile { dir, paper, row } => profile(&dir, &paper, row.as_deref()),
        Command::Sim { name, options } => sim(device, &name, options),
        Command::Trace(a) => trace(&device, a),
        Command::Bench(a) => bench(&device, a),
    }
}

/// `info`: the device in use, every EGL device, and the plan of what runs here.
fn info(device: &DeviceSelector) -> anyhow::Result<()> {
    let g = gl::headless(device).context("creating a headless GL context")?;
    print!("{}", g.info());
    println!("\nEGL devices:");
    for d in gl::egl::list_devices()? {
        let used = g.info().egl_device.as_deref() == Some(&d.to_string());
        println!("  {d}{}", if used { "  <- in use" } else { "" });
    }
    print!("\n{}", registry::plan(g.caps()));
    Ok(())
}

/// `reproduce`: the papers' experiments, then where the report is.
fn reproduce(device: &DeviceSelector, a: ReproduceArgs) -> anyhow::Result<()> {
    let mode = Mode::from_quick_flag(a.quick);
    let opts = Options {
        papers: a.papers,
        mode,
        out: a.out,
        resume: a.resume,
        experiments: a.experiments,
        check_only: a.check,
        bench: !a.no_bench,
        profile: true,
    };
    runner::select(registry::PAPERS, &opts.papers)?;
    let g = gl::headless(device).context("creating a headless GL context")?;
    eprintln!("device: {}", g.info().short());
    let quiet = quiet_policy(mode, a.wait_quiet, a.allow_noisy);
    runner::reproduce_with(&g, registry::PAPERS, &opts, &quiet)?;
    if a.check {
        eprintln!("experiment files: ok");
    } else {
        eprintln!(
            "report: {}",
            opts.out_dir(g.info()).join("REPORT.md").display()
        );
    }
    Ok(())
}

/// `index`: every device's REPORT.md and the index of devices under `root`, rewritten.
fn index(root: &Path) -> anyhow::Result<()> {
    let order: Vec<_> = registry::PAPERS.iter().map(|p| p.meta()).collect();
    for dir in std::fs::read_dir(root)
        .with_context(|| format!("reading {}", root.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|d| d.join("REPORT.md").is_file())
    {
        gpgpu_repro::report::index::rewrite_report(&dir, &order)?;
    }
    gpgpu_repro::report::index::write_device_index(root, &order)?;
    eprintln!("index: {}", root.join("REPORT.md").display());
    Ok(())
}

/// `compare`: two runs side by side, printed or written to `out`.
fn compare(a: &Path, b: &Path, out: Option<&Path>) -> anyhow::Result<()> {
    let report = gpgpu_repro::report::compare::compare(a, b)?;
    match out {
        Some(path) => {
            gpgpu_repro::report::files::write_atomic(path, report.as_bytes())?;
            eprintln!("comparison: {}", path.display());
        }
        None => print!("{report}"),
    }
    Ok(())
}

/// `profile`: the profiles a run kept for one paper's rows.
fn profile(dir: &Path, paper: &str, row: Option<&str>) -> anyhow::Result<()> {
    runner::select(registry::PAPERS, &[paper.to_string()])?;
    let path = dir.join(paper).join("paper.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("reading {} (a `reproduce` output folder?)", path.display()))?;
    let record: gpgpu_repro::report::record::PaperRecord = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a paper record", path.display()))?;
    print!(
        "{}",
        gpgpu_repro::report::profile::listing(&record.profiles, row).map_err(anyhow::Error::msg)?
    );
    Ok(())
}

/// `sim`: one simulation, headless or in a window.
fn sim(device: DeviceSelector, name: &str, options: SimOptions) -> anyhow::Result<()> {
    let Some(entry) = registry::simulation(name) else {
        let known: Vec<&str> = registry::SIMS.iter().map(|s| s.name).collect();
        bail!("unknown simulation `{name}`; known: {}", known.join(", "));
    };
    if options.every == 0 {
        bail!("--every must be at least 1");
    }
    cli::run_sim(entry, &options.into_args(device))
}

/// `trace`: a legacy technique pass by pass, in files or in a window.
fn trace(device: &DeviceSelector, a: TraceArgs) -> anyhow::Result<()> {
    use gpgpu_repro::trace;
    // Everything about the input is checked before any GL work or output.
    let (t, input) = trace::resolve(&a.technique, a.size, a.batch, a.seed)?;
    if a.window {
        let shown = trace::window::run(t, input, a.autoplay_exit)?;
        println!("{}: {shown} passes shown", t.name);
        return Ok(());
    }
    let out = a.out.unwrap_or_else(|| trace::default_out(t.name));
    let g = gl::headless(device).context("creating a headless GL context")?;
    eprintln!("device: {}", g.info().short());
    let traced = (t.run)(&g, &input)?;
    if !traced.bit_identical() {
        bail!("the traced result differs from the untraced solver's output");
    }
    let paths = trace::write(&traced, &out)?;
    println!(
        "{}: {} passes traced; {} files in {} (start with trace.md); {}",
        t.name,
        traced.passes.len(),
        paths.len(),
        out.display(),
        traced.check
    );
    Ok(())
}

/// `bench`: the device's limits, written to a profile.
fn bench(device: &DeviceSelector, a: BenchArgs) -> anyhow::Result<()> {
    if let Some(path) = &a.show {
        let p = gpgpu_repro::bench::DeviceProfile::load(path)
            .with_context(|| format!("reading {}", path.display()))?;
        print!("{p}");
        return Ok(());
    }
    // Before the context: the driver's threads inherit the one CPU.
    if a.one_cpu && !gpgpu_repro::bench::affinity::pin_to_one_cpu() {
        anyhow::bail!("bench --one-cpu: this system does not let a process keep to one CPU");
    }
    let g = gl::headless(device).context("creating a headless GL context")?;
    let mode = Mode::from_quick_flag(a.quick);
    let out = a
        .out
        .unwrap_or_else(|| gpgpu_repro::bench::default_path(mode));
    if let Some(pass) = a.pass {
        gpgpu_repro::bench::measure_pass(&g, mode, pass, a.only.as_deref(), a.one_cpu, &out)?;
        return Ok(());
    }
    let quiet = quiet_policy(mode, a.wait_quiet, a.allow_noisy);
    // Ctrl-C or SIGTERM stops the bench before its next measurement, nothing written.
    let _ = gpgpu_repro::runner::interrupt_flag();
    let profile = gpgpu_repro::bench::run(&g, mode, &out, &quiet, a.only.as_deref())?;
    print!("{profile}");
    eprintln!("profile: {}", out.display());
    Ok(())
}
