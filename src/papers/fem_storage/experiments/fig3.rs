//! Fig. 3: the ratio of skyline to proposed stored values against the node count, from
//! Table 2's counts and from the paper's Table 2; beyond the paper the same in bytes (values
//! and 32-bit indices), as a figure and a table.

use super::config::Table2Config;
use super::table2::Counts;
use crate::report::{Column, LineChart, Series};
use crate::runner::{RunError, Session};

/// Bytes of each format with 32-bit indices and `value_bytes`-byte values.
pub fn format_bytes(c: &Counts, value_bytes: usize) -> (usize, usize, usize, usize) {
    let n = c.nodes;
    let proposed = c.proposed * (value_bytes + 4) + 4 * n; // values, indices, accmSize
    let skyline = c.skyline * value_bytes + 4 * (n + 1); // s, p
    let csr = c.csr_upper * (value_bytes + 4) + 8 * n; // A, J, LEN, PTR
    let dense = c.dense * value_bytes;
    (proposed, skyline, csr, dense)
}

pub fn run(s: &Session, counts: &[Counts], t2: &Table2Config) -> Result<(), RunError> {
    ratio_chart(s, counts, t2)?;
    bytes_chart(s, counts)?;
    bytes_table(s, counts, t2)
}

/// The `(N, f(counts))` points of the `dim`D grids.
fn series(counts: &[Counts], dim: usize, f: &dyn Fn(&Counts) -> f64) -> Vec<(f64, f64)> {
    counts
        .iter()
        .filter(|c| c.grid.dim() == dim)
        .map(|c| (c.nodes as f64, f(c)))
        .collect()
}

/// Fig. 3 itself: skyline / proposed stored values, ours and the paper's.
fn ratio_chart(s: &Session, counts: &[Counts], t2: &Table2Config) -> Result<(), RunError> {
    let series = |dim: usize, f: &dyn Fn(&Counts) -> f64| series(counts, dim, f);
    let ratio = |c: &Counts| c.skyline as f64 / c.proposed as f64;
    let paper: Vec<(f64, f64)> = t2
        .paper
        .iter()
        .map(|p| ((p.grid * p.grid) as f64, p.skyline / p.proposed))
        .collect();
    let paper_idx: Vec<(f64, f64)> = t2
        .paper
        .iter()
        .map(|p| ((p.grid * p.grid) as f64, p.skyline / p.with_indices))
        .collect();
    let chart = LineChart::new(
        "Fig. 3 — skyline / proposed stored values",
        "nodes N",
        "skyline / proposed",
    )
    .log_x()
    .log_y()
    .series(Series::ours("2D grids", series(2, &ratio)))
    .series(Series::ours("3D grids", series(3, &ratio)))
    .series(Series::paper("paper, 2D (Table 2)", paper))
    .series(Series::paper(
        "paper, 2D, proposed incl. indices",
        paper_idx,
    ));
    s.line_chart(
        "fig3.png",
        &chart,
        "Fig. 3: ratio of skyline to proposed stored values versus node count (ours: counted \
         from the assembled structures; paper: from its Table 2, whose 16×16 row is a misprint).",
    )?;
    Ok(())
}

/// Fig. 3 in bytes: the same ratio with 32-bit indices, f32 and f64 values.
fn bytes_chart(s: &Session, counts: &[Counts]) -> Result<(), RunError> {
    let series = |dim: usize, f: &dyn Fn(&Counts) -> f64| series(counts, dim, f);
    let bytes_ratio = |vb: usize| {
        move |c: &Counts| {
            let (p, sk, _, _) = format_bytes(c, vb);
            sk as f64 / p as f64
        }
    };
    let chart = LineChart::new(
        "Fig. 3 in bytes — skyline / proposed",
        "nodes N",
        "skyline bytes / proposed bytes",
    )
    .log_x()
    .log_y()
    .series(Series::ours("2D, f32 values", series(2, &bytes_ratio(4))))
    .series(Series::ours("2D, f64 values", series(2, &bytes_ratio(8))))
    .series(Series::ours("3D, f32 values", series(3, &bytes_ratio(4))))
    .series(Series::ours("3D, f64 values", series(3, &bytes_ratio(8))));
    s.line_chart(
        "fig3_bytes.png",
        &chart,
        "Fig. 3 in bytes: proposed = values + 32-bit column indices + accmSize (4 B/row); \
         skyline = values + pointer array (4 B × (N+1)).",
    )?;
    Ok(())
}

/// The bytes of every format as a table.
fn bytes_table(s: &Session, counts: &[Counts], t2: &Table2Config) -> Result<(), RunError> {
    let mut t = s.table(
        "fig3_bytes",
        "Fig. 3 in bytes — storage of K (upper triangle) with 32-bit indices",
        vec![
            Column::key("grid").text(),
            Column::key("nodes N").int(),
            Column::ours("proposed f32").unit("MB").fixed(3),
            Column::ours("skyline f32").unit("MB").fixed(3),
            Column::beyond("CSR f32").unit("MB").fixed(3),
            Column::ours("dense f32").unit("MB").fixed(1),
            Column::ours("skyline/proposed f32").fixed(2),
            Column::ours("skyline/proposed f64").fixed(2),
        ],
        t2,
    )?;
    for c in counts {
        let key = format!("{}D {}", c.grid.dim(), c.grid.label());
        let (p, sk, csr, d) = format_bytes(c, 4);
        let (p8, sk8, _, _) = format_bytes(c, 8);
        let row = t
            .row(&key)
            .text("grid", c.grid.label())
            .num("nodes N", c.nodes as f64)
            .num("proposed f32", p as f64 / 1e6)
            .num("skyline f32", sk as f64 / 1e6)
            .num("CSR f32", csr as f64 / 1e6)
            .num("dense f32", d as f64 / 1e6)
            .num("skyline/proposed f32", sk as f64 / p as f64)
            .num("skyline/proposed f64", sk8 as f64 / p8 as f64)
            .unchecked("bytes computed from the verified counts of Table 2");
        t.push(row)?;
    }
    t.finish()?;
    Ok(())
}
