//! PNG frames: a field in a perceptual colour map (viridis) with a colour bar.
//!
//! The colour map is the polynomial fit of viridis (Matt Zucker's, public domain), the same
//! one `glsl/sim/colormap.frag` uses for the GPU visualisation, so frames and the live view
//! agree. Small grids are enlarged by pixel replication to at least 512 pixels.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::{SimError, Simulation};

/// viridis at `t` ∈ [0, 1] (clamped), as 8-bit RGB.
pub fn viridis(t: f32) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0) as f64;
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
    let scale = 512usize.div_ceil(n).max(1);
    let side = n * scale;
    let (top, margin, bar_w, label_w) = (28usize, 12usize, 24usize, 90usize);
    let (w, h) = (
        margin + side + margin + bar_w + label_w,
        top + side + margin,
    );
    let mut buf = vec![255u8; w * h * 3];
    let put = |buf: &mut [u8], x: usize, y: usize, c: [u8; 3]| {
        let o = (y * w + x) * 3;
        buf[o..o + 3].copy_from_slice(&c);
    };
    let span = if hi > lo { hi - lo } else { 1.0 };
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
            put(&mut buf, margin + px, top + py, c);
        }
    }
    let bx = margin + side + margin;
    for py in 0..side {
        let c = viridis(1.0 - py as f32 / (side - 1) as f32);
        for px in 0..bar_w {
            put(&mut buf, bx + px, top + py, c);
        }
    }
    register_font();
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w as u32, h as u32)).into_drawing_area();
        let font = ("sans-serif", 15).into_font().color(&BLACK);
        let small = ("sans-serif", 13).into_font().color(&BLACK);
        let text = |s: &str, x: usize, y: usize, f: &TextStyle| {
            root.draw(&Text::new(s.to_string(), (x as i32, y as i32), f.clone()))
                .map_err(|e| err(e.to_string()))
        };
        text(caption, margin, 6, &font)?;
        let lx = bx + bar_w + 6;
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
        root.present().map_err(|e| err(e.to_string()))?;
    }
    crate::report::plot::write_png(
        path,
        &buf,
        w as u32,
        h as u32,
        image::ExtendedColorType::Rgb8,
    )
    .map_err(|e| err(format!("{e}: {}", e.source)))
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
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let err = |m: String| SimError::Frame {
        path: path.to_path_buf(),
        message: m,
    };
    if panels.is_empty() || panels.iter().any(|p| p.field.len() != p.n * p.n || p.n < 1) {
        return Err(err("no panels, or a field of the wrong size".into()));
    }
    let (s, gap, top, label_h, bar_area, margin) = (PANEL, 24u32, 70u32, 50u32, 230u32, 20u32);
    let cols = panels.len().min(3) as u32;
    let rows = panels.len().div_ceil(3) as u32;
    let view_h = panels
        .iter()
        .filter_map(|p| p.view.as_ref())
        .map(|v| (v.height() as u64 * s as u64 / v.width() as u64) as u32)
        .max()
        .unwrap_or(0);
    let cell_h = label_h + view_h + s;
    let w = margin + cols * (s + gap) + bar_area;
    // One row: room under it for the colour bar's label.
    let lines = quantity.len().div_ceil(16) as u32;
    let h = top + rows * (cell_h + gap) + margin + if rows == 1 { 32 * lines } else { 0 };
    let mut buf = vec![255u8; (w * h * 3) as usize];
    let put = |buf: &mut [u8], x: u32, y: u32, c: [u8; 3]| {
        let o = ((y * w + x) * 3) as usize;
        buf[o..o + 3].copy_from_slice(&c);
    };
    let span = if hi > lo { hi - lo } else { 1.0 };
    let origin = |i: usize| {
        let (c, r) = (i as u32 % 3, i as u32 / 3);
        (margin + c * (s + gap), top + r * (cell_h + gap))
    };
    for (i, p) in panels.iter().enumerate() {
        let (x0, y0) = origin(i);
        if let Some(v) = &p.view {
            let vh = (v.height() as u64 * s as u64 / v.width() as u64) as u32;
            let v = image::imageops::resize(v, s, vh, image::imageops::FilterType::Triangle);
            for (x, y, px) in v.enumerate_pixels() {
                put(&mut buf, x0 + x, y0 + label_h + y, px.0);
            }
        }
        let fy = y0 + label_h + view_h;
        for py in 0..s {
            // Row 0 of the grid at the bottom (y up, as in the paper's figures).
            let j = p.n - 1 - (py as usize * p.n / s as usize);
            for px in 0..s {
                let v = p.field[j * p.n + px as usize * p.n / s as usize];
                let c = if v.is_finite() {
                    cmap((v - lo) / span)
                } else {
                    [255, 0, 255]
                };
                put(&mut buf, x0 + px, fy + py, c);
            }
        }
    }
    // The colour bar: as tall as one row of fields, level with the first.
    let (bx, by) = (margin + cols * (s + gap) + 10, top + label_h + view_h);
    let bar_w = 36;
    for py in 0..s {
        let c = cmap(1.0 - py as f32 / (s - 1) as f32);
        for px in 0..bar_w {
            put(&mut buf, bx + px, by + py, c);
        }
    }
    register_font();
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        let text = |t: &str, (x, y): (u32, u32), size: u32, pos: Pos| {
            let f = ("sans-serif", size).into_font().color(&BLACK).pos(pos);
            root.draw(&Text::new(t.to_string(), (x as i32, y as i32), f))
                .map_err(|e| err(e.to_string()))
        };
        let left_top = Pos::new(HPos::Left, VPos::Top);
        text(title, (margin, 16), 36, left_top)?;
        for (i, p) in panels.iter().enumerate() {
            let (x0, y0) = origin(i);
            text(
                &p.label,
                (x0 + s / 2, y0 + 6),
                34,
                Pos::new(HPos::Center, VPos::Top),
            )?;
        }
        for k in 0..=4 {
            let f = k as f32 / 4.0;
            let y = by + ((1.0 - f) * (s - 1) as f32) as u32;
            root.draw(&PathElement::new(
                vec![
                    ((bx + bar_w) as i32, y as i32),
                    ((bx + bar_w + 8) as i32, y as i32),
                ],
                BLACK.stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?;
            text(
                &crate::report::plot::tick((lo + f * span) as f64),
                (bx + bar_w + 12, y),
                28,
                Pos::new(HPos::Left, VPos::Center),
            )?;
        }
        // The quantity under the bar, wrapped at spaces to the bar area's width.
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
        root.present().map_err(|e| err(e.to_string()))?;
    }
    crate::report::plot::write_png(path, &buf, w, h, image::ExtendedColorType::Rgb8)
        .map_err(|e| err(format!("{e}: {}", e.source)))
}

/// A snapshot panel's side in pixels.
pub const PANEL: u32 = 420;
