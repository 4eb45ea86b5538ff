//! The roofline plot (Williams, Waterman & Patterson 2009): attained GFLOPS against
//! operational intensity `I` (flop per byte moved), log–log, under the device's roofs
//! `min(peak, I · bandwidth)` — one roof per pipeline (legacy = fragment passes, compute),
//! fp32 solid and fp64 dashed, from a [`DeviceProfile`]. Kernels are points: legacy circles,
//! compute triangles, numbered beside them (points that overlap share one label, "4, 6, 8"),
//! with the numbers' names in the legend under the plot.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use super::error::BenchError;
use super::profile::DeviceProfile;
use crate::report::plot::style::{self, Key, Shape, Swatch};
use crate::report::plot::{FONT, PlotError, mesh_style, tick};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Which pipeline a kernel on the plot ran in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipeline {
    Legacy,
    Compute,
}

/// One kernel on the roofline.
#[derive(Clone, Debug, PartialEq)]
pub struct RooflinePoint {
    pub name: String,
    /// Flops per byte moved.
    pub intensity: f64,
    /// Attained GFLOPS.
    pub gflops: f64,
    pub pipeline: Pipeline,
}

/// The same compiled-in font as `report::plot` (registered under the same family name).
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            let _ = plotters::style::register_font(FONT, style, epaint_default_fonts::UBUNTU_LIGHT);
        }
    });
}

/// A roof: name, colour, bandwidth GB/s, peak GFLOPS, dashed.
type Roof = (String, RGBColor, f64, f64, bool);

fn roofs(p: &DeviceProfile) -> Vec<Roof> {
    let l = &p.limits;
    let legacy = RGBColor(200, 80, 20);
    let compute = RGBColor(20, 90, 200);
    let mut out = Vec::new();
    for (pipe, color, bw, p32, p64) in [
        (
            "legacy",
            legacy,
            l.fragment_gbs,
            l.fragment_fp32_gflops,
            l.fragment_fp64_gflops,
        ),
        (
            "compute",
            compute,
            l.compute_gbs,
            l.compute_fp32_gflops,
            l.compute_fp64_gflops,
        ),
    ] {
        let Some(bw) = bw else { continue };
        for (prec, peak, dashed) in [("fp32", p32, false), ("fp64", p64, true)] {
            if let Some(peak) = peak {
                let name = format!("{pipe} {prec}: {bw:.1} GB/s, {peak:.1} GFLOPS");
                out.push((name, color, bw, peak, dashed));
            }
        }
    }
    out
}

/// Draws the roofline of `profile` with `points` as a PNG at `path`: 1200 px wide, 800 high
/// plus the legend, which names each kernel by the number beside its point.
pub fn roofline(
    profile: &DeviceProfile,
    title: &str,
    points: &[RooflinePoint],
    path: &Path,
) -> Result<(), BenchError> {
    let perr = |e: String| PlotError {
        path: path.to_path_buf(),
        message: e,
    };
    let roofs = roofs(profile);
    if roofs.is_empty() {
        return Err(perr("the device profile has no bandwidth and peak to draw".into()).into());
    }
    if let Some(bad) = points.iter().find(|p| {
        !(p.intensity > 0.0 && p.gflops > 0.0 && p.intensity.is_finite() && p.gflops.is_finite())
    }) {
        return Err(perr(format!(
            "point `{}`: intensity {} and GFLOPS {} must be finite and > 0",
            bad.name, bad.intensity, bad.gflops
        ))
        .into());
    }
    register_font();
    let ((x0, x1), (y0, y1)) = ranges(&roofs, points);
    let keys = legend_keys(&roofs, points);
    let size = (
        1200,
        800 + style::legend_height(&keys, 1200).map_err(&perr)?,
    );
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
    let (top, bottom) = root.split_vertically(800);
    let mut chart = crate::report::plot::builder(&top, title, 70, 110)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
        .map_err(|e| perr(e.to_string()))?;
    mesh_style(
        chart
            .configure_mesh()
            .x_desc("operational intensity (flop / byte)")
            .y_desc("GFLOPS"),
    )
    .x_label_formatter(&|v| tick(*v))
    .y_label_formatter(&|v| tick(*v))
    .draw()
    .map_err(|e| perr(e.to_string()))?;
    let mut lines: Vec<(i32, i32)> = vec![];
    for (_, color, bw, peak, dashed) in &roofs {
        let n = 400;
        let line: Vec<(i32, i32)> = (0..=n)
            .map(|i| {
                let x = x0 * (x1 / x0).powf(i as f64 / n as f64);
                chart.backend_coord(&(x, peak.min(x * bw)))
            })
            .collect();
        let dash = if *dashed { style::DASHED } else { None };
        style::line(&top, &line, color.stroke_width(3), dash).map_err(&perr)?;
        lines.extend(line);
    }
    let at: Vec<(i32, i32)> = points
        .iter()
        .map(|p| chart.backend_coord(&(p.intensity, p.gflops)))
        .collect();
    for (p, &xy) in points.iter().zip(&at) {
        let (shape, color) = look(p.pipeline);
        style::marker(&top, shape, xy, 9, color, true).map_err(&perr)?;
    }
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let plot = (xs.start, ys.start, xs.end, ys.end);
    number_points(&top, &at, &lines, plot).map_err(&perr)?;
    style::legend(&bottom, &keys).map_err(&perr)?;
    root.present().map_err(|e| perr(e.to_string()))?;
    Ok(())
}

/// The axes' ranges, ((x0, x1), (y0, y1)): every point and every ridge (peak / bandwidth),
/// with a decade of margin in x and a factor 2 in y.
fn ranges(roofs: &[Roof], points: &[RooflinePoint]) -> ((f64, f64), (f64, f64)) {
    let ridges = roofs.iter().map(|r| r.3 / r.2);
    let xs: Vec<f64> = points.iter().map(|p| p.intensity).chain(ridges).collect();
    let x0 = xs.iter().copied().fold(f64::INFINITY, f64::min) / 10.0;
    let x1 = xs.iter().copied().fold(0.0, f64::max) * 10.0;
    let peak = roofs.iter().map(|r| r.3).fold(0.0, f64::max);
    let lowest_roof = roofs.iter().map(|r| r.2 * x0).fold(f64::INFINITY, f64::min);
    let y0 = points.iter().map(|p| p.gflops).fold(lowest_roof, f64::min) / 2.0;
    let y1 = points.iter().map(|p| p.gflops).fold(peak, f64::max) * 2.0;
    ((x0, x1), (y0, y1))
}

/// A kernel's marker and colour by its pipeline.
fn look(pipe: Pipeline) -> (Shape, RGBColor) {
    match pipe {
        Pipeline::Legacy => (Shape::Circle, RGBColor(200, 80, 20)),
        Pipeline::Compute => (Shape::Triangle, RGBColor(20, 90, 200)),
    }
}

/// The legend under the plot: the roofs (fp64 dashed, as drawn), then each kernel by its
/// number, so that no name has to fit among the points.
fn legend_keys(roofs: &[Roof], points: &[RooflinePoint]) -> Vec<Key> {
    let mut keys: Vec<Key> = roofs
        .iter()
        .map(|(name, color, _, _, dashed)| Key {
            name: name.clone(),
            color: *color,
            swatch: Swatch::Line(if *dashed { style::DASHED } else { None }, None),
        })
        .collect();
    keys.extend(points.iter().enumerate().map(|(i, p)| {
        let (shape, color) = look(p.pipeline);
        Key {
            name: format!("{}  {}", i + 1, p.name),
            color,
            swatch: Swatch::Marker(shape, true),
        }
    }));
    keys
}

/// A box in pixels: (left, top, right, bottom).
type Bbox = (i32, i32, i32, i32);

/// Points whose centres lie within this many pixels of each other share one label.
const GROUP_PX: i32 = 24;

/// The points grouped for labelling: greedily, each group the points within [`GROUP_PX`] of
/// all its members (markers that overlap or touch at this size), left to right in a group.
fn groups(at: &[(i32, i32)]) -> Vec<Vec<usize>> {
    let near = |a: (i32, i32), b: (i32, i32)| {
        (a.0 - b.0).abs() <= GROUP_PX && (a.1 - b.1).abs() <= GROUP_PX
    };
    let mut out: Vec<Vec<usize>> = vec![];
    for i in 0..at.len() {
        match out
            .iter_mut()
            .find(|g| g.iter().all(|&j| near(at[i], at[j])))
        {
            Some(g) => g.push(i),
            None => out.push(vec![i]),
        }
    }
    for g in &mut out {
        g.sort_by_key(|&i| (at[i].0, i));
    }
    out
}

/// Labels each group of points ([`groups`]) with its numbers ("4, 6, 8"), in a box touching
/// the group's markers on one side: right, left, above, below, then the corners, the first
/// that covers no marker, no other label, no roof (`lines`: the roofs' points, a few pixels
/// apart) and stays in the plot (`plot`: its pixel box); else the first clear of markers and
/// labels; else the right side. No label stands away from its points, and none needs a
/// leader line.
fn number_points(
    top: &DrawingArea<BitMapBackend, Shift>,
    at: &[(i32, i32)],
    lines: &[(i32, i32)],
    plot: Bbox,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    const R: i32 = 11;
    let mut placed: Vec<Bbox> = at
        .iter()
        .map(|&(x, y)| (x - R, y - R, x + R, y + R))
        .collect();
    let font = (FONT, style::LEGEND).into_font();
    for g in groups(at) {
        let label = g
            .iter()
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let size = (style::text_width(&font, &label)? + 6, 24);
        let group = g.iter().map(|&i| placed[i]).fold(placed[g[0]], |a, b| {
            (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
        });
        let b = label_box(group, size, &placed, lines, plot);
        placed.push(b);
        top.draw(&Text::new(
            label,
            ((b.0 + b.2) / 2, (b.1 + b.3) / 2),
            font.color(&BLACK).pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(e)?;
    }
    Ok(())
}

/// Where a `w`×`h` label for the markers in box `g` goes: touching `g` (2 px apart) on the
/// first side clear of every `placed` box and every point of `lines` and inside `plot`, else
/// the first clear of the boxes, else on the right.
fn label_box(
    g: Bbox,
    (w, h): (i32, i32),
    placed: &[Bbox],
    lines: &[(i32, i32)],
    plot: Bbox,
) -> Bbox {
    let (cx, cy) = ((g.0 + g.2) / 2, (g.1 + g.3) / 2);
    let d = 2;
    let sides = [
        (g.2 + d, cy - h / 2),
        (g.0 - d - w, cy - h / 2),
        (cx - w / 2, g.1 - d - h),
        (cx - w / 2, g.3 + d),
        (g.2 + d, g.1 - d - h),
        (g.2 + d, g.3 + d),
        (g.0 - d - w, g.1 - d - h),
        (g.0 - d - w, g.3 + d),
    ];
    let boxes = sides.map(|(x, y)| (x, y, x + w, y + h));
    let free = |b: &Bbox| {
        b.0 >= plot.0
            && b.1 >= plot.1
            && b.2 <= plot.2
            && b.3 <= plot.3
            && placed
                .iter()
                .all(|q| b.2 <= q.0 || q.2 <= b.0 || b.3 <= q.1 || q.3 <= b.1)
    };
    let off_lines = |b: &Bbox| {
        lines
            .iter()
            .all(|&(x, y)| x < b.0 || x > b.2 || y < b.1 || y > b.3)
    };
    let clear = boxes.iter().copied().filter(free);
    clear
        .clone()
        .find(off_lines)
        .or_else(|| clear.clone().next())
        .unwrap_or(boxes[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Overlapping markers share one label; a label touches its group's markers and covers
    /// no marker when a side is free.
    #[test]
    fn overlapping_points_share_a_label_beside_them() {
        let at = [(100, 100), (108, 104), (300, 300), (104, 96), (130, 100)];
        let g = groups(&at);
        assert_eq!(g, vec![vec![0, 3, 1], vec![2], vec![4]]);
        let markers: Vec<Bbox> = at
            .iter()
            .map(|&(x, y)| (x - 11, y - 11, x + 11, y + 11))
            .collect();
        let group = (89, 85, 119, 115);
        let b = label_box(group, (40, 24), &markers, &[], (0, 0, 1000, 1000));
        // Not on the right (point 5's marker is there): the left side, touching the group.
        assert_eq!((b.2, b.1), (group.0 - 2, 100 - 12));
        assert!(
            markers
                .iter()
                .all(|q| b.2 <= q.0 || q.2 <= b.0 || b.3 <= q.1 || q.3 <= b.1)
        );
    }

    /// A label does not sit on a roof: with a line through the group's right and left
    /// sides, it goes above; with every side crossed, it still touches its group.
    #[test]
    fn a_label_leaves_the_roofs_clear() {
        let group = (89, 89, 111, 111);
        let horizontal: Vec<(i32, i32)> = (0..400).map(|x| (x, 100)).collect();
        let b = label_box(group, (40, 24), &[], &horizontal, (0, 0, 1000, 1000));
        assert_eq!(b, (80, 63, 120, 87), "above the group, off the line");
        let everywhere: Vec<(i32, i32)> = (0..200)
            .flat_map(|x| (0..200).map(move |y| (x, y)))
            .collect();
        let b = label_box(group, (40, 24), &[], &everywhere, (0, 0, 1000, 1000));
        assert_eq!((b.0, b.1), (113, 88), "no side is clear: the right one");
    }
}
