//! The shared look of every chart: font sizes (px on a 1200-px-wide picture, which a page
//! shows at about 70 %: 24 px reads as 17), colours and marker shapes that stay apart for a
//! dozen series, and the legend drawn in a band under the plot, so that it covers no data.

use plotters::prelude::*;

use super::canvas::FONT;

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

/// Draws an interval's whisker from `a` to `b` (pixels), with a cap across each end: a
/// vertical whisker (`vertical`, on a y value axis) gets horizontal caps and the reverse.
pub fn whisker<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    a: (i32, i32),
    b: (i32, i32),
    color: RGBColor,
    vertical: bool,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let stroke = color.stroke_width(2);
    area.draw(&PathElement::new(vec![a, b], stroke))
        .map_err(e)?;
    for p in [a, b] {
        let cap = if vertical {
            vec![(p.0 - 7, p.1), (p.0 + 7, p.1)]
        } else {
            vec![(p.0, p.1 - 7), (p.0, p.1 + 7)]
        };
        area.draw(&PathElement::new(cap, stroke)).map_err(e)?;
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

/// The width in pixels of `text` drawn in `font`, with the font registered first. A failed
/// measurement is an error, not a guess: a guessed width once made a chart's size differ
/// between two computations of it (issue 40).
pub fn text_width(font: &FontDesc, text: &str) -> Result<i32, String> {
    text_size(font, text).map(|s| s.0)
}

/// The width and height in pixels of `text` drawn in `font` ([`text_width`]'s measurement).
pub fn text_size(font: &FontDesc, text: &str) -> Result<(i32, i32), String> {
    super::canvas::register_font()?;
    font.box_size(text)
        .map(|s| (s.0 as i32, s.1 as i32))
        .map_err(|e| format!("measuring the text {text:?}: {e}"))
}

/// The entries' columns and rows on a band `width` pixels wide.
fn layout(keys: &[Key], width: u32) -> Result<(usize, usize, i32), String> {
    let font = (FONT, LEGEND).into_font();
    let mut widest = 0;
    for k in keys {
        widest = widest.max(text_width(&font, &k.name)?);
    }
    let col_w = SWATCH_W + 10 + widest + 28;
    let cols = ((width as i32 - 2 * PAD) / col_w).clamp(1, keys.len().max(1) as i32) as usize;
    let rows = keys.len().div_ceil(cols);
    Ok((cols, rows, col_w))
}

/// The height in pixels of the legend band for `keys` on a picture `width` wide.
pub fn legend_height(keys: &[Key], width: u32) -> Result<u32, String> {
    if keys.is_empty() {
        return Ok(0);
    }
    let (_, rows, _) = layout(keys, width)?;
    Ok((rows as i32 * ROW_H + 2 * PAD) as u32)
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
    let (cols, rows, col_w) = layout(keys, w)?;
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
