//! `gpgpu-repro`: the command line. Thin: parse arguments, call the library, print errors
//! with their chain and exit non-zero.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use gpgpu_repro::gl::{self, DeviceSelector};
use gpgpu_repro::runner::{self, Mode, Options};
use gpgpu_repro::{papers, sim};

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
    Reproduce {
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
        /// Read <paper>.toml from this folder instead of the built-in experiments/.
        #[arg(long)]
        experiments: Option<PathBuf>,
    },
    /// Run a simulation headless (PNG frames, FPS) or live in a window.
    Sim {
        /// The simulation (see `gpgpu-repro sim --help`).
        name: String,
        /// Grid size N (N×N, or N³ in 3D).
        #[arg(long)]
        size: Option<u32>,
        /// Time steps.
        #[arg(long)]
        steps: Option<u32>,
        /// Solver (cr, cg, thomas, …; the simulation lists its own).
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
    },
    /// Measure the device's limits (bandwidths, FMA rates, fixed costs); write device.json.
    Bench {
        /// Smaller sizes (under 30 s on a 2-core machine).
        #[arg(long)]
        quick: bool,
        /// Where to write the profile (default: figures/device.json, figures/quick/ with --quick).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Info => {
            let g = gl::headless(&cli.device).context("creating a headless GL context")?;
            print!("{}", g.info());
            println!("\nEGL devices:");
            for d in gl::context::list_devices()? {
                let used = g.info().egl_device.as_deref() == Some(&d.to_string());
                println!("  {d}{}", if used { "  <- in use" } else { "" });
            }
            println!(
                "\nPapers: {}",
                papers::PAPERS
                    .iter()
                    .map(|p| p.key)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            Ok(())
        }
        Command::Reproduce {
            papers,
            quick,
            out,
            resume,
            experiments,
        } => {
            let opts = Options {
                papers,
                mode: if quick { Mode::Quick } else { Mode::Full },
                out,
                resume,
                experiments,
            };
            runner::select(&opts.papers)?;
            let g = gl::headless(&cli.device).context("creating a headless GL context")?;
            eprintln!("device: {}", g.info().short());
            runner::reproduce(&g, &opts)?;
            eprintln!("report: {}", opts.out_dir().join("REPORT.md").display());
            Ok(())
        }
        Command::Sim {
            name,
            size,
            steps,
            solver,
            frames,
            every,
            window,
        } => {
            let Some(entry) = sim::find(&name) else {
                let known: Vec<&str> = sim::SIMS.iter().map(|s| s.name).collect();
                bail!("unknown simulation `{name}`; known: {}", known.join(", "));
            };
            if every == 0 {
                bail!("--every must be at least 1");
            }
            let args = sim::SimArgs {
                size,
                steps,
                solver,
                frames,
                every,
                window,
                device: cli.device,
            };
            (entry.run)(&args)
        }
        Command::Bench { quick, out } => {
            let g = gl::headless(&cli.device).context("creating a headless GL context")?;
            let out = out.unwrap_or_else(|| gpgpu_repro::bench::default_path(quick));
            print!("{}", gpgpu_repro::bench::run(&g, quick, &out)?);
            eprintln!("profile: {}", out.display());
            Ok(())
        }
    }
}
