//! What every chart's axes share: the frame (title, margins, label areas), the data range
//! with its margin (linear or log), tick labels and the ticks of a log axis.

use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

use super::{FONT, style};

/// Every chart's frame on `root`: the title, the margin and the label areas (the x axis's
/// `x_area` pixels high, the y axis's `y_area` wide).
pub(crate) fn builder<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    x_area: u32,
    y_area: u32,
) -> ChartBuilder<'a, 'static, DB> {
    let mut b = ChartBuilder::on(root);
    b.caption(title, (FONT, style::TITLE))
        .margin(20)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area);
    b
}

/// Every chart's mesh style: the tick and axis-label fonts and the light grid (the caller
/// sets what differs — labels, formatters, which mesh lines — and draws it).
pub(crate) fn mesh_style<'m, 'a, 'b, X, Y, XT, YT, DB>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
where
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
    DB: DrawingBackend,
{
    mesh.label_style((FONT, style::TICK))
        .axis_desc_style((FONT, style::AXIS))
        .light_line_style(RGBColor(235, 235, 235))
}

/// The data range with a margin (multiplicative on a log axis).
pub(crate) fn range(v: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in v {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    if log {
        let (lo, hi) = if lo == hi {
            (lo / 2.0, hi * 2.0)
        } else {
            (lo, hi)
        };
        (lo / 1.25, hi * 1.25)
    } else {
        let pad = if hi > lo {
            0.06 * (hi - lo)
        } else {
            lo.abs().max(1.0) * 0.1
        };
        (lo - pad, hi + pad)
    }
}

/// Tick labels: plain for moderate magnitudes, scientific otherwise.
pub(crate) fn tick(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e6).contains(&a) {
        format!("{v:.0e}")
    } else if a >= 100.0 || v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        // Enough decimals that neighbouring ticks differ (1.05, 1.1, 1.15), trailing zeros
        // dropped.
        let s = if a >= 10.0 {
            format!("{v:.1}")
        } else if a >= 1.0 {
            format!("{v:.2}")
        } else {
            format!("{v:.3}")
        };
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Key points of a log axis over `lo..hi` spanning under four decades: 1-2-5 steps (or
/// 1-1.5-2-3-5-7 within one decade); none (the axis's own powers of ten) for wider spans.
pub(crate) fn log_ticks((lo, hi): (f64, f64)) -> Option<Vec<f64>> {
    if !(lo > 0.0 && hi > lo) || hi / lo >= 1e4 {
        return None;
    }
    let steps: &[f64] = if hi / lo < 10.0 {
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let mut out = vec![];
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        for m in steps {
            let v = m * decade;
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        decade *= 10.0;
    }
    (out.len() >= 2).then_some(out)
}
