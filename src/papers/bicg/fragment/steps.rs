//! [`FragmentBicg`] as the device steps of [`linbcg`]: each step its passes, the scalars
//! read back from the results texture at the same points as the compute build.

use super::solver::FragmentBicg;
use crate::papers::bicg::error::GpuBicgError;
use crate::papers::bicg::linbcg::{self, AKDEN, BNRM, PNRM, RHO, V, XNRM, ZNRM};

/// The passes of one `linbcg` iteration (see [`linbcg`]): scalars come back through the
/// results texture.
impl linbcg::Steps for FragmentBicg {
    fn n(&self) -> usize {
        self.n
    }

    fn start(&mut self, b: &[f64], x0: &[f64]) -> Result<(f64, f64), GpuBicgError> {
        self.upload(V::B, b)?;
        self.upload(V::X, x0)?;
        self.spmv(false, V::X, V::Tmp)?;
        self.axpy(V::B, -1.0, V::Tmp, V::R)?;
        self.axpy(V::R, 0.0, V::R, V::Rr)?;
        self.asolve(V::B, V::Z)?;
        self.reduce(V::Z, None, BNRM)?;
        self.asolve(V::R, V::Z)?;
        self.reduce(V::Z, None, ZNRM)?;
        let s = self.read_results(ZNRM, 4)?;
        Ok((s[0], s[3]))
    }

    fn rho(&mut self) -> Result<f64, GpuBicgError> {
        self.asolve(V::Rr, V::Zz)?;
        self.reduce(V::Z, Some(V::Rr), RHO)?;
        Ok(self.read_results(RHO, 1)?[0])
    }

    fn directions(&mut self, beta: Option<f64>) -> Result<(), GpuBicgError> {
        // The first p = z, p̄ = z̄ is a copy: s = 0 with b = a.
        let (bk, p, pp) = match beta {
            None => (0.0, V::Z, V::Zz),
            Some(bk) => (bk, V::P, V::Pp),
        };
        self.axpy(V::Z, bk, p, V::P)?;
        self.axpy(V::Zz, bk, pp, V::Pp)?;
        Ok(())
    }

    fn akden(&mut self) -> Result<f64, GpuBicgError> {
        self.spmv(false, V::P, V::Z)?;
        self.reduce(V::Z, Some(V::Pp), AKDEN)?;
        Ok(self.read_results(AKDEN, 1)?[0])
    }

    fn update(&mut self, ak: f64) -> Result<[f64; 3], GpuBicgError> {
        self.spmv(true, V::Pp, V::Zz)?;
        self.axpy(V::X, ak, V::P, V::X)?;
        self.axpy(V::R, -ak, V::Z, V::R)?;
        self.axpy(V::Rr, -ak, V::Zz, V::Rr)?;
        self.asolve(V::R, V::Z)?;
        self.reduce(V::Z, None, ZNRM)?;
        self.reduce(V::P, None, PNRM)?;
        self.reduce(V::X, None, XNRM)?;
        let s = self.read_results(ZNRM, 3)?;
        Ok([s[0], s[1], s[2]])
    }

    fn iterate(&mut self) -> Result<Vec<f64>, GpuBicgError> {
        Ok(self.read(V::X)?)
    }
}
