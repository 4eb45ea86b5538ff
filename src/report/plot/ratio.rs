//! Ratio charts: one bar per comparison against a line at 1 ([`RatioChart`]).

use std::path::Path;

use plotters::prelude::*;

use super::axis::{RowAxes, builder, label_area, sides, symmetric_log_axis};
use super::canvas::{Canvas, FONT, PlotError, SIZE, plot_error, save_sized};
use super::style;

/// A dot plot of ratios with their intervals: one row per category, the ratio as a dot on a
/// log axis with a whisker over its interval, and a line at 1 (the two sides equal). For
/// comparisons such as legacy / compute time, where bars from an arbitrary baseline would
/// overstate the differences.
#[derive(Clone, Debug)]
pub struct RatioChart {
    pub title: String,
    /// What the ratio is, e.g. "legacy time / compute time".
    pub x_label: String,
    /// What a ratio below and above 1 mean, written under the axis at either end.
    pub below: String,
    pub above: String,
    pub rows: Vec<RatioRow>,
}

/// One row of a [`RatioChart`].
#[derive(Clone, Debug)]
pub struct RatioRow {
    /// The category.
    pub label: String,
    pub ratio: f64,
    /// The interval's ends (the ratio itself for a ratio without one).
    pub lo: f64,
    pub hi: f64,
    /// Whether the interval covers 95 % ([`crate::stats::Estimate::has_ci`]); else the dot is
    /// hollow and its label says why, as a table marks such a cell `*`.
    pub covered: bool,
}

impl RatioChart {
    const ROW: u32 = 56;

    /// The picture's size: the labels whole and a plot area of 3/4 of `SIZE`'s width
    /// beside them (at half, long labels left the axis a third of the picture), a
    /// fixed-height row per category.
    pub fn size(&self) -> (u32, u32) {
        (
            SIZE.0.max(self.label_width() + SIZE.0 * 3 / 4),
            280 + Self::ROW * self.rows.len().max(1) as u32,
        )
    }

    /// Pixels for the row labels: the longest label whole (the chart widens beyond [`SIZE`]
    /// rather than cut a label).
    fn label_width(&self) -> u32 {
        label_area(self.rows.iter().map(|r| r.label.as_str()))
    }

    /// Renders to a PNG at `path` (atomically).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        save_sized(self, path, Self::size, Self::render)
    }

    /// Draws on `root`, a white canvas of `size` pixels ([`super::render_png`] computed it once).
    fn render(&self, path: &Path, root: &Canvas, size: (u32, u32)) -> Result<(), PlotError> {
        let perr = plot_error(path);
        let rows: Vec<&RatioRow> = self.rows.iter().filter(|r| ok(r.ratio)).collect();
        if rows.is_empty() {
            return Err(perr("no finite positive ratio to plot".into()));
        }
        let (lo, hi, ticks) = symmetric_axis(&rows, size.0 - self.label_width() - 40);
        let axes = RowAxes {
            rows: rows.iter().map(|r| r.label.clone()).collect(),
            x: (lo, hi),
            log: true,
            ticks,
            x_desc: &self.x_label,
            y_desc: None,
            y_mesh: false,
            line_at_one: true,
        };
        let b = builder(root, &self.title, 140, self.label_width());
        axes.draw(b, |at| {
            let y0 = -0.5;
            draw_rows(root, &rows, at, at(hi, y0).0)?;
            // What each side of the line means, under the axis at either end.
            let (l, _) = at(lo, y0);
            let (r, yb) = at(hi, y0);
            sides(root, (&self.below, &self.above), (l, r), yb).map(|_| ())
        })
        .map_err(&perr)
    }
}

/// Whether a ratio or an interval end can stand on the log axis.
fn ok(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

/// The ratio axis: every ratio, interval end and 1, made symmetric about 1 (so that "twice
/// as fast" either way is as far from the line), with ticks chosen on each half alone (each
/// half of the axis long), so that both sides read in round numbers (0.2, 0.5 | 2, 5) and
/// no labels collide.
fn symmetric_axis(rows: &[&RatioRow], len: u32) -> (f64, f64, Option<Vec<f64>>) {
    let vals = rows
        .iter()
        .flat_map(|r| [r.ratio, r.lo, r.hi])
        .filter(|&v| ok(v))
        .chain([1.0]);
    symmetric_log_axis(vals, len)
}

/// Each row's whisker over its interval, its dot and its "1.23×" label, top row first; `at`
/// maps (ratio, row position) to pixels; a row without a 95 % interval gets a hollow dot
/// ([`label`] says why). A label that would pass `right` (the axis's end) ends there
/// instead, so that no label is cut at the picture's edge.
fn draw_rows(
    root: &Canvas,
    rows: &[&RatioRow],
    at: &dyn Fn(f64, f64) -> (i32, i32),
    right: i32,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    let color = style::color(0);
    let n = rows.len();
    for (i, r) in rows.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let (wl, wh) = (r.lo.min(r.ratio), r.hi.max(r.ratio));
        let interval = ok(wl) && ok(wh) && wh > wl;
        if interval {
            style::whisker(root, at(wl, y), at(wh, y), color, false)?;
        }
        let p = at(r.ratio, y);
        style::marker(
            root,
            style::Shape::Circle,
            p,
            9,
            color,
            interval && r.covered,
        )?;
        let font = (FONT, style::LEGEND).into_font();
        let text = label(r, interval);
        let (w, h) = style::text_size(&font, &text)?;
        let x = (p.0 + 6).min(right - w);
        // On a white box: a label that reaches across the line at 1 interrupts the line
        // instead of being struck through by it.
        let top = p.1 - 34;
        root.draw(&Rectangle::new(
            [(x - 3, top - 8), (x + w + 3, top + h + 2)],
            WHITE.filled(),
        ))
        .map_err(e)?;
        root.draw(&Text::new(text, (x, top), font)).map_err(e)?;
    }
    Ok(())
}

/// A dot's label: the ratio, and where it has no 95 % interval, why — none at all (one run
/// each side) or one of fewer runs than a 95 % interval needs (a table's `*`).
fn label(r: &RatioRow, interval: bool) -> String {
    match (interval, r.covered) {
        (true, true) => format!("{:.2}×", r.ratio),
        (true, false) => format!("{:.2}×* (too few runs for a 95 % interval)", r.ratio),
        (false, _) => format!("{:.2}× (no interval: one run)", r.ratio),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dot_without_a_95_percent_interval_says_so() {
        let row = |lo: f64, hi: f64, covered: bool| RatioRow {
            label: "a".into(),
            ratio: 2.0,
            lo,
            hi,
            covered,
        };
        assert_eq!(label(&row(1.5, 2.5, true), true), "2.00×");
        assert!(label(&row(1.5, 2.5, false), true).contains("too few runs"));
        assert!(label(&row(2.0, 2.0, false), false).contains("one run"));
    }
}
