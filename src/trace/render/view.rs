//! One panel of a pass picture: a texture snapshot as a grid of texels (a cell per texel,
//! a line per channel), coloured by what the pass did to it, with the quads drawn and the
//! rectangles copied or carried outlined; which panels a pass shows and how they wrap.

use plotters::prelude::*;
use plotters::style::RGBColor;

use super::style::{
    CARRIED, CARRY_LINE, CHANGED, COPIED, COPY_LINE, CW, FETCHED, GAP, GRID, LH, ML, QUAD, TITLE_H,
    WRITTEN,
};
use super::text::fmt_value;
use crate::gl::{Rect, Role};
use crate::trace::record::{PassRecord, Snapshot};

/// One grid to draw: a snapshot in one state.
pub(super) struct View<'a> {
    pub(super) snap: &'a Snapshot,
    after: bool,
    title: String,
    pub(super) fetched: bool,
    pub(super) quads: bool,
    pub(super) copied: bool,
}

impl View<'_> {
    fn cell_h(&self) -> u32 {
        self.snap.channels.len() as u32 * LH + 4
    }
    pub(super) fn size(&self) -> (u32, u32) {
        let title = 7 * self.title.chars().count() as u32;
        (
            (ML + self.snap.width * CW + 4).max(title),
            TITLE_H + self.snap.height * self.cell_h() + 4,
        )
    }
}

pub(super) fn views(pass: &PassRecord) -> Vec<Vec<View<'_>>> {
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

pub(super) fn wrap_rows(groups: Vec<Vec<View<'_>>>) -> Vec<Vec<View<'_>>> {
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

/// The text styles of a panel: plain, faint (idle panels, zeros, indices) and changed.
struct Styles<'a> {
    text: &'a TextStyle<'a>,
    faint: &'a TextStyle<'a>,
    changed: TextStyle<'a>,
}

pub(super) fn draw_view<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    v: &View,
    x0: i32,
    y0: i32,
    text: &TextStyle,
    faint: &TextStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = v.snap;
    let styles = Styles {
        text,
        faint,
        changed: text.color(&CHANGED),
    };
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
            draw_cell(root, v, &styles, (x, y), (gx + (x * CW) as i32, ry))?;
        }
    }
    draw_outlines(root, v, gx, gy)
}

/// The colour of texel (`x`, `y`): drawn, carried, copied, fetched or none.
fn fill(v: &View, x: u32, y: u32) -> Option<RGBColor> {
    let s = v.snap;
    if v.quads && s.quads.iter().any(|q| in_quad(q, x, y)) {
        Some(WRITTEN)
    } else if v.quads && s.carried.iter().any(|r| inside(r, x, y)) {
        Some(CARRIED)
    } else if v.copied && s.copied.iter().any(|r| inside(r, x, y)) {
        Some(COPIED)
    } else if v.fetched && s.fetched.iter().any(|r| inside(r, x, y)) {
        Some(FETCHED)
    } else {
        None
    }
}

/// Texel (`x`, `y`)'s cell at (`cx`, `ry`): its fill, its border and a value per channel
/// (dark red where the pass changed it).
fn draw_cell<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    v: &View,
    st: &Styles,
    (x, y): (u32, u32),
    (cx, ry): (i32, i32),
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = v.snap;
    let data = if v.after { &s.after } else { &s.before };
    let ch = v.cell_h() as i32;
    let cell = [(cx, ry), (cx + CW as i32, ry + ch)];
    if let Some(f) = fill(v, x, y) {
        root.draw(&Rectangle::new(cell, f.filled()))?;
    }
    root.draw(&Rectangle::new(cell, GRID.stroke_width(1)))?;
    for c in 0..s.channels.len() {
        let val = s.value(data, x, y, c);
        let changed = v.after && val.to_bits() != s.value(&s.before, x, y, c).to_bits();
        let style = if changed {
            &st.changed
        } else if val == 0.0 {
            st.faint
        } else {
            st.text
        };
        root.draw(&Text::new(
            fmt_value(val),
            (cx + 2, ry + 2 + (c as u32 * LH) as i32),
            style.clone(),
        ))?;
    }
    Ok(())
}

/// Outlines over the grid at (`gx`, `gy`): quads drawn, rectangles carried and copied.
fn draw_outlines<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    v: &View,
    gx: i32,
    gy: i32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = v.snap;
    let ch = v.cell_h() as i32;
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
