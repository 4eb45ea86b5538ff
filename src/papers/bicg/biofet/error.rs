//! Errors of the BioFET simulation.

use std::path::PathBuf;

use crate::papers::bicg::error::GpuBicgError;
use crate::report::files::OutputError;
use crate::report::plot::PlotError;

/// Errors of the BioFET simulation.
#[derive(Debug, thiserror::Error)]
pub enum BiofetError {
    /// A parameter out of its range (checked before anything is allocated).
    #[error("biofet: {0}")]
    Params(String),
    #[error(transparent)]
    Gpu(#[from] GpuBicgError),
    #[error("biofet: Poisson solve at step {step}: {why} after {iterations} iterations")]
    Poisson {
        step: usize,
        why: &'static str,
        iterations: usize,
    },
    /// The screening length cannot be fitted from this profile.
    #[error("biofet: no screening length: {0}")]
    Fit(String),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Plot(#[from] PlotError),
    #[error("biofet: encoding {}: {message}", path.display())]
    Image { path: PathBuf, message: String },
}
