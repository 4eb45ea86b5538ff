//! The charged BioFET systems of the precision question (paper §V.1, eqs. 6–7; §VI's "the
//! values span a huge range, so single precision often fails to converge"), in SI units —
//! not the scaled variables of [`super::biofet`] — so that the matrix, the right-hand side
//! and the solution carry the magnitudes the paper's simulator saw.
//!
//! **Geometry.** The nx × ny × nz node mesh of [`super::poisson`] with spacing h (nm) and
//! Fig. 3's electrodes ([`fig3_electrodes`]: 0 V on z = 0, 0.5 V on the centred half-width
//! square of the top face, 0.25 V on x = 0). The nodes 0 < z ≤ `oxide_layers` are a gate
//! insulator (ε_r = `eps_oxide`, 3.9 for SiO₂), the rest an electrolyte (ε_r =
//! `eps_electrolyte`, 80 for water); the 0 V electrode under the oxide is the FET's gate side.
//!
//! **(1) Poisson with fixed charge** (eq. 6, ∇·ε∇ψ = −ρ). Integrated over a node's cell
//! (volume h³, faces h²) with the harmonic-mean face permittivity ε_f = 2ε_iε_j/(ε_i+ε_j):
//!
//! ```text
//!   Σ_f ε₀ ε_f h (ψ_i − ψ_f) = ρ_i h³            [C]: entries ε₀ε_f h ≈ 1e-20…1e-18 F
//! ```
//!
//! Electrode rows are identity rows (entry 1, value in volts), as in [`super::poisson`], so
//! one matrix mixes entries of 1 with entries of ~1e-19. The charge ρ (C/m³):
//!
//! * the electrolyte's double layer, q(n⁺ − n⁻) with Boltzmann n± = c₀ exp(∓(ψ − ψ_ref)/V_T),
//!   c₀ = `concentration_mm` (mol/m³ = mM) × N_A, V_T = kT/q at 300 K, ψ_ref = `reference_v`
//!   (the electrolyte's bulk potential, the 0.25 V electrode's);
//! * a charged biomolecule layer: surface charge `bio_charge` (C/m²) as ρ = σ/h on the first
//!   electrolyte layer z = `oxide_layers` + 1 over the centred half-width square (fixed).
//!
//! The linear system is Gummel's Poisson step from the charge-free (Laplace) potential ψ₀ of
//! the same geometry: the ions' quasi-Fermi levels are frozen, so the double layer is
//! linearised about ψ₀, ρ(ψ) ≈ ρ(ψ₀) − (g/h³)(ψ − ψ₀), which per cell reads
//!
//! ```text
//!   Σ_f ε₀ε_f h (ψ_i − ψ_f) + g_i ψ_i = ρ_i(ψ₀) h³ + g_i ψ₀_i,   g_i = q (n⁺_i + n⁻_i) h³ / V_T
//! ```
//!
//! (g_i on free electrolyte nodes only). The screening term g bounds the update ψ − ψ₀ to
//! about V_T per node, where the charge frozen outright (no g) would overshoot by hundreds
//! of volts near the 0.5 V electrode. g spans e^{±(ψ₀−ψ_ref)/V_T} ≈ 1e±4 around q c₀ h³/V_T,
//! so the diagonal alone covers orders of magnitude beside the ε₀ε_f h couplings and the 1s
//! of the electrode rows: the "huge range" of §VI. The matrix stays symmetric positive
//! definite.
//!
//! **(2) One implicit step of ion continuity** (eq. 7) for the cations in the potential ψ₁
//! of (1), Scharfetter–Gummel fluxes (the explicit ones of [`super::biofet`]), blocking
//! walls (the oxide and the box faces carry no ion flux), backward Euler with step Δt:
//!
//! ```text
//!   (1 + κ Σ_j B(d_ij)) n_i − κ Σ_j B(−d_ij) n_j = n_i^old,   d_ij = (ψ₁_j − ψ₁_i)/V_T,
//!   κ = D Δt / h²,  B(x) = x / (eˣ − 1),  j over the electrolyte neighbours of i
//! ```
//!
//! with n^old the cations of (1) in m⁻³ (~1e22…1e28). Since B(d) ≠ B(−d) the matrix
//! I − Δt L_SG is not symmetric ([`asymmetry`]), so Bi-CG's second sequence (Aᵀ) is its own.
//! Oxide nodes hold no ions: identity rows with n = 0.

use super::anchor::{self, AnchorError};
use super::ellpack::EllpackR;
use super::poisson::{Mesh, PoissonSystem, assemble, fig3_electrodes};

/// Elementary charge, C.
pub const Q: f64 = 1.602_176_634e-19;
/// Vacuum permittivity, F/m.
pub const EPS0: f64 = 8.854_187_812_8e-12;
/// kT/q at 300 K, V.
pub const V_T: f64 = 0.025_852;
/// Avogadro's number, 1/mol.
pub const AVOGADRO: f64 = 6.022_140_76e23;

/// The physical parameters (`experiments/bicg.toml` `[precision_charged]`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargedParams {
    /// Mesh spacing h, nm.
    pub spacing_nm: f64,
    /// Node layers of gate insulator above the z = 0 electrode.
    pub oxide_layers: usize,
    /// Relative permittivity of the insulator.
    pub eps_oxide: f64,
    /// Relative permittivity of the electrolyte.
    pub eps_electrolyte: f64,
    /// Bulk salt concentration c₀, mM (= mol/m³).
    pub concentration_mm: f64,
    /// Surface charge of the biomolecule layer, C/m² (negative for DNA).
    pub bio_charge: f64,
    /// The electrolyte's bulk (reference) potential, V.
    pub reference_v: f64,
    /// Ion diffusivity D, m²/s.
    pub diffusivity: f64,
    /// The implicit continuity step Δt, ns.
    pub time_step_ns: f64,
}

impl ChargedParams {
    /// h in metres.
    pub fn h(&self) -> f64 {
        self.spacing_nm * 1e-9
    }
    /// Whether node layer `z` is electrolyte.
    pub fn electrolyte(&self, z: usize) -> bool {
        z > self.oxide_layers
    }
    /// Relative permittivity per node.
    pub fn permittivity(&self, mesh: &Mesh) -> Vec<f64> {
        let layer = mesh.nx * mesh.ny;
        (0..mesh.nodes())
            .map(|i| {
                if self.electrolyte(i / layer) {
                    self.eps_electrolyte
                } else {
                    self.eps_oxide
                }
            })
            .collect()
    }
    /// Bulk ion density c₀ in m⁻³.
    pub fn c0(&self) -> f64 {
        self.concentration_mm * AVOGADRO
    }
    /// Boltzmann densities (n⁺, n⁻) in m⁻³ at potential `psi`.
    pub fn boltzmann(&self, psi: f64) -> (f64, f64) {
        let u = (psi - self.reference_v) / V_T;
        (self.c0() * (-u).exp(), self.c0() * u.exp())
    }
}

/// The charged Poisson problem (1) with what it was built from.
pub struct ChargedPoisson {
    pub sys: PoissonSystem,
    /// The charge-free potential ψ₀ the double layer is linearised about, V.
    pub psi0: Vec<f64>,
    /// The charge density ρ(ψ₀) per node, C/m³.
    pub rho: Vec<f64>,
    /// The screening term g per node (F), added to the diagonal.
    pub g: Vec<f64>,
}

/// The charge-free system of the same geometry (ε jump, no charge), SI rows.
pub fn laplace_si(mesh: &Mesh, p: &ChargedParams) -> PoissonSystem {
    let scale = EPS0 * p.h();
    let eps: Vec<f64> = p.permittivity(mesh).iter().map(|e| e * scale).collect();
    assemble(mesh, &eps, &vec![0.0; mesh.nodes()], &fig3_electrodes(mesh))
}

/// Builds (1): ψ₀ by faer's sparse Cholesky on the charge-free system, the charge and its
/// screening term at ψ₀, and Gummel's linearised system.
pub fn charged_poisson(mesh: &Mesh, p: &ChargedParams) -> Result<ChargedPoisson, AnchorError> {
    let lap = laplace_si(mesh, p);
    let psi0 = anchor::cholesky_solve(&lap.a, &lap.b)?;
    let rho = charge(mesh, p, &psi0);
    let electrodes = fig3_electrodes(mesh);
    let layer = mesh.nx * mesh.ny;
    let h3 = p.h().powi(3);
    let g: Vec<f64> = (0..mesh.nodes())
        .map(|i| {
            if p.electrolyte(i / layer) && electrodes[i].is_none() {
                let (np, nm) = p.boltzmann(psi0[i]);
                Q * (np + nm) * h3 / V_T
            } else {
                0.0
            }
        })
        .collect();
    let scale = EPS0 * p.h();
    let eps: Vec<f64> = p.permittivity(mesh).iter().map(|e| e * scale).collect();
    let src: Vec<f64> = (0..mesh.nodes())
        .map(|i| rho[i] * h3 + g[i] * psi0[i])
        .collect();
    let mut sys = assemble(mesh, &eps, &src, &electrodes);
    let n = sys.a.n;
    for (i, gi) in g.iter().enumerate() {
        let k = (0..sys.a.rl[i] as usize)
            .find(|&k| sys.a.col[k * n + i] as usize == i)
            .expect("every row has its diagonal");
        sys.a.val[k * n + i] += gi;
    }
    Ok(ChargedPoisson { sys, psi0, rho, g })
}

/// The frozen charge density (C/m³): the double layer at `psi0` on electrolyte nodes plus
/// the biomolecule layer (module docs).
pub fn charge(mesh: &Mesh, p: &ChargedParams, psi0: &[f64]) -> Vec<f64> {
    let Mesh { nx, ny, nz } = *mesh;
    let mut rho = vec![0.0; mesh.nodes()];
    for z in (p.oxide_layers + 1)..nz {
        for y in 0..ny {
            for x in 0..nx {
                let i = mesh.index(x, y, z);
                let (np, nm) = p.boltzmann(psi0[i]);
                rho[i] = Q * (np - nm);
                let patch =
                    (nx / 4..nx - nx / 4).contains(&x) && (ny / 4..ny - ny / 4).contains(&y);
                if z == p.oxide_layers + 1 && patch {
                    rho[i] += p.bio_charge / p.h();
                }
            }
        }
    }
    rho
}

/// B(x) = x / (eˣ − 1) (series near 0; 0 where eˣ overflows).
pub fn bernoulli(x: f64) -> f64 {
    if x.abs() < 1e-6 {
        1.0 - 0.5 * x
    } else {
        x / x.exp_m1()
    }
}

/// (2): the implicit SG step's matrix and right-hand side in potential `psi` (V), from the
/// cation densities `n_old` (m⁻³); see the module docs.
pub fn sg_step(
    mesh: &Mesh,
    p: &ChargedParams,
    psi: &[f64],
    n_old: &[f64],
) -> (EllpackR<f64>, Vec<f64>) {
    let Mesh { nx, ny, nz } = *mesh;
    let kappa = p.diffusivity * p.time_step_ns * 1e-9 / (p.h() * p.h());
    let mut rows = Vec::with_capacity(mesh.nodes());
    let mut b = vec![0.0; mesh.nodes()];
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                let i = mesh.index(x, y, z);
                if !p.electrolyte(z) {
                    rows.push(vec![(i, 1.0)]);
                    continue;
                }
                let mut row = vec![(i, 1.0)];
                let nb = [
                    (z > p.oxide_layers + 1).then(|| i - nx * ny),
                    (y > 0).then(|| i - nx),
                    (x > 0).then(|| i - 1),
                    (x + 1 < nx).then(|| i + 1),
                    (y + 1 < ny).then(|| i + nx),
                    (z + 1 < nz).then(|| i + nx * ny),
                ];
                for j in nb.into_iter().flatten() {
                    let d = (psi[j] - psi[i]) / V_T;
                    row[0].1 += kappa * bernoulli(d);
                    row.push((j, -kappa * bernoulli(-d)));
                }
                b[i] = n_old[i];
                rows.push(row);
            }
        }
    }
    let a = EllpackR::from_rows(&rows).expect("mesh indices are in range");
    (a, b)
}

/// The cation densities of (1) (m⁻³): Boltzmann at ψ₀ on electrolyte nodes, 0 in the oxide.
pub fn cations(mesh: &Mesh, p: &ChargedParams, psi0: &[f64]) -> Vec<f64> {
    let layer = mesh.nx * mesh.ny;
    (0..mesh.nodes())
        .map(|i| {
            if p.electrolyte(i / layer) {
                p.boltzmann(psi0[i]).0
            } else {
                0.0
            }
        })
        .collect()
}

/// ‖A − Aᵀ‖_F / ‖A‖_F (0 for a symmetric matrix).
pub fn asymmetry(a: &EllpackR<f64>) -> f64 {
    let t = a.transpose();
    let entries = |m: &EllpackR<f64>, i: usize| {
        let mut r: Vec<(usize, f64)> = m.row(i).collect();
        r.sort_by_key(|e| e.0);
        r
    };
    let (mut diff, mut norm) = (0.0, 0.0);
    for i in 0..a.n {
        let (ra, rt) = (entries(a, i), entries(&t, i));
        for &(c, v) in &ra {
            norm += v * v;
            let w = rt.iter().find(|e| e.0 == c).map_or(0.0, |e| e.1);
            diff += (v - w) * (v - w);
        }
        for &(c, w) in &rt {
            if !ra.iter().any(|e| e.0 == c) {
                diff += w * w;
            }
        }
    }
    (diff / norm.max(f64::MIN_POSITIVE)).sqrt()
}

/// (smallest non-zero |v|, largest |v|) of `values` ((0, 0) when all are zero).
pub fn magnitude_range(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    values
        .into_iter()
        .map(f64::abs)
        .filter(|v| *v > 0.0)
        .fold((0.0f64, 0.0f64), |(lo, hi), v| {
            (if lo == 0.0 { v } else { lo.min(v) }, hi.max(v))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::papers::bicg::cpu::true_residual;

    pub(crate) fn params() -> ChargedParams {
        ChargedParams {
            spacing_nm: 1.0,
            oxide_layers: 2,
            eps_oxide: 3.9,
            eps_electrolyte: 80.0,
            concentration_mm: 10.0,
            bio_charge: -0.02,
            reference_v: 0.25,
            diffusivity: 2e-9,
            time_step_ns: 1.0,
        }
    }

    #[test]
    fn the_permittivity_jump_and_the_charge_reach_the_matrix_and_rhs() {
        let (mesh, p) = (Mesh::cube(8), params());
        let cp = charged_poisson(&mesh, &p).unwrap();
        let lap = laplace_si(&mesh, &p);
        // A free oxide node (z = 1) and a free electrolyte node (z = 5): their diagonals
        // are 6ε₀ε_r h of their own material, and the charged system adds g in the
        // electrolyte only.
        let d = lap.a.diagonal().unwrap();
        let unit = EPS0 * p.h();
        let (ox, el) = (mesh.index(4, 4, 1), mesh.index(4, 4, 5));
        assert!(
            (d[ox] / unit - 6.0 * 3.9).abs() < 1e-9 * 80.0,
            "{}",
            d[ox] / unit
        );
        assert!(
            (d[el] / unit - 6.0 * 80.0).abs() < 1e-9 * 480.0,
            "{}",
            d[el] / unit
        );
        let dc = cp.sys.a.diagonal().unwrap();
        assert_eq!(dc[ox], d[ox]);
        let (np, nm) = p.boltzmann(cp.psi0[el]);
        let g = Q * (np + nm) * p.h().powi(3) / V_T;
        assert!(
            g > 0.0 && (dc[el] - d[el] - g).abs() <= 1e-12 * dc[el],
            "{g:e}"
        );
        // Across the interface (z = 2 → 3) the face is the harmonic mean.
        let i = mesh.index(4, 4, 2);
        let up = lap.a.row(i).find(|e| e.0 == mesh.index(4, 4, 3)).unwrap().1;
        let hm = 2.0 * 3.9 * 80.0 / 83.9;
        assert!((-up / unit - hm).abs() < 1e-12 * hm, "{}", -up / unit);
        // The charge: the biomolecule layer at z = 3, the double layer above; nothing in the
        // oxide; b differs from the charge-free b by ρh³ exactly on free nodes.
        let bio = mesh.index(4, 4, 3);
        assert!(cp.rho[bio] < p.bio_charge / p.h() * 0.5, "{}", cp.rho[bio]);
        assert!(cp.rho[mesh.index(4, 4, 1)] == 0.0);
        // The double layer's sign: cations gather where ψ₀ is below the reference.
        let u = (cp.psi0[el] - p.reference_v) / V_T;
        let want = Q * p.c0() * ((-u).exp() - u.exp());
        assert!(want != 0.0 && (cp.rho[el] - want).abs() <= 1e-12 * want.abs());
        let h3 = p.h().powi(3);
        let db = cp.sys.b[el] - lap.b[el];
        let want = cp.rho[el] * h3 + g * cp.psi0[el];
        assert!(
            (db - want).abs() <= 1e-12 * want.abs(),
            "{db:e} vs {want:e}"
        );
        // The dynamic range the paper speaks of: entries from 1 down to ~1e-20.
        let (lo, hi) = magnitude_range(cp.sys.a.val.iter().copied());
        assert!(hi / lo > 1e15, "{lo:e} … {hi:e}");
    }

    #[test]
    fn the_sg_step_is_non_symmetric_and_its_f64_solve_has_a_small_residual() {
        let (mesh, p) = (Mesh::cube(8), params());
        let cp = charged_poisson(&mesh, &p).unwrap();
        let psi1 = anchor::cholesky_solve(&cp.sys.a, &cp.sys.b).unwrap();
        // The screening term keeps the update within a few V_T of ψ₀.
        let dmax = psi1
            .iter()
            .zip(&cp.psi0)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(dmax < 20.0 * V_T, "max |ψ₁ − ψ₀| = {dmax} V");
        let n0 = cations(&mesh, &p, &cp.psi0);
        let (a, b) = sg_step(&mesh, &p, &psi1, &n0);
        let asym = asymmetry(&a);
        assert!(asym > 1e-3, "‖A−Aᵀ‖/‖A‖ = {asym:e}");
        assert_eq!(asymmetry(&cp.sys.a), 0.0);
        let x = anchor::lu_solve(&a, &b).unwrap();
        let r = true_residual(&a, &b, &x);
        assert!(r < 1e-12, "true residual {r:e}");
        // Blocking walls: backward Euler conserves the ions to rounding.
        let (s0, s1): (f64, f64) = (b.iter().sum(), x.iter().sum());
        assert!((s1 - s0).abs() < 1e-9 * s0, "{s0:e} → {s1:e}");
    }
}
