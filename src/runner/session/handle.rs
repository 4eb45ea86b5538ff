//! One paper's run as its experiments see it ([`Session`]) and the state it shares with its
//! table writers.

use std::cell::RefCell;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::MultiProgress;

use crate::bench::{DeviceProfile, OVER_BOUND};
use crate::gl::Gl;
use crate::mode::Mode;
use crate::report::files::write_atomic;
use crate::report::index::{PaperRecord, PlotRef, TableRef};
use crate::report::{Attained, Audit, BarChart, DotChart, Finding, LineChart, Provenance};
use crate::runner::entry::{Check, LoadedFile, PaperInfo, load};
use crate::runner::error::RunError;

pub(super) struct State {
    pub(super) tables: Vec<TableRef>,
    pub(super) plots: Vec<PlotRef>,
    pub(super) notes: Vec<String>,
    pub(super) audits: Vec<Audit>,
    pub(super) findings: Vec<Finding>,
    /// Every timed GPU row's work and time, by table and row key (the roofline's points),
    /// and the row's verification error (`None`: not verified).
    pub(super) attained: Vec<(String, String, Attained, Option<f64>)>,
    /// The rows' profiled runs ([`crate::gl::profile`]), in the order they were written.
    pub(super) profiles: Vec<crate::report::profile::RowProfile>,
}

pub(super) struct Shared {
    pub(super) dir: PathBuf,
    pub(super) paper: &'static str,
    pub(super) resume: bool,
    pub(super) device: String,
    pub(super) progress: MultiProgress,
    pub(super) verbose_lines: bool,
    pub(super) interrupted: Arc<AtomicBool>,
    /// The device's measured limits (`device.json`), when known: the bound columns.
    pub(super) profile: RefCell<Option<Rc<DeviceProfile>>>,
    /// Sample the machine's load over each table with this threshold ([`crate::report::load`]);
    /// `None`: not sampled.
    pub(super) load_threshold: std::cell::Cell<Option<f64>>,
    /// When the last row of any table was written (or the paper started), and the timed
    /// runs' ledger then: the time since belongs to the next row written, whichever table
    /// writes it ([`super::writer::TableWriter`]'s time, as the row profiles are attributed).
    pub(super) mark: std::cell::Cell<(std::time::Instant, crate::gl::ledger::Ledger)>,
    pub(super) state: RefCell<State>,
}

/// One paper's run.
pub struct Session {
    /// The GL context every experiment runs on.
    pub gl: Gl,
    pub mode: Mode,
    /// Its paper: key, title, experiment files, tables (not the registry entry, whose run
    /// takes a session).
    pub paper: PaperInfo,
    pub(super) files: Vec<LoadedFile>,
    pub(super) shared: Rc<Shared>,
}

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        gl: &Gl,
        paper: PaperInfo,
        mode: Mode,
        dir: PathBuf,
        files: Vec<LoadedFile>,
        resume: bool,
        progress: MultiProgress,
        interrupted: Arc<AtomicBool>,
    ) -> Result<Session, RunError> {
        std::fs::create_dir_all(&dir).map_err(|e| crate::report::files::OutputError {
            path: dir.clone(),
            source: e,
        })?;
        Ok(Session {
            gl: gl.clone(),
            mode,
            paper,
            files,
            shared: Rc::new(Shared {
                dir,
                paper: paper.key,
                resume,
                device: gl.info().identity(),
                verbose_lines: !std::io::stderr().is_terminal(),
                progress,
                interrupted,
                profile: RefCell::new(None),
                load_threshold: std::cell::Cell::new(None),
                mark: std::cell::Cell::new((
                    std::time::Instant::now(),
                    crate::gl::ledger::ledger(),
                )),
                state: RefCell::new(State {
                    tables: vec![],
                    plots: vec![],
                    notes: vec![],
                    audits: vec![],
                    findings: vec![],
                    attained: vec![],
                    profiles: vec![],
                }),
            }),
        })
    }

    /// A session for tests and tools: writes to `dir`, full or quick mode, no progress bars;
    /// `resume` as with `--resume`; the paper's built-in experiment files, checked. `paper` is
    /// a registry entry's [`PaperEntry::info`](crate::runner::PaperEntry::info).
    pub fn for_tests(
        gl: &Gl,
        paper: PaperInfo,
        mode: Mode,
        dir: &Path,
        resume: bool,
    ) -> Result<Session, RunError> {
        let check = Check {
            mode,
            device: gl.info(),
        };
        let files = load(paper.files, None, &check)?;
        Session::new(
            gl,
            paper,
            mode,
            dir.to_path_buf(),
            files,
            resume,
            MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::hidden()),
            Arc::new(AtomicBool::new(false)),
        )
    }

    /// Sets the device's limits the bound columns are computed from.
    pub fn set_profile(&self, profile: Rc<DeviceProfile>) {
        *self.shared.profile.borrow_mut() = Some(profile);
    }

    /// Samples the machine's load over every table from now on (noisy above `threshold` of
    /// the cores; [`crate::report::load`]): each table's record says what ran beside it.
    pub fn sample_load(&self, threshold: f64) {
        self.shared.load_threshold.set(Some(threshold));
    }

    /// The tables measured so far while the machine was noisy.
    pub(crate) fn noisy_tables(&self) -> Vec<String> {
        let st = self.shared.state.borrow();
        st.tables
            .iter()
            .filter(|t| t.load.as_ref().is_some_and(|l| l.noisy))
            .map(|t| t.id.clone())
            .collect()
    }

    /// The device's limits, when known.
    pub fn profile(&self) -> Option<Rc<DeviceProfile>> {
        self.shared.profile.borrow().clone()
    }

    /// The timed rows so far whose attained rate is above [`OVER_BOUND`] of their bound: table
    /// id, row key, fraction of bound.
    pub fn over_bound(&self) -> Vec<(String, String, f64)> {
        self.shared
            .state
            .borrow()
            .attained
            .iter()
            .filter_map(|(t, k, a, _)| {
                a.fraction()
                    .filter(|&f| f > OVER_BOUND)
                    .map(|f| (t.clone(), k.clone(), f))
            })
            .collect()
    }

    /// Every timed GPU row so far: table id, row key, its work, time and bound.
    pub(crate) fn attained(&self) -> Vec<(String, String, Attained, Option<f64>)> {
        self.shared.state.borrow().attained.clone()
    }

    /// The paper's own experiment file as read (for errors that name it).
    pub fn file(&self) -> &str {
        &self.files[0].source
    }

    /// The paper's own experiment file (`<key>.toml`) as parsed and validated at load, typed
    /// (what [`crate::runner::run_paper`] hands the paper's run).
    pub fn config<T: 'static>(&self) -> Result<&T, RunError> {
        self.typed(&self.files[0])
    }

    /// Another experiment file of the paper's entry (e.g. `"sims"` for `sims.toml`), read
    /// from the same place as the paper's own (`--experiments DIR` or built in), as parsed
    /// and validated at load.
    pub fn config_ref<T: 'static>(&self, name: &str) -> Result<&T, RunError> {
        self.typed(self.file_named(name)?)
    }

    pub(super) fn file_named(&self, name: &str) -> Result<&LoadedFile, RunError> {
        self.files
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| RunError::Config {
                file: format!("{name}.toml"),
                message: format!(
                    "not an experiment file of the paper `{}` (its registry entry lists: {})",
                    self.paper.key,
                    self.files
                        .iter()
                        .map(|f| f.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
    }

    /// The value `file` was parsed into at load, as a `T`: an error (never a panic) when the
    /// registry's entry parses the file into another type than the caller asks for.
    pub(super) fn typed<'a, T: 'static>(&self, file: &'a LoadedFile) -> Result<&'a T, RunError> {
        file.config
            .as_deref()
            .and_then(|c| c.downcast_ref::<T>())
            .ok_or_else(|| RunError::Config {
                file: file.source.clone(),
                message: format!(
                    "the registry entry of `{}` parses this file into another type than {}",
                    self.paper.key,
                    std::any::type_name::<T>()
                ),
            })
    }

    /// The folder this paper's files go to (`DIR/<paper>/`).
    pub fn dir(&self) -> &Path {
        &self.shared.dir
    }

    /// Whether table `id` runs on this device: `false` when the device lacks what the
    /// paper's [`TableSpec`](crate::runner::TableSpec) for it needs, and the table is then listed in
    /// the report as skipped, with the reason. Call it before measuring anything for the table.
    pub fn runs(&self, id: &str) -> bool {
        let spec = self.paper.table_spec(id);
        debug_assert!(
            spec.is_some(),
            "{}: table {id} is not in the paper's TABLES",
            self.paper.key
        );
        let Some(why) = spec.and_then(|t| self.gl.caps().lacks(t.needs)) else {
            return true;
        };
        if self.shared.verbose_lines {
            eprintln!("{}/{id}: skipped ({why})", self.shared.paper);
        }
        let mut st = self.shared.state.borrow_mut();
        st.tables.retain(|t| t.id != id);
        st.tables.push(TableRef {
            id: id.to_string(),
            title: id.to_string(),
            skipped: Some(why),
            ..Default::default()
        });
        false
    }

    /// Why a row that needs `needs` cannot run on this device (`None`: it can); see
    /// [`RowBuilder::skip`](crate::report::RowBuilder::skip).
    pub fn lacks(&self, needs: &[crate::gl::Need]) -> Option<String> {
        self.gl.caps().lacks(needs)
    }

    /// Adds a reproduction note (a decision, an ambiguity, a finding) to the report.
    pub fn note(&self, text: impl Into<String>) {
        self.shared.state.borrow_mut().notes.push(text.into());
    }

    /// Records one of the paper's claims, judged on this run (the report's findings).
    pub fn finding(&self, f: Finding) {
        self.shared.state.borrow_mut().findings.push(f);
    }

    /// Records an audit of one of the paper's derived numbers; returns whether it agrees.
    pub fn audit(&self, a: Audit) -> bool {
        let ok = a.agrees();
        self.shared.state.borrow_mut().audits.push(a);
        ok
    }

    /// Saves a line chart as `DIR/<paper>/<file>` and lists it in the report.
    pub fn line_chart(&self, file: &str, chart: &LineChart, caption: &str) -> Result<(), RunError> {
        chart.save(&self.shared.dir.join(file))?;
        self.add_plot(file, caption);
        Ok(())
    }

    /// Saves a bar chart as `DIR/<paper>/<file>` and lists it in the report.
    pub fn bar_chart(&self, file: &str, chart: &BarChart, caption: &str) -> Result<(), RunError> {
        chart.save(&self.shared.dir.join(file))?;
        self.add_plot(file, caption);
        Ok(())
    }

    /// Saves a dot chart as `DIR/<paper>/<file>` and lists it in the report.
    pub fn dot_chart(&self, file: &str, chart: &DotChart, caption: &str) -> Result<(), RunError> {
        chart.save(&self.shared.dir.join(file))?;
        self.add_plot(file, caption);
        Ok(())
    }

    /// Lists a figure written by other means (e.g. a PNG frame sequence) in the report.
    pub fn add_plot(&self, file: &str, caption: &str) {
        let mut st = self.shared.state.borrow_mut();
        st.plots.retain(|p| p.file != file);
        st.plots.push(PlotRef {
            file: file.into(),
            caption: caption.into(),
        });
    }

    /// `Err(Interrupted)` once Ctrl-C was pressed: call between rows.
    pub fn check_interrupt(&self) -> Result<(), RunError> {
        if self.shared.interrupted.load(Ordering::SeqCst) {
            Err(RunError::Interrupted)
        } else {
            Ok(())
        }
    }

    /// Writes the paper's record; returns it. A run that produced no table and no figure
    /// does not replace a record already on disk, and one that `failed` so (it stopped on its
    /// first error) writes none: an empty record would stand for a paper that ran (issue 40).
    pub(crate) fn finish(
        &self,
        provenance: Provenance,
        failed: bool,
    ) -> Result<PaperRecord, RunError> {
        let st = self.shared.state.borrow();
        let record = PaperRecord {
            key: self.paper.key.into(),
            title: self.paper.title.into(),
            provenance,
            tables: st.tables.clone(),
            plots: st.plots.clone(),
            notes: st.notes.clone(),
            audits: st.audits.clone(),
            findings: st.findings.clone(),
            profiles: st.profiles.clone(),
        };
        let path = self.shared.dir.join("paper.json");
        if record.tables.is_empty() && record.plots.is_empty() && (failed || path.exists()) {
            return Ok(record);
        }
        let json = serde_json::to_string_pretty(&record).expect("records serialize");
        write_atomic(&path, json.as_bytes())?;
        Ok(record)
    }
}
