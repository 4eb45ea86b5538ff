//! The BioFET electrolyte simulation (paper §V.1, eqs. 6–7): [`simulate`] runs it to the
//! steady state and returns a [`BiofetReport`] whose [`BiofetReport::checks`] compare it
//! with theory, each within a stated tolerance ([`Tolerances`]). The command line
//! (`gpgpu-repro sim biofet`) and the `bicg` paper's `biofet` table call it.
//!
//! Positive and negative monovalent ions in an electrolyte box of n_xy × n_xy × n nodes
//! (`--size` sets n, along z; default 8 × 8 × 21 over 10 Debye lengths) with blocking walls;
//! a step voltage V is applied at t = 0 to the electrode covering the face z = 0 against the
//! grounded electrode covering z = L (whole faces, so the steady state is one-dimensional
//! and has an analytic form). Poisson (eq. 6) is solved by the GL fp64 Bi-CG of [`super::gpu`]
//! every step (matrix on the device for the whole run, warm start from the last
//! potential); the ions follow the drift–diffusion continuity equations (eq. 7), alternated
//! with Poisson until the steady state, which is the electric double layer.
//!
//! Scaled variables: ψ̂ = qψ/kT, n̂± = n±/c₀, lengths in Debye lengths
//! λ_D = √(εkT / 2q²c₀), time in λ_D²/D (equal diffusivities D, Einstein μ = qD/kT):
//!
//! ```text
//!   −∇²ψ̂ = (n̂⁺ − n̂⁻) / 2                     (eq. 6 scaled)
//!   ∂n̂±/∂t = ∇·(∇n̂± ± n̂± ∇ψ̂)                  (eq. 7 scaled)
//! ```
//!
//! The fluxes are Scharfetter–Gummel (exact for the exponential profiles of a double layer,
//! zero at equilibrium to rounding, positive), explicit in time; the walls carry no flux,
//! so Σ n̂± is conserved to rounding. The checks: at steady state the potential along the
//! axis matches the linear Debye–Hückel solution of a symmetric blocking cell,
//! ψ̂(z) = V̂/2 + (V̂/2)·sinh((L/2 − z)) / sinh(L/2) (valid for V̂ ≲ 1: the default is
//! 10 mV, V̂ = 0.39), the screening length fitted from the profile is 1 λ_D, and the ion
//! counts are unchanged. The fit is the slope of ln(ψ̂ − ψ̂_mid) against z over the nodes
//! within [`FIT_SPAN`] λ_D of the driven electrode, so the mesh must put at least two nodes
//! there (h ≤ FIT_SPAN): [`BiofetParams::validate`] refuses coarser meshes before anything
//! is allocated.
//!
//! This file holds the parameters and the physics ([`Biofet`]); the run to the steady state,
//! its report and its figures are in `output.rs`.

mod error;
mod model;
mod output;
mod params;

pub use error::BiofetError;
pub use model::Biofet;
pub use output::{BiofetOutput, BiofetReport, Check, Tolerances, simulate};
pub use params::{AxisPoint, BiofetParams, FIT_SPAN, MAX_NODES_Z};
