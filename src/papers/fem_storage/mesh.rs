//! Structured node grids: bilinear quadrilaterals (2D) and trilinear hexahedra (3D).
//!
//! Nodes are numbered row by row, x fastest, then y, then z (0-based here; the paper's Fig. 1
//! numbers the same order from 1). With this numbering a node's higher-numbered neighbours
//! are its right neighbour, the three nodes of the next row and (3D) the nine nodes of the next
//! layer: hence the paper's "at most 5 per node in 2D, 14 in 3D" (§III, Fig. 1).

use super::error::FemError;

/// A structured grid of `nx × ny (× nz)` nodes with spacing `h` in every direction.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Grid {
    pub nx: usize,
    pub ny: usize,
    /// 1 for a 2D grid.
    pub nz: usize,
    pub h: f64,
}

impl Grid {
    /// A 2D grid of `nx × ny` nodes on `[0, (nx-1)h] × [0, (ny-1)h]`, `h = 1/(max(nx,ny)-1)`.
    pub fn new_2d(nx: usize, ny: usize) -> Result<Grid, FemError> {
        Self::new(nx, ny, 1)
    }

    /// A 3D grid of `nx × ny × nz` nodes, `h = 1/(max(nx,ny,nz)-1)`.
    pub fn new_3d(nx: usize, ny: usize, nz: usize) -> Result<Grid, FemError> {
        if nz < 2 {
            return Err(FemError::InvalidGrid(format!(
                "a 3D grid needs nz ≥ 2, got {nz}"
            )));
        }
        Self::new(nx, ny, nz)
    }

    fn new(nx: usize, ny: usize, nz: usize) -> Result<Grid, FemError> {
        if nx < 2 || ny < 2 {
            return Err(FemError::InvalidGrid(format!(
                "a grid needs at least 2 nodes per side, got {nx}×{ny}"
            )));
        }
        let n = nx.checked_mul(ny).and_then(|v| v.checked_mul(nz));
        match n {
            Some(n) if n < u32::MAX as usize => {}
            _ => {
                return Err(FemError::InvalidGrid(format!(
                    "{nx}×{ny}×{nz} nodes do not fit 32-bit indices"
                )));
            }
        }
        let longest = nx.max(ny).max(nz);
        Ok(Grid {
            nx,
            ny,
            nz,
            h: 1.0 / (longest - 1) as f64,
        })
    }

    /// A cube / square grid of `n` nodes per side in `dim` dimensions.
    pub fn cube(dim: usize, n: usize) -> Result<Grid, FemError> {
        match dim {
            2 => Self::new_2d(n, n),
            3 => Self::new_3d(n, n, n),
            _ => Err(FemError::InvalidGrid(format!("dimension {dim} (2 or 3)"))),
        }
    }

    pub fn dim(&self) -> usize {
        if self.nz == 1 { 2 } else { 3 }
    }

    /// Number of nodes = number of unknowns (rows of K).
    pub fn nodes(&self) -> usize {
        self.nx * self.ny * self.nz
    }

    /// Number of elements.
    pub fn elements(&self) -> usize {
        (self.nx - 1) * (self.ny - 1) * self.nz.saturating_sub(1).max(1)
    }

    /// Nodes per element: 4 (quadrilateral) or 8 (hexahedron).
    pub fn nodes_per_element(&self) -> usize {
        if self.dim() == 2 { 4 } else { 8 }
    }

    pub fn node(&self, x: usize, y: usize, z: usize) -> usize {
        x + self.nx * (y + self.ny * z)
    }

    /// `(x, y, z)` grid coordinates of node `i`.
    pub fn coords(&self, i: usize) -> (usize, usize, usize) {
        (
            i % self.nx,
            (i / self.nx) % self.ny,
            i / (self.nx * self.ny),
        )
    }

    /// The global nodes of element `(ex, ey, ez)`, in the local order of
    /// [`super::element`]: counter-clockwise on the bottom face, then the top face (3D).
    pub fn element_nodes(&self, ex: usize, ey: usize, ez: usize) -> [usize; 8] {
        let n = |dx, dy, dz| self.node(ex + dx, ey + dy, ez + dz);
        let mut out = [0; 8];
        let quad = [n(0, 0, 0), n(1, 0, 0), n(1, 1, 0), n(0, 1, 0)];
        out[..4].copy_from_slice(&quad);
        if self.dim() == 3 {
            out[4..].copy_from_slice(&[n(0, 0, 1), n(1, 0, 1), n(1, 1, 1), n(0, 1, 1)]);
        }
        out
    }

    /// Calls `f` with the nodes of every element, element by element in node order.
    pub fn for_each_element(&self, mut f: impl FnMut(&[usize])) {
        let npe = self.nodes_per_element();
        let ez_count = if self.dim() == 2 { 1 } else { self.nz - 1 };
        for ez in 0..ez_count {
            for ey in 0..self.ny - 1 {
                for ex in 0..self.nx - 1 {
                    let nodes = self.element_nodes(ex, ey, ez);
                    f(&nodes[..npe]);
                }
            }
        }
    }

    /// A short description such as `289×286` or `44×44×43`.
    pub fn label(&self) -> String {
        if self.dim() == 2 {
            format!("{}×{}", self.nx, self.ny)
        } else {
            format!("{}×{}×{}", self.nx, self.ny, self.nz)
        }
    }

    /// The grid of `dim` dimensions whose node count is nearest to `target`, with sides
    /// differing by at most `max_aspect` (ties: the most cube-like). The paper does not say
    /// which meshes gave its Table 4 sizes; this picks the nearest structured grid.
    pub fn nearest(dim: usize, target: usize, max_aspect: f64) -> Result<Grid, FemError> {
        let root = (target as f64).powf(1.0 / dim as f64);
        let lo = ((root / max_aspect).floor() as usize).max(2);
        let hi = (root * max_aspect).ceil() as usize + 1;
        let mut best: Option<(usize, f64, [usize; 3])> = None;
        let mut consider = |sides: [usize; 3]| {
            let n = sides[0] * sides[1] * sides[2];
            let diff = n.abs_diff(target);
            let real: Vec<f64> = sides[..dim].iter().map(|&s| s as f64).collect();
            let aspect = real.iter().cloned().fold(0.0, f64::max)
                / real.iter().cloned().fold(f64::INFINITY, f64::min);
            if aspect > max_aspect {
                return;
            }
            let better = match best {
                None => true,
                Some((d, a, _)) => diff < d || (diff == d && aspect < a),
            };
            if better {
                best = Some((diff, aspect, sides));
            }
        };
        if dim == 2 {
            for a in lo..=hi {
                let b = target / a;
                for b in [b, b + 1] {
                    if b >= 2 && b <= a {
                        consider([a, b, 1]);
                    }
                }
            }
        } else {
            for a in lo..=hi {
                for b in lo..=a {
                    let c = target / (a * b);
                    for c in [c, c + 1] {
                        if c >= 2 && c <= b {
                            consider([a, b, c]);
                        }
                    }
                }
            }
        }
        let (_, _, s) = best
            .ok_or_else(|| FemError::InvalidGrid(format!("no {dim}D grid near {target} nodes")))?;
        if dim == 2 {
            Self::new_2d(s[0], s[1])
        } else {
            Self::new_3d(s[0], s[1], s[2])
        }
    }
}
