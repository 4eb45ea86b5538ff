//! The roofline plot (Williams, Waterman & Patterson 2009): attained GFLOPS against
//! operational intensity `I` (flop per byte moved), log–log, under the device's roofs
//! `min(peak, I · bandwidth)` — one roof per pipeline (legacy = fragment passes, compute),
//! fp32 solid and fp64 dashed, from a [`DeviceProfile`]. Kernels are points: legacy circles,
//! compute triangles, each labelled with its name.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::{BenchError, DeviceProfile};
use crate::report::plot::{PlotError, tick};

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

const FONT: &str = "sans-serif";

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

/// Draws the roofline of `profile` with `points` as a 1200×800 PNG at `path`.
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
    // Axes: every point and every ridge (peak / bandwidth), with a decade of margin.
    let ridges = roofs.iter().map(|r| r.3 / r.2);
    let xs: Vec<f64> = points.iter().map(|p| p.intensity).chain(ridges).collect();
    let x0 = xs.iter().copied().fold(f64::INFINITY, f64::min) / 10.0;
    let x1 = xs.iter().copied().fold(0.0, f64::max) * 10.0;
    let peak = roofs.iter().map(|r| r.3).fold(0.0, f64::max);
    let lowest_roof = roofs.iter().map(|r| r.2 * x0).fold(f64::INFINITY, f64::min);
    let y0 = points.iter().map(|p| p.gflops).fold(lowest_roof, f64::min) / 2.0;
    let y1 = points.iter().map(|p| p.gflops).fold(peak, f64::max) * 2.0;

    let root = BitMapBackend::new(path, (1200, 800)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FONT, 30))
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
        .map_err(|e| perr(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc("operational intensity (flop / byte)")
        .y_desc("GFLOPS")
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 22))
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .draw()
        .map_err(|e| perr(e.to_string()))?;
    for (name, color, bw, peak, dashed) in &roofs {
        let n = 200;
        let line: Vec<(f64, f64)> = (0..=n)
            .map(|i| {
                let x = x0 * (x1 / x0).powf(i as f64 / n as f64);
                (x, peak.min(x * bw))
            })
            .collect();
        let style = color.stroke_width(3);
        let drawn = if *dashed {
            chart.draw_series(DashedLineSeries::new(line, 12, 8, style))
        } else {
            chart.draw_series(LineSeries::new(line, style))
        }
        .map_err(|e| perr(e.to_string()))?;
        let c = *color;
        drawn
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(3)));
    }
    for pipe in [Pipeline::Legacy, Pipeline::Compute] {
        let pts: Vec<&RooflinePoint> = points.iter().filter(|p| p.pipeline == pipe).collect();
        if pts.is_empty() {
            continue;
        }
        let (label, color) = match pipe {
            Pipeline::Legacy => ("legacy kernels", RGBColor(200, 80, 20)),
            Pipeline::Compute => ("compute kernels", RGBColor(20, 90, 200)),
        };
        let xy: Vec<(f64, f64)> = pts.iter().map(|p| (p.intensity, p.gflops)).collect();
        let series = match pipe {
            Pipeline::Legacy => chart.draw_series(
                xy.iter()
                    .map(|&p| Circle::new(p, 8, color.filled()).into_dyn()),
            ),
            Pipeline::Compute => chart.draw_series(
                xy.iter()
                    .map(|&p| TriangleMarker::new(p, 10, color.filled()).into_dyn()),
            ),
        }
        .map_err(|e| perr(e.to_string()))?;
        series.label(label).legend(move |(x, y)| match pipe {
            Pipeline::Legacy => Circle::new((x + 12, y), 6, color.filled()).into_dyn(),
            Pipeline::Compute => TriangleMarker::new((x + 12, y), 8, color.filled()).into_dyn(),
        });
    }
    // Labels where they cover neither one another nor any marker: for each point (in order),
    // the nearest of the positions right and left of it, stepping away vertically, whose box
    // is free; a label set away from its point gets a thin leader line to it.
    let marker = |p: &RooflinePoint| {
        let (px, py) = chart.backend_coord(&(p.intensity, p.gflops));
        (px - 10, py - 10, px + 10, py + 10)
    };
    let mut placed: Vec<(i32, i32, i32, i32)> = points.iter().map(marker).collect();
    for p in points {
        let (px, py) = chart.backend_coord(&(p.intensity, p.gflops));
        let (w, h) = (8 * p.name.chars().count() as i32 + 4, 18);
        let boxes: Vec<(i32, i32, i32, i32)> = [-9, -27, 9, -45, 27, -63, 45, -81, 63, -99, 81]
            .into_iter()
            .flat_map(|dy| [(14, dy), (-w - 14, dy)])
            .map(|(dx, dy)| (px + dx, py + dy, px + dx + w, py + dy + h))
            .collect();
        let free = |b: &(i32, i32, i32, i32)| {
            placed
                .iter()
                .all(|q| b.2 <= q.0 || q.2 <= b.0 || b.3 <= q.1 || q.3 <= b.1)
        };
        let b = boxes.iter().copied().find(free).unwrap_or(boxes[0]);
        placed.push(b);
        if b.1 != py - 9 {
            // The leader: from the marker's edge to the middle of the box's near side.
            let x = if b.0 > px { b.0 - 2 } else { b.2 + 2 };
            let sx = if b.0 > px { px + 8 } else { px - 8 };
            root.draw(&PathElement::new(
                vec![(sx, py), (x, b.1 + h / 2)],
                RGBColor(110, 110, 110).stroke_width(1),
            ))
            .map_err(|e| perr(e.to_string()))?;
        }
        root.draw(&Text::new(
            p.name.clone(),
            (b.0, b.1),
            (FONT, 16).into_font().color(&BLACK),
        ))
        .map_err(|e| perr(e.to_string()))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 18))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| perr(e.to_string()))?;
    root.present().map_err(|e| perr(e.to_string()))?;
    Ok(())
}
