//! Dot charts: one row per category, each series' value a dot with a whisker over its 95 %
//! interval, on a log or a linear axis ([`DotChart`]). For values that span decades, where
//! a bar would mislead: a bar's length means something only from zero on a linear axis
//! (which is why [`super::BarChart`] has no log axis).

use std::path::Path;

use plotters::prelude::*;

use super::axis::{RowAxes, builder, log_ticks, range};
use super::canvas::{Canvas, FONT, PlotError, SIZE, plot_error, render_png};
use super::style;

/// One value with its interval, where it has one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dot {
    pub value: f64,
    pub interval: Option<(f64, f64)>,
}

impl Dot {
    /// A value with its interval, e.g. a table cell's median and 95 % interval.
    pub fn new(value: f64, interval: Option<(f64, f64)>) -> Dot {
        Dot { value, interval }
    }
}

/// One series: a dot (or none) per category.
#[derive(Clone, Debug, PartialEq)]
pub struct DotSeries {
    pub name: String,
    pub dots: Vec<Option<Dot>>,
    /// Drawn as hollow markers: the paper's numbers.
    pub paper: bool,
}

/// Dots with whiskers: one row per category (the first on top), one dot per series in it.
#[derive(Clone, Debug, PartialEq)]
pub struct DotChart {
    pub title: String,
    /// What the categories are (left of them).
    pub category_label: String,
    /// What the values are (under the axis).
    pub value_label: String,
    pub log: bool,
    pub categories: Vec<String>,
    pub series: Vec<DotSeries>,
}

impl DotChart {
    /// The height of a category's row in pixels.
    fn row_height(&self) -> u32 {
        (22 * self.series.len() as u32 + 14).max(44)
    }

    /// The plot's height: the rows, the title and the value axis.
    fn plot_height(&self) -> u32 {
        self.row_height() * self.categories.len().max(1) as u32 + 190
    }

    /// The picture's size: 1200 px wide, a row per category, the legend band under it.
    pub fn size(&self) -> Result<(u32, u32), String> {
        let legend = style::legend_height(&self.keys(), SIZE.0)?;
        Ok((SIZE.0, self.plot_height() + legend))
    }

    /// Renders to a PNG at `path` (atomically).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, || self.size(), |root, _| self.render(path, root))
    }

    fn keys(&self) -> Vec<style::Key> {
        if self.series.len() < 2 {
            return vec![];
        }
        (0..self.series.len())
            .map(|k| style::Key {
                name: self.series[k].name.clone(),
                color: style::color(k),
                swatch: style::Swatch::Marker(style::shape(k), !self.series[k].paper),
            })
            .collect()
    }

    /// Every value and interval end that the axis can show (positive on a log axis).
    fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.series
            .iter()
            .flat_map(|s| s.dots.iter().flatten())
            .flat_map(|d| {
                let (lo, hi) = d.interval.unwrap_or((d.value, d.value));
                [d.value, lo, hi]
            })
            .filter(|v| v.is_finite() && (!self.log || *v > 0.0))
    }

    /// The width of the category labels' area: the longest label, measured.
    fn label_area(&self) -> Result<u32, String> {
        let font = (FONT, style::TICK).into_font();
        let mut w = 0;
        for c in &self.categories {
            w = w.max(style::text_width(&font, c)?);
        }
        Ok((w as u32 + 30).min(SIZE.0 / 2))
    }

    /// Draws on `root`, a white canvas of the picture's size.
    fn render(&self, path: &Path, root: &Canvas) -> Result<(), PlotError> {
        let perr = plot_error(path);
        let vals: Vec<f64> = self.values().collect();
        if vals.is_empty() || self.categories.is_empty() {
            return Err(perr("no finite values to plot".into()));
        }
        let (lo, hi) = range(vals.into_iter(), self.log);
        let y_area = self.label_area().map_err(&perr)?;
        let (top, bottom) = root.split_vertically(self.plot_height());
        let axes = RowAxes {
            rows: self.categories.clone(),
            x: (lo, hi),
            log: self.log,
            ticks: log_ticks((lo, hi), SIZE.0 - 40 - y_area, false),
            x_desc: &self.value_label,
            y_desc: Some(&self.category_label),
            y_mesh: false,
            line_at_one: false,
        };
        let b = builder(&top, &self.title, 70, y_area);
        axes.draw(b, |at| self.draw_dots(&top, at)).map_err(&perr)?;
        style::legend(&bottom, &self.keys()).map_err(&perr)?;
        Ok(())
    }

    /// Every series' whiskers and dots, series in legend order from the top of each row;
    /// `at` maps (value, row position) to pixels.
    fn draw_dots(&self, top: &Canvas, at: &dyn Fn(f64, f64) -> (i32, i32)) -> Result<(), String> {
        let nc = self.categories.len();
        let ns = self.series.len().max(1);
        let step = 0.7 / ns as f64;
        let ok = |v: f64| v.is_finite() && (!self.log || v > 0.0);
        for (k, s) in self.series.iter().enumerate() {
            let color = style::color(k);
            for (i, d) in s.dots.iter().enumerate() {
                let Some(d) = d.filter(|d| ok(d.value)) else {
                    continue;
                };
                let y = (nc - 1 - i) as f64 + ((ns - 1) as f64 / 2.0 - k as f64) * step;
                if let Some((lo, hi)) = d.interval.filter(|&(l, h)| ok(l) && ok(h) && h > l) {
                    style::whisker(top, at(lo, y), at(hi, y), color, false)?;
                }
                style::marker(top, style::shape(k), at(d.value, y), 8, color, !s.paper)?;
            }
        }
        Ok(())
    }
}
