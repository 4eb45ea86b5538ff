//! `reproduce`: select the papers, check every experiment file, then run paper after paper,
//! writing each record, `run.json` and `REPORT.md` as it goes.

use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::bench::profile::DeviceProfile;
use crate::gl::Gl;
use crate::mode::Mode;
use crate::report::Provenance;
use crate::report::article::PaperMeta;
use crate::report::files::ensure_writable;
use crate::report::index::{PaperRecord, RUN_JSON, RunTimes, write_device_index, write_report};
use crate::report::load::QuietPolicy;

use super::device::{FIGURES, Profile, device_profile, measure_profile, set_between_run};
use super::drift;
use super::entry::{self, Check, LoadedFile};
use super::error::RunError;
use super::interrupt::interrupt_flag;
use super::options::Options;
use super::paper::PaperEntry;
use super::paper_runner::PaperRunner;
use super::previous;

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
        .map(|&p| {
            Ok((
                p,
                entry::load(p.files, opts.experiments.as_deref(), &check)?,
            ))
        })
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
    // The run this one replaces, copied aside before anything is written (`previous.md`).
    let keys: Vec<&str> = loaded.iter().map(|(p, _)| p.key).collect();
    let previous = previous::snapshot(&dir, opts.mode, opts.resume, &keys);
    // The drift probes of the run recorded here, hours ago: the terms' long span.
    let earlier = drift::earlier(&dir);
    // An earlier comparison describes a pair this run is about to change.
    previous::remove_stale(&dir);
    // A full run into the default place: figures/REPORT.md indexes the devices.
    let index = (opts.out.is_none() && opts.mode == Mode::Full).then(|| Path::new(FIGURES));
    let interrupted = interrupt_flag();
    crate::gl::profile::enable(opts.profile);
    let command_started = Instant::now();
    let mut times = run_times(opts.mode);
    // With a bench, a few roofs re-measured at the start (in `bench_profile`) and after the
    // papers (`drift::after_paper`): the run's own drift.
    let probe = |after: &str, times: &mut RunTimes| {
        if opts.bench && !interrupted.load(Ordering::SeqCst) {
            times.drift.extend(drift::probe(gl, after, command_started));
        }
    };
    let profile = bench_profile(gl, &dir, opts, &mut times, command_started, &probe)?;
    // The terms: the bench's passes, and the earlier run's probes of this state with this
    // start's (`drift`'s module docs: one state of the device).
    let earlier = match profile.as_deref() {
        Some(p) => {
            let (kept, note) = drift::same_state(p, &earlier);
            if let Some(note) = note {
                eprintln!("drift probes: {note}");
                times.state.push(note);
            }
            kept
        }
        None => earlier,
    };
    let span: Vec<_> = earlier.iter().chain(&times.drift).cloned().collect();
    let between = set_between_run(profile.as_deref(), &drift::span_series(&span));
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
    let count = loaded.len();
    for (i, (paper, files)) in loaded.into_iter().enumerate() {
        let (record, prov, result) = runner.run(paper, files)?;
        times.papers.push((paper.key.to_string(), prov.seconds));
        if drift::after_paper(opts.mode, i + 1 == count) {
            probe(paper.key, &mut times);
        }
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
    times.previous = against_previous(&dir, previous.as_ref());
    finish_run(&dir, &order, &last_prov, times, index, failures)
}

/// This run against the one it replaced ([`previous`]): `previous.md`, and its reading on
/// stderr and returned (for `run.json` and the report's threats). A failure here is a
/// warning: the run's own records are written.
fn against_previous(dir: &Path, previous: Option<&previous::Previous>) -> Option<String> {
    match previous?.compare(dir) {
        Ok(reading) => {
            let path = dir.join(previous::PREVIOUS_MD);
            eprintln!("{}: this run against {reading}", path.display());
            Some(reading)
        }
        Err(e) => {
            eprintln!("warning: this run was not compared with the one it replaced: {e}");
            None
        }
    }
}

/// The device profile the run's bound columns are read against (see [`device_profile`]),
/// `None` without `--bench`, with the run's start probe (`probe`) taken after it; the bench's
/// time goes into `times`. A reused profile that the start probe finds of another state of
/// the device ([`drift::off_state`]) is measured afresh, the probe taken again after it, and
/// `times.state` says why.
fn bench_profile(
    gl: &Gl,
    dir: &Path,
    opts: &Options,
    times: &mut RunTimes,
    started: Instant,
    probe: &dyn Fn(&str, &mut RunTimes),
) -> Result<Option<Rc<DeviceProfile>>, RunError> {
    if !opts.bench {
        return Ok(None);
    }
    let found = device_profile(gl, dir, opts.mode)?;
    times.bench_s = Some(started.elapsed().as_secs_f64());
    probe("start", times);
    let profile = match found {
        None => None,
        Some(Profile::Measured(p)) => Some(p),
        Some(Profile::Reused(p)) => {
            match times.drift.last().and_then(|s| drift::off_state(&p, s)) {
                None => Some(p),
                Some(off) => {
                    let note = format!(
                        "the device was not in the state its bench of {} measured (the start \
                         probe's {}, beyond a factor {}): its bench was measured afresh",
                        p.date,
                        off.describe(),
                        drift::STATE_FACTOR
                    );
                    eprintln!("device limits: {note}");
                    times.state.push(note);
                    times.drift.clear();
                    let fresh = measure_profile(gl, dir, opts.mode)?;
                    times.bench_s = Some(started.elapsed().as_secs_f64());
                    probe("start", times);
                    fresh
                }
            }
        }
    };
    Ok(profile.map(Rc::new))
}

/// The end of a run that got through every paper: `run.json` marked complete, `REPORT.md`
/// (and the devices' index, `index`), then the failures, if any, as the run's error.
fn finish_run(
    dir: &Path,
    order: &[PaperMeta],
    last_prov: &Provenance,
    mut times: RunTimes,
    index: Option<&Path>,
    failures: Vec<String>,
) -> Result<(), RunError> {
    times.complete = true;
    write_run_times(dir, &times)?;
    write_report(dir, order, last_prov)?;
    if let Some(root) = index {
        write_device_index(root, order)?;
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

/// Writes the command's times so far to `dir/run.json` ([`RunTimes`]).
fn write_run_times(dir: &Path, times: &RunTimes) -> Result<(), RunError> {
    let json = serde_json::to_string_pretty(times).expect("plain data serializes");
    crate::report::files::write_atomic(&dir.join(RUN_JSON), json.as_bytes())?;
    Ok(())
}
