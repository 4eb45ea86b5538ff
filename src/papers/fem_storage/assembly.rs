//! The global system \[K\]{Φ} = {F} (eq. 2): one element loop feeds any storage format, then
//! the load vector and the boundary conditions.
//!
//! The loop visits the elements in node order and, for every local node a, adds Kᵉ_aa to the
//! diagonal first and then Kᵉ_ab for the higher-numbered nodes b of the element (the upper
//! triangle, i ≤ j). On a uniform grid all elements are equal, so Kᵉ is computed once.
//!
//! Boundary conditions of the test problem (a plate / block heated by Q):
//! * Dirichlet T = `t_left` on the face x = 0 and T = `t_right` on the face x = max;
//! * a uniform heat flux `flux` into the face y = 0 (an edge in 2D): each boundary edge of
//!   length h gives q h/2 to its two nodes, each face of area h² gives q h²/4 to its four;
//! * the other faces insulated (natural boundary, nothing to add).
//!
//! Dirichlet rows are imposed symmetrically without changing the pattern: the known value
//! times the column is moved to the right-hand side, the row's and column's off-diagonal
//! entries become (stored) zeros and the diagonal 1, so K stays symmetric positive definite
//! and every node remains an unknown (N = nodes, as in Table 2 and Table 4).

use super::element::{ElementMatrices, element_matrices};
use super::error::FemError;
use super::formats::{MatrixSink, VarVec};
use super::mesh::Grid;

/// The physical problem (eq. 1 with its boundary conditions).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Problem {
    /// Conductivity χ.
    pub chi: f64,
    /// Internal heat source Q per unit volume.
    pub source: f64,
    /// Dirichlet temperature on x = 0.
    pub t_left: f64,
    /// Dirichlet temperature on x = max.
    pub t_right: f64,
    /// Heat flux into the face y = 0.
    pub flux: f64,
}

impl Default for Problem {
    fn default() -> Self {
        Problem {
            chi: 1.0,
            source: 1.0,
            t_left: 0.0,
            t_right: 1.0,
            flux: 1.0,
        }
    }
}

/// The element matrices of `grid`'s (identical) elements.
pub fn grid_element(grid: &Grid, problem: &Problem) -> ElementMatrices {
    element_matrices(grid.dim(), [grid.h; 3], problem.chi, problem.source)
}

/// The assembly loop: adds every element's upper-triangular entries to `sink`.
pub fn assemble(grid: &Grid, elem: &ElementMatrices, sink: &mut impl MatrixSink) {
    grid.for_each_element(|nodes| {
        for (a, &ga) in nodes.iter().enumerate() {
            sink.add(ga, ga, elem.k[a][a]);
            for (b, &gb) in nodes.iter().enumerate() {
                if gb > ga {
                    sink.add(ga, gb, elem.k[a][b]);
                }
            }
        }
    });
}

/// The load vector {F}: element sources plus the boundary flux (before Dirichlet rows).
pub fn load_vector(grid: &Grid, elem: &ElementMatrices, problem: &Problem) -> Vec<f64> {
    let mut f = vec![0.0; grid.nodes()];
    grid.for_each_element(|nodes| {
        for (a, &g) in nodes.iter().enumerate() {
            f[g] += elem.f[a];
        }
    });
    let h = grid.h;
    if grid.dim() == 2 {
        for x in 0..grid.nx - 1 {
            for g in [grid.node(x, 0, 0), grid.node(x + 1, 0, 0)] {
                f[g] += problem.flux * h / 2.0;
            }
        }
    } else {
        for z in 0..grid.nz - 1 {
            for x in 0..grid.nx - 1 {
                for (dx, dz) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    f[grid.node(x + dx, 0, z + dz)] += problem.flux * h * h / 4.0;
                }
            }
        }
    }
    f
}

/// The Dirichlet nodes of `grid` and their values.
pub fn dirichlet_nodes(grid: &Grid, problem: &Problem) -> Vec<Option<f64>> {
    let mut fixed = vec![None; grid.nodes()];
    for (i, slot) in fixed.iter_mut().enumerate() {
        let (x, _, _) = grid.coords(i);
        if x == 0 {
            *slot = Some(problem.t_left);
        } else if x == grid.nx - 1 {
            *slot = Some(problem.t_right);
        }
    }
    fixed
}

/// Imposes Dirichlet values on a system in the proposed format (see the module docs).
pub fn apply_dirichlet(k: &mut VarVec, f: &mut [f64], fixed: &[Option<f64>]) {
    for i in 0..k.n() {
        for (c, v) in k.idx[i].iter().zip(k.val[i].iter_mut()) {
            let j = *c as usize;
            if j == i {
                continue;
            }
            match (fixed[i], fixed[j]) {
                (None, Some(g)) => f[i] -= *v * g,
                (Some(g), None) => f[j] -= *v * g,
                _ => {}
            }
            if fixed[i].is_some() || fixed[j].is_some() {
                *v = 0.0;
            }
        }
    }
    for (i, g) in fixed.iter().enumerate() {
        if let Some(g) = *g {
            let d = k.idx[i].iter().position(|&c| c as usize == i).unwrap();
            k.val[i][d] = 1.0;
            f[i] = g;
        }
    }
}

/// The assembled linear system in the proposed format, boundary conditions applied.
#[derive(Clone, Debug)]
pub struct System {
    pub grid: Grid,
    pub k: VarVec,
    pub f: Vec<f64>,
}

impl System {
    /// Assembles `grid` and `problem` into the proposed format (Fig. 2) and applies the
    /// boundary conditions.
    pub fn assemble(grid: Grid, problem: &Problem) -> Result<System, FemError> {
        if problem.chi.is_nan() || problem.chi <= 0.0 {
            return Err(FemError::InvalidProblem(format!(
                "conductivity χ = {} must be positive",
                problem.chi
            )));
        }
        let elem = grid_element(&grid, problem);
        let mut k = VarVec::new(grid.nodes());
        assemble(&grid, &elem, &mut k);
        let mut f = load_vector(&grid, &elem, problem);
        apply_dirichlet(&mut k, &mut f, &dirichlet_nodes(&grid, problem));
        Ok(System { grid, k, f })
    }

    /// ‖f − K x‖₂ / ‖f‖₂ in f64.
    pub fn relative_residual(&self, x: &[f64]) -> f64 {
        let kx = self.k.mul_sym(x);
        let r: f64 = self.f.iter().zip(&kx).map(|(a, b)| (a - b) * (a - b)).sum();
        let n: f64 = self.f.iter().map(|a| a * a).sum();
        (r / n.max(f64::MIN_POSITIVE)).sqrt()
    }
}

/// The spectral radius of the Jacobi iteration matrix I − D⁻¹K for this problem, exactly:
/// ρ = (1 + 3 cos(π/(nx−1)))/4 in 2D and 3D.
///
/// The mode v = sin(π x) (constant across y and z) vanishes on both Dirichlet faces and is an
/// eigenvector of D⁻¹K on the insulated/flux faces too (boundary rows carry half or a quarter
/// of every weight, diagonal included). On interior rows the Jacobi symbol is
/// μ = ¼(cₓ + c_y) + ½cₓc_y (2D), ¼(cₓc_y + cₓc_z + c_yc_z) + ¼cₓc_yc_z (3D); with c_y = c_z = 1
/// both give μ = ¼ + ¾cₓ, the largest |μ| of all modes (the most negative is −½).
pub fn jacobi_spectral_radius(grid: &Grid) -> f64 {
    (1.0 + 3.0 * (std::f64::consts::PI / (grid.nx - 1) as f64).cos()) / 4.0
}
