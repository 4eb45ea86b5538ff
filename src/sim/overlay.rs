//! The live viewer's overlay: what the window says besides the field — the scheme, grid,
//! solver, step and FPS in a strip on top, a colour bar with tick values, the quantity's name
//! and the range in use on the right, and in the split view a caption over each field and the
//! largest difference between the two under them.
//!
//! The overlay is a picture made on the CPU ([`compose`], with the fonts the PNG frames use)
//! whenever its text changes (a few times a second), uploaded as a texture and drawn over the
//! view with alpha blending ([`super::render::OverlayLayer`]): panels are opaque enough to read
//! on, the rest is transparent. The bar is drawn with [`super::frames::viridis`], the colour
//! map of the field shader, so bar and field agree.
//!
//! [`layout`] places every box from the window size alone (pure, tested): the view or views,
//! the panels, the bar. The `window-smoke.sh` pixel check reads the boxes the viewer prints
//! (`GPGPU_REPRO_LAYOUT=1`). Ticks are "nice" values (1, 2 or 5 × 10^k apart, [`ticks`]) inside
//! the range. The automatic range comes from a small GPU reduction (each texel of a 32 × 32
//! target holds the min and max of one block of the field, [`super::render::Renderer::min_max`])
//! folded here ([`auto_range`]).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::gl::Rect;

/// Height of the information strip on top (two lines of text).
pub const INFO_H: u32 = 46;
/// Width of the colour-bar panel on the right.
pub const PANEL_W: u32 = 150;
/// Space around views and inside panels.
pub const MARGIN: u32 = 8;
/// Width of the colour bar itself.
pub const BAR_W: u32 = 22;
/// Room above the bar for the quantity's name and the range mode.
pub const BAR_TITLE_H: u32 = 44;
/// Height of a one-line caption (over each field of the split view, and under them).
pub const CAPTION_H: u32 = 22;
/// The smallest window the layout is made for (smaller ones are laid out at this size).
pub const MIN_SIZE: (u32, u32) = (420, 320);

/// What the view area shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One colour-mapped field.
    Field,
    /// A 3D surface, with its height map as an inset (the bar refers to the inset).
    Surface,
    /// Two colour-mapped fields side by side (two solvers on the same state).
    Split,
}

/// Where everything goes, in window pixels with y growing downwards (as in the screenshot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: (u32, u32),
    /// The information strip on top.
    pub info: Rect,
    /// The right-hand panel (the bar's title, the bar, its labels).
    pub panel: Rect,
    /// The colour gradient (top: the range's high end).
    pub bar: Rect,
    /// The colour-mapped fields (one, or two in the split view); for a surface, the 3D view.
    pub views: Vec<Rect>,
    /// For a surface: the height map drawn over the 3D view's lower left corner.
    pub inset: Option<Rect>,
    /// One-line captions: over each split field, or over the inset.
    pub captions: Vec<Rect>,
    /// Split view: the line under the fields (their difference).
    pub footer: Option<Rect>,
}

/// The layout of a `w × h` window (see [`MIN_SIZE`]) showing `mode`.
pub fn layout(w: u32, h: u32, mode: Mode) -> Layout {
    let (w, h) = (w.max(MIN_SIZE.0), h.max(MIN_SIZE.1));
    let m = MARGIN;
    let info = Rect::new(0, 0, w, INFO_H);
    let px = w - PANEL_W;
    let panel = Rect::new(px, INFO_H, PANEL_W, h - INFO_H);
    let bar_y = INFO_H + m + BAR_TITLE_H;
    let bar = Rect::new(px + m, bar_y, BAR_W, h - bar_y - 2 * m);
    // The view area: left of the panel, under the strip.
    let (ax, ay, aw, ah) = (0, INFO_H, px, h - INFO_H);
    let mut out = Layout {
        size: (w, h),
        info,
        panel,
        bar,
        views: vec![],
        inset: None,
        captions: vec![],
        footer: None,
    };
    match mode {
        Mode::Field => {
            let side = aw.min(ah) - 2 * m;
            out.views = vec![Rect::new(
                ax + (aw - side) / 2,
                ay + (ah - side) / 2,
                side,
                side,
            )];
        }
        Mode::Surface => {
            let v = Rect::new(ax + m, ay + m, aw - 2 * m, ah - 2 * m);
            let side = v.h / 3;
            let inset = Rect::new(v.x + m, v.y + v.h - side - m, side, side);
            out.captions = vec![Rect::new(inset.x, inset.y - CAPTION_H, side, CAPTION_H)];
            out.views = vec![v];
            out.inset = Some(inset);
        }
        Mode::Split => {
            let side = ((aw - 3 * m) / 2).min(ah - 2 * m - 2 * CAPTION_H);
            let total = 2 * side + m;
            let (x0, y0) = (ax + (aw - total) / 2, ay + (ah - side - 2 * CAPTION_H) / 2);
            for x in [x0, x0 + side + m] {
                out.captions.push(Rect::new(x, y0, side, CAPTION_H));
                out.views.push(Rect::new(x, y0 + CAPTION_H, side, side));
            }
            out.footer = Some(Rect::new(x0, y0 + CAPTION_H + side, total, CAPTION_H));
        }
    }
    out
}

impl Layout {
    /// One line naming every box as `name=x,y,w,h` (y down), for the smoke test's pixel
    /// check: `layout 900x720 info=0,0,900,46 panel=… bar=… view=… [view=…] [inset=…]
    /// [caption=…]… [footer=…]`.
    pub fn describe(&self) -> String {
        let mut s = format!("layout {}x{}", self.size.0, self.size.1);
        let mut add = |name: &str, r: Rect| {
            s.push_str(&format!(" {name}={},{},{},{}", r.x, r.y, r.w, r.h));
        };
        add("info", self.info);
        add("panel", self.panel);
        add("bar", self.bar);
        self.views.iter().for_each(|&r| add("view", r));
        self.inset.into_iter().for_each(|r| add("inset", r));
        self.captions.iter().for_each(|&r| add("caption", r));
        self.footer.into_iter().for_each(|r| add("footer", r));
        s
    }
}

/// `r` (y down, in a window `h` high) as GL counts it (y up from the bottom).
pub fn gl_rect(r: Rect, h: u32) -> Rect {
    Rect::new(r.x, h.saturating_sub(r.y + r.h), r.w, r.h)
}

/// Tick values for a bar over `[lo, hi]`: multiples of a step of 1, 2 or 5 × 10^k, the
/// smallest such step giving at most `most` ticks inside the range. Empty for an empty or
/// non-finite range.
pub fn ticks(lo: f32, hi: f32, most: usize) -> Vec<f64> {
    let (lo, hi) = (lo as f64, hi as f64);
    if !(lo.is_finite() && hi.is_finite() && hi > lo) || most == 0 {
        return vec![];
    }
    let span = hi - lo;
    let mag = 10f64.powf((span / most as f64).log10().floor());
    // The multiples of `s` inside the range (a rounding error off an end still counts).
    let first = |s: f64| (lo / s - 1e-9).ceil() as i64;
    let last = |s: f64| (hi / s + 1e-9).floor() as i64;
    let step = [1.0, 2.0, 5.0, 10.0, 20.0]
        .iter()
        .map(|k| k * mag)
        .find(|&s| last(s) - first(s) < most as i64)
        .unwrap_or(20.0 * mag);
    (first(step)..=last(step))
        .map(|k| k as f64 * step)
        .collect()
}

/// The range of a field from its block minima and maxima (RGBA texels: `.r` the minimum and
/// `.g` the maximum of each block), non-finite values left out, widened around the value
/// when the field is flat. `None` when no value is finite.
pub fn auto_range(partials: &[f32]) -> Option<(f32, f32)> {
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for t in partials.chunks_exact(4) {
        if t[0].is_finite() {
            lo = lo.min(t[0]);
        }
        if t[1].is_finite() {
            hi = hi.max(t[1]);
        }
    }
    if lo > hi {
        return None;
    }
    if hi > lo {
        return Some((lo, hi));
    }
    let d = if lo == 0.0 { 1e-6 } else { lo.abs() * 1e-3 };
    Some((lo - d, hi + d))
}

/// What the overlay says (all computed by the viewer).
#[derive(Clone, Debug, PartialEq)]
pub struct Texts {
    /// The two lines of the information strip.
    pub info: [String; 2],
    /// The quantity shown (the scheme's name for it).
    pub quantity: String,
    /// "physical" or "auto".
    pub range_mode: &'static str,
    /// The colour range in use.
    pub range: (f32, f32),
    /// One per [`Layout::captions`] box.
    pub captions: Vec<String>,
    /// For [`Layout::footer`].
    pub footer: String,
}

const PANEL_RGB: [u8; 3] = [22, 22, 30];
const PANEL_ALPHA: u8 = 232;
/// The colour of all overlay text (the smoke test counts pixels this light).
pub const TEXT_RGB: RGBColor = RGBColor(240, 240, 240);

/// The overlay picture of `layout` saying `t`: RGBA, rows from the top.
pub fn compose(layout: &Layout, t: &Texts) -> Result<image::RgbaImage, String> {
    let (w, h) = layout.size;
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    let mut alpha = vec![0u8; (w * h) as usize];
    let mut fill = |r: Rect, c: [u8; 3], a: u8, rgb: &mut [u8]| {
        for y in r.y..(r.y + r.h).min(h) {
            for x in r.x..(r.x + r.w).min(w) {
                let o = (y * w + x) as usize;
                rgb[3 * o..3 * o + 3].copy_from_slice(&c);
                alpha[o] = a;
            }
        }
    };
    let panels = [layout.info, layout.panel].into_iter();
    for r in panels
        .chain(layout.captions.iter().copied())
        .chain(layout.footer)
    {
        fill(r, PANEL_RGB, PANEL_ALPHA, &mut rgb);
    }
    let b = layout.bar;
    for y in 0..b.h {
        let c = super::frames::viridis(1.0 - y as f32 / (b.h.max(2) - 1) as f32);
        fill(Rect::new(b.x, b.y + y, b.w, 1), c, 255, &mut rgb);
    }
    super::frames::register_font();
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        let text = |s: &str, (x, y): (u32, u32), size: u32, pos: Pos| {
            let f = ("sans-serif", size).into_font().color(&TEXT_RGB).pos(pos);
            root.draw(&Text::new(s.to_string(), (x as i32, y as i32), f))
                .map_err(|e| e.to_string())
        };
        let left_mid = Pos::new(HPos::Left, VPos::Center);
        let centre = Pos::new(HPos::Center, VPos::Center);
        let i = layout.info;
        text(&t.info[0], (i.x + MARGIN, i.y + INFO_H / 4), 16, left_mid)?;
        text(
            &t.info[1],
            (i.x + MARGIN, i.y + 3 * INFO_H / 4),
            14,
            left_mid,
        )?;
        let p = layout.panel;
        text(&t.quantity, (p.x + MARGIN, p.y + MARGIN + 10), 16, left_mid)?;
        let mode = format!("range: {}", t.range_mode);
        text(&mode, (p.x + MARGIN, p.y + MARGIN + 32), 14, left_mid)?;
        let (lo, hi) = t.range;
        let most = (b.h / 40).clamp(2, 10) as usize;
        for v in ticks(lo, hi, most) {
            let f = (v - lo as f64) / (hi as f64 - lo as f64);
            let y = (b.y as f64 + (1.0 - f) * (b.h - 1) as f64).round() as i32;
            let x = (b.x + b.w) as i32;
            root.draw(&PathElement::new(
                vec![(x, y), (x + 6, y)],
                TEXT_RGB.stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
            let label = crate::report::plot::tick(v);
            text(&label, (b.x + b.w + 10, y.max(0) as u32), 14, left_mid)?;
        }
        for (r, s) in layout.captions.iter().zip(&t.captions) {
            text(s, (r.x + r.w / 2, r.y + r.h / 2), 14, centre)?;
        }
        if let Some(r) = layout.footer {
            text(&t.footer, (r.x + r.w / 2, r.y + r.h / 2), 14, centre)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    // The ticks and labels lie inside the panel: opaque as it is.
    let px: Vec<u8> = rgb
        .chunks_exact(3)
        .zip(&alpha)
        .flat_map(|(c, &a)| [c[0], c[1], c[2], a])
        .collect();
    image::RgbaImage::from_raw(w, h, px).ok_or_else(|| "overlay of the wrong size".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_layout_known_boxes() {
        let l = layout(900, 720, Mode::Field);
        assert_eq!(l.info, Rect::new(0, 0, 900, 46));
        assert_eq!(l.panel, Rect::new(750, 46, 150, 674));
        assert_eq!(l.bar, Rect::new(758, 98, 22, 606));
        // The view area is 750 × 674 under the strip: a 658-pixel square centred in it.
        assert_eq!(l.views, vec![Rect::new(46, 54, 658, 658)]);
        assert!(l.captions.is_empty() && l.footer.is_none() && l.inset.is_none());
        assert_eq!(gl_rect(l.views[0], 720), Rect::new(46, 8, 658, 658));
        assert_eq!(
            l.describe(),
            "layout 900x720 info=0,0,900,46 panel=750,46,150,674 bar=758,98,22,606 \
             view=46,54,658,658"
        );
    }

    #[test]
    fn split_layout_two_squares_side_by_side() {
        let l = layout(900, 720, Mode::Split);
        // (750 - 24) / 2 = 363 wide at most, 674 - 16 - 44 = 614 high: 363-pixel squares.
        assert_eq!(l.views.len(), 2);
        let (a, b) = (l.views[0], l.views[1]);
        assert_eq!((a.w, a.h, b.w, b.h), (363, 363, 363, 363));
        assert_eq!(b.x, a.x + 363 + MARGIN);
        assert_eq!(a.y, b.y);
        assert_eq!(
            l.captions[0],
            Rect::new(a.x, a.y - CAPTION_H, 363, CAPTION_H)
        );
        assert_eq!(l.footer, Some(Rect::new(a.x, a.y + 363, 734, CAPTION_H)));
        // Nothing overlaps the panel or the strip.
        for r in l.views.iter().chain(&l.captions) {
            assert!(r.x + r.w <= l.panel.x && r.y >= INFO_H, "{r:?}");
        }
    }

    #[test]
    fn tiny_windows_are_laid_out_at_the_minimum() {
        let l = layout(10, 10, Mode::Surface);
        assert_eq!(l.size, MIN_SIZE);
        let inset = l.inset.unwrap();
        let v = l.views[0];
        assert!(inset.x >= v.x && inset.y + inset.h <= v.y + v.h);
    }

    #[test]
    fn ticks_are_nice_and_inside() {
        let close = |a: &[f64], b: &[f64]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
        };
        let t = ticks(0.0, 1.0, 6);
        assert!(close(&t, &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]), "{t:?}");
        let t = ticks(-0.05, 0.05, 6);
        assert!(close(&t, &[-0.04, -0.02, 0.0, 0.02, 0.04]), "{t:?}");
        let t = ticks(0.0013, 0.0871, 5);
        assert!(close(&t, &[0.02, 0.04, 0.06, 0.08]), "{t:?}");
        let t = ticks(3.0, 250.0, 4);
        assert!(close(&t, &[100.0, 200.0]), "{t:?}");
        assert!(ticks(1.0, 1.0, 5).is_empty());
        assert!(ticks(0.0, f32::NAN, 5).is_empty());
    }

    #[test]
    fn auto_range_folds_blocks() {
        let p = [
            0.5,
            2.0,
            0.0,
            0.0,
            -1.0,
            0.25,
            0.0,
            0.0,
            f32::NAN,
            f32::INFINITY,
            0.0,
            0.0,
        ];
        assert_eq!(auto_range(&p), Some((-1.0, 2.0)));
        // A flat field: widened around its value.
        let r = auto_range(&[2.0, 2.0, 0.0, 0.0]).unwrap();
        assert!(r.0 < 2.0 && r.1 > 2.0 && r.1 - r.0 < 0.01);
        assert_eq!(auto_range(&[0.0, 0.0, 0.0, 0.0]), Some((-1e-6, 1e-6)));
        assert_eq!(auto_range(&[f32::NAN, f32::NAN, 0.0, 0.0]), None);
    }

    #[test]
    fn compose_paints_panels_bar_and_text() {
        let l = layout(640, 480, Mode::Split);
        let t = Texts {
            info: ["heat 255×255".into(), "12.0 FPS".into()],
            quantity: "temperature".into(),
            range_mode: "auto",
            range: (0.0, 1.0),
            captions: vec!["cr".into(), "thomas".into()],
            footer: "max |cr − thomas| = 1.0e-7".into(),
        };
        let img = compose(&l, &t).unwrap();
        assert_eq!(img.dimensions(), (640, 480));
        // Transparent over the fields, opaque on the bar, whose top is viridis(1).
        let v = l.views[0];
        assert_eq!(img.get_pixel(v.x + v.w / 2, v.y + v.h / 2)[3], 0);
        let top = img.get_pixel(l.bar.x + 2, l.bar.y);
        assert_eq!(top.0, {
            let c = super::super::frames::viridis(1.0);
            [c[0], c[1], c[2], 255]
        });
        // Text: light pixels in the strip and in the first caption.
        let light = |r: Rect| {
            (r.y..r.y + r.h)
                .flat_map(|y| (r.x..r.x + r.w).map(move |x| (x, y)))
                .filter(|&(x, y)| img.get_pixel(x, y)[0] > 150)
                .count()
        };
        assert!(light(l.info) > 50, "{}", light(l.info));
        assert!(light(l.captions[0]) > 10);
        assert!(light(l.footer.unwrap()) > 50);
    }
}
