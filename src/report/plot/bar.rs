//! Grouped bar charts ([`BarChart`]).

use std::path::Path;

use plotters::prelude::*;

use super::axis::{builder, mesh_style, range, tick, widest_label};
use super::canvas::{Canvas, PlotError, SIZE, plot_error, render_png};
use super::style;

/// Grouped bars: one group per category, one bar per series (the paper's bar charts), on a
/// linear axis from zero: a bar's length is its value only there, so there is no log axis
/// (values over decades go on a [`super::DotChart`]).
#[derive(Clone, Debug)]
pub struct BarChart {
    pub title: String,
    /// What the categories are (under them; left of them when the chart lies on its side).
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    /// (series name, one value per category).
    pub series: Vec<(String, Vec<Option<f64>>)>,
}

impl BarChart {
    /// Renders to a PNG 1200 px wide at `path`, 800 px high plus the legend (atomically:
    /// the old file stays until the new one is complete).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, || self.size(), |root, _| self.render(path, root))
    }

    /// The picture's size: the plot and the legend band under it (whose height depends on
    /// the measured width of the names, hence the error).
    pub fn size(&self) -> Result<(u32, u32), String> {
        Ok((SIZE.0, SIZE.1 + style::legend_height(&self.keys(), SIZE.0)?))
    }

    fn keys(&self) -> Vec<style::Key> {
        if self.series.len() < 2 {
            return vec![];
        }
        self.series
            .iter()
            .enumerate()
            .map(|(k, (name, _))| style::Key {
                name: name.clone(),
                color: style::color(k),
                swatch: style::Swatch::Bar,
            })
            .collect()
    }

    /// Draws on `root`, a white canvas of the picture's size.
    fn render(&self, path: &Path, root: &Canvas) -> Result<(), PlotError> {
        let perr = plot_error(path);
        let Some((lo, hi)) = self.value_range() else {
            return Err(perr("no finite values to plot".into()));
        };
        let nc = self.categories.len();
        let (horizontal, widest) = self.lies_on_side();
        let (top, bottom) = root.split_vertically(SIZE.1);
        let y_area = if horizontal {
            (widest + 50).min(SIZE.0 / 2)
        } else {
            110
        };
        let mut b = builder(&top, &self.title, 70, y_area);
        let cats = self.categories.clone();
        let catfmt = move |v: &f64| {
            let p = v.round();
            if (v - p).abs() < 1e-6 && p >= 0.0 && (p as usize) < cats.len() {
                let i = p as usize;
                cats[if horizontal { cats.len() - 1 - i } else { i }].clone()
            } else {
                String::new()
            }
        };
        let valfmt = |v: &f64| tick(*v);
        macro_rules! draw {
            ($chart:expr, $base:expr) => {{
                let mut chart = $chart.map_err(|e| perr(e.to_string()))?;
                let mut mesh = chart.configure_mesh();
                if horizontal {
                    mesh.disable_y_mesh()
                        .y_labels(nc)
                        .y_label_formatter(&catfmt)
                        .x_label_formatter(&valfmt)
                        .x_desc(&self.y_label)
                        .y_desc(&self.x_label);
                } else {
                    mesh.disable_x_mesh()
                        .x_labels(nc)
                        .x_label_formatter(&catfmt)
                        .y_label_formatter(&valfmt)
                        .y_desc(&self.y_label)
                        .x_desc(&self.x_label);
                }
                mesh_style(&mut mesh)
                    .draw()
                    .map_err(|e| perr(e.to_string()))?;
                for k in 0..self.series.len() {
                    let color = style::color(k);
                    let bars = self
                        .bar_corners(k, horizontal, $base)
                        .into_iter()
                        .map(|corners| Rectangle::new(corners, color.filled()));
                    chart.draw_series(bars).map_err(|e| perr(e.to_string()))?;
                }
            }};
        }
        let cr = -0.5..(nc as f64 - 0.5);
        if horizontal {
            draw!(b.build_cartesian_2d(lo..hi, cr), 0.0)
        } else {
            draw!(b.build_cartesian_2d(cr, lo..hi), 0.0)
        }
        style::legend(&bottom, &self.keys()).map_err(&perr)?;
        Ok(())
    }

    /// The value axis: every finite value, and zero (where every bar starts); `None` when
    /// there is nothing to plot.
    fn value_range(&self) -> Option<(f64, f64)> {
        let vals: Vec<f64> = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flatten().copied())
            .filter(|v| v.is_finite())
            .collect();
        if vals.is_empty() || self.categories.is_empty() {
            return None;
        }
        // The margin only on the side away from zero: one-signed bars stand on the axis.
        let (lo, hi) = range(vals.iter().copied().chain([0.0]), false);
        let lo = if vals.iter().all(|v| *v >= 0.0) {
            0.0
        } else {
            lo
        };
        let hi = if vals.iter().all(|v| *v <= 0.0) {
            0.0
        } else {
            hi
        };
        Some((lo, hi))
    }

    /// Whether the chart lies on its side, and the widest category name (pixels, as drawn in
    /// the tick font: [`widest_label`]): names that do not fit side by side under the bars (with
    /// 10 px between neighbours) turn it, bars left to right, one name per row in an axis area
    /// as wide as the widest.
    fn lies_on_side(&self) -> (bool, u32) {
        let nc = self.categories.len().max(1) as u32;
        let widest = widest_label(self.categories.iter().map(String::as_str));
        (widest + 10 > (SIZE.0 - 150) / nc, widest)
    }

    /// The corners (in chart coordinates) of series `k`'s bars from `base`, one per category
    /// with a value that fits the axis.
    fn bar_corners(&self, k: usize, horizontal: bool, base: f64) -> Vec<[(f64, f64); 2]> {
        let nc = self.categories.len();
        let ns = self.series.len().max(1) as f64;
        // Category i sits at position i (bottom to top when horizontal: the first on top).
        let at = |i: usize| {
            if horizontal {
                (nc - 1 - i) as f64
            } else {
                i as f64
            }
        };
        let w = 0.8 / ns;
        self.series[k]
            .1
            .iter()
            .enumerate()
            .filter_map(|(i, y)| {
                let y = (*y)?;
                if !y.is_finite() {
                    return None;
                }
                // Series in legend order: left to right, or top to bottom.
                let slot = if horizontal { ns as usize - 1 - k } else { k };
                let c0 = at(i) - 0.4 + slot as f64 * w;
                let c1 = c0 + w * 0.95;
                Some(if horizontal {
                    [(base, c0), (y, c1)]
                } else {
                    [(c0, base), (c1, y)]
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bar starts at zero, on the axis: the value range always holds 0, for positive,
    /// negative and mixed values alike.
    #[test]
    fn bars_start_at_zero_on_a_linear_axis() {
        for vals in [[3.0, 70.0], [-4.0, -1.0], [-2.0, 5.0]] {
            let c = BarChart {
                title: "t".into(),
                x_label: "x".into(),
                y_label: "y".into(),
                categories: vec!["a".into(), "b".into()],
                series: vec![("s".into(), vals.iter().map(|v| Some(*v)).collect())],
            };
            let (lo, hi) = c.value_range().expect("values");
            assert!(lo <= 0.0 && hi >= 0.0, "{vals:?}: {lo}..{hi}");
            assert!(lo <= vals[0] && hi >= vals[1]);
        }
    }

    /// Names that fit side by side under the bars keep the chart upright; names wider than a
    /// category's share of the width turn it on its side, with an axis area as wide as the
    /// widest name as drawn (not an estimate per character).
    #[test]
    fn the_chart_lies_on_its_side_only_where_its_names_do_not_fit() {
        let chart = |names: &[&str]| BarChart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            categories: names.iter().map(|n| n.to_string()).collect(),
            series: vec![("s".into(), names.iter().map(|_| Some(1.0)).collect())],
        };
        let (side, w) = chart(&["I1 copy", "I2 switch", "I3 copy", "I4 switch"]).lies_on_side();
        assert!(!side, "{w} px");
        let long = "Bi-CG fp32 compute (fused), 128×128×128";
        let (side, w) = chart(&[long; 6]).lies_on_side();
        assert!(side, "{w} px");
        assert_eq!(w, widest_label([long].into_iter()));
        // The 12 px a character of the old estimate would have turned this one too.
        let (side, w) = chart(&["cyclic reduction (switch), 1024"; 3]).lies_on_side();
        assert!(!side && 31 * 12 + 10 > (SIZE.0 - 150) / 3, "{w} px");
    }
}
