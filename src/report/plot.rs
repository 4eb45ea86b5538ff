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

pub(crate) const FONT: &str = "sans-serif";

/// Every chart's size in pixels (a line or bar chart grows downwards by its legend).
const SIZE: (u32, u32) = (1200, 800);

/// The shared look of every chart: font sizes (px on a 1200-px-wide picture, which a page
/// shows at about 70 %: 24 px reads as 17), colours and marker shapes that stay apart for a
/// dozen series, and the legend drawn in a band under the plot, so that it covers no data.
pub mod style {
    use plotters::prelude::*;

    use super::FONT;

    /// The title above the plot.
    pub const TITLE: u32 = 34;
    /// Tick labels.
    pub const TICK: u32 = 24;
    /// Axis descriptions.
    pub const AXIS: u32 = 26;
    /// Legend entries and labels on the plot.
    pub const LEGEND: u32 = 22;

    /// Tableau 10: ten hues that stay apart for readers with common colour-vision
    /// deficiencies better than a rainbow; series beyond ten repeat a colour with another
    /// marker.
    const COLORS: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];

    /// The colour of series `i`.
    pub fn color(i: usize) -> RGBColor {
        COLORS[i % COLORS.len()]
    }

    /// A marker's shape.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Shape {
        Circle,
        Square,
        Triangle,
        Diamond,
        Cross,
    }

    /// The marker of series `i` (a cycle of five, so neighbours differ in shape too).
    pub fn shape(i: usize) -> Shape {
        [
            Shape::Circle,
            Shape::Square,
            Shape::Triangle,
            Shape::Diamond,
            Shape::Cross,
        ][i % 5]
    }

    /// A line's dash: solid, or (dash, gap) in pixels.
    pub type Dash = Option<(u32, u32)>;
    /// The dash of the paper's numbers and of fp64 roofs.
    pub const DASHED: Dash = Some((12, 7));

    /// Draws a marker of half-size `r` pixels centred at the pixel `at` of `area`; hollow
    /// markers get a white fill, so a line through them does not show.
    pub fn marker<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        shape: Shape,
        (x, y): (i32, i32),
        r: i32,
        color: RGBColor,
        filled: bool,
    ) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let poly: Vec<(i32, i32)> = match shape {
            Shape::Circle | Shape::Cross => vec![],
            Shape::Square => {
                let r = r * 9 / 10;
                vec![
                    (x - r, y - r),
                    (x + r, y - r),
                    (x + r, y + r),
                    (x - r, y + r),
                ]
            }
            Shape::Triangle => vec![(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)],
            Shape::Diamond => {
                let r = r + 1;
                vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
            }
        };
        let stroke = color.stroke_width(2);
        match shape {
            Shape::Circle => {
                if filled {
                    area.draw(&Circle::new((x, y), r, color.filled()))
                        .map_err(e)?;
                } else {
                    area.draw(&Circle::new((x, y), r, WHITE.filled()))
                        .map_err(e)?;
                    area.draw(&Circle::new((x, y), r, stroke)).map_err(e)?;
                }
            }
            Shape::Cross => {
                let w = if filled { 3 } else { 2 };
                for (a, b) in [((-r, -r), (r, r)), ((-r, r), (r, -r))] {
                    area.draw(&PathElement::new(
                        vec![(x + a.0, y + a.1), (x + b.0, y + b.1)],
                        color.stroke_width(w),
                    ))
                    .map_err(e)?;
                }
            }
            _ => {
                area.draw(&Polygon::new(
                    poly.clone(),
                    if filled {
                        color.filled()
                    } else {
                        WHITE.filled()
                    },
                ))
                .map_err(e)?;
                let mut closed = poly.clone();
                closed.push(poly[0]);
                area.draw(&PathElement::new(closed, stroke)).map_err(e)?;
            }
        }
        Ok(())
    }

    /// Draws the polyline `pts` (pixels) on `area`, solid or dashed.
    pub fn line<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        pts: &[(i32, i32)],
        style: ShapeStyle,
        dash: Dash,
    ) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        match dash {
            None => area.draw(&PathElement::new(pts.to_vec(), style)).map_err(e),
            Some((d, g)) => {
                for seg in dashes(pts, d as f64, g as f64) {
                    area.draw(&PathElement::new(seg, style)).map_err(e)?;
                }
                Ok(())
            }
        }
    }

    /// The dashes of a polyline: pieces `d` long with `g` gaps, the pattern running on across
    /// vertices.
    fn dashes(pts: &[(i32, i32)], d: f64, g: f64) -> Vec<Vec<(i32, i32)>> {
        let mut out = vec![];
        let mut cur: Vec<(i32, i32)> = vec![];
        // Position within the pattern (0..d: drawing, d..d+g: gap).
        let mut phase = 0.0;
        for w in pts.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (dx, dy) = ((b.0 - a.0) as f64, (b.1 - a.1) as f64);
            let len = (dx * dx + dy * dy).sqrt();
            let at = |t: f64| {
                (
                    (a.0 as f64 + dx * t / len.max(1e-9)).round() as i32,
                    (a.1 as f64 + dy * t / len.max(1e-9)).round() as i32,
                )
            };
            let mut t = 0.0;
            while t < len {
                if phase < d {
                    if cur.is_empty() {
                        cur.push(at(t));
                    }
                    let step = (d - phase).min(len - t);
                    t += step;
                    phase += step;
                    cur.push(at(t));
                    if phase >= d {
                        out.push(std::mem::take(&mut cur));
                    }
                } else {
                    let step = (d + g - phase).min(len - t);
                    t += step;
                    phase += step;
                    if phase >= d + g {
                        phase = 0.0;
                    }
                }
            }
        }
        if cur.len() > 1 {
            out.push(cur);
        }
        out
    }

    /// What a legend entry shows left of its name.
    #[derive(Clone, Debug)]
    pub enum Swatch {
        /// A line (solid or dashed) with an optional marker (shape, filled) on it.
        Line(Dash, Option<(Shape, bool)>),
        /// A filled box (a bar).
        Bar,
        /// A marker alone (shape, filled).
        Marker(Shape, bool),
    }

    /// One legend entry.
    #[derive(Clone, Debug)]
    pub struct Key {
        pub name: String,
        pub color: RGBColor,
        pub swatch: Swatch,
    }

    const SWATCH_W: i32 = 48;
    const ROW_H: i32 = 32;
    const PAD: i32 = 12;

    /// The entries' columns and rows on a band `width` pixels wide.
    fn layout(keys: &[Key], width: u32) -> (usize, usize, i32) {
        let font = (FONT, LEGEND).into_font();
        let widest = keys
            .iter()
            .map(|k| font.box_size(&k.name).map(|s| s.0 as i32).unwrap_or(300))
            .max()
            .unwrap_or(0);
        let col_w = SWATCH_W + 10 + widest + 28;
        let cols = ((width as i32 - 2 * PAD) / col_w).clamp(1, keys.len().max(1) as i32) as usize;
        let rows = keys.len().div_ceil(cols);
        (cols, rows, col_w)
    }

    /// The height in pixels of the legend band for `keys` on a picture `width` wide.
    pub fn legend_height(keys: &[Key], width: u32) -> u32 {
        if keys.is_empty() {
            return 0;
        }
        let (_, rows, _) = layout(keys, width);
        (rows as i32 * ROW_H + 2 * PAD) as u32
    }

    /// Draws `keys` in columns on `area` (a band under the plot, [`legend_height`] high),
    /// filled column by column so that the order reads downwards.
    pub fn legend<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        keys: &[Key],
    ) -> Result<(), String> {
        if keys.is_empty() {
            return Ok(());
        }
        let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let (w, _) = area.dim_in_pixel();
        let (cols, rows, col_w) = layout(keys, w);
        let left = ((w as i32 - cols as i32 * col_w) / 2).max(PAD);
        let font = (FONT, LEGEND).into_font().color(&BLACK);
        for (i, k) in keys.iter().enumerate() {
            let (c, r) = (i / rows, i % rows);
            let x = left + c as i32 * col_w;
            let y = PAD + r as i32 * ROW_H + ROW_H / 2;
            match k.swatch {
                Swatch::Line(dash, m) => {
                    line(
                        area,
                        &[(x, y), (x + SWATCH_W, y)],
                        k.color.stroke_width(3),
                        dash.map(|(d, g)| (d.min(12), g.min(6))),
                    )?;
                    if let Some((s, f)) = m {
                        marker(area, s, (x + SWATCH_W / 2, y), 7, k.color, f)?;
                    }
                }
                Swatch::Bar => {
                    area.draw(&Rectangle::new(
                        [(x + 8, y - 10), (x + SWATCH_W - 8, y + 10)],
                        k.color.filled(),
                    ))
                    .map_err(e)?;
                }
                Swatch::Marker(s, f) => marker(area, s, (x + SWATCH_W / 2, y), 8, k.color, f)?,
            }
            area.draw(&Text::new(
                k.name.clone(),
                (x + SWATCH_W + 10, y),
                font.pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Left,
                    plotters::style::text_anchor::VPos::Center,
                )),
            ))
            .map_err(e)?;
        }
        Ok(())
    }
}

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
            .flat_map(|s| s.points.iter().copied())
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
        render_png(path, self.size(), |buf| self.render(path, buf))
    }

    /// The picture's size: the plot and the legend band under it.
    pub fn size(&self) -> (u32, u32) {
        (SIZE.0, SIZE.1 + style::legend_height(&self.keys(), SIZE.0))
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

    fn render(&self, path: &Path, buf: &mut [u8]) -> Result<(), PlotError> {
        let perr = start_render(path);
        let Some((xr, mut yr)) = self.data_range(self.log_y) else {
            return Err(perr("no finite points to plot".into()));
        };
        if let Some((lo, hi)) = self.y_range {
            yr = (yr.0.min(lo), yr.1.max(hi));
            if !self.log_y && lo == 0.0 {
                yr.0 = yr.0.max(0.0);
            }
        }
        // Ticks on a log axis: the x values themselves when there are few (sizes N), else
        // 1-2-5 steps over a few decades, so that small values are labelled too.
        let xs: Vec<f64> = {
            let mut v: Vec<f64> = self
                .series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0))
                .filter(|x| x.is_finite() && *x > 0.0)
                .collect();
            v.sort_by(f64::total_cmp);
            v.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
            v
        };
        let x_ticks = if xs.len() <= 12 && xs.len() >= 2 {
            Some(xs)
        } else {
            log_ticks(xr)
        };
        let y_ticks = log_ticks(yr);
        let size = self.size();
        let root = BitMapBackend::with_buffer(buf, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
        let (top, bottom) = root.split_vertically(SIZE.1);
        let mut b = builder(&top, &self.title, 70, 110);
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(|e| perr(e.to_string()))?;
                chart
                    .configure_mesh()
                    .x_desc(&self.x_label)
                    .y_desc(&self.y_label)
                    .label_style((FONT, style::TICK))
                    .axis_desc_style((FONT, style::AXIS))
                    .light_line_style(RGBColor(235, 235, 235))
                    .x_label_formatter(&|v| tick(*v))
                    .y_label_formatter(&|v| tick(*v))
                    .draw()
                    .map_err(|e| perr(e.to_string()))?;
                for (i, s) in self.series.iter().enumerate() {
                    let (color, shape, dash) = self.look(i);
                    let px: Vec<(i32, i32)> = s
                        .points
                        .iter()
                        .copied()
                        .filter(|&p| self.plottable(p))
                        .map(|p| chart.backend_coord(&p))
                        .collect();
                    style::line(&top, &px, color.stroke_width(3), dash).map_err(&perr)?;
                    // A dense curve (a profile, an analytic line) gets about 20 markers.
                    let every = px.len().div_ceil(20).max(1);
                    // Series start their markers at different points, so that curves that
                    // coincide still show each one's markers.
                    for &p in px
                        .iter()
                        .skip((i * every.div_ceil(3)) % every)
                        .step_by(every)
                    {
                        style::marker(&top, shape, p, 7, color, !s.paper).map_err(&perr)?;
                    }
                }
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
        root.present().map_err(|e| perr(e.to_string()))?;
        Ok(())
    }
}

/// Key points of a log axis over `lo..hi` spanning under four decades: 1-2-5 steps (or
/// 1-1.5-2-3-5-7 within one decade); none (the axis's own powers of ten) for wider spans.
fn log_ticks((lo, hi): (f64, f64)) -> Option<Vec<f64>> {
    if !(lo > 0.0 && hi > lo) || hi / lo >= 1e4 {
        return None;
    }
    let steps: &[f64] = if hi / lo < 10.0 {
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let mut out = vec![];
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        for m in steps {
            let v = m * decade;
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        decade *= 10.0;
    }
    (out.len() >= 2).then_some(out)
}

/// Grouped bars: one group per category, one bar per series (the paper's bar charts).
#[derive(Clone, Debug)]
pub struct BarChart {
    pub title: String,
    /// What the categories are (under them; left of them when the chart lies on its side).
    pub x_label: String,
    pub y_label: String,
    pub log_y: bool,
    pub categories: Vec<String>,
    /// (series name, one value per category).
    pub series: Vec<(String, Vec<Option<f64>>)>,
}

impl BarChart {
    /// Renders to a PNG 1200 px wide at `path`, 800 px high plus the legend (atomically:
    /// the old file stays until the new one is complete).
    pub fn save(&self, path: &Path) -> Result<(), PlotError> {
        render_png(path, self.size(), |buf| self.render(path, buf))
    }

    /// The picture's size: the plot and the legend band under it.
    pub fn size(&self) -> (u32, u32) {
        (SIZE.0, SIZE.1 + style::legend_height(&self.keys(), SIZE.0))
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
        // (about 12 px per character at the tick font).
        let longest = self
            .categories
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0) as u32;
        let horizontal = longest * 12 > (SIZE.0 - 150) / nc as u32;
        let size = self.size();
        let root = BitMapBackend::with_buffer(buf, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
        let (top, bottom) = root.split_vertically(SIZE.1);
        let y_area = if horizontal {
            (longest * 12 + 50).min(SIZE.0 / 2)
        } else {
            110
        };
        let mut b = builder(&top, &self.title, 70, y_area);
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
                mesh.label_style((FONT, style::TICK))
                    .axis_desc_style((FONT, style::AXIS))
                    .light_line_style(RGBColor(235, 235, 235))
                    .draw()
                    .map_err(|e| perr(e.to_string()))?;
                for (k, (name, v)) in self.series.iter().enumerate() {
                    let color = style::color(k);
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
                    let _ = name;
                    chart.draw_series(bars).map_err(|e| perr(e.to_string()))?;
                }
            }};
        }
        let cr = -0.5..(nc as f64 - 0.5);
        match (horizontal, self.log_y) {
            (true, true) => draw!(b.build_cartesian_2d((lo..hi).log_scale(), cr), lo),
            (true, false) => draw!(b.build_cartesian_2d(lo..hi, cr), 0.0),
            (false, true) => draw!(b.build_cartesian_2d(cr, (lo..hi).log_scale()), lo),
            (false, false) => draw!(b.build_cartesian_2d(cr, lo..hi), 0.0),
        }
        style::legend(&bottom, &self.keys()).map_err(&perr)?;
        root.present().map_err(|e| perr(e.to_string()))?;
        Ok(())
    }
}

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
                chart
                    .configure_mesh()
                    .disable_y_mesh()
                    .y_labels(n)
                    .y_label_formatter(&catfmt)
                    .x_label_formatter(&|v| tick(*v))
                    .x_desc(&self.x_label)
                    .label_style((FONT, style::TICK))
                    .axis_desc_style((FONT, style::AXIS))
                    .light_line_style(RGBColor(235, 235, 235))
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
            (FONT, style::TITLE).into_font(),
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
            .label_style((FONT, style::TICK))
            .axis_desc_style((FONT, style::AXIS))
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
            .label_style((FONT, style::TICK))
            .axis_desc_style((FONT, style::AXIS))
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
pub(crate) fn builder<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    x_area: u32,
    y_area: u32,
) -> ChartBuilder<'a, 'static, DB> {
    let mut b = ChartBuilder::on(root);
    b.caption(title, (FONT, style::TITLE))
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
    } else {
        // Enough decimals that neighbouring ticks differ (1.05, 1.1, 1.15), trailing zeros
        // dropped.
        let s = if a >= 10.0 {
            format!("{v:.1}")
        } else if a >= 1.0 {
            format!("{v:.2}")
        } else {
            format!("{v:.3}")
        };
        s.trim_end_matches('0').trim_end_matches('.').to_string()
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
