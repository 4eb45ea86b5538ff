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
//!
//! This file lays out a pass's picture (header, panels, legend) and encodes PNG and GIF;
//! one panel, and which panels a pass shows, is `view.rs`.

use std::sync::Once;

use plotters::prelude::*;
use plotters::style::{FontStyle, RGBColor};

use super::record::PassRecord;
use view::{View, draw_view, views, wrap_rows};

mod view;

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
    let header = header_lines(pass, index, count, heading, chars);
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
        draw_legend(&root, &groups, width, y, &text).map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(Picture { width, height, rgb })
}

/// The header: the pass and its title, then (wrapped at `chars`) the shader with its
/// defines and uniforms, the paper's words and the fetches.
fn header_lines(
    pass: &PassRecord,
    index: usize,
    count: usize,
    heading: &str,
    chars: usize,
) -> Vec<String> {
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
    header
}

/// The legend at height `y`: the marks this picture uses, wrapped at the picture's `width`.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    groups: &[Vec<View>],
    width: u32,
    mut y: i32,
    text: &TextStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
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
        root.draw(&Rectangle::new([(x, y), (x + 18, y + 12)], color.filled()))?;
        if let Some(o) = outline {
            root.draw(&Rectangle::new(
                [(x, y), (x + 18, y + 12)],
                o.stroke_width(2),
            ))?;
        }
        root.draw(&Text::new(name, (x + 24, y), text.clone()))?;
        x += need + 30;
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
