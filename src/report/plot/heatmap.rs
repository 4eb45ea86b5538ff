//! Heat maps with a colour bar ([`HeatMap`]): a sequential map ([`viridis`]) for a one-signed
//! field, a diverging one ([`diverging`]) centred on zero for a field of both signs.

use std::path::Path;

use plotters::prelude::*;

use super::axis::tick;
use super::canvas::{Canvas, FONT, PlotError, plot_error, save_sized};
use super::style;

/// viridis at `t` ∈ [0, 1] (clamped), as 8-bit RGB: the polynomial fit of viridis (Matt
/// Zucker's, public domain), the same one `glsl/sim/colormap.frag` uses for the GPU
/// visualisation. Sequential and perceptually uniform: for one-signed fields.
pub fn viridis(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    const C: [[f64; 3]; 7] = [
        [0.277_727_3, 0.005_407_344, 0.334_099_8],
        [0.105_093_0, 1.404_613_5, 1.384_590_2],
        [-0.330_861_8, 0.214_847_6, 0.095_095_16],
        [-4.634_230_5, -5.799_101, -19.332_441],
        [6.228_270, 14.179_934, 56.690_55],
        [4.776_385, -13.745_146, -65.353_03],
        [-5.435_456, 4.645_852_6, 26.312_435],
    ];
    let mut rgb = [0u8; 3];
    for (ch, out) in rgb.iter_mut().enumerate() {
        let mut v = C[6][ch];
        for k in (0..6).rev() {
            v = v * t + C[k][ch];
        }
        *out = (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    }
    rgb
}

/// A colour map: `t` ∈ [0, 1] to 8-bit RGB.
pub type ColourMap = fn(f64) -> [u8; 3];

/// The colour map for values over `lo..hi` of a field whose values are `values`, and the
/// range it spans: a field of one sign gets the sequential [`viridis`] over `lo..hi`; one
/// of both signs the [`diverging`] map over a range symmetric about zero, so that white is
/// zero.
pub fn colour_map(values: &[f64], (lo, hi): (f64, f64)) -> (ColourMap, (f64, f64)) {
    let finite = || values.iter().filter(|v| v.is_finite());
    let one_signed = finite().all(|v| *v >= 0.0) || finite().all(|v| *v <= 0.0);
    if one_signed {
        (viridis, (lo, hi))
    } else {
        let m = lo.abs().max(hi.abs());
        (diverging, (-m, m))
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
/// heat map in the colour map its sign asks for ([`colour_map`]) with a labelled colour bar. Node (i, j) sits at
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
    /// The values at the two ends of the colour map (widened to be symmetric about zero for
    /// a field of both signs).
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
        save_sized(self, path, Self::size, Self::render)
    }

    /// Draws on `root`, a white canvas of `size` pixels ([`super::render_png`] computed it once).
    fn render(&self, path: &Path, root: &Canvas, size: (u32, u32)) -> Result<(), PlotError> {
        let perr = plot_error(path);
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
        let (top, body) = root.split_vertically(Self::TITLE);
        top.draw(&Text::new(
            self.title.clone(),
            (Self::MARGIN as i32, 18),
            (FONT, style::TITLE).into_font(),
        ))
        .map_err(|e| perr(e.to_string()))?;
        let (left, right) = body.split_horizontally(size.0 - Self::BAR_AREA);
        self.draw_field(&left).map_err(&perr)?;
        self.draw_colour_bar(&right).map_err(&perr)?;
        Ok(())
    }

    /// The field: one cell of the colour map per node, on axes in the domain's units.
    fn draw_field(&self, left: &Canvas) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        let (map, (lo, hi)) = colour_map(&self.values, self.range);
        let (xmax, ymax) = ((self.nx - 1) as f64 * self.h, (self.ny - 1) as f64 * self.h);
        let mut chart = ChartBuilder::on(left)
            .margin(Self::MARGIN)
            .x_label_area_size(Self::X_AREA)
            .y_label_area_size(Self::Y_AREA)
            .build_cartesian_2d(0.0..xmax, 0.0..ymax)
            .map_err(e)?;
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
            .map_err(e)?;
        let half = 0.5 * self.h;
        let cells = (0..self.ny).flat_map(|j| {
            (0..self.nx).map(move |i| {
                let (x, y) = (i as f64 * self.h, j as f64 * self.h);
                let [r, g, b] = map((self.values[j * self.nx + i] - lo) / (hi - lo));
                Rectangle::new(
                    [
                        ((x - half).max(0.0), (y - half).max(0.0)),
                        ((x + half).min(xmax), (y + half).min(ymax)),
                    ],
                    RGBColor(r, g, b).filled(),
                )
            })
        });
        chart.draw_series(cells).map_err(e)?;
        Ok(())
    }

    /// The colour bar: a strip as tall as the plot, labelled on its right.
    fn draw_colour_bar(&self, right: &Canvas) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        let (map, (lo, hi)) = colour_map(&self.values, self.range);
        let mut bar = ChartBuilder::on(right)
            .margin_top(Self::MARGIN)
            .margin_bottom(Self::MARGIN + Self::X_AREA)
            .margin_left(10)
            .margin_right(Self::MARGIN)
            .right_y_label_area_size(Self::BAR_AREA - 70)
            .build_cartesian_2d(0.0..1.0, lo..hi)
            .map_err(e)?;
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
            .map_err(e)?;
        let steps = 256;
        bar.draw_series((0..steps).map(|k| {
            let (a, b) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
            let [r, g, bl] = map(a + 0.5 / steps as f64);
            Rectangle::new(
                [(0.0, lo + a * (hi - lo)), (1.0, lo + b * (hi - lo))],
                RGBColor(r, g, bl).filled(),
            )
        }))
        .map_err(e)?;
        Ok(())
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

    /// A one-signed field (a potential from 0 to 10 mV) gets the sequential map over its
    /// range; a field of both signs the diverging one, over a range symmetric about zero
    /// (white at zero).
    #[test]
    fn heat_map_picks_its_colour_map_by_the_fields_sign() {
        let (map, r) = colour_map(&[0.0, 4.0, 10.0], (0.0, 10.0));
        assert_eq!(r, (0.0, 10.0));
        assert_eq!(map(0.0), viridis(0.0));
        assert_eq!(map(1.0), viridis(1.0));
        let (map, r) = colour_map(&[-3.0, 0.5, 1.0], (-3.0, 1.0));
        assert_eq!(r, (-3.0, 3.0));
        assert_eq!(map(0.5), [255, 255, 255]);
        assert_eq!(map(0.0), diverging(0.0));
        // Negative alone is one-signed too.
        assert_eq!(colour_map(&[-2.0, -1.0], (-2.0, -1.0)).1, (-2.0, -1.0));
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
