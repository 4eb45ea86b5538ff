//! Running one paper in a [`Session`]: its experiments, roofline and versus, then its record
//! with provenance and the machine's load.

use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::bench::DeviceProfile;
use crate::gl::Gl;
use crate::report::Provenance;
use crate::report::index::PaperRecord;
use crate::report::load::{Gate, LoadSource, QuietPolicy, RunLoad, Snapshot};

use super::device::limits_summary;
use super::entry::LoadedFile;
use super::error::RunError;
use super::options::Options;
use super::paper::PaperEntry;
use super::session::handle::Session;

/// What running one paper after another shares: the context, the options, the load policy
/// and its gate, the output folder, the device profile and its between-run term, the
/// progress bars, the interrupt.
pub(super) struct PaperRunner<'a> {
    pub(super) gl: &'a Gl,
    pub(super) opts: &'a Options,
    pub(super) quiet: &'a QuietPolicy,
    pub(super) gate: &'a Gate,
    pub(super) dir: &'a Path,
    pub(super) profile: Option<Rc<DeviceProfile>>,
    /// The between-run terms of the profile, set for the run ([`set_between_run`]).
    pub(super) between: Option<crate::stats::BetweenTerms>,
    pub(super) progress: indicatif::MultiProgress,
    pub(super) interrupted: Arc<AtomicBool>,
}

impl PaperRunner<'_> {
    /// Runs one paper's experiments (then its roofline and versus) in a [`Session`] and
    /// writes its record: the record, its provenance (with the machine's load when sampled)
    /// and how the experiments ended.
    pub(super) fn run(
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
            paper.info(),
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
