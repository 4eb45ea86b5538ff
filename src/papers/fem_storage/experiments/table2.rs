//! Table 2: the values each storage format holds for the matrix K of 2D (and, beyond the
//! paper, 3D) node grids, counted from the structures after one element loop has assembled
//! them all (§III, Table 2), and verified against the stencil geometry.

use super::config::{Config, Table2Config};
use crate::papers::fem_storage::assembly::{Problem, assemble, grid_element};
use crate::papers::fem_storage::formats::{
    Both, Csr, CsrPattern, Dense, Skyline, SkylineProfile, VarVec,
};
use crate::papers::fem_storage::mesh::Grid;
use crate::report::{Column, Row, RowBuilder, Status};
use crate::runner::{RunError, Session, TableWriter};

/// Stored-value counts of one grid, from the assembled structures.
#[derive(Clone, Debug, PartialEq)]
pub struct Counts {
    pub grid: Grid,
    pub nodes: usize,
    pub dense: usize,
    pub proposed: usize,
    pub with_indices: usize,
    pub skyline: usize,
    pub csr_upper: usize,
    pub max_per_node: usize,
    /// Whether the dense and skyline arrays were really allocated and filled (else counted
    /// from their symbolic pass).
    pub dense_filled: bool,
    pub skyline_filled: bool,
    /// Largest difference between the formats' values, relative to the largest value.
    pub value_mismatch: f64,
}

/// Counts predicted by the stencil geometry (no assembly): the proposed format stores, per
/// node, itself and its higher-numbered neighbours; the skyline stores, per column, from the
/// lowest-numbered neighbour (every coordinate decremented where possible) to the diagonal.
pub fn stencil_counts(g: &Grid) -> (usize, usize) {
    let (mut proposed, mut skyline) = (0usize, 0usize);
    let span = |c: usize, n: usize| 1 + (c > 0) as usize + (c + 1 < n) as usize;
    for i in 0..g.nodes() {
        let (x, y, z) = g.coords(i);
        let right = (x + 1 < g.nx) as usize;
        let next_row = if y + 1 < g.ny { span(x, g.nx) } else { 0 };
        let next_layer = if z + 1 < g.nz {
            span(x, g.nx) * span(y, g.ny)
        } else {
            0
        };
        proposed += 1 + right + next_row + next_layer;
        let lowest = g.node(
            x.saturating_sub(1),
            y.saturating_sub(1),
            z.saturating_sub(1),
        );
        skyline += i - lowest + 1;
    }
    (proposed, skyline)
}

/// Assembles `grid` into every format with the same loop and counts what each stores.
pub fn count_formats(
    grid: Grid,
    problem: &Problem,
    dense_alloc_max: usize,
    skyline_alloc_max: usize,
) -> Counts {
    let n = grid.nodes();
    let elem = grid_element(&grid, problem);
    // Symbolic passes (skyline profile, CSR pattern) with the same loop.
    let mut profile = SkylineProfile::new(n);
    let mut pattern = CsrPattern::new(n);
    assemble(&grid, &elem, &mut Both(&mut profile, &mut pattern));
    let mut proposed = VarVec::new(n);
    let mut csr = Csr::from_pattern(&pattern);
    drop(pattern);
    assemble(&grid, &elem, &mut Both(&mut proposed, &mut csr));
    let sky_count = profile.stored_values();
    let skyline = (sky_count <= skyline_alloc_max).then(|| {
        let mut sky = Skyline::from_profile(&profile);
        assemble(&grid, &elem, &mut sky);
        sky
    });
    let dense = (n * n <= dense_alloc_max).then(|| {
        let mut d = Dense::new(n);
        assemble(&grid, &elem, &mut d);
        d
    });
    // Every format must hold the same values.
    let scale = proposed
        .val
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let mut mismatch = 0.0f64;
    let mut csr_nnz = 0;
    for i in 0..n {
        let r = csr.ptr[i] as usize..(csr.ptr[i] + csr.len[i]) as usize;
        csr_nnz += r.len();
        for (&j, &v) in proposed.idx[i].iter().zip(&proposed.val[i]) {
            let j = j as usize;
            let k = csr.j[r.clone()].binary_search(&(j as u32));
            let c = k.map_or(f64::INFINITY, |k| csr.a[r.start + k]);
            mismatch = mismatch.max((c - v).abs());
            if let Some(sky) = &skyline {
                mismatch = mismatch.max((sky.get(i, j) - v).abs());
            }
            if let Some(d) = &dense {
                mismatch = mismatch
                    .max((d.at(i, j) - v).abs())
                    .max((d.at(j, i) - v).abs());
            }
        }
    }
    if csr_nnz != proposed.stored_values() {
        mismatch = f64::INFINITY;
    }
    Counts {
        grid,
        nodes: n,
        dense: dense.as_ref().map_or(n * n, Dense::stored_values),
        proposed: proposed.stored_values(),
        with_indices: proposed.stored_with_indices(),
        skyline: skyline.as_ref().map_or(sky_count, Skyline::stored_values),
        csr_upper: csr.stored_values(),
        max_per_node: proposed.max_row(),
        dense_filled: dense.is_some(),
        skyline_filled: skyline.is_some(),
        value_mismatch: mismatch / scale.max(f64::MIN_POSITIVE),
    }
}

/// The counts of `grid` from its row (one `--resume` reused): every number is a cell; a
/// verified row's error is the formats' value mismatch (its count mismatches were 0).
fn counts_of(t: &TableWriter, row: &Row, grid: Grid) -> Option<Counts> {
    let num = |c: &str| t.value(row, c).map(|v| v as usize);
    let how = t.text(row, "how counted")?;
    Some(Counts {
        grid,
        nodes: num("nodes N")?,
        dense: num("dense")?,
        proposed: num("proposed")?,
        with_indices: num("proposed incl. indices")?,
        skyline: num("skyline")?,
        csr_upper: num("CSR (upper) values")?,
        max_per_node: num("max per node")?,
        dense_filled: how.contains(", dense"),
        skyline_filled: how.contains(", skyline"),
        value_mismatch: match row.status {
            Status::Verified { error, .. } => error,
            _ => 0.0,
        },
    })
}

pub fn run(s: &Session, cfg: &Config) -> Result<Vec<Counts>, RunError> {
    let t2 = &cfg.table2;
    let mut t = s.table(
        "table2",
        "Table 2 — stored values of K on 2D (and 3D) node grids, upper triangle",
        columns(),
        t2,
    )?;
    let grids: Vec<(usize, usize)> = t2
        .grids_2d
        .pick(s.mode)
        .iter()
        .map(|&n| (2, n as usize))
        .chain(t2.grids_3d.pick(s.mode).iter().map(|&n| (3, n as usize)))
        .collect();
    t.expect_rows(grids.len());
    let mut all = Vec::new();
    for (dim, n) in grids {
        s.check_interrupt()?;
        let grid = Grid::cube(dim, n).map_err(RunError::algorithm)?;
        let key = format!("{dim}D {}", grid.label());
        // Fig. 3 is drawn from the counts: a reused row's are read back from its cells (a
        // row that lacks one is counted again).
        if let Some(row) = t.reuse(&key)?
            && let Some(c) = counts_of(&t, &row, grid)
        {
            all.push(c);
            continue;
        }
        t.start(&key);
        let c = count_formats(grid, &cfg.problem, t2.dense_alloc_max, t2.skyline_alloc_max);
        t.push(counts_row(&t, &key, t2, (dim, n), grid, &c))?;
        all.push(c);
    }
    t.caption(
        "Counts are read from the structures after assembly by one element loop (bilinear \
         quadrilaterals in 2D, trilinear hexahedra in 3D). Dense = N² as in the paper's \
         first column (both triangles). Verified: proposed and skyline counts equal the stencil \
         geometry's, the longest row is 5 (2D) / 14 (3D), and the proposed, CSR, skyline and \
         dense structures hold the same values (error = count mismatches + max value \
         difference / max |value|).",
    );
    t.finish()?;
    Ok(all)
}

fn columns() -> Vec<Column> {
    vec![
        Column::key("grid").text(),
        Column::key("nodes N").int(),
        Column::ours("dense").int(),
        Column::ours("proposed").int(),
        Column::ours("proposed incl. indices").int(),
        Column::ours("skyline").int(),
        Column::ours("max per node").int(),
        Column::ours("skyline / proposed").fixed(2),
        Column::paper("Table 2 dense").int(),
        Column::paper("Table 2 proposed").int(),
        Column::paper("Table 2 incl. indices").int(),
        Column::paper("Table 2 skyline").int(),
        Column::beyond("CSR (upper) values").int(),
        Column::beyond("how counted").text(),
    ]
}

/// The row of size `n` (`dim`D, on `grid`) from its counts `c`, verified: the counts equal
/// the stencil geometry's, the per-node maximum is the paper's 5 / 14 (grids of 3+ nodes
/// per side), and all formats hold the same values.
fn counts_row(
    t: &TableWriter,
    key: &str,
    t2: &Table2Config,
    (dim, n): (usize, usize),
    grid: Grid,
    c: &Counts,
) -> RowBuilder {
    let paper = t2.paper.iter().find(|p| dim == 2 && p.grid == n);
    // Verification: the counts equal the stencil geometry's, the per-node maximum is the
    // paper's 5 / 14 (grids of 3+ nodes per side), and all formats hold the same values.
    let (want_prop, want_sky) = stencil_counts(&grid);
    let want_max = if n >= 3 {
        [0, 0, 5, 14][dim]
    } else {
        c.max_per_node
    };
    let count_err = (c.proposed.abs_diff(want_prop) + c.skyline.abs_diff(want_sky)) as f64
        + c.max_per_node.abs_diff(want_max) as f64
        + (c.with_indices.abs_diff(2 * c.proposed)) as f64;
    let err = count_err + c.value_mismatch;
    let how = format!(
        "assembled: proposed, CSR{}{}",
        if c.skyline_filled {
            ", skyline"
        } else {
            "; skyline from its profile"
        },
        if c.dense_filled {
            ", dense"
        } else {
            "; dense = N²"
        }
    );
    t.row(key)
        .text("grid", grid.label())
        .num("nodes N", c.nodes as f64)
        .num("dense", c.dense as f64)
        .num("proposed", c.proposed as f64)
        .num("proposed incl. indices", c.with_indices as f64)
        .num("skyline", c.skyline as f64)
        .num("max per node", c.max_per_node as f64)
        .num("skyline / proposed", c.skyline as f64 / c.proposed as f64)
        .opt("Table 2 dense", paper.map(|p| p.dense))
        .opt("Table 2 proposed", paper.map(|p| p.proposed))
        .opt("Table 2 incl. indices", paper.map(|p| p.with_indices))
        .opt("Table 2 skyline", paper.map(|p| p.skyline))
        .num("CSR (upper) values", c.csr_upper as f64)
        .text("how counted", how)
        // Values agree to rounding of sums of ≤ 8 element contributions.
        .verify(err, 1e-12)
}
