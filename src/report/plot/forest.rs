//! Forest plots: one row per claim, its cases as dots with whiskers over their 95 %
//! intervals, each oriented so that the claim's side of its rule is right of the line at 1
//! ([`ForestChart`]); the paper's own value as a hollow diamond, the row coloured by its
//! verdict, the verdict written at the row's right end.

use std::path::Path;

use plotters::prelude::*;

use super::axis::{RowAxes, builder, label_area, sides, symmetric_log_axis};
use super::canvas::{Canvas, FONT, PlotError, SIZE, plot_error, save_sized};
use super::style;

/// One claim's row.
#[derive(Clone, Debug)]
pub struct ForestRow {
    /// "lu L1 switching halves the time".
    pub label: String,
    /// The verdict as written at the row's end, and its colour (RGB).
    pub verdict: String,
    pub color: (u8, u8, u8),
    /// Each case: (value, interval low, interval high), already divided by the rule's
    /// threshold and oriented (> 1 on the claim's side).
    pub cases: Vec<(f64, f64, f64)>,
    /// The paper's values on the same scale.
    pub paper: Vec<f64>,
}

/// The claims at a glance.
#[derive(Clone, Debug)]
pub struct ForestChart {
    pub title: String,
    pub x_label: String,
    pub rows: Vec<ForestRow>,
}

fn ok(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

impl ForestChart {
    const ROW: u32 = 46;

    /// The picture's size: a fixed-height row per claim, wide enough for the labels.
    pub fn size(&self) -> (u32, u32) {
        (
            SIZE.0.max(self.label_width() + 900),
            300 + Self::ROW * self.rows.len().max(1) as u32,
        )
    }

    /// Pixels for the row labels: the longest label whole.
    fn label_width(&self) -> u32 {
        label_area(self.rows.iter().map(|r| r.label.as_str()))
    }

    /// Renders to a PNG at `path` (atomically).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        save_sized(self, path, Self::size, Self::render)
    }

    /// The axis: every value, interval end, paper value and 1, symmetric about 1.
    fn axis(&self) -> (f64, f64, Option<Vec<f64>>) {
        let vals = self
            .rows
            .iter()
            .flat_map(|r| {
                r.cases
                    .iter()
                    .flat_map(|c| [c.0, c.1, c.2])
                    .chain(r.paper.iter().copied())
            })
            .filter(|&v| ok(v))
            .chain([1.0, 2.0]);
        // The ratio chart's axis, its halves at least 280 px (half the plot's least width).
        symmetric_log_axis(vals, 560)
    }

    /// Draws on `root`, a white canvas of `size` pixels ([`super::render_png`] computed it once).
    fn render(&self, path: &Path, root: &Canvas, size: (u32, u32)) -> Result<(), PlotError> {
        let perr = plot_error(path);
        if self.rows.is_empty() {
            return Err(perr("no claim to plot".into()));
        }
        let (lo, hi, ticks) = self.axis();
        let (plot, side) = root.split_horizontally(size.0 - 260);
        let axes = RowAxes {
            rows: self.rows.iter().map(|r| r.label.clone()).collect(),
            x: (lo, hi),
            log: true,
            ticks,
            x_desc: &self.x_label,
            y_desc: None,
            y_mesh: true,
            line_at_one: true,
        };
        let b = builder(&plot, &self.title, 140, self.label_width());
        axes.draw(b, |at| {
            self.draw_rows(root, at)?;
            let y0 = -0.5;
            let (l, _) = at(lo, y0);
            let (r, yb) = at(hi, y0);
            key(root, (l, r), yb)?;
            let right = side.get_base_pixel().0 + 10;
            self.draw_verdicts(root, right, at)
        })
        .map_err(&perr)
    }

    /// Each row's paper diamonds, then its cases (whiskers and dots, spread a little apart
    /// vertically so that they do not hide each other), top row first.
    fn draw_rows(&self, root: &Canvas, at: &dyn Fn(f64, f64) -> (i32, i32)) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        let n = self.rows.len();
        for (i, r) in self.rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let color = RGBColor(r.color.0, r.color.1, r.color.2);
            // The paper's diamonds first, so that ours (drawn over them) stay visible.
            for &p in r.paper.iter().filter(|&&p| ok(p)) {
                style::marker(root, style::Shape::Diamond, at(p, y), 13, BLACK, false)?;
            }
            let k = r.cases.len().max(1) as f64;
            for (j, c) in r.cases.iter().enumerate() {
                let yj = y + 0.3 * ((j as f64 + 0.5) / k - 0.5);
                let (wl, wh) = (c.1.min(c.0), c.2.max(c.0));
                if ok(wl) && ok(wh) && wh > wl {
                    root.draw(&PathElement::new(
                        vec![at(wl, yj), at(wh, yj)],
                        color.stroke_width(3),
                    ))
                    .map_err(e)?;
                }
                if ok(c.0) {
                    style::marker(root, style::Shape::Circle, at(c.0, yj), 7, color, true)?;
                }
            }
        }
        Ok(())
    }

    /// The verdict of each row, in its colour, right of the plot.
    fn draw_verdicts(
        &self,
        root: &Canvas,
        x: i32,
        at: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> Result<(), String> {
        let n = self.rows.len();
        for (i, r) in self.rows.iter().enumerate() {
            let (_, y) = at(1.0, (n - 1 - i) as f64);
            let font = (FONT, style::LEGEND)
                .into_font()
                .color(&RGBColor(r.color.0, r.color.1, r.color.2));
            root.draw(&Text::new(r.verdict.clone(), (x, y - 11), font))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// What each side of the line means, and the key of the marks, under the axis.
fn key(root: &Canvas, (l, r): (i32, i32), yb: i32) -> Result<(), String> {
    let font = sides(root, ("against the claim", "the claim's side"), (l, r), yb)?;
    let key = "dots: ours with 95 % intervals, one per case; hollow diamonds: the paper's value";
    let w = style::text_width(&font.font, key)?;
    root.draw(&Text::new(key, ((l + r - w) / 2, yb + 84), font))
        .map_err(|e| e.to_string())
}
