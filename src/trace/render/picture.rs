//! One pass's picture: the header, the panels of its textures and the legend.

use plotters::prelude::*;

use super::style::{
    CARRIED, CARRY_LINE, COPIED, COPY_LINE, FAINT, FETCHED, FONT, GAP, HEADER_LINE, PAD, QUAD,
    WRITTEN, register_font,
};
use super::text::wrap;
use super::view::{View, draw_view, views, wrap_rows};
use crate::trace::record::PassRecord;

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
