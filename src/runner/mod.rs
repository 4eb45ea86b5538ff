//! The experiment runner behind `gpgpu-repro reproduce`.
//!
//! It is handed the papers' entries ([`PaperEntry`], defined here, listed by the registry
//! above it). Before any work starts it reads every experiment file of the selected papers
//! (`--experiments DIR` or the built-in copies) and checks each completely: syntax, finite
//! numbers, the typed configuration and the paper's own [`Experiments::validate`] (see
//! [`entry`]). Then, paper by paper, it hands the paper a [`Session`] (the GL context, the
//! mode, table writers, notes, audits, plots), and after the paper's experiments rewrites the
//! paper's record and `REPORT.md`. Rows are saved as they finish (atomically), `--resume`
//! reuses rows measured with the same configuration on the same device, a row whose
//! verification failed is marked FAILED and makes the run end with an error after all the
//! other rows ran. Ctrl-C and SIGTERM finish (or abandon) the current row, write the
//! records and end the run with [`RunError::Interrupted`].
//!
//! Before anything is written the machine's load is sampled ([`crate::report::load`]): a full
//! run on a busy machine waits for quiet and then refuses ([`RunError::Noisy`]) unless told
//! to go on; a quick run warns. Each paper's provenance records the load before and during
//! its run, and each table the load over its own span.

pub mod config;
pub mod drift;
pub mod entry;
pub mod roofline;
pub mod session;
pub mod tuning;
pub mod versus;

pub use config::{PerMode, Repeat, Sizes};
pub use entry::{
    Check, ExperimentFile, Experiments, LoadedFile, Paper, PaperEntry, TableSpec, parse, run_paper,
};
pub use session::{Session, TableWriter};

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::bench::DeviceProfile;
use crate::gl::{DeviceInfo, Gl, GlError};
use crate::report::Provenance;
use crate::report::article::PaperMeta;
use crate::report::files::{OutputError, ensure_writable};
use crate::report::index::{PaperRecord, RUN_JSON, RunTimes, write_device_index, write_report};
use crate::report::load::{Gate, LoadSource, QuietPolicy, RunLoad, Snapshot};
use crate::report::plot::PlotError;

/// Errors of a reproduction run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A malformed experiment file: names the file, the line and the problem.
    #[error("{file}: {message}")]
    Config { file: String, message: String },
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// A full run refused on a busy machine (nothing written).
    #[error(transparent)]
    Noisy(#[from] crate::report::load::NoisyError),
    #[error("unknown paper `{0}`; the papers are: {1}")]
    UnknownPaper(String, String),
    /// An algorithm's own error (zero pivot, breakdown, unsupported size…).
    #[error(transparent)]
    Algorithm(Box<dyn std::error::Error + Send + Sync + 'static>),
    #[error(
        "interrupted (Ctrl-C or SIGTERM): the rows finished so far are saved; rerun with --resume"
    )]
    Interrupted,
    /// Rows failed verification or a paper stopped on an error (the rest ran and was saved).
    #[error("the run had {} failure(s):\n  {}", .0.len(), .0.join("\n  "))]
    Failed(Vec<String>),
}

/// A stop request seen by a repetition loop ends the run as Ctrl-C does.
impl From<crate::gl::timing::Stopped> for RunError {
    fn from(_: crate::gl::timing::Stopped) -> Self {
        RunError::Interrupted
    }
}

impl RunError {
    /// Wraps an algorithm's typed error.
    pub fn algorithm(e: impl std::error::Error + Send + Sync + 'static) -> RunError {
        RunError::Algorithm(Box::new(e))
    }
}

pub use crate::mode::Mode;

/// What `reproduce` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Paper keys; empty or `all` means every paper.
    pub papers: Vec<String>,
    pub mode: Mode,
    /// Output folder; default `figures/` (full) or `figures/quick/` (quick).
    pub out: Option<PathBuf>,
    pub resume: bool,
    /// Read `experiments/<name>.toml` from this folder instead of the copies built in.
    pub experiments: Option<PathBuf>,
    /// Only read and check the experiment files (`--check`): no output, no measurement.
    pub check_only: bool,
    /// Read every timed row against the device's limits: reuse `DIR/device.json` measured on
    /// this device, or run `bench` first (`--no-bench` turns it off: no bound columns).
    pub bench: bool,
    /// Profile each timed row's last warm-up run ([`crate::gl::profile`]): the records'
    /// "Where the time goes".
    pub profile: bool,
}

impl Options {
    /// Where the run writes: `--out`, else `figures/quick/` (quick) or
    /// `figures/<device>/` (full; [`device_folder`]), so that each device's results stand
    /// beside the others'.
    pub fn out_dir(&self, device: &DeviceInfo) -> PathBuf {
        self.out.clone().unwrap_or_else(|| match self.mode {
            Mode::Quick => PathBuf::from("figures/quick"),
            Mode::Full => Path::new(FIGURES).join(device_folder(device)),
        })
    }
}

pub use crate::report::files::DEVICE_JSON;

/// The device's limits the bound columns are read against: `dir/device.json` when it was
/// measured on this device (a full profile serves a quick run too, not the other way round),
/// else measured now by `bench` in the run's mode and saved there. `None` (with a warning)
/// when `bench` itself fails: the run goes on without bounds; an interrupted bench ends the
/// run ([`RunError::Interrupted`]).
fn device_profile(gl: &Gl, dir: &Path, mode: Mode) -> Result<Option<DeviceProfile>, RunError> {
    let path = dir.join(DEVICE_JSON);
    if let Ok(p) = DeviceProfile::load(&path)
        && p.device.short() == gl.info().short()
        && (p.mode == Mode::Full || mode == Mode::Quick)
    {
        eprintln!(
            "device limits: {} ({} bench of {})",
            path.display(),
            p.mode,
            p.date
        );
        return Ok(Some(p));
    }
    eprintln!("device limits: measuring (bench, {} mode)", mode.name());
    let measured = crate::bench::measure(gl, &crate::bench::Settings::new(mode), true)
        .and_then(|p| p.save(&path).map(|()| p));
    match measured {
        Ok(p) => Ok(Some(p)),
        Err(crate::bench::BenchError::Interrupted) => Err(RunError::Interrupted),
        Err(e) => {
            eprintln!("warning: bench failed ({e}); the tables get no bound columns");
            Ok(None)
        }
    }
}

/// One line of the limits a run's bounds used, for the provenance.
fn limits_summary(p: &DeviceProfile) -> String {
    let l = &p.limits;
    let f = |v: Option<f64>, unit: &str| v.map_or("—".to_string(), |v| format!("{v:.3} {unit}"));
    format!(
        "bandwidth fragment {} / compute {}; fp32 fragment {} / compute {}; fp64 fragment {} / \
         compute {}; empty draw {} / dispatch {} (`bench`, {} mode, {}; `{DEVICE_JSON}`)",
        f(l.fragment_gbs, "GB/s"),
        f(l.compute_gbs, "GB/s"),
        f(l.fragment_fp32_gflops, "GFLOPS"),
        f(l.compute_fp32_gflops, "GFLOPS"),
        f(l.fragment_fp64_gflops, "GFLOPS"),
        f(l.compute_fp64_gflops, "GFLOPS"),
        f(l.draw_ms.map(|t| t * 1e3), "µs"),
        f(l.dispatch_ms.map(|t| t * 1e3), "µs"),
        p.mode,
        p.date,
    )
}

/// Sets the between-run terms per limiter the timed intervals of this run include, from the
/// profile's passes ([`crate::stats::between`]), says which and returns them for the
/// provenance; none without a profile of several passes.
fn set_between_run(profile: Option<&DeviceProfile>) -> Option<crate::stats::BetweenTerms> {
    let terms = profile
        .map(DeviceProfile::between_terms)
        .filter(crate::stats::BetweenTerms::any);
    crate::stats::set_between_terms(terms.clone().unwrap_or_default());
    match &terms {
        Some(t) => eprintln!(
            "intervals include the {} (paired ratios: none)",
            t.describe()
        ),
        None => eprintln!(
            "intervals: no between-run term (no bench profile with two passes or more); each \
             interval is one run's repetitions only"
        ),
    }
    terms
}

/// The folder of full runs' results, one subfolder per device, indexed by its `REPORT.md`.
pub const FIGURES: &str = "figures";

/// The folder name of a device's results: the renderer's name without its parenthesized
/// details, file-system friendly (`llvmpipe (LLVM 15.0.6, 256 bits)` → `llvmpipe`).
pub fn device_folder(device: &DeviceInfo) -> String {
    let name = device.renderer.split(" (").next().unwrap_or_default();
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        "unknown-device".into()
    } else {
        slug
    }
}

/// Resolves paper keys against `all` (`all` or nothing: every paper), in the order given,
/// each paper once.
pub fn select(
    all: &[&'static PaperEntry],
    keys: &[String],
) -> Result<Vec<&'static PaperEntry>, RunError> {
    if keys.is_empty() || keys.iter().any(|k| k == "all") {
        return Ok(all.to_vec());
    }
    let mut chosen: Vec<&'static PaperEntry> = Vec::new();
    for k in keys {
        let p = all.iter().copied().find(|p| p.key == k).ok_or_else(|| {
            RunError::UnknownPaper(
                k.clone(),
                all.iter().map(|p| p.key).collect::<Vec<_>>().join(", "),
            )
        })?;
        if !chosen.iter().any(|c| c.key == p.key) {
            chosen.push(p);
        }
    }
    Ok(chosen)
}

/// Reads and checks every experiment file of `papers` (see [`entry::load`]); the first
/// error names the file read. Nothing is written.
pub fn check_all(
    gl: &Gl,
    papers: &[&'static PaperEntry],
    opts: &Options,
) -> Result<Vec<(&'static PaperEntry, Vec<LoadedFile>)>, RunError> {
    let check = Check {
        mode: opts.mode,
        device: gl.info(),
    };
    papers
        .iter()
        .map(|&p| Ok((p, entry::load(p, opts.experiments.as_deref(), &check)?)))
        .collect()
}

/// Runs the experiments of the papers of `all` that `opts.papers` selects; `all` (the
/// registry's list, in report order) also orders `REPORT.md`. With `opts.check_only`, stops
/// after checking the experiment files. The machine's load is treated by the default policy
/// of the run's mode ([`QuietPolicy::for_run`]); see [`reproduce_with`].
pub fn reproduce(gl: &Gl, all: &[&'static PaperEntry], opts: &Options) -> Result<(), RunError> {
    reproduce_with(gl, all, opts, &QuietPolicy::for_run(opts.mode))
}

/// [`reproduce`] with the machine's load treated by `quiet`: sampled after the experiment
/// files are checked and before anything is written; on a busy machine a full run (a policy
/// that enforces) waits and then refuses with [`RunError::Noisy`], writing nothing.
pub fn reproduce_with(
    gl: &Gl,
    all: &[&'static PaperEntry],
    opts: &Options,
    quiet: &QuietPolicy,
) -> Result<(), RunError> {
    let papers = select(all, &opts.papers)?;
    // Every experiment file is checked before any output is touched: a typo or a value out
    // of range fails in a second and leaves the last run's records as they were.
    let loaded = check_all(gl, &papers, opts)?;
    if opts.check_only {
        return Ok(());
    }
    // A busy machine refuses a full run before any output is touched, too.
    let gate = quiet.check(&mut |line| eprintln!("{line}"))?;
    let dir = opts.out_dir(gl.info());
    ensure_writable(&dir)?;
    // A full run into the default place: figures/REPORT.md indexes the devices.
    let index = (opts.out.is_none() && opts.mode == Mode::Full).then(|| Path::new(FIGURES));
    let interrupted = interrupt_flag();
    crate::gl::profile::enable(opts.profile);
    let command_started = Instant::now();
    let mut times = run_times(opts.mode);
    let profile = match opts.bench {
        true => device_profile(gl, &dir, opts.mode)?.map(Rc::new),
        false => None,
    };
    if opts.bench {
        times.bench_s = Some(command_started.elapsed().as_secs_f64());
    }
    let between = set_between_run(profile.as_deref());
    // With a bench, a few roofs re-measured now and after each paper: the run's own drift.
    let probe = |after: &str, times: &mut RunTimes| {
        if opts.bench && !interrupted.load(Ordering::SeqCst) {
            times.drift.extend(drift::probe(gl, after, command_started));
        }
    };
    probe("start", &mut times);
    let order: Vec<PaperMeta> = all.iter().map(|p| p.meta()).collect();
    let runner = PaperRunner {
        gl,
        opts,
        quiet,
        gate: &gate,
        dir: &dir,
        profile,
        between,
        progress: indicatif::MultiProgress::new(),
        interrupted: interrupted.clone(),
    };
    let mut failures = Vec::new();
    let mut last_prov = Provenance::now(gl.info(), opts.mode);
    for (paper, files) in loaded {
        let (record, prov, result) = runner.run(paper, files)?;
        times.papers.push((paper.key.to_string(), prov.seconds));
        probe(paper.key, &mut times);
        times.seconds = command_started.elapsed().as_secs_f64();
        write_run_times(&dir, &times)?;
        last_prov = prov;
        write_report(&dir, &order, &last_prov)?;
        failures.extend(failed_tables(paper.key, &record));
        match result {
            Ok(()) => {}
            Err(RunError::Interrupted) => return Err(RunError::Interrupted),
            // Every file was checked before any paper started; a configuration error found
            // only while a paper runs fails that paper, not the papers after it (issue 40).
            Err(e) => failures.push(format!("{}: stopped by an error: {e}", paper.key)),
        }
        if interrupted.load(Ordering::SeqCst) {
            return Err(RunError::Interrupted);
        }
    }
    times.seconds = command_started.elapsed().as_secs_f64();
    times.complete = true;
    write_run_times(&dir, &times)?;
    write_report(&dir, &order, &last_prov)?;
    if let Some(root) = index {
        write_device_index(root, &order)?;
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(RunError::Failed(failures))
    }
}

/// A line for each table of paper `key` with failed rows: "key/table: n of m rows".
fn failed_tables<'r>(key: &'r str, record: &'r PaperRecord) -> impl Iterator<Item = String> + 'r {
    record
        .tables
        .iter()
        .filter(|t| t.failed > 0)
        .map(move |t| format!("{key}/{}: {} of {} rows", t.id, t.failed, t.rows))
}

/// The command's times as it starts: its command line, commit, date and mode, no paper yet.
fn run_times(mode: Mode) -> RunTimes {
    RunTimes {
        command: crate::report::provenance::command_line(),
        commit: crate::report::provenance::git_commit(),
        date: chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string(),
        mode,
        ..RunTimes::default()
    }
}

/// The flag a Ctrl-C sets: the run ends its current row after the repetition under way
/// ([`crate::gl::timing::request_stop`]; that row is not written) and stops, a bench its
/// current measurement ([`crate::bench::interrupt`]); a second Ctrl-C exits at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    // A second handler cannot be installed (e.g. in tests): then Ctrl-C just kills us, and
    // the atomic writes still leave complete files only. With the `termination` feature
    // the handler also catches SIGTERM (and SIGHUP).
    let _ = ctrlc::set_handler(move || {
        crate::bench::interrupt();
        crate::gl::timing::request_stop();
        if flag.swap(true, Ordering::SeqCst) {
            // As the backstop does ([`exit_after_grace`]): `exit` would run the atexit
            // handlers, tearing down the GL driver under the main thread still inside it.
            // SAFETY: `_exit` ends the process at once; it touches no Rust state.
            unsafe { libc::_exit(130) }
        }
        eprintln!(
            "\ninterrupt: stopping after the current repetition or bench measurement (Ctrl-C \
             again to quit now)"
        );
        std::thread::spawn(exit_after_grace);
    });
    interrupted
}

/// How long a stop request may take before the process ends anyway: the issue-40 promise is
/// an exit within 5 s of the signal, on every device.
pub const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(4);

/// The backstop of a stop request. The repetition loops end after the run under way, but one
/// run can be long (a CPU baseline at N = 2048, a first round of many variants, an f64
/// reference): if the run has not ended [`STOP_GRACE`] after the signal, the process exits
/// here with 130. Nothing is lost that `--resume` needs: every finished row is already on disk
/// (each push rewrites its table atomically, temp file then rename), and a row under way is
/// never written; a temp file cut short stays a dot-file beside complete ones. `_exit` skips
/// the atexit handlers, which would tear down the GL driver under a thread still inside it.
fn exit_after_grace() {
    std::thread::sleep(STOP_GRACE);
    eprintln!(
        "interrupt: the row under way did not end within {} s; exiting (finished rows are \
         saved; rerun with --resume)",
        STOP_GRACE.as_secs()
    );
    // SAFETY: `_exit` ends the process at once; it touches no Rust state.
    unsafe { libc::_exit(130) }
}

/// What running one paper after another shares: the context, the options, the load policy
/// and its gate, the output folder, the device profile and its between-run term, the
/// progress bars, the interrupt.
struct PaperRunner<'a> {
    gl: &'a Gl,
    opts: &'a Options,
    quiet: &'a QuietPolicy,
    gate: &'a Gate,
    dir: &'a Path,
    profile: Option<Rc<DeviceProfile>>,
    /// The between-run terms of the profile, set for the run ([`set_between_run`]).
    between: Option<crate::stats::BetweenTerms>,
    progress: indicatif::MultiProgress,
    interrupted: Arc<AtomicBool>,
}

impl PaperRunner<'_> {
    /// Runs one paper's experiments (then its roofline and versus) in a [`Session`] and
    /// writes its record: the record, its provenance (with the machine's load when sampled)
    /// and how the experiments ended.
    fn run(
        &self,
        paper: &'static PaperEntry,
        files: Vec<LoadedFile>,
    ) -> Result<(PaperRecord, Provenance, Result<(), RunError>), RunError> {
        let (gl, opts, quiet) = (self.gl, self.opts, self.quiet);
        let started = Instant::now();
        let load = crate::report::provenance::load_average();
        let span = quiet
            .span_threshold()
            .and_then(|_| crate::report::load::Snapshot::now());
        let session = Session::new(
            gl,
            paper,
            opts.mode,
            self.dir.join(paper.key),
            files,
            opts.resume,
            self.progress.clone(),
            self.interrupted.clone(),
        )?;
        if let Some(p) = &self.profile {
            session.set_profile(p.clone());
        }
        if let Some(th) = quiet.span_threshold() {
            session.sample_load(th);
        }
        let result = (paper.run)(&session)
            .and_then(|()| session.roofline())
            .and_then(|()| session.versus());
        // After a stop request any error is the stop's (a loop cut short, a kernel given no
        // run): the paper ends as interrupted, not as failed.
        let result = match result {
            Err(_) if crate::gl::timing::stop_requested() => Err(RunError::Interrupted),
            r => r,
        };
        let mut prov = Provenance::now(gl.info(), opts.mode);
        prov.seconds = started.elapsed().as_secs_f64();
        prov.load = load;
        prov.limits = self
            .profile
            .as_deref()
            .map(limits_summary)
            .unwrap_or_default();
        prov.between_run = self.between.as_ref().and_then(|t| t.default_term());
        prov.between_terms = self.between.clone();
        prov.device_shape = self.profile.as_deref().map(|p| {
            let l = &p.limits;
            crate::report::provenance::DeviceShape {
                fragment_fp32_gflops: l.fragment_fp32_gflops,
                compute_fp32_gflops: l.compute_fp32_gflops,
                fragment_gbs: l.fragment_gbs,
                compute_gbs: l.compute_gbs,
            }
        });
        if !matches!(quiet.source, LoadSource::Off) {
            let mut machine = RunLoad::from_gate(self.gate);
            machine.during = match (span, quiet.span_threshold()) {
                (Some(a), Some(th)) => Snapshot::now().and_then(|b| b.since(&a, th)),
                _ => None,
            };
            machine.noisy_parts = session.noisy_tables();
            prov.machine = Some(machine);
        }
        let record = session.finish(prov.clone(), result.is_err())?;
        Ok((record, prov, result))
    }
}

/// Writes the command's times so far to `dir/run.json` ([`RunTimes`]).
fn write_run_times(dir: &Path, times: &RunTimes) -> Result<(), RunError> {
    let json = serde_json::to_string_pretty(times).expect("plain data serializes");
    crate::report::files::write_atomic(&dir.join(RUN_JSON), json.as_bytes())?;
    Ok(())
}
