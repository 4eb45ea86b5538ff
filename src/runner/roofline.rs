//! Each paper's kernels against the device's limits: the `roofline` table and figure.
//!
//! Every timed GPU row that records its work ([`RowBuilder::work`](crate::report::RowBuilder::work))
//! is read against the bound of [`crate::bench::bound`]. Per kernel, the row with the most work
//! (its largest size, where fixed costs weigh least) stands for it: one table row and one
//! point of the roofline (attained GFLOPS `F / t` against operational intensity `F / B`).
//! A kernel that does no arithmetic (a copy, a gather) is in the table but cannot be a point
//! on a log–log roofline.

use serde::Serialize;

use super::error::RunError;
use super::session::handle::Session;
use super::session::writer::TableWriter;
use crate::bench::{Kind, Pipeline, RooflinePoint};
use crate::report::{Attained, Column, Fmt, RowBuilder, with_bound_columns};

pub const TABLE: &str = "roofline";
pub const FIGURE: &str = "roofline.png";

/// The kernel's representative row: the one with the most flops, then the most bytes, among
/// its rows that are not tuning candidates left unchosen.
fn representatives(
    rows: Vec<(String, String, Attained, Option<f64>)>,
) -> Vec<(String, String, Attained)> {
    let mut best: Vec<(String, String, Attained)> = Vec::new();
    // A tuning candidate that was not chosen never stands for its kernel: the chosen one
    // (same work, so "the most work" alone would pick the sweep's first) does.
    for (t, k, a, _) in rows.into_iter().filter(|r| !r.2.not_chosen) {
        let r = (t, k, a);
        let size = |a: &Attained| (a.work.flops32 + a.work.flops64, a.work.bytes.total());
        match best.iter_mut().find(|b| b.2.kernel == r.2.kernel) {
            Some(b) => {
                if size(&r.2).partial_cmp(&size(&b.2)) == Some(std::cmp::Ordering::Greater) {
                    *b = r;
                }
            }
            None => best.push(r),
        }
    }
    best
}

/// The table row of a kernel's representative row `a` (row `key` of table `table`): its
/// time, GFLOPS, GB/s, intensity and work (the bound columns follow from the work).
fn kernel_row(t: &TableWriter, table: &str, key: &str, a: &Attained) -> RowBuilder {
    let flops = a.work.flops32 + a.work.flops64;
    let secs = a.ms * 1e-3;
    t.row(a.kernel.clone())
        .text("kernel", a.kernel.clone())
        .text("row", format!("{table} / {key}"))
        .text(
            "pipeline",
            match a.work.kind {
                Kind::Fragment => "legacy (fragment)",
                Kind::Compute => "compute",
            },
        )
        .num("time", a.ms)
        .opt("GFLOPS", (flops > 0.0).then(|| flops / secs / 1e9))
        .opt(
            "GB/s",
            (a.work.bytes.total() > 0.0).then(|| a.work.bytes.total() / secs / 1e9),
        )
        .opt(
            "flop/byte",
            (flops > 0.0 && a.work.bytes.total() > 0.0).then(|| flops / a.work.bytes.total()),
        )
        .work(a.kernel.clone(), a.work, a.ms)
        .unchecked(format!("derived from {table} / {key}, verified there"))
}

/// The kernel's point on the roofline, when it does arithmetic, moves bytes and took time.
fn point(a: &Attained) -> Option<RooflinePoint> {
    let flops = a.work.flops32 + a.work.flops64;
    let secs = a.ms * 1e-3;
    if flops > 0.0 && a.work.bytes.total() > 0.0 && a.ms > 0.0 {
        Some(RooflinePoint {
            name: a.kernel.clone(),
            intensity: flops / a.work.bytes.total(),
            gflops: flops / secs / 1e9,
            pipeline: match a.work.kind {
                Kind::Fragment => Pipeline::Legacy,
                Kind::Compute => Pipeline::Compute,
            },
        })
    } else {
        None
    }
}

#[derive(Serialize)]
struct Config<'a> {
    rows: &'a [(String, String, Attained)],
}

impl Session {
    /// Writes the paper's `roofline` table, and `roofline.png` when the device's limits are
    /// known and some kernel does arithmetic; nothing when no row recorded its work.
    pub(crate) fn roofline(&self) -> Result<(), RunError> {
        let kernels = representatives(self.attained());
        if kernels.is_empty() {
            return Ok(());
        }
        let columns = with_bound_columns(vec![
            Column::key("kernel"),
            Column::key("row"),
            Column::key("pipeline"),
            Column::ours("time").unit("ms"),
            Column::ours("GFLOPS").fixed(2),
            Column::ours("GB/s").fixed(2),
            Column::ours("flop/byte").fmt(Fmt::Sig(3)),
        ]);
        let mut t = self.table(
            TABLE,
            "Each kernel against this device's limits (its largest timed row)",
            columns,
            &Config { rows: &kernels },
        )?;
        let profile = self.profile();
        t.caption(match &profile {
            Some(p) => format!(
                "Limits from `bench` ({} mode, {}; `device.json` beside `REPORT.md`). The bound \
                 is the largest of bytes / bandwidth, flops / peak and passes × fixed cost of \
                 the kernel's pipeline; 'of bound' = bound / measured time (1 = at the limit). \
                 Work is counted from each algorithm (see the table it comes from).",
                p.mode, p.date
            ),
            None => "This run had no device profile (`bench`), so no bound.".to_string(),
        });
        let mut points = Vec::new();
        for (table, key, a) in &kernels {
            // Every source row reused (same times): the same configuration, so the row too.
            let reused = t.reuse(&a.kernel)?.is_some();
            let row = kernel_row(&t, table, key, a);
            if !reused {
                t.push(row)?;
            }
            points.extend(point(a));
        }
        t.finish()?;
        if let (Some(p), false) = (profile, points.is_empty()) {
            let title = format!("{}: kernels on {}", self.paper.key, p.device.short());
            crate::bench::roofline(&p, &title, &points, &self.dir().join(FIGURE))
                .map_err(RunError::algorithm)?;
            self.add_plot(
                FIGURE,
                "Roofline: attained GFLOPS against operational intensity (flop per byte \
                 moved), log–log; the lines are this device's measured roofs (`bench`: best \
                 bandwidth × intensity, capped by the FMA peak), legacy (fragment passes) and \
                 compute, fp32 solid, fp64 dashed; one point per kernel (circles legacy, \
                 triangles compute), from the `roofline` table.",
            );
        }
        Ok(())
    }
}
