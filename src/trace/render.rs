//! Pictures of a trace: one PNG per pass and an animated GIF of the whole sequence.
//!
//! Each texture is a grid of texels (one cell per texel, rows = texture rows); an RGBA texel
//! shows its four channels apart, one line each, named at the left (e.g. `a b c k`). Colours:
//! texels the pass fetched are blue, texels it drew are orange inside the red outline of the
//! quad, texels the copy method copied back are green inside a green outline. The textures of
//! a ping-pong pair stand side by side: under the switch method the two buffers (which one is
//! read flips every pass), under the copy method the input texture as read, the render buffer
//! drawn, and the input texture after `glCopyTexSubImage2D`; a group wider than a screen
//! goes on over several rows. Values the pass changed are printed in dark red.

use std::sync::Once;

use plotters::prelude::*;
use plotters::style::{FontStyle, RGBColor};

use super::record::{PassRecord, Snapshot};
use crate::gl::{Rect, Role};

const FONT: &str = "gpgpu-repro trace mono";
const CW: u32 = 44; // cell width
const LH: u32 = 12; // line height in a cell
const ML: u32 = 52; // left margin of a panel (row and channel labels)
const GAP: u32 = 28;
const PAD: u32 = 12;
const TITLE_H: u32 = 34;
const HEADER_LINE: u32 = 16;

const FETCHED: RGBColor = RGBColor(187, 222, 251);
const WRITTEN: RGBColor = RGBColor(255, 224, 178);
const COPIED: RGBColor = RGBColor(200, 230, 201);
const QUAD: RGBColor = RGBColor(211, 47, 47);
const COPY_LINE: RGBColor = RGBColor(46, 125, 50);
const GRID: RGBColor = RGBColor(200, 200, 200);
const FAINT: RGBColor = RGBColor(150, 150, 150);
const CARRIED: RGBColor = RGBColor(225, 210, 240);
const CARRY_LINE: RGBColor = RGBColor(106, 27, 154);
const CHANGED: RGBColor = RGBColor(150, 0, 0);

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Only fails on a malformed font, and this one is compiled in.
        let _ = plotters::style::register_font(
            FONT,
            FontStyle::Normal,
            epaint_default_fonts::HACK_REGULAR,
        );
    });
}

/// A value in at most 6 characters.
pub fn fmt_value(v: f32) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !v.is_finite() {
        format!("{v}")
    } else if !(1e-3..1e4).contains(&a) {
        format!("{v:.0e}")
    } else if a < 10.0 {
        format!("{v:.3}")
    } else if a < 100.0 {
        format!("{v:.2}")
    } else if a < 1000.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

/// One grid to draw: a snapshot in one state.
struct View<'a> {
    snap: &'a Snapshot,
    after: bool,
    title: String,
    fetched: bool,
    quads: bool,
    copied: bool,
}

impl View<'_> {
    fn cell_h(&self) -> u32 {
        self.snap.channels.len() as u32 * LH + 4
    }
    fn size(&self) -> (u32, u32) {
        let title = 7 * self.title.chars().count() as u32;
        (
            (ML + self.snap.width * CW + 4).max(title),
            TITLE_H + self.snap.height * self.cell_h() + 4,
        )
    }
}

fn views(pass: &PassRecord) -> Vec<Vec<View<'_>>> {
    let mut groups: Vec<u32> = pass.panels.iter().map(|p| p.group).collect();
    groups.sort();
    groups.dedup();
    groups
        .into_iter()
        .map(|g| {
            let panels: Vec<&Snapshot> = pass.panels.iter().filter(|p| p.group == g).collect();
            let mut first = vec![];
            let mut middle = vec![];
            let mut last = vec![];
            for s in panels {
                let fmt = if s.texel_floats == 4 {
                    "RGBA32F"
                } else {
                    "R32F"
                };
                let size = format!("{}×{} {fmt}", s.width, s.height);
                let v = |title: String, after, fetched, quads, copied| View {
                    snap: s,
                    after,
                    title: format!("{} — {title} ({size})", s.label),
                    fetched,
                    quads,
                    copied,
                };
                match s.role {
                    Role::Read => middle.push(v("read".into(), true, true, false, false)),
                    Role::Idle => middle.push(v("not used".into(), true, false, false, false)),
                    Role::Drawn => middle.push(v("drawn".into(), true, false, true, false)),
                    Role::ReadThenCopied => {
                        let read = !s.fetched.is_empty();
                        first.push(v(
                            if read { "as read" } else { "before" }.into(),
                            false,
                            read,
                            false,
                            false,
                        ));
                        last.push(v("after the copy".into(), true, false, false, true));
                    }
                }
            }
            first.into_iter().chain(middle).chain(last).collect()
        })
        .collect()
}

/// Widest row of panels: a group wider than this (many textures read side by side) goes on
/// as many rows as it needs, its panels in order.
const ROW_W: u32 = 1600;

fn wrap_rows(groups: Vec<Vec<View<'_>>>) -> Vec<Vec<View<'_>>> {
    let mut rows: Vec<Vec<View>> = vec![];
    for g in groups {
        let mut row: Vec<View> = vec![];
        let mut w = 0;
        for v in g {
            let vw = v.size().0 + GAP;
            if !row.is_empty() && w + vw > ROW_W {
                rows.push(std::mem::take(&mut row));
                w = 0;
            }
            w += vw;
            row.push(v);
        }
        rows.push(row);
    }
    rows
}

fn inside(r: &Rect, x: u32, y: u32) -> bool {
    x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h
}

fn in_quad(q: &crate::gl::Quad, x: u32, y: u32) -> bool {
    let [x0, y0, x1, y1] = q.dst;
    let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
    cx > x0 && cx < x1 && cy > y0 && cy < y1
}

/// Splits `text` into lines of at most `width` characters (at spaces).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![];
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// An RGB picture.
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

/// The picture of pass `index` (0-based) of `count`, with `heading` (technique, method).
pub fn pass_picture(
    pass: &PassRecord,
    index: usize,
    count: usize,
    heading: &str,
) -> Result<Picture, String> {
    register_font();
    let groups = wrap_rows(views(pass));
    let group_w = |g: &Vec<View>| {
        g.iter().map(|v| v.size().0).sum::<u32>() + GAP * (g.len().saturating_sub(1) as u32)
    };
    let width = groups.iter().map(group_w).max().unwrap_or(0).max(1000) + 2 * PAD;
    let chars = ((width - 2 * PAD) / 7) as usize;
    let defines: Vec<String> = pass
        .defines
        .iter()
        .map(|d| {
            if d.1.is_empty() {
                d.0.clone()
            } else {
                format!("{}={}", d.0, d.1)
            }
        })
        .collect();
    let uniforms: Vec<String> = pass
        .uniforms
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    let mut header = vec![format!(
        "pass {}/{count} · {heading} · {}",
        index + 1,
        pass.title
    )];
    let mut small = vec![format!(
        "shader glsl/{}{}; uniforms: {}",
        pass.shader,
        if defines.is_empty() {
            String::new()
        } else {
            format!(" with #define {}", defines.join(", "))
        },
        uniforms.join("; ")
    )];
    small.push(format!("paper: {}", pass.paper));
    small.push(format!("fetches: {}", pass.fetches));
    let small: Vec<String> = small.iter().flat_map(|l| wrap(l, chars)).collect();
    header.extend(small);
    let legend_h = 44;
    let body_h: u32 = groups
        .iter()
        .map(|g| g.iter().map(|v| v.size().1).max().unwrap_or(0) + GAP)
        .sum();
    let height = PAD + header.len() as u32 * HEADER_LINE + 10 + body_h + legend_h + PAD;
    let mut rgb = vec![255u8; (width * height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("drawing a trace picture: {e}");
        root.fill(&WHITE).map_err(err)?;
        let big = (FONT, 15).into_font().color(&BLACK);
        let text = (FONT, 11).into_font().color(&BLACK);
        let faint = (FONT, 11).into_font().color(&FAINT);
        let mut y = PAD as i32;
        for (i, line) in header.iter().enumerate() {
            let style = if i == 0 { big.clone() } else { text.clone() };
            root.draw(&Text::new(line.clone(), (PAD as i32, y), style))
                .map_err(err)?;
            y += HEADER_LINE as i32;
        }
        y += 10;
        for g in &groups {
            let mut x = PAD as i32;
            for v in g {
                draw_view(&root, v, x, y, &text, &faint).map_err(err)?;
                x += (v.size().0 + GAP) as i32;
            }
            y += (g.iter().map(|v| v.size().1).max().unwrap_or(0) + GAP) as i32;
        }
        // Legend: the marks this picture uses.
        let has = |f: fn(&View) -> bool| groups.iter().flatten().any(f);
        let shown = [
            has(|v| v.fetched && !v.snap.fetched.is_empty()),
            has(|v| v.quads && !v.snap.quads.is_empty()),
            has(|v| v.copied && !v.snap.copied.is_empty()),
            has(|v| v.quads && !v.snap.carried.is_empty()),
            true,
        ];
        let mut x = PAD as i32;
        for ((color, outline, name), _) in [
            (FETCHED, None, "fetched by the pass"),
            (WRITTEN, Some(QUAD), "drawn (quad outlined)"),
            (COPIED, Some(COPY_LINE), "copied back (copy method)"),
            (CARRIED, Some(CARRY_LINE), "carried forward (switch method)"),
            (WHITE, None, "dark red: value changed by this pass"),
        ]
        .into_iter()
        .zip(shown)
        .filter(|(_, on)| *on)
        {
            let need = 24 + 7 * name.chars().count() as i32;
            if x + need > (width - PAD) as i32 {
                x = PAD as i32;
                y += 18;
            }
            root.draw(&Rectangle::new([(x, y), (x + 18, y + 12)], color.filled()))
                .map_err(err)?;
            if let Some(o) = outline {
                root.draw(&Rectangle::new(
                    [(x, y), (x + 18, y + 12)],
                    o.stroke_width(2),
                ))
                .map_err(err)?;
            }
            root.draw(&Text::new(name, (x + 24, y), text.clone()))
                .map_err(err)?;
            x += need + 30;
        }
        root.present().map_err(err)?;
    }
    Ok(Picture { width, height, rgb })
}

fn draw_view<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    v: &View,
    x0: i32,
    y0: i32,
    text: &TextStyle,
    faint: &TextStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = v.snap;
    let data = if v.after { &s.after } else { &s.before };
    let changed_style = text.color(&CHANGED);
    let title = if s.role == Role::Idle {
        faint.clone()
    } else {
        text.clone()
    };
    root.draw(&Text::new(v.title.clone(), (x0, y0), title))?;
    let gx = x0 + ML as i32;
    let gy = y0 + TITLE_H as i32;
    let ch = v.cell_h() as i32;
    // Column indices.
    for x in 0..s.width {
        root.draw(&Text::new(
            format!("{x}"),
            (gx + (x * CW) as i32 + 2, gy - 14),
            faint.clone(),
        ))?;
    }
    for y in 0..s.height {
        let ry = gy + y as i32 * ch;
        root.draw(&Text::new(
            format!("{}={y}", s.rows),
            (x0, ry + 2),
            text.clone(),
        ))?;
        for (c, name) in s.channels.iter().enumerate() {
            root.draw(&Text::new(
                name.to_string(),
                (gx - 12, ry + 2 + c as i32 * LH as i32),
                faint.clone(),
            ))?;
        }
        for x in 0..s.width {
            let cx = gx + (x * CW) as i32;
            let fill = if v.quads && s.quads.iter().any(|q| in_quad(q, x, y)) {
                Some(WRITTEN)
            } else if v.quads && s.carried.iter().any(|r| inside(r, x, y)) {
                Some(CARRIED)
            } else if v.copied && s.copied.iter().any(|r| inside(r, x, y)) {
                Some(COPIED)
            } else if v.fetched && s.fetched.iter().any(|r| inside(r, x, y)) {
                Some(FETCHED)
            } else {
                None
            };
            let cell = [(cx, ry), (cx + CW as i32, ry + ch)];
            if let Some(f) = fill {
                root.draw(&Rectangle::new(cell, f.filled()))?;
            }
            root.draw(&Rectangle::new(cell, GRID.stroke_width(1)))?;
            for c in 0..s.channels.len() {
                let val = s.value(data, x, y, c);
                let changed = v.after && val.to_bits() != s.value(&s.before, x, y, c).to_bits();
                let style = if changed {
                    &changed_style
                } else if val == 0.0 {
                    faint
                } else {
                    text
                };
                root.draw(&Text::new(
                    fmt_value(val),
                    (cx + 2, ry + 2 + (c as u32 * LH) as i32),
                    style.clone(),
                ))?;
            }
        }
    }
    // Outlines: quads drawn, rectangles copied.
    let outline = |r: [f32; 4]| {
        [
            (
                gx + (r[0] * CW as f32) as i32,
                gy + (r[1] * ch as f32) as i32,
            ),
            (
                gx + (r[2] * CW as f32) as i32,
                gy + (r[3] * ch as f32) as i32,
            ),
        ]
    };
    if v.quads {
        for q in &s.quads {
            root.draw(&Rectangle::new(outline(q.dst), QUAD.stroke_width(3)))?;
        }
    }
    let rect_outline = |r: &Rect| {
        outline([
            r.x as f32,
            r.y as f32,
            (r.x + r.w) as f32,
            (r.y + r.h) as f32,
        ])
    };
    if v.quads {
        for r in &s.carried {
            root.draw(&Rectangle::new(rect_outline(r), CARRY_LINE.stroke_width(2)))?;
        }
    }
    if v.copied {
        for r in &s.copied {
            let d = [
                r.x as f32,
                r.y as f32,
                (r.x + r.w) as f32,
                (r.y + r.h) as f32,
            ];
            root.draw(&Rectangle::new(outline(d), COPY_LINE.stroke_width(3)))?;
        }
    }
    Ok(())
}

/// PNG bytes of a picture.
pub fn png(p: &Picture) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    let mut out = vec![];
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&p.rgb, p.width, p.height, image::ExtendedColorType::Rgb8)
        .map_err(|e| format!("encoding a PNG: {e}"))?;
    Ok(out)
}

/// An animated GIF of `pictures` (each shown `delay_ms`), padded to the largest one, looping.
pub fn gif(pictures: &[Picture], delay_ms: u32) -> Result<Vec<u8>, String> {
    use image::codecs::gif::{GifEncoder, Repeat};
    use image::{Delay, Frame, RgbaImage};
    let w = pictures.iter().map(|p| p.width).max().unwrap_or(1);
    let h = pictures.iter().map(|p| p.height).max().unwrap_or(1);
    let mut out = vec![];
    {
        let mut enc = GifEncoder::new_with_speed(&mut out, 20);
        enc.set_repeat(Repeat::Infinite)
            .map_err(|e| format!("encoding the GIF: {e}"))?;
        for p in pictures {
            let mut img = RgbaImage::from_pixel(w, h, image::Rgba([255, 255, 255, 255]));
            for y in 0..p.height {
                for x in 0..p.width {
                    let i = ((y * p.width + x) * 3) as usize;
                    img.put_pixel(
                        x,
                        y,
                        image::Rgba([p.rgb[i], p.rgb[i + 1], p.rgb[i + 2], 255]),
                    );
                }
            }
            let frame = Frame::from_parts(img, 0, 0, Delay::from_numer_denom_ms(delay_ms, 1));
            enc.encode_frame(frame)
                .map_err(|e| format!("encoding the GIF: {e}"))?;
        }
    }
    Ok(out)
}
