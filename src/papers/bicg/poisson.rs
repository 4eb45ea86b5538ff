//! The 3D finite-difference Poisson operator of the BioFET simulator (paper §V.1, eq. 6).
//!
//! ∇·ε(−∇ψ) = ρ on an nx × ny × nz node mesh with spacing h, node (x, y, z) numbered
//! `x + nx·(y + ny·z)` (x fastest: the "64×128×64" of Fig. 4 is nx = 64, ny = 128, nz = 64).
//! The 7-point finite-volume stencil with a node-wise permittivity ε and face permittivities
//! by the harmonic mean, scaled by h² so that the diagonal is O(ε):
//!
//! ```text
//!   Σ_f ε_f (ψ_i − ψ_f) = h² ρ_i / ε₀       (f over the ≤ 6 neighbours inside the mesh)
//! ```
//!
//! Faces without a neighbour are insulating (zero normal flux, homogeneous Neumann). Nodes
//! of an electrode are Dirichlet: their row is the identity and their known potential is
//! moved into the right-hand side of the neighbouring rows, which keeps A symmetric (so the
//! Bi-CG's Aᵀ product can reuse A) and of size N = nx·ny·nz as in the paper.
//!
//! The electrodes follow Fig. 3 (blue 0.5 V, green 0.25 V, red 0 V); the paper gives no
//! geometry, so ours is: 0 V over the whole bottom face (z = 0), 0.5 V over the centred
//! half-width square of the top face (z = nz − 1) and 0.25 V over the face x = 0.

use super::ellpack::EllpackR;

/// An nx × ny × nz node mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mesh {
    pub nx: usize,
    pub ny: usize,
    pub nz: usize,
}

impl Mesh {
    pub fn new(nx: usize, ny: usize, nz: usize) -> Mesh {
        Mesh { nx, ny, nz }
    }
    pub fn cube(n: usize) -> Mesh {
        Mesh::new(n, n, n)
    }
    /// Nodes N = nx·ny·nz (the matrix order).
    pub fn nodes(&self) -> usize {
        self.nx * self.ny * self.nz
    }
    /// The row of node (x, y, z).
    pub fn index(&self, x: usize, y: usize, z: usize) -> usize {
        x + self.nx * (y + self.ny * z)
    }
    /// "nx×ny×nz", the paper's label.
    pub fn label(&self) -> String {
        format!("{}×{}×{}", self.nx, self.ny, self.nz)
    }
}

/// A mesh written as "64x128x64" (or "64×128×64") that is not three sides ≥ 2.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("mesh `{text}`: {why} (expected NXxNYxNZ, every side ≥ 2, e.g. 64x128x64)")]
pub struct MeshError {
    pub text: String,
    pub why: String,
}

impl std::str::FromStr for Mesh {
    type Err = MeshError;
    /// Parses "64x128x64" (or "64×128×64"); refuses sides below 2 and node counts that
    /// overflow (before anything is allocated).
    fn from_str(s: &str) -> Result<Mesh, MeshError> {
        let err = |why: String| MeshError {
            text: s.to_string(),
            why,
        };
        let parts: Vec<usize> = s
            .split(['x', '×'])
            .map(|p| p.trim().parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|e| err(e.to_string()))?;
        match parts[..] {
            [x, y, z] => {
                if x.min(y).min(z) < 2 {
                    return Err(err("a side is below 2".into()));
                }
                x.checked_mul(y)
                    .and_then(|xy| xy.checked_mul(z))
                    .ok_or_else(|| err("the node count overflows".into()))?;
                Ok(Mesh::new(x, y, z))
            }
            _ => Err(err(format!("{} sides instead of 3", parts.len()))),
        }
    }
}

/// A Dirichlet condition: `None` for a free node, `Some(volts)` on an electrode.
pub type Dirichlet = Vec<Option<f64>>;

/// The Fig. 3 electrodes on `mesh` (see the module docs).
pub fn fig3_electrodes(mesh: &Mesh) -> Dirichlet {
    let Mesh { nx, ny, nz } = *mesh;
    let mut d = vec![None; mesh.nodes()];
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                let v = if z == 0 {
                    Some(0.0)
                } else if z == nz - 1
                    && (nx / 4..nx - nx / 4).contains(&x)
                    && (ny / 4..ny - ny / 4).contains(&y)
                {
                    Some(0.5)
                } else if x == 0 {
                    Some(0.25)
                } else {
                    None
                };
                d[mesh.index(x, y, z)] = v;
            }
        }
    }
    d
}

/// A Poisson problem A ψ = b ready for the solvers.
#[derive(Clone, Debug)]
pub struct PoissonSystem {
    pub mesh: Mesh,
    pub a: EllpackR<f64>,
    pub b: Vec<f64>,
}

/// Builds A and b for permittivity `eps` (relative, per node), source `rhs` (h²ρ/ε₀ per node,
/// already scaled) and Dirichlet values `dirichlet`.
pub fn assemble(mesh: &Mesh, eps: &[f64], rhs: &[f64], dirichlet: &[Option<f64>]) -> PoissonSystem {
    let n = mesh.nodes();
    assert!(
        eps.len() == n && rhs.len() == n && dirichlet.len() == n,
        "field sizes match the mesh"
    );
    let Mesh { nx, ny, nz } = *mesh;
    let mut rows: Vec<Vec<(usize, f64)>> = Vec::with_capacity(n);
    let mut b = vec![0.0; n];
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                let i = mesh.index(x, y, z);
                if let Some(v) = dirichlet[i] {
                    rows.push(vec![(i, 1.0)]);
                    b[i] = v;
                    continue;
                }
                let mut neighbours = [None; 6];
                if z > 0 {
                    neighbours[0] = Some(mesh.index(x, y, z - 1));
                }
                if y > 0 {
                    neighbours[1] = Some(mesh.index(x, y - 1, z));
                }
                if x > 0 {
                    neighbours[2] = Some(mesh.index(x - 1, y, z));
                }
                if x + 1 < nx {
                    neighbours[3] = Some(mesh.index(x + 1, y, z));
                }
                if y + 1 < ny {
                    neighbours[4] = Some(mesh.index(x, y + 1, z));
                }
                if z + 1 < nz {
                    neighbours[5] = Some(mesh.index(x, y, z + 1));
                }
                let mut row = Vec::with_capacity(7);
                let mut diag = 0.0;
                let mut bi = rhs[i];
                // Column order: below the diagonal, the diagonal, above (a banded row).
                let mut diag_slot = None;
                for (k, j) in neighbours.iter().enumerate() {
                    if k == 3 {
                        diag_slot = Some(row.len());
                        row.push((i, 0.0));
                    }
                    let Some(j) = *j else { continue };
                    let ef = 2.0 * eps[i] * eps[j] / (eps[i] + eps[j]);
                    diag += ef;
                    match dirichlet[j] {
                        Some(v) => bi += ef * v,
                        None => row.push((j, -ef)),
                    }
                }
                row[diag_slot.expect("the diagonal slot is placed")].1 = diag;
                b[i] = bi;
                rows.push(row);
            }
        }
    }
    let a = EllpackR::from_rows(&rows).expect("mesh indices are in range");
    PoissonSystem { mesh: *mesh, a, b }
}

/// The Fig. 4 problem: uniform permittivity, no charge, Fig. 3 electrodes (a Laplace problem
/// whose solution is the electrode potential spreading through the box).
pub fn fig4_problem(mesh: &Mesh) -> PoissonSystem {
    let n = mesh.nodes();
    assemble(mesh, &vec![1.0; n], &vec![0.0; n], &fig3_electrodes(mesh))
}
