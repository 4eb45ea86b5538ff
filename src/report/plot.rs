//! PNG plots with `plotters`, rendered with a font compiled into the binary (Ubuntu Light from
//! `epaint_default_fonts`), so they look the same on a machine with no system fonts.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;

use super::files::{OutputError, write_atomic_with};
use plotters::style::FontStyle;

/// A plotting error with the file it concerns.
#[derive(Debug, thiserror::Error)]
#[error("plot {}: {message}", path.display())]
pub struct PlotError {
    pub path: PathBuf,
    pub message: String,
}

const FONT: &str = "sans-serif";

/// Every chart's size in pixels.
const SIZE: (u32, u32) = (1200, 800);

/// Renders a chart through `render` into an RGB buffer of `size` pixels and saves it as a PNG
/// at `path`, atomically.
fn render_png(
    path: &Path,
    size: (u32, u32),
    render: impl FnOnce(&mut [u8]) -> Result<(), PlotError>,
) -> Result<(), PlotError> {
    let mut rgb = vec![0u8; (size.0 * size.1 * 3) as usize];
    render(&mut rgb)?;
    write_png(path, &rgb, size.0, size.1, image::ExtendedColorType::Rgb8).map_err(|e| PlotError {
        path: path.to_path_buf(),
        message: format!("{}", e.source),
    })
}

/// What a chart's `render` needs first: the font registered, and the error of drawing
/// `path` (`message` → [`PlotError`]).
fn start_render(path: &Path) -> impl Fn(String) -> PlotError + '_ {
    register_font();
    |message| PlotError {
        path: path.to_path_buf(),
        message,
    }
}

/// Writes pixels as a PNG at `path` atomically (temp file, then rename): a full disk or an
/// interrupt leaves the old file or none, never a truncated one. For every PNG the program
/// writes (charts, simulation frames, montages).
pub fn write_png(
    path: &Path,
    pixels: &[u8],
    width: u32,
    height: u32,
    color: image::ExtendedColorType,
) -> Result<(), OutputError> {
    use image::ImageEncoder;
    write_atomic_with(path, |w| {
        image::codecs::png::PngEncoder::new(w)
            .write_image(pixels, width, height, color)
            .map_err(std::io::Error::other)
    })
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let bytes = epaint_default_fonts::UBUNTU_LIGHT;
        for style in [
            FontStyle::Normal,
            FontStyle::Bold,
            FontStyle::Italic,
            FontStyle::Oblique,
        ] {
            // Only fails on a malformed font, and this one is compiled in.
            let _ = plotters::style::register_font(FONT, style, bytes);
        }
    });
}

/// One curve.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Drawn dashed with hollow markers: the paper's numbers.
    pub paper: bool,
}

impl Series {
    pub fn ours(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            paper: false,
        }
    }
    pub fn paper(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            paper: true,
        }
    }
}

/// Where the legend box goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Legend {
    #[default]
    UpperLeft,
    UpperRight,
    LowerLeft,
    LowerRight,
}

impl Legend {
    fn position(self) -> SeriesLabelPosition {
        match self {
            Legend::UpperLeft => SeriesLabelPosition::UpperLeft,
            Legend::UpperRight => SeriesLabelPosition::UpperRight,
            Legend::LowerLeft => SeriesLabelPosition::LowerLeft,
            Legend::LowerRight => SeriesLabelPosition::LowerRight,
        }
    }
}

/// A line chart with optional log axes.
#[derive(Clone, Debug)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    pub legend: Legend,
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
            legend: Legend::default(),
            series: vec![],
        }
    }
    pub fn legend(mut self, at: Legend) -> Self {
        self.legend = at;
        self
    }
    pub fn log_x(mut self) -> Self {
        self.log_x = true;
        self
    }
    pub fn log_y(mut self) -> Self {
        self.log_y = true;
        self
    }
    pub fn series(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    /// Renders to a 1200×800 PNG at `path` (atomically: the old file stays until the new
    /// one is complete).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, SIZE, |buf| self.render(path, buf))
    }

    /// Whether a point can be drawn: finite, and positive on a log axis.
    fn plottable(&self, (x, y): (f64, f64)) -> bool {
        x.is_finite() && y.is_finite() && (!self.log_x || x > 0.0) && (!self.log_y || y > 0.0)
    }

    fn render(&self, path: &Path, buf: &mut [u8]) -> Result<(), PlotError> {
        let perr = start_render(path);
        let pts: Vec<(f64, f64)> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|&p| self.plottable(p))
            .collect();
        if pts.is_empty() {
            return Err(perr("no finite points to plot".into()));
        }
        let (xr, yr) = (
            range(pts.iter().map(|p| p.0), self.log_x),
            range(pts.iter().map(|p| p.1), self.log_y),
        );
        let root = BitMapBackend::with_buffer(buf, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
        let mut b = builder(&root, &self.title, 60, 90);
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(|e| perr(e.to_string()))?;
                chart
                    .configure_mesh()
                    .x_desc(&self.x_label)
                    .y_desc(&self.y_label)
                    .label_style((FONT, 18))
                    .axis_desc_style((FONT, 22))
                    .x_label_formatter(&|v| tick(*v))
                    .y_label_formatter(&|v| tick(*v))
                    .draw()
                    .map_err(|e| perr(e.to_string()))?;
                for (i, s) in self.series.iter().enumerate() {
                    let color = Palette99::pick(i).to_rgba();
                    let data: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .copied()
                        .filter(|&p| self.plottable(p))
                        .collect();
                    let style = color.stroke_width(if s.paper { 2 } else { 3 });
                    let anno = if s.paper {
                        chart
                            .draw_series(DashedLineSeries::new(data.clone(), 10, 6, style))
                            .map_err(|e| perr(e.to_string()))?
                    } else {
                        chart
                            .draw_series(LineSeries::new(data.clone(), style))
                            .map_err(|e| perr(e.to_string()))?
                    };
                    anno.label(&s.name).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
                    });
                    let filled = !s.paper;
                    chart
                        .draw_series(data.iter().map(|&p| {
                            Circle::new(
                                p,
                                5,
                                if filled {
                                    color.filled()
                                } else {
                                    color.stroke_width(2)
                                },
                            )
                        }))
                        .map_err(|e| perr(e.to_string()))?;
                }
                chart
                    .configure_series_labels()
                    .position(self.legend.position())
                    .label_font((FONT, 18))
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
                    .map_err(|e| perr(e.to_string()))?;
            }};
        }
        match (self.log_x, self.log_y) {
            (false, false) => draw!(b.build_cartesian_2d(xr.0..xr.1, yr.0..yr.1)),
            (true, false) => draw!(b.build_cartesian_2d((xr.0..xr.1).log_scale(), yr.0..yr.1)),
            (false, true) => draw!(b.build_cartesian_2d(xr.0..xr.1, (yr.0..yr.1).log_scale())),
            (true, true) => {
                draw!(b.build_cartesian_2d((xr.0..xr.1).log_scale(), (yr.0..yr.1).log_scale()))
            }
        }
        root.present().map_err(|e| perr(e.to_string()))?;
        Ok(())
    }
}

/// Grouped bars: one group per category, one bar per series (the paper's bar charts).
#[derive(Clone, Debug)]
pub struct BarChart {
    pub title: String,
    pub y_label: String,
    pub log_y: bool,
    pub categories: Vec<String>,
    /// (series name, one value per category).
    pub series: Vec<(String, Vec<Option<f64>>)>,
}

impl BarChart {
    /// Renders to a 1200×800 PNG at `path` (atomically: the old file stays until the new
    /// one is complete).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, SIZE, |buf| self.render(path, buf))
    }

    fn render(&self, path: &Path, buf: &mut [u8]) -> Result<(), PlotError> {
        let perr = start_render(path);
        let vals: Vec<f64> = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flatten().copied())
            .filter(|v| v.is_finite() && (!self.log_y || *v > 0.0))
            .collect();
        if vals.is_empty() || self.categories.is_empty() {
            return Err(perr("no finite values to plot".into()));
        }
        let (lo, hi) = range(vals.iter().copied(), self.log_y);
        let lo = if self.log_y { lo } else { 0f64.min(lo) };
        let ns = self.series.len().max(1) as f64;
        let nc = self.categories.len();
        // Category names that do not fit side by side under the bars turn the chart on its
        // side: bars left to right, one name per row in an axis area as wide as the longest
        // (about 9 px per character at 18 px).
        let longest = self
            .categories
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0) as u32;
        let horizontal = longest * 9 > (SIZE.0 - 130) / nc as u32;
        let root = BitMapBackend::with_buffer(buf, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
        let y_area = if horizontal {
            (longest * 9 + 20).min(SIZE.0 / 2)
        } else {
            90
        };
        let mut b = builder(&root, &self.title, 60, y_area);
        // Category i sits at position i (bottom to top when horizontal: the first on top).
        let at = move |i: usize| {
            if horizontal {
                (nc - 1 - i) as f64
            } else {
                i as f64
            }
        };
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
                        .x_desc(&self.y_label);
                } else {
                    mesh.disable_x_mesh()
                        .x_labels(nc)
                        .x_label_formatter(&catfmt)
                        .y_label_formatter(&valfmt)
                        .y_desc(&self.y_label);
                }
                mesh.label_style((FONT, 18))
                    .axis_desc_style((FONT, 22))
                    .draw()
                    .map_err(|e| perr(e.to_string()))?;
                for (k, (name, v)) in self.series.iter().enumerate() {
                    let color = Palette99::pick(k).to_rgba();
                    let w = 0.8 / ns;
                    let bars = v.iter().enumerate().filter_map(|(i, y)| {
                        let y = (*y)?;
                        if !y.is_finite() || (self.log_y && y <= 0.0) {
                            return None;
                        }
                        // Series in legend order: left to right, or top to bottom.
                        let slot = if horizontal { ns as usize - 1 - k } else { k };
                        let c0 = at(i) - 0.4 + slot as f64 * w;
                        let (c1, base) = (c0 + w * 0.95, $base);
                        let corners = if horizontal {
                            [(base, c0), (y, c1)]
                        } else {
                            [(c0, base), (c1, y)]
                        };
                        Some(Rectangle::new(corners, color.filled()))
                    });
                    chart
                        .draw_series(bars)
                        .map_err(|e| perr(e.to_string()))?
                        .label(name)
                        .legend(move |(x, y)| {
                            Rectangle::new([(x, y - 6), (x + 16, y + 6)], color.filled())
                        });
                }
                chart
                    .configure_series_labels()
                    .position(if horizontal {
                        SeriesLabelPosition::LowerRight
                    } else {
                        SeriesLabelPosition::UpperLeft
                    })
                    .label_font((FONT, 18))
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
                    .map_err(|e| perr(e.to_string()))?;
            }};
        }
        let cr = -0.5..(nc as f64 - 0.5);
        match (horizontal, self.log_y) {
            (true, true) => draw!(b.build_cartesian_2d((lo..hi).log_scale(), cr), lo),
            (true, false) => draw!(b.build_cartesian_2d(lo..hi, cr), 0.0),
            (false, true) => draw!(b.build_cartesian_2d(cr, (lo..hi).log_scale()), lo),
            (false, false) => draw!(b.build_cartesian_2d(cr, lo..hi), 0.0),
        }
        root.present().map_err(|e| perr(e.to_string()))?;
        Ok(())
    }
}

/// The diverging blue–white–red colour map: `t` = 0 blue, 0.5 white, 1 red (clamped).
pub fn diverging(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
    let (r, g, b) = if t < 0.5 {
        let s = t / 0.5;
        (s, s, 1.0)
    } else {
        let s = (1.0 - t) / 0.5;
        (1.0, s, s)
    };
    [(r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8]
}

/// A field sampled on a regular grid of square cells (spacing `h` on both axes), drawn as a
/// heat map with the [`diverging`] colour map and a labelled colour bar. Node (i, j) sits at
/// (i h, j h); its cell spans ± h/2 around it, clipped to the domain [0, (nx−1) h] ×
/// [0, (ny−1) h], so the axes show the physical domain. The picture keeps the domain's aspect
/// (square cells): 1200 px wide, as tall as that needs (a tall domain is narrowed instead, to
/// at most [`HeatMap::MAX_PLOT`] px of plot height).
#[derive(Clone, Debug)]
pub struct HeatMap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// The colour bar's label: the field and its unit.
    pub bar_label: String,
    pub nx: usize,
    pub ny: usize,
    /// Node spacing, in the axes' unit.
    pub h: f64,
    /// `values[j * nx + i]` at node (i, j), j from the bottom.
    pub values: Vec<f64>,
    /// The values at the two ends of the colour map.
    pub range: (f64, f64),
}

impl HeatMap {
    /// The largest plot height in pixels.
    pub const MAX_PLOT: u32 = 900;
    const WIDTH: u32 = 1200;
    const TITLE: u32 = 60;
    const MARGIN: u32 = 20;
    const X_AREA: u32 = 70;
    const Y_AREA: u32 = 90;
    /// The colour bar's strip and its labels, right of the plot.
    const BAR_AREA: u32 = 180;

    /// The plot's (width, height) in pixels: square cells.
    fn plot_size(&self) -> (u32, u32) {
        let (w, h) = (self.nx.max(2) - 1, self.ny.max(2) - 1);
        let pw = Self::WIDTH - Self::BAR_AREA - Self::Y_AREA - 2 * Self::MARGIN;
        let ph = (pw as u64 * h as u64 / w as u64) as u32;
        if ph <= Self::MAX_PLOT {
            (pw, ph.max(1))
        } else {
            (
                (Self::MAX_PLOT as u64 * w as u64 / h as u64).max(1) as u32,
                Self::MAX_PLOT,
            )
        }
    }

    /// The whole picture's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        let (pw, ph) = self.plot_size();
        (
            pw + Self::BAR_AREA + Self::Y_AREA + 2 * Self::MARGIN,
            ph + Self::TITLE + Self::X_AREA + 2 * Self::MARGIN,
        )
    }

    /// Renders to a PNG at `path` (atomically).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, self.size(), |buf| self.render(path, buf))
    }

    fn render(&self, path: &Path, buf: &mut [u8]) -> Result<(), PlotError> {
        let perr = start_render(path);
        if self.values.len() != self.nx * self.ny || self.nx < 2 || self.ny < 2 {
            return Err(perr(format!(
                "{} values for a {}×{} grid (at least 2×2)",
                self.values.len(),
                self.nx,
                self.ny
            )));
        }
        let (lo, hi) = self.range;
        if !(lo.is_finite() && hi.is_finite() && hi > lo) {
            return Err(perr(format!("colour range {lo}..{hi} is empty")));
        }
        let size = self.size();
        let root = BitMapBackend::with_buffer(buf, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
        let (top, body) = root.split_vertically(Self::TITLE);
        top.draw(&Text::new(
            self.title.clone(),
            (Self::MARGIN as i32, 18),
            (FONT, 28).into_font(),
        ))
        .map_err(|e| perr(e.to_string()))?;
        let (left, right) = body.split_horizontally(size.0 - Self::BAR_AREA);
        let (xmax, ymax) = ((self.nx - 1) as f64 * self.h, (self.ny - 1) as f64 * self.h);
        let mut chart = ChartBuilder::on(&left)
            .margin(Self::MARGIN)
            .x_label_area_size(Self::X_AREA)
            .y_label_area_size(Self::Y_AREA)
            .build_cartesian_2d(0.0..xmax, 0.0..ymax)
            .map_err(|e| perr(e.to_string()))?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 22))
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .draw()
            .map_err(|e| perr(e.to_string()))?;
        let half = 0.5 * self.h;
        let cells = (0..self.ny).flat_map(|j| {
            (0..self.nx).map(move |i| {
                let (x, y) = (i as f64 * self.h, j as f64 * self.h);
                let [r, g, b] = diverging((self.values[j * self.nx + i] - lo) / (hi - lo));
                Rectangle::new(
                    [
                        ((x - half).max(0.0), (y - half).max(0.0)),
                        ((x + half).min(xmax), (y + half).min(ymax)),
                    ],
                    RGBColor(r, g, b).filled(),
                )
            })
        });
        chart.draw_series(cells).map_err(|e| perr(e.to_string()))?;
        // The colour bar: a strip as tall as the plot, labelled on its right.
        let mut bar = ChartBuilder::on(&right)
            .margin_top(Self::MARGIN)
            .margin_bottom(Self::MARGIN + Self::X_AREA)
            .margin_left(10)
            .margin_right(Self::MARGIN)
            .right_y_label_area_size(Self::BAR_AREA - 70)
            .build_cartesian_2d(0.0..1.0, lo..hi)
            .map_err(|e| perr(e.to_string()))?;
        bar.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .set_tick_mark_size(LabelAreaPosition::Right, 6)
            .y_desc(&self.bar_label)
            .label_style((FONT, 18))
            .axis_desc_style((FONT, 22))
            // A tick at zero computed as ±1e-17 reads as 0.
            .y_label_formatter(&|v| tick(if v.abs() < 1e-9 * (hi - lo) { 0.0 } else { *v }))
            .draw()
            .map_err(|e| perr(e.to_string()))?;
        let steps = 256;
        bar.draw_series((0..steps).map(|k| {
            let (a, b) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
            let [r, g, bl] = diverging(a + 0.5 / steps as f64);
            Rectangle::new(
                [(0.0, lo + a * (hi - lo)), (1.0, lo + b * (hi - lo))],
                RGBColor(r, g, bl).filled(),
            )
        }))
        .map_err(|e| perr(e.to_string()))?;
        root.present().map_err(|e| perr(e.to_string()))?;
        Ok(())
    }
}

/// Every chart's frame on `root`: the title, the margin and the label areas (the x axis's
/// `x_area` pixels high, the y axis's `y_area` wide).
fn builder<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    x_area: u32,
    y_area: u32,
) -> ChartBuilder<'a, 'static, DB> {
    let mut b = ChartBuilder::on(root);
    b.caption(title, (FONT, 30))
        .margin(20)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area);
    b
}

/// The data range with a margin (multiplicative on a log axis).
fn range(v: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in v {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    if log {
        let (lo, hi) = if lo == hi {
            (lo / 2.0, hi * 2.0)
        } else {
            (lo, hi)
        };
        (lo / 1.25, hi * 1.25)
    } else {
        let pad = if hi > lo {
            0.06 * (hi - lo)
        } else {
            lo.abs().max(1.0) * 0.1
        };
        (lo - pad, hi + pad)
    }
}

/// Tick labels: plain for moderate magnitudes, scientific otherwise.
pub(crate) fn tick(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e6).contains(&a) {
        format!("{v:.0e}")
    } else if a >= 100.0 || v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(nx: usize, ny: usize) -> HeatMap {
        HeatMap {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            bar_label: "v".into(),
            nx,
            ny,
            h: 0.5,
            values: (0..nx * ny).map(|k| k as f64).collect(),
            range: (0.0, (nx * ny) as f64),
        }
    }

    #[test]
    fn heat_map_cells_are_square_and_a_tall_domain_is_narrowed() {
        // The plot's pixels per spacing agree on both axes up to the rounding of the side
        // computed from the other (one pixel over that side's spacings).
        for (nx, ny) in [(21, 8), (8, 21), (64, 64), (2, 400)] {
            let (pw, ph) = map(nx, ny).plot_size();
            let (sx, sy) = (pw as f64 / (nx - 1) as f64, ph as f64 / (ny - 1) as f64);
            let spacings = (nx - 1).min(ny - 1) as f64;
            assert!(
                (sx - sy).abs() * spacings <= 1.0 + 1e-9,
                "{nx}×{ny}: {pw}×{ph}"
            );
            assert!(ph <= HeatMap::MAX_PLOT);
        }
        assert!(map(21, 8).size().0 >= 800);
        let path = std::env::temp_dir().join("gpgpu-repro-heat-map-test.png");
        map(21, 8).save(&path).expect("renders");
        let img = image::open(&path).expect("a PNG").to_rgb8();
        assert_eq!(img.dimensions(), map(21, 8).size());
    }

    #[test]
    fn heat_map_refuses_a_wrong_value_count_or_an_empty_range() {
        let path = std::env::temp_dir().join("gpgpu-repro-heat-map-bad.png");
        let mut m = map(4, 3);
        m.values.pop();
        assert!(m.save(&path).is_err());
        let mut m = map(4, 3);
        m.range = (1.0, 1.0);
        assert!(m.save(&path).is_err());
    }
}
