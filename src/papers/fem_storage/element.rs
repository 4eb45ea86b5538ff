//! Galerkin element matrices for χ∇²T + Q = 0 (eq. 1) on bilinear quadrilaterals and
//! trilinear hexahedra.
//!
//! With shape functions Nₐ, the element conductivity matrix and source vector are
//!
//! ```text
//! Kᵉ_ab = ∫_Ωe χ ∇Nₐ·∇N_b dΩ,        Fᵉ_a = ∫_Ωe Q Nₐ dΩ
//! ```
//!
//! evaluated here by 2-point Gauss–Legendre quadrature per direction (exact for these
//! integrands on rectangular elements). The hand-derived closed forms for a square / cube of
//! side h, used by the tests, follow from the tensor products of the 1D stiffness
//! (1/h)[1 −1; −1 1] and mass (h/6)[2 1; 1 2] matrices:
//!
//! * 2D: Kᵉ = χ/6 · [4 on the diagonal, −1 between edge neighbours, −2 across the diagonal]
//!   (independent of h); Fᵉ = Q h²/4 per node.
//! * 3D: Kᵉ = χh · [1/3 on the diagonal, 0 between edge neighbours, −1/12 across a face
//!   diagonal and across the body diagonal]; Fᵉ = Q h³/8 per node.
//!
//! Local node order: counter-clockwise on the bottom face, then the top face (3D), as in
//! [`super::mesh::Grid::element_nodes`].

/// Reference-element coordinates (ξ, η, ζ) ∈ {−1, 1} of the local nodes.
const CORNERS: [[f64; 3]; 8] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, 1.0],
    [-1.0, 1.0, 1.0],
];

/// An element's conductivity matrix and source vector (the first `n` rows/entries used).
#[derive(Clone, Debug, PartialEq)]
pub struct ElementMatrices {
    /// Nodes per element: 4 or 8.
    pub n: usize,
    pub k: [[f64; 8]; 8],
    pub f: [f64; 8],
}

/// Element matrices of a `dim`-dimensional element with side lengths `h` (per direction),
/// conductivity `chi` and uniform source `q`, by 2-point Gauss quadrature.
pub fn element_matrices(dim: usize, h: [f64; 3], chi: f64, q: f64) -> ElementMatrices {
    assert!(dim == 2 || dim == 3, "dimension {dim}");
    let n = 1 << dim;
    let g = 1.0 / 3f64.sqrt();
    let mut k = [[0.0; 8]; 8];
    let mut f = [0.0; 8];
    // Jacobian of the map from [-1,1]^dim to the element: diag(h/2).
    let jac: f64 = h[..dim].iter().map(|s| s / 2.0).product();
    let points: Vec<[f64; 3]> = CORNERS[..n].iter().map(|c| c.map(|v| v * g)).collect();
    for p in &points {
        // Shape function values and physical gradients at the Gauss point (weight 1).
        let mut val = [0.0; 8];
        let mut grad = [[0.0; 3]; 8];
        for a in 0..n {
            let c = CORNERS[a];
            let lin = |d: usize| 0.5 * (1.0 + c[d] * p[d]);
            let dlin = |d: usize| 0.5 * c[d] * 2.0 / h[d];
            let dims: Vec<usize> = (0..dim).collect();
            val[a] = dims.iter().map(|&d| lin(d)).product();
            for &d in &dims {
                grad[a][d] = dims
                    .iter()
                    .map(|&e| if e == d { dlin(e) } else { lin(e) })
                    .product();
            }
        }
        for a in 0..n {
            f[a] += q * val[a] * jac;
            for b in 0..n {
                let dot: f64 = (0..dim).map(|d| grad[a][d] * grad[b][d]).sum();
                k[a][b] += chi * dot * jac;
            }
        }
    }
    ElementMatrices { n, k, f }
}

/// The closed form of Kᵉ for a square (2D) or cube (3D) element of side `h` (see the module
/// docs): what [`element_matrices`] must reproduce.
pub fn hand_derived_k(dim: usize, h: f64, chi: f64) -> [[f64; 8]; 8] {
    let n = 1 << dim;
    let mut k = [[0.0; 8]; 8];
    for a in 0..n {
        for b in 0..n {
            let differ = (0..dim).filter(|&d| CORNERS[a][d] != CORNERS[b][d]).count();
            k[a][b] = if dim == 2 {
                chi / 6.0 * [4.0, -1.0, -2.0][differ]
            } else {
                chi * h * [1.0 / 3.0, 0.0, -1.0 / 12.0, -1.0 / 12.0][differ]
            };
        }
    }
    k
}
