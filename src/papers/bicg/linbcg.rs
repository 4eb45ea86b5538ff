//! NR `linbcg`'s control flow (`itol = 4`, diagonal preconditioner Ã = diag A), written once
//! for the GL solvers: the compute one ([`super::gpu::GpuBicg`], f64 or f32) and the fragment
//! one ([`super::fragment::FragmentBicg`]). Each solver supplies the device steps of an
//! iteration ([`Steps`]), each ending with the scalars the host needs; [`solve`] runs NR's
//! loop over them step for step as the CPU reference [`super::cpu::solve`] does:
//!
//! ```text
//! r = b − A x₀,  r̄ = r,  z = Ã⁻¹ r                              (start)
//! repeat:  z̄ = Ã⁻¹ r̄,  ρ = z·r̄                                  (rho)
//!          p = z + (ρ/ρ₋₁) p,  p̄ = z̄ + (ρ/ρ₋₁) p̄  (p = z, p̄ = z̄ first)   (directions)
//!          z = A p,  α = ρ / (z·p̄)                               (akden)
//!          z̄ = Aᵀ p̄,  x += α p,  r −= α z,  r̄ −= α z̄,  z = Ã⁻¹ r   (update)
//!          stop on NR's estimate of ‖Δx‖∞ / ‖x‖∞ ([`nr_error_estimate`])
//! ```

use super::cpu::{BicgInfo, BicgParams, Stop, nr_error_estimate};
use super::error::GpuBicgError;

/// The vectors of the solver's state, by name: the compute and the fragment solver hold the
/// same nine (`as usize` indexes their storage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum V {
    B,
    X,
    R,
    Rr,
    Z,
    Zz,
    P,
    Pp,
    Tmp,
}

/// How many vectors [`V`] names.
pub const VECTORS: usize = 9;

/// The result slots of the reductions (an element of the results buffer, a texel of the
/// results texture), in the order the host reads them back: ρ, p·p̄ (`akden`), then the
/// norms |z|, |p|, |x| (read as three at once) and |b|.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Rho,
    Akden,
    Znrm,
    Pnrm,
    Xnrm,
    Bnrm,
}

/// The length of the results buffer or texture: the six [`Slot`]s, padded to 8.
pub const RESULTS: usize = 8;

impl Slot {
    /// The slot's index in the results buffer or texture.
    pub const fn index(self) -> usize {
        self as usize
    }
}

pub const RHO: Slot = Slot::Rho;
pub const AKDEN: Slot = Slot::Akden;
pub const ZNRM: Slot = Slot::Znrm;
pub const PNRM: Slot = Slot::Pnrm;
pub const XNRM: Slot = Slot::Xnrm;
pub const BNRM: Slot = Slot::Bnrm;

/// The device steps of one `linbcg` iteration (see the module docs for what each computes).
pub trait Steps {
    /// Order of the matrix.
    fn n(&self) -> usize;
    /// Uploads `b` and `x0`; r = b − A x₀, r̄ = r, z = Ã⁻¹ r. Returns (‖Ã⁻¹r‖∞, ‖Ã⁻¹b‖∞).
    fn start(&mut self, b: &[f64], x0: &[f64]) -> Result<(f64, f64), GpuBicgError>;
    /// z̄ = Ã⁻¹ r̄; returns ρ = z·r̄.
    fn rho(&mut self) -> Result<f64, GpuBicgError>;
    /// p = z, p̄ = z̄ (`beta = None`, the first iteration) or p = z + β p, p̄ = z̄ + β p̄.
    fn directions(&mut self, beta: Option<f64>) -> Result<(), GpuBicgError>;
    /// z = A p; returns z·p̄.
    fn akden(&mut self) -> Result<f64, GpuBicgError>;
    /// z̄ = Aᵀ p̄, x += α p, r −= α z, r̄ −= α z̄, z = Ã⁻¹ r; returns (‖z‖∞, ‖p‖∞, ‖x‖∞).
    fn update(&mut self, alpha: f64) -> Result<[f64; 3], GpuBicgError>;
    /// The iterate x, in f64.
    fn iterate(&mut self) -> Result<Vec<f64>, GpuBicgError>;
}

/// Solves A x = b from `x0` with `s`'s steps. The iterate comes back in f64 whether or not the
/// solve converged; [`BicgInfo::into_result`] turns a non-converged one into an error.
pub fn solve<S: Steps>(
    s: &mut S,
    b: &[f64],
    x0: &[f64],
    params: &BicgParams,
) -> Result<(Vec<f64>, BicgInfo), GpuBicgError> {
    let n = s.n();
    for len in [b.len(), x0.len()] {
        if len != n {
            return Err(GpuBicgError::Length { got: len, n });
        }
    }
    let (mut znrm, bnrm) = s.start(b, x0)?;
    let mut history = Vec::new();
    if bnrm == 0.0 {
        // b = 0: x = 0 is the solution.
        let info = BicgInfo {
            iterations: 0,
            err: 0.0,
            history,
            stop: Stop::Converged,
        };
        return Ok((vec![0.0; n], info));
    }
    let mut err = znrm / bnrm;
    let mut bkden = 1.0;
    let (iterations, stop) = 'iterate: {
        for iter in 1..=params.max_iter {
            let bknum = s.rho()?;
            if !bknum.is_finite() {
                break 'iterate (iter, Stop::NonFinite);
            }
            if bknum == 0.0 {
                break 'iterate (iter, Stop::BreakdownRho);
            }
            s.directions((iter > 1).then(|| bknum / bkden))?;
            bkden = bknum;
            let akden = s.akden()?;
            if akden == 0.0 {
                break 'iterate (iter, Stop::BreakdownAlpha);
            }
            if !akden.is_finite() {
                break 'iterate (iter, Stop::NonFinite);
            }
            let ak = bknum / akden;
            let [z, pnrm, xnrm] = s.update(ak)?;
            let zm1nrm = znrm;
            znrm = z;
            let testable;
            (err, testable) = nr_error_estimate(znrm, zm1nrm, ak, pnrm, xnrm, bnrm);
            history.push(err);
            if !err.is_finite() {
                break 'iterate (iter, Stop::NonFinite);
            }
            if testable && err <= params.tol {
                break 'iterate (iter, Stop::Converged);
            }
        }
        (params.max_iter, Stop::IterationCap)
    };
    let info = BicgInfo {
        iterations,
        err,
        history,
        stop,
    };
    Ok((s.iterate()?, info))
}
