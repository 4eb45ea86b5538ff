//! PNG frames: a field in a perceptual colour map (viridis) with a colour bar.
//!
//! The colour map is the polynomial fit of viridis ([`crate::report::plot::viridis`]), the
//! same one `glsl/sim/colormap.frag` uses for the GPU visualisation, so frames and the live
//! view agree. Small grids are enlarged by pixel replication to at least 512 pixels.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::error::SimError;
use super::simulation::Simulation;

/// viridis at `t` ∈ [0, 1] (clamped), as 8-bit RGB ([`crate::report::plot::viridis`]).
pub fn viridis(t: f32) -> [u8; 3] {
    crate::report::plot::viridis(t as f64)
}

/// Registers the sans-serif font of frames and the viewer's overlay with plotters (once).
pub(crate) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        );
    });
}

/// Writes the simulation's current field as a PNG with a colour bar and a caption.
pub fn write_frame(sim: &dyn Simulation, path: &Path) -> Result<(), SimError> {
    let field = sim.read()?;
    let n = sim.n() as usize;
    let (lo, hi) = sim.range();
    let caption = format!(
        "{}  {}×{}  step {}  solver {}",
        sim.name(),
        n,
        n,
        sim.steps(),
        sim.solver_name()
    );
    save_field(&field, n, lo, hi, sim.quantity(), &caption, path)
}

/// Writes `field` (`n × n`, grid order, row 0 at the bottom) as a PNG: the field in viridis
/// over `[lo, hi]`, a colour bar labelled with `quantity`, and `caption` on top.
pub fn save_field(
    field: &[f32],
    n: usize,
    lo: f32,
    hi: f32,
    quantity: &str,
    caption: &str,
    path: &Path,
) -> Result<(), SimError> {
    let err = |m: String| SimError::Frame {
        path: path.to_path_buf(),
        message: m,
    };
    if field.len() != n * n {
        return Err(err(format!("{} values for a {n}×{n} field", field.len())));
    }
    let fr = FieldFrame::new(n);
    let mut buf = vec![255u8; fr.w * fr.h * 3];
    let span = if hi > lo { hi - lo } else { 1.0 };
    fr.paint(&mut buf, field, lo, span);
    register_font();
    fr.label(&mut buf, lo, span, quantity, caption)
        .map_err(err)?;
    crate::report::plot::write_png(
        path,
        &buf,
        fr.w as u32,
        fr.h as u32,
        image::ExtendedColorType::Rgb8,
    )
    .map_err(|e| err(format!("{e}: {}", e.source)))
}

/// Sets pixel `(x, y)` of an RGB buffer `w` pixels wide to `c`.
fn put(buf: &mut [u8], w: usize, (x, y): (usize, usize), c: [u8; 3]) {
    let o = (y * w + x) * 3;
    buf[o..o + 3].copy_from_slice(&c);
}

/// A colour bar of `bar_w × h` pixels, its top-left corner at `(x, y)` of an RGB buffer `w`
/// pixels wide: `cmap(1)` on top down to `cmap(0)` at the bottom.
fn colour_bar(
    buf: &mut [u8],
    w: usize,
    (x, y): (usize, usize),
    (bar_w, h): (usize, usize),
    cmap: impl Fn(f32) -> [u8; 3],
) {
    for py in 0..h {
        let c = cmap(1.0 - py as f32 / (h - 1) as f32);
        for px in 0..bar_w {
            put(buf, w, (x + px, y + py), c);
        }
    }
}

/// The layout of a [`save_field`] frame: the caption on top, the field (`scale` pixels per
/// cell, `side` pixels square), the colour bar and its labels at the right; `w × h` pixels.
struct FieldFrame {
    n: usize,
    scale: usize,
    side: usize,
    w: usize,
    h: usize,
}

impl FieldFrame {
    const TOP: usize = 28;
    const MARGIN: usize = 12;
    const BAR_W: usize = 24;
    const LABEL_W: usize = 90;

    fn new(n: usize) -> FieldFrame {
        let scale = 512usize.div_ceil(n).max(1);
        let side = n * scale;
        let (top, margin, bar_w, label_w) = (Self::TOP, Self::MARGIN, Self::BAR_W, Self::LABEL_W);
        let (w, h) = (
            margin + side + margin + bar_w + label_w,
            top + side + margin,
        );
        FieldFrame {
            n,
            scale,
            side,
            w,
            h,
        }
    }

    /// The colour bar's left edge.
    fn bar_x(&self) -> usize {
        Self::MARGIN + self.side + Self::MARGIN
    }

    fn put(&self, buf: &mut [u8], x: usize, y: usize, c: [u8; 3]) {
        put(buf, self.w, (x, y), c);
    }

    /// The field's cells (magenta where not finite) and the colour bar.
    fn paint(&self, buf: &mut [u8], field: &[f32], lo: f32, span: f32) {
        let (n, scale, side) = (self.n, self.scale, self.side);
        let (top, margin) = (Self::TOP, Self::MARGIN);
        for py in 0..side {
            // Row 0 of the grid at the bottom (y up, as in the paper's figures).
            let j = n - 1 - py / scale;
            for px in 0..side {
                let v = field[j * n + px / scale];
                let c = if v.is_finite() {
                    viridis((v - lo) / span)
                } else {
                    [255, 0, 255]
                };
                self.put(buf, margin + px, top + py, c);
            }
        }
        let bar = (self.bar_x(), top);
        colour_bar(buf, self.w, bar, (Self::BAR_W, side), viridis);
    }

    /// The caption, the colour bar's five values and the quantity's name.
    fn label(
        &self,
        buf: &mut [u8],
        lo: f32,
        span: f32,
        quantity: &str,
        caption: &str,
    ) -> Result<(), String> {
        let (top, side) = (Self::TOP, self.side);
        let root =
            BitMapBackend::with_buffer(buf, (self.w as u32, self.h as u32)).into_drawing_area();
        let font = ("sans-serif", 15).into_font().color(&BLACK);
        let small = ("sans-serif", 13).into_font().color(&BLACK);
        let text = |s: &str, x: usize, y: usize, f: &TextStyle| {
            root.draw(&Text::new(s.to_string(), (x as i32, y as i32), f.clone()))
                .map_err(|e| e.to_string())
        };
        text(caption, Self::MARGIN, 6, &font)?;
        let lx = self.bar_x() + Self::BAR_W + 6;
        for k in 0..=4 {
            let f = k as f32 / 4.0;
            let y = top + ((1.0 - f) * (side - 1) as f32) as usize;
            text(
                &format!("{:.3}", lo + f * span),
                lx,
                y.saturating_sub(7),
                &small,
            )?;
        }
        text(quantity, lx, top + side / 2 + 14, &small)?;
        root.present().map_err(|e| e.to_string())
    }
}

/// One panel of a [`snapshot_grid`]: its label (e.g. "step 60"), the `n × n` field (grid
/// order, row 0 at the bottom) and, for a surface, its 3D view drawn above the field.
pub struct Panel {
    pub label: String,
    pub n: usize,
    pub field: Vec<f32>,
    pub view: Option<image::RgbImage>,
}

/// A figure of snapshots for a page: `title` on top, the panels three to a row at
/// [`PANEL`] px each with their labels in large type, and one colour bar for all of them on
/// the right, labelled `quantity` and mapped through `cmap` over `[lo, hi]`.
pub fn snapshot_grid(
    title: &str,
    panels: &[Panel],
    (lo, hi): (f32, f32),
    quantity: &str,
    cmap: fn(f32) -> [u8; 3],
    path: &Path,
) -> Result<(), SimError> {
    let err = |m: String| SimError::Frame {
        path: path.to_path_buf(),
        message: m,
    };
    if panels.is_empty() || panels.iter().any(|p| p.field.len() != p.n * p.n || p.n < 1) {
        return Err(err("no panels, or a field of the wrong size".into()));
    }
    let g = Grid::of(panels, quantity);
    let mut buf = vec![255u8; (g.w * g.h * 3) as usize];
    let span = if hi > lo { hi - lo } else { 1.0 };
    for (i, p) in panels.iter().enumerate() {
        g.paint_panel(&mut buf, i, p, |v| {
            if v.is_finite() {
                cmap((v - lo) / span)
            } else {
                [255, 0, 255]
            }
        });
    }
    g.paint_bar(&mut buf, cmap);
    register_font();
    g.write_text(&mut buf, title, panels, (lo, span), quantity)
        .map_err(err)?;
    crate::report::plot::write_png(path, &buf, g.w, g.h, image::ExtendedColorType::Rgb8)
        .map_err(|e| err(format!("{e}: {}", e.source)))
}

/// Where everything of a [`snapshot_grid`] goes, in pixels (y down).
struct Grid {
    /// The figure's width and height.
    w: u32,
    h: u32,
    /// The height of the panels' 3D views (0: none has one).
    view_h: u32,
    /// One panel's height: label, view, field.
    cell_h: u32,
    /// Panels in the first row (at most three).
    cols: u32,
}

impl Grid {
    /// Space between panels, the title's band, a label's band, the colour bar's area and the
    /// outer margin.
    const GAP: u32 = 24;
    const TOP: u32 = 70;
    const LABEL_H: u32 = 50;
    const BAR_AREA: u32 = 230;
    const MARGIN: u32 = 20;
    const BAR_W: u32 = 36;

    fn of(panels: &[Panel], quantity: &str) -> Grid {
        let s = PANEL;
        let cols = panels.len().min(3) as u32;
        let rows = panels.len().div_ceil(3) as u32;
        let view_h = panels
            .iter()
            .filter_map(|p| p.view.as_ref())
            .map(|v| (v.height() as u64 * s as u64 / v.width() as u64) as u32)
            .max()
            .unwrap_or(0);
        let cell_h = Self::LABEL_H + view_h + s;
        let w = Self::MARGIN + cols * (s + Self::GAP) + Self::BAR_AREA;
        // One row: room under it for the colour bar's label.
        let lines = quantity.len().div_ceil(16) as u32;
        let h = Self::TOP
            + rows * (cell_h + Self::GAP)
            + Self::MARGIN
            + if rows == 1 { 32 * lines } else { 0 };
        Grid {
            w,
            h,
            view_h,
            cell_h,
            cols,
        }
    }

    /// The top-left corner of panel `i`.
    fn origin(&self, i: usize) -> (u32, u32) {
        let (c, r) = (i as u32 % 3, i as u32 / 3);
        (
            Self::MARGIN + c * (PANEL + Self::GAP),
            Self::TOP + r * (self.cell_h + Self::GAP),
        )
    }

    /// The colour bar's top-left corner: as tall as one row of fields, level with the first.
    fn bar(&self) -> (u32, u32) {
        (
            Self::MARGIN + self.cols * (PANEL + Self::GAP) + 10,
            Self::TOP + Self::LABEL_H + self.view_h,
        )
    }

    fn put(&self, buf: &mut [u8], x: u32, y: u32, c: [u8; 3]) {
        put(buf, self.w as usize, (x as usize, y as usize), c);
    }

    /// Panel `i`: its 3D view (if any) under the label band, then its field coloured by
    /// `colour`, row 0 of the grid at the bottom (y up, as in the paper's figures).
    fn paint_panel(&self, buf: &mut [u8], i: usize, p: &Panel, colour: impl Fn(f32) -> [u8; 3]) {
        let s = PANEL;
        let (x0, y0) = self.origin(i);
        if let Some(v) = &p.view {
            let vh = (v.height() as u64 * s as u64 / v.width() as u64) as u32;
            let v = image::imageops::resize(v, s, vh, image::imageops::FilterType::Triangle);
            for (x, y, px) in v.enumerate_pixels() {
                self.put(buf, x0 + x, y0 + Self::LABEL_H + y, px.0);
            }
        }
        let fy = y0 + Self::LABEL_H + self.view_h;
        for py in 0..s {
            let j = p.n - 1 - (py as usize * p.n / s as usize);
            for px in 0..s {
                let c = colour(p.field[j * p.n + px as usize * p.n / s as usize]);
                self.put(buf, x0 + px, fy + py, c);
            }
        }
    }

    /// The colour bar's colours, top = `cmap(1)`.
    fn paint_bar(&self, buf: &mut [u8], cmap: fn(f32) -> [u8; 3]) {
        let (bx, by) = self.bar();
        let bar = (bx as usize, by as usize);
        colour_bar(
            buf,
            self.w as usize,
            bar,
            (Self::BAR_W as usize, PANEL as usize),
            cmap,
        );
    }

    /// The title, each panel's label, the bar's five ticks with their values over
    /// `lo … lo + span`, and `quantity` under the bar, wrapped at spaces to its area's width.
    fn write_text(
        &self,
        buf: &mut [u8],
        title: &str,
        panels: &[Panel],
        (lo, span): (f32, f32),
        quantity: &str,
    ) -> Result<(), String> {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        let s = PANEL;
        let (bx, by) = self.bar();
        let root = BitMapBackend::with_buffer(buf, (self.w, self.h)).into_drawing_area();
        let text = |t: &str, (x, y): (u32, u32), size: u32, pos: Pos| {
            let f = ("sans-serif", size).into_font().color(&BLACK).pos(pos);
            root.draw(&Text::new(t.to_string(), (x as i32, y as i32), f))
                .map_err(|e| e.to_string())
        };
        let left_top = Pos::new(HPos::Left, VPos::Top);
        text(title, (Self::MARGIN, 16), 36, left_top)?;
        for (i, p) in panels.iter().enumerate() {
            let (x0, y0) = self.origin(i);
            let centre_top = Pos::new(HPos::Center, VPos::Top);
            text(&p.label, (x0 + s / 2, y0 + 6), 34, centre_top)?;
        }
        for k in 0..=4 {
            let f = k as f32 / 4.0;
            let y = by + ((1.0 - f) * (s - 1) as f32) as u32;
            let end = (bx + Self::BAR_W) as i32;
            root.draw(&PathElement::new(
                vec![(end, y as i32), (end + 8, y as i32)],
                BLACK.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
            let value = crate::report::plot::tick((lo + f * span) as f64);
            let left_centre = Pos::new(HPos::Left, VPos::Center);
            text(&value, (bx + Self::BAR_W + 12, y), 28, left_centre)?;
        }
        let mut line = String::new();
        let mut y = by + s + 14;
        for word in quantity.split(' ') {
            if !line.is_empty() && line.len() + word.len() > 16 {
                text(&line, (bx, y), 26, left_top)?;
                y += 32;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        text(&line, (bx, y), 26, left_top)?;
        root.present().map_err(|e| e.to_string())
    }
}

/// A snapshot panel's side in pixels.
pub const PANEL: u32 = 420;
