//! One grid's systems, their f64 reference and their texture, made only where a row of the
//! grid is measured ([`GridData`]).

use super::measure::alg;
use crate::gl::{Gl, Texture};
use crate::papers::tridiagonal::batch::upload;
use crate::papers::tridiagonal::cpu::{Systems, thomas_batch_f64};
use crate::runner::RunError;

/// One grid's batch of heat systems, its solution by Thomas in f64 (the reference) and the
/// systems' texture: made when a row of the grid is measured, not where `--resume` reuses
/// every row of it ([`GridData::get`]).
pub(super) struct GridData {
    pub(super) sys: Systems,
    pub(super) want: Vec<f64>,
    pub(super) tex: Texture,
}

impl GridData {
    /// `batch` systems of `n` unknowns (heat, `r`, `seed`), made at the first call.
    pub(super) fn get<'a>(
        slot: &'a mut Option<GridData>,
        gl: &Gl,
        (n, batch): (usize, usize),
        r: f32,
        seed: u64,
    ) -> Result<&'a GridData, RunError> {
        if slot.is_none() {
            let sys = Systems::heat(n, batch, r, seed);
            let want = thomas_batch_f64(&sys).map_err(alg)?;
            let tex = upload(gl, &sys)?;
            *slot = Some(GridData { sys, want, tex });
        }
        Ok(slot.as_ref().expect("made above"))
    }
}
