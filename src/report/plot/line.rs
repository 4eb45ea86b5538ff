//! Line charts: curves of ours and of the paper over a linear or log axis ([`LineChart`]).

use std::path::Path;

use plotters::prelude::*;

use super::axis::{builder, log_ticks, mesh_style, range, thin_ticks, tick};
use super::canvas::{Canvas, PlotError, SIZE, plot_error, render_png};
use super::style;

/// The plot's width and height in pixels (about: the picture less the margins, the title
/// and the label areas), for choosing ticks whose labels keep apart.
const PLOT_W: u32 = SIZE.0 - 40 - 110;
const PLOT_H: u32 = SIZE.1 - 40 - 70 - 50;

/// A measured point: x, y and y's 95 % interval where it has one.
pub type MeasuredPoint = (f64, f64, Option<(f64, f64)>);

/// One curve.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Drawn dashed with hollow markers: the paper's numbers.
    pub paper: bool,
    /// Each point's 95 % interval in y (empty, or one per point), drawn as a whisker.
    pub intervals: Vec<Option<(f64, f64)>>,
    /// Drawn first, wide and pale, so that a curve drawn over it leaves it showing at both
    /// edges (two curves that coincide over much of their length, e.g. fp32 under fp64).
    pub under: bool,
}

impl Series {
    pub fn ours(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            paper: false,
            intervals: vec![],
            under: false,
        }
    }
    pub fn paper(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            paper: true,
            ..Series::ours(name, points)
        }
    }
    /// Ours, measured: each point with its interval (`(x, y, Some((lo, hi)))`), as
    /// [`crate::report::Table::measured_series`] gives them.
    pub fn measured(name: impl Into<String>, points: Vec<MeasuredPoint>) -> Series {
        Series {
            intervals: points.iter().map(|p| p.2).collect(),
            ..Series::ours(name, points.iter().map(|p| (p.0, p.1)).collect())
        }
    }
    /// Drawn under the others, wide and pale ([`Series::under`]).
    pub fn under(mut self) -> Series {
        self.under = true;
        self
    }
}

/// A line chart with optional log axes; its legend is a band under the plot.
#[derive(Clone, Debug)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    /// The y axis's range, where the data's own is not the one to show (a zero baseline, or
    /// one scale shared by two charts meant to be compared).
    pub y_range: Option<(f64, f64)>,
    pub series: Vec<Series>,
}

impl LineChart {
    pub fn new(title: &str, x_label: &str, y_label: &str) -> LineChart {
        LineChart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: false,
            y_range: None,
            series: vec![],
        }
    }
    pub fn log_x(mut self) -> Self {
        self.log_x = true;
        self
    }
    pub fn log_y(mut self) -> Self {
        self.log_y = true;
        self
    }
    /// Shows y over `lo..hi` (widened to every point).
    pub fn y_range(mut self, lo: f64, hi: f64) -> Self {
        self.y_range = Some((lo, hi));
        self
    }
    /// A linear y axis from zero, so that differences are seen at their true size.
    pub fn y_from_zero(self) -> Self {
        let hi = self.data_range(false).map_or(1.0, |(_, y)| y.1);
        self.y_range(0.0, hi)
    }
    pub fn series(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    /// The (x, y) ranges of the plottable points with their margins, or none.
    pub fn data_range(&self, log_y: bool) -> Option<((f64, f64), (f64, f64))> {
        let pts: Vec<(f64, f64)> = self
            .series
            .iter()
            .flat_map(|s| {
                let ends = s.points.iter().zip(&s.intervals).flat_map(|(p, iv)| {
                    iv.iter().flat_map(move |&(lo, hi)| [(p.0, lo), (p.0, hi)])
                });
                s.points.iter().copied().chain(ends)
            })
            .filter(|&p| self.plottable(p))
            .collect();
        (!pts.is_empty()).then(|| {
            (
                range(pts.iter().map(|p| p.0), self.log_x),
                range(pts.iter().map(|p| p.1), log_y),
            )
        })
    }

    /// Renders to a PNG 1200 px wide at `path`, 800 px high plus the legend (atomically: the
    /// old file stays until the new one is complete).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, || self.size(), |root, _| self.render(path, root))
    }

    /// The picture's size: the plot and the legend band under it (whose height depends on
    /// the measured width of the names, hence the error).
    pub fn size(&self) -> Result<(u32, u32), String> {
        Ok((SIZE.0, SIZE.1 + style::legend_height(&self.keys(), SIZE.0)?))
    }

    /// Series `i`'s colour, marker and dash: ours solid with filled markers, the paper's
    /// dashed with hollow ones.
    fn look(&self, i: usize) -> (RGBColor, style::Shape, style::Dash) {
        let s = &self.series[i];
        (
            style::color(i),
            style::shape(i),
            if s.paper { style::DASHED } else { None },
        )
    }

    fn keys(&self) -> Vec<style::Key> {
        self.series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (color, shape, dash) = self.look(i);
                style::Key {
                    name: s.name.clone(),
                    color,
                    swatch: style::Swatch::Line(dash, Some((shape, !s.paper))),
                }
            })
            .collect()
    }

    /// Whether a point can be drawn: finite, and positive on a log axis.
    fn plottable(&self, (x, y): (f64, f64)) -> bool {
        x.is_finite() && y.is_finite() && (!self.log_x || x > 0.0) && (!self.log_y || y > 0.0)
    }

    /// Draws on `root`, a white canvas of the picture's size.
    fn render(&self, path: &Path, root: &Canvas) -> Result<(), PlotError> {
        let perr = plot_error(path);
        let Some((xr, yr)) = self.ranges() else {
            return Err(perr("no finite points to plot".into()));
        };
        let x_ticks = self.x_ticks(xr);
        let y_ticks = log_ticks(yr, PLOT_H, true);
        let (top, bottom) = root.split_vertically(SIZE.1);
        let mut b = builder(&top, &self.title, 70, 110);
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(|e| perr(e.to_string()))?;
                mesh_style(
                    chart
                        .configure_mesh()
                        .x_desc(&self.x_label)
                        .y_desc(&self.y_label),
                )
                .x_label_formatter(&|v| tick(*v))
                .y_label_formatter(&|v| tick(*v))
                .draw()
                .map_err(|e| perr(e.to_string()))?;
                self.draw_curves(&top, &|p| chart.backend_coord(&p))
                    .map_err(&perr)?;
            }};
        }
        macro_rules! with_y {
            ($x:expr) => {{
                match (self.log_y, &y_ticks) {
                    (false, _) => draw!(b.build_cartesian_2d($x, yr.0..yr.1)),
                    (true, None) => draw!(b.build_cartesian_2d($x, (yr.0..yr.1).log_scale())),
                    (true, Some(t)) => draw!(b.build_cartesian_2d(
                        $x,
                        (yr.0..yr.1).log_scale().with_key_points(t.clone())
                    )),
                }
            }};
        }
        match (self.log_x, &x_ticks) {
            (false, _) => with_y!(xr.0..xr.1),
            (true, None) => with_y!((xr.0..xr.1).log_scale()),
            (true, Some(t)) => with_y!((xr.0..xr.1).log_scale().with_key_points(t.clone())),
        }
        style::legend(&bottom, &self.keys()).map_err(&perr)?;
        Ok(())
    }

    /// The axes' ranges: the data's, with y widened to [`LineChart::y_range`] (kept from
    /// zero on a linear axis that asks for it); `None` when no point can be drawn.
    fn ranges(&self) -> Option<((f64, f64), (f64, f64))> {
        let (xr, mut yr) = self.data_range(self.log_y)?;
        if let Some((lo, hi)) = self.y_range {
            yr = (yr.0.min(lo), yr.1.max(hi));
            if !self.log_y && lo == 0.0 {
                yr.0 = yr.0.max(0.0);
            }
        }
        Some((xr, yr))
    }

    /// Ticks on a log x axis: the x values themselves when there are few (sizes N), else
    /// 1-2-5 steps over a few decades, so that small values are labelled too.
    fn x_ticks(&self, xr: (f64, f64)) -> Option<Vec<f64>> {
        let mut xs: Vec<f64> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .filter(|x| x.is_finite() && *x > 0.0)
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
        if xs.len() <= 12 && xs.len() >= 2 {
            let at = |v: f64| (v / xr.0).log10() / (xr.1 / xr.0).log10() * PLOT_W as f64;
            Some(thin_ticks(xs, &at, false))
        } else {
            log_ticks(xr, PLOT_W, false)
        }
    }

    /// Draws every series in layers, so that coinciding curves all show: the lines (those
    /// [`Series::under`] first, wide and pale; the paper's dashed ones over ours, ours showing
    /// in their gaps), the whiskers, the paper's hollow markers, and ours filled and smaller
    /// on top (one of ours on a paper point is a dot in its ring). `at` maps a point to pixels.
    fn draw_curves(
        &self,
        top: &Canvas,
        at: &dyn Fn((f64, f64)) -> (i32, i32),
    ) -> Result<(), String> {
        let n = self.series.len();
        let order = |paper: bool| {
            (0..n).filter(move |&i| self.series[i].paper == paper && !self.series[i].under)
        };
        let under = (0..n).filter(|&i| self.series[i].under);
        let layers: Vec<usize> = under.chain(order(false)).chain(order(true)).collect();
        for &i in &layers {
            let (color, _, dash) = self.look(i);
            let s = &self.series[i];
            let px: Vec<(i32, i32)> = self.drawn(s).map(at).collect();
            let style = if s.under {
                pale(color).stroke_width(9)
            } else {
                color.stroke_width(3)
            };
            style::line(top, &px, style, dash)?;
        }
        for &i in &layers {
            self.draw_whiskers(top, i, at)?;
        }
        for i in order(true).chain((0..n).filter(|&i| !self.series[i].paper)) {
            self.draw_markers(top, i, at)?;
        }
        Ok(())
    }

    /// Series `s`'s plottable points.
    fn drawn<'s>(&'s self, s: &'s Series) -> impl Iterator<Item = (f64, f64)> + 's {
        s.points.iter().copied().filter(|&p| self.plottable(p))
    }

    /// Series `i`'s interval whiskers: a vertical line over each interval, capped at both ends.
    fn draw_whiskers(
        &self,
        top: &Canvas,
        i: usize,
        at: &dyn Fn((f64, f64)) -> (i32, i32),
    ) -> Result<(), String> {
        let s = &self.series[i];
        let (color, _, _) = self.look(i);
        for (p, iv) in s.points.iter().zip(&s.intervals) {
            let Some((lo, hi)) = *iv else { continue };
            if self.plottable(*p) && self.plottable((p.0, lo)) && self.plottable((p.0, hi)) {
                style::whisker(top, at((p.0, lo)), at((p.0, hi)), color, true)?;
            }
        }
        Ok(())
    }

    /// Series `i`'s markers: about 20 on a dense curve, each series starting at another
    /// point so that curves that coincide still show each one's markers; the paper's hollow
    /// and larger, ours filled.
    fn draw_markers(
        &self,
        top: &Canvas,
        i: usize,
        at: &dyn Fn((f64, f64)) -> (i32, i32),
    ) -> Result<(), String> {
        let s = &self.series[i];
        let (color, shape, _) = self.look(i);
        let px: Vec<(i32, i32)> = self.drawn(s).map(at).collect();
        let every = px.len().div_ceil(20).max(1);
        let r = if s.paper { 10 } else { 6 };
        for &p in px
            .iter()
            .skip((i * every.div_ceil(3)) % every)
            .step_by(every)
        {
            style::marker(top, shape, p, r, color, !s.paper)?;
        }
        Ok(())
    }
}

/// `c` mixed 55 % with white: the wide line of a series drawn under the others.
fn pale(c: RGBColor) -> RGBColor {
    let mix = |v: u8| (v as f64 * 0.45 + 255.0 * 0.55).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}
