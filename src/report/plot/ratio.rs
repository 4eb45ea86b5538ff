//! Ratio charts: one bar per comparison against a line at 1 ([`RatioChart`]).

use std::path::Path;

use plotters::prelude::*;

use super::axis::{builder, log_ticks, mesh_style, range, tick};
use super::{FONT, PlotError, SIZE, render_png, start_render, style};

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
    /// (category, ratio, interval low, interval high).
    pub rows: Vec<(String, f64, f64, f64)>,
}

impl RatioChart {
    const ROW: u32 = 56;

    /// The picture's size: 1200 px wide, a fixed-height row per category.
    pub fn size(&self) -> (u32, u32) {
        (SIZE.0, 280 + Self::ROW * self.rows.len().max(1) as u32)
    }

    /// Renders to a PNG at `path` (atomically).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, self.size(), |buf| self.render(path, buf))
    }

    fn render(&self, path: &Path, buf: &mut [u8]) -> Result<(), PlotError> {
        let perr = start_render(path);
        let ok = |v: f64| v.is_finite() && v > 0.0;
        let rows: Vec<&(String, f64, f64, f64)> = self.rows.iter().filter(|r| ok(r.1)).collect();
        if rows.is_empty() {
            return Err(perr("no finite positive ratio to plot".into()));
        }
        let vals = rows
            .iter()
            .flat_map(|r| [r.1, r.2, r.3])
            .filter(|&v| ok(v))
            .chain([1.0]);
        let (mut lo, mut hi) = range(vals, true);
        // Symmetric about 1, so that "twice as fast" either way is as far from the line.
        let m = (1.0 / lo).max(hi);
        (lo, hi) = (1.0 / m, m);
        let ticks = log_ticks((lo, hi)).map(|t| {
            let mut t: Vec<f64> = t.into_iter().filter(|v| *v >= 1.0).collect();
            let inv: Vec<f64> = t.iter().filter(|v| **v > 1.0).map(|v| 1.0 / v).collect();
            t.extend(inv);
            t.sort_by(f64::total_cmp);
            t
        });
        let n = rows.len();
        let longest = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0) as u32;
        let size = self.size();
        let root = BitMapBackend::with_buffer(buf, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
        let mut b = builder(&root, &self.title, 140, (longest * 12 + 30).min(SIZE.0 / 2));
        let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let catfmt = move |v: &f64| {
            let p = v.round();
            if (v - p).abs() < 1e-6 && p >= 0.0 && (p as usize) < names.len() {
                names[names.len() - 1 - p as usize].clone()
            } else {
                String::new()
            }
        };
        let color = style::color(0);
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(|e| perr(e.to_string()))?;
                mesh_style(
                    chart
                        .configure_mesh()
                        .disable_y_mesh()
                        .y_labels(n)
                        .y_label_formatter(&catfmt)
                        .x_label_formatter(&|v| tick(*v))
                        .x_desc(&self.x_label),
                )
                .draw()
                .map_err(|e| perr(e.to_string()))?;
                let y0 = -0.5;
                let y1 = n as f64 - 0.5;
                chart
                    .draw_series(LineSeries::new(
                        [(1.0, y0), (1.0, y1)],
                        BLACK.stroke_width(2),
                    ))
                    .map_err(|e| perr(e.to_string()))?;
                for (i, r) in rows.iter().enumerate() {
                    let y = (n - 1 - i) as f64;
                    let (wl, wh) = (r.2.min(r.1), r.3.max(r.1));
                    if ok(wl) && ok(wh) && wh > wl {
                        let (a, b) = (chart.backend_coord(&(wl, y)), chart.backend_coord(&(wh, y)));
                        root.draw(&PathElement::new(vec![a, b], color.stroke_width(3)))
                            .map_err(|e| perr(e.to_string()))?;
                        for p in [a, b] {
                            root.draw(&PathElement::new(
                                vec![(p.0, p.1 - 10), (p.0, p.1 + 10)],
                                color.stroke_width(3),
                            ))
                            .map_err(|e| perr(e.to_string()))?;
                        }
                    }
                    let p = chart.backend_coord(&(r.1, y));
                    style::marker(&root, style::Shape::Circle, p, 9, color, true).map_err(&perr)?;
                    root.draw(&Text::new(
                        format!("{:.2}×", r.1),
                        (p.0 + 6, p.1 - 34),
                        (FONT, style::LEGEND).into_font(),
                    ))
                    .map_err(|e| perr(e.to_string()))?;
                }
                // What each side of the line means, under the axis at either end.
                let (l, _) = chart.backend_coord(&(lo, y0));
                let (r, yb) = chart.backend_coord(&(hi, y0));
                let font = (FONT, style::LEGEND)
                    .into_font()
                    .color(&RGBColor(80, 80, 80));
                root.draw(&Text::new(
                    format!("<  {}", self.below),
                    (l, yb + 48),
                    font.clone(),
                ))
                .map_err(|e| perr(e.to_string()))?;
                let text = format!("{}  >", self.above);
                let w = font.font.box_size(&text).map(|s| s.0 as i32).unwrap_or(200);
                root.draw(&Text::new(text, (r - w, yb + 48), font))
                    .map_err(|e| perr(e.to_string()))?;
            }};
        }
        let cr = -0.5..(n as f64 - 0.5);
        match ticks {
            Some(t) => draw!(b.build_cartesian_2d((lo..hi).log_scale().with_key_points(t), cr)),
            None => draw!(b.build_cartesian_2d((lo..hi).log_scale(), cr)),
        }
        root.present().map_err(|e| perr(e.to_string()))?;
        Ok(())
    }
}
