//! What every chart's axes share: the frame (title, margins, label areas), the data range
//! with its margin (linear or log), tick labels and the ticks of a log axis.

use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

use super::canvas::FONT;
use super::style;

/// The margin around every chart (pixels).
const MARGIN: u32 = 20;
/// The right margin: room for half of the last x tick's label, which plotters centres on the
/// plot's right edge (a log axis's `10000` was cut there).
const MARGIN_RIGHT: u32 = 48;

/// Every chart's frame on `root`: the title (in a smaller font where it would not fit the
/// width, [`title_size`]), the margins and the label areas (the x axis's `x_area` pixels high,
/// the y axis's `y_area` wide).
pub(crate) fn builder<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    x_area: u32,
    y_area: u32,
) -> ChartBuilder<'a, 'static, DB> {
    let (width, _) = root.dim_in_pixel();
    let size = title_size(title, width.saturating_sub(2 * MARGIN));
    let mut b = ChartBuilder::on(root);
    b.caption(title, (FONT, size))
        .margin(MARGIN)
        .margin_right(MARGIN_RIGHT)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area);
    b
}

/// The title's font size: [`style::TITLE`], or smaller where the title is wider than `width`
/// pixels (a long device name, which at the full size ran past both edges), down to
/// [`style::TICK`].
pub(crate) fn title_size(title: &str, width: u32) -> u32 {
    let mut size = style::TITLE;
    while size > style::TICK {
        match style::text_width(&(FONT, size).into_font(), title) {
            Ok(w) if w > 0 && w as u32 > width => size -= 1,
            _ => break,
        }
    }
    size
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

/// Tick labels: plain for moderate magnitudes, scientific otherwise (three significant
/// digits, trailing zeros dropped: a tick at a data value such as 1,047,552 unknowns reads
/// `1.05e6`, a decade `1e6`).
pub(crate) fn tick(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e6).contains(&a) {
        let s = format!("{v:.2e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let m = m.trim_end_matches('0').trim_end_matches('.');
        format!("{m}e{e}")
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

/// Key points of a log axis over `lo..hi` that is `len` pixels long (`vertical`: the y
/// axis, whose labels stack by their height; else the x axis, whose labels sit side by side
/// by their width): the densest of 1-1.5-2-3-5-7, 1-2-5, 1-3 and 1 per decade, then powers
/// of ten every 2, 3, … decades, whose labels ([`tick`]) keep [`TICK_GAP`] pixels apart.
/// `None` where even one label per decade collides or fewer than two ticks fall in the range
/// (the axis's own powers of ten then).
pub(crate) fn log_ticks((lo, hi): (f64, f64), len: u32, vertical: bool) -> Option<Vec<f64>> {
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return None;
    }
    const STEPS: [&[f64]; 4] = [
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0],
        &[1.0, 2.0, 5.0],
        &[1.0, 3.0],
        &[1.0],
    ];
    let at = |v: f64| (v / lo).log10() / (hi / lo).log10() * len as f64;
    let decades = (hi / lo).log10().ceil().max(1.0) as usize;
    let candidates = STEPS
        .iter()
        .map(|m| decade_ticks((lo, hi), m, 1))
        .chain((2..=decades.max(2)).map(|k| decade_ticks((lo, hi), &[1.0], k)));
    for t in candidates {
        if t.len() < 2 {
            return None;
        }
        if labels_apart(&t, &at, vertical) {
            return Some(t);
        }
    }
    None
}

/// A log axis symmetric about 1 over `vals` (so that "twice" either way is as far from 1),
/// `len` pixels long, with ticks chosen on each half alone (each half `len / 2` long), so
/// that both sides read in round numbers (0.2, 0.5 | 2, 5) and no labels collide.
pub(crate) fn symmetric_log_axis(
    vals: impl Iterator<Item = f64>,
    len: u32,
) -> (f64, f64, Option<Vec<f64>>) {
    let (lo, hi) = range(vals, true);
    let m = (1.0 / lo).max(hi);
    let (lo, hi) = (1.0 / m, m);
    let mut t: Vec<f64> = [(lo, 1.0), (1.0, hi)]
        .into_iter()
        .filter_map(|half| log_ticks(half, len / 2, false))
        .flatten()
        .collect();
    t.sort_by(f64::total_cmp);
    t.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
    (lo, hi, (t.len() >= 2).then_some(t))
}

/// The y labels of a chart with a row per name, the first name on the top row (at
/// `names.len() - 1`): a name at each row's whole position, nothing between.
pub(crate) fn row_labels(names: Vec<String>) -> impl Fn(&f64) -> String {
    move |v: &f64| {
        let p = v.round();
        if (v - p).abs() < 1e-6 && p >= 0.0 && (p as usize) < names.len() {
            names[names.len() - 1 - p as usize].clone()
        } else {
            String::new()
        }
    }
}

/// Pixels for a chart's row labels: the widest of `labels` ([`widest_label`]) and 30 for the
/// gap to the axis, so that the longest label is whole and no wider a margin is left (an
/// estimate of 12 px a character left the plot area of `versus.png` under half of the
/// picture).
pub(crate) fn label_area<'a>(labels: impl Iterator<Item = &'a str>) -> u32 {
    widest_label(labels) + 30
}

/// The width in pixels of the widest of `labels` as drawn in the tick font (0 for none);
/// where the font cannot be measured, an estimate of 12 px a character.
pub(crate) fn widest_label<'a>(labels: impl Iterator<Item = &'a str>) -> u32 {
    // The font is looked up as its description is made: registered first (as the picture's
    // size is computed before anything is drawn). A failure shows as the estimate.
    let _ = super::canvas::register_font();
    let font = (FONT, style::TICK).into_font();
    labels
        .map(|l| style::text_width(&font, l).map_or(l.chars().count() as u32 * 12, |w| w as u32))
        .max()
        .unwrap_or(0)
}

/// The axes of a chart of labelled rows against a value along x (the dot, ratio and forest
/// charts): the rows at y = n−1 … 0 (the first row on top), the value axis linear or log
/// (with its ticks' key points where chosen), tick labels by [`tick`].
pub(crate) struct RowAxes<'s> {
    /// The rows' labels, top first.
    pub rows: Vec<String>,
    /// The value axis's range.
    pub x: (f64, f64),
    pub log: bool,
    pub ticks: Option<Vec<f64>>,
    pub x_desc: &'s str,
    pub y_desc: Option<&'s str>,
    /// A light grid line along each row.
    pub y_mesh: bool,
    /// The line at 1 of a ratio axis ([`line_at_one`]).
    pub line_at_one: bool,
}

impl RowAxes<'_> {
    /// Builds the chart with `b`, draws its mesh (and the line at 1), then calls `draw` with
    /// the map from (value, row position) to pixels.
    pub(crate) fn draw<DB: DrawingBackend>(
        self,
        mut b: ChartBuilder<'_, '_, DB>,
        draw: impl FnOnce(&dyn Fn(f64, f64) -> (i32, i32)) -> Result<(), String>,
    ) -> Result<(), String> {
        let n = self.rows.len();
        let catfmt = row_labels(self.rows);
        macro_rules! go {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(|e| e.to_string())?;
                let mut mesh = chart.configure_mesh();
                if !self.y_mesh {
                    mesh.disable_y_mesh();
                }
                mesh.y_labels(n)
                    .y_label_formatter(&catfmt)
                    .x_label_formatter(&|v| tick(*v))
                    .x_desc(self.x_desc);
                if let Some(d) = self.y_desc {
                    mesh.y_desc(d);
                }
                mesh_style(&mut mesh).draw().map_err(|e| e.to_string())?;
                if self.line_at_one {
                    line_at_one(&mut chart, n)?;
                }
                draw(&|x, y| chart.backend_coord(&(x, y)))
            }};
        }
        let (lo, hi) = self.x;
        let cr = -0.5..(n as f64 - 0.5);
        match (self.log, self.ticks) {
            (false, _) => go!(b.build_cartesian_2d(lo..hi, cr)),
            (true, None) => go!(b.build_cartesian_2d((lo..hi).log_scale(), cr)),
            (true, Some(t)) => {
                go!(b.build_cartesian_2d((lo..hi).log_scale().with_key_points(t), cr))
            }
        }
    }
}

/// The line at 1 of a ratio axis, over `rows` rows (from -0.5 to `rows - 0.5`).
pub(crate) fn line_at_one<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    rows: usize,
) -> Result<(), String>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    chart
        .draw_series(LineSeries::new(
            [(1.0, -0.5), (1.0, rows as f64 - 0.5)],
            BLACK.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// What each side of a ratio axis's line at 1 means, under the axis at either end: `below`
/// starting at `l`, `above` ending at `r`, at the height `yb + 48`, in grey. Returns the
/// font, for a key under them.
pub(crate) fn sides<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    (below, above): (&str, &str),
    (l, r): (i32, i32),
    yb: i32,
) -> Result<TextStyle<'static>, String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let font = (FONT, style::LEGEND)
        .into_font()
        .color(&RGBColor(80, 80, 80));
    root.draw(&Text::new(
        format!("<  {below}"),
        (l, yb + 48),
        font.clone(),
    ))
    .map_err(e)?;
    let text = format!("{above}  >");
    let w = style::text_width(&font.font, &text)?;
    root.draw(&Text::new(text, (r - w, yb + 48), font.clone()))
        .map_err(e)?;
    Ok(font)
}

/// The minimum gap in pixels between two neighbouring tick labels.
pub(crate) const TICK_GAP: f64 = 12.0;

/// The ticks `m × 10^(k e)` (m from `mantissas`, every `every`-th decade) within `lo..hi`.
fn decade_ticks((lo, hi): (f64, f64), mantissas: &[f64], every: usize) -> Vec<f64> {
    let mut out = vec![];
    let mut e = lo.log10().floor() as i32;
    while 10f64.powi(e) <= hi {
        if e.rem_euclid(every as i32) == 0 {
            for m in mantissas {
                let v = m * 10f64.powi(e);
                if v >= lo * (1.0 - 1e-12) && v <= hi * (1.0 + 1e-12) {
                    out.push(v);
                }
            }
        }
        e += 1;
    }
    out
}

/// Whether the labels of `ticks` ([`tick`] at the tick font), centred at the pixels `at`
/// gives along an axis, keep [`TICK_GAP`] pixels apart: by their widths on an x axis, by
/// the font's height on a y axis.
pub(crate) fn labels_apart(ticks: &[f64], at: &dyn Fn(f64) -> f64, vertical: bool) -> bool {
    let font = (FONT, style::TICK).into_font();
    let extent = |v: f64| {
        if vertical {
            Some(style::TICK as f64)
        } else {
            style::text_width(&font, &tick(v)).ok().map(f64::from)
        }
    };
    ticks
        .windows(2)
        .all(|w| match (extent(w[0]), extent(w[1])) {
            (Some(a), Some(b)) => (at(w[1]) - at(w[0])).abs() - (a + b) / 2.0 >= TICK_GAP,
            _ => false,
        })
}

/// `ticks` thinned until their labels keep apart ([`labels_apart`]): every second one, then
/// every third, … (the first kept), so that the kept ones stay evenly spaced.
pub(crate) fn thin_ticks(ticks: Vec<f64>, at: &dyn Fn(f64) -> f64, vertical: bool) -> Vec<f64> {
    for k in 1..=ticks.len().max(1) {
        let t: Vec<f64> = ticks.iter().copied().step_by(k).collect();
        if labels_apart(&t, at, vertical) {
            return t;
        }
    }
    ticks.into_iter().take(1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_label_area_is_the_widest_label_as_drawn() {
        let long = "fem-storage: Jacobi sweeps on the flattened arrays (f32) (1228032 unknowns)";
        super::super::canvas::register_font().unwrap();
        let font = (FONT, style::TICK).into_font();
        let w = style::text_width(&font, long).unwrap() as u32;
        assert_eq!(label_area([long, "lu"].into_iter()), w + 30);
        assert_eq!(widest_label([long, "lu"].into_iter()), w);
        // Narrower than the old estimate of 12 px a character, which left a wide empty margin,
        // and not so narrow that a label could be cut.
        assert!(w < long.chars().count() as u32 * 12, "{w} px");
        assert!(w > long.chars().count() as u32 * 6, "{w} px");
        assert_eq!(label_area(std::iter::empty()), 30);
    }

    #[test]
    fn a_title_too_wide_for_the_chart_gets_a_smaller_font() {
        let long = "fem-storage: kernels on llvmpipe (LLVM 15.0.6, 256 bits) — 4.5 (Core Profile) \
                    Mesa 22.3.6";
        assert_eq!(title_size("Fig. 6", 1160), style::TITLE);
        let size = title_size(long, 1160);
        assert!((style::TICK..style::TITLE).contains(&size), "{size}");
        let w = style::text_width(&(FONT, size).into_font(), long).unwrap();
        assert!(w as u32 <= 1160 || size == style::TICK, "{w} px at {size}");
    }

    /// Large and tiny ticks keep three significant digits: the sweep's last tick, 1,047,552
    /// unknowns, read "1e6" beside "261632".
    #[test]
    fn scientific_ticks_keep_three_digits() {
        assert_eq!(tick(1_047_552.0), "1.05e6");
        assert_eq!(tick(1e6), "1e6");
        assert_eq!(tick(2.5e-4), "2.5e-4");
        assert_eq!(tick(-3e7), "-3e7");
        assert_eq!(tick(261_632.0), "261632");
    }

    /// The log axis of `fig11_1024.png` (times from about 6 to 450 ms, plot ~870 px wide):
    /// the chosen ticks' labels keep apart at the rendered width (the old axis printed
    /// "708090100" there), and ticks are chosen at all.
    #[test]
    fn log_ticks_for_fig11_1024_do_not_collide() {
        for (range, len) in [((5.5, 520.0), 870), ((0.3, 55.0), 870), ((0.02, 60.0), 560)] {
            let t = log_ticks(range, len, false).expect("ticks");
            assert!(t.len() >= 3, "{range:?}: {t:?}");
            let at = |v: f64| (v / range.0).log10() / (range.1 / range.0).log10() * len as f64;
            assert!(labels_apart(&t, &at, false), "{range:?}: {t:?}");
            // Every integer mantissa, as the old axis drew them, collides at this width.
            let every: Vec<f64> = (1..10).map(f64::from).collect();
            assert!(
                !labels_apart(&decade_ticks(range, &every, 1), &at, false),
                "{range:?}"
            );
        }
        // A y axis: labels stack by the font's height, so a tall one gets the densest set
        // and a short one a sparser set.
        let t = log_ticks((1.0, 100.0), 600, true).expect("ticks");
        assert_eq!(t.len(), 13);
        let t = log_ticks((1.0, 100.0), 200, true).expect("ticks");
        assert_eq!(t, [1.0, 3.0, 10.0, 30.0, 100.0]);
        // Eight decades on 600 px: every other power of ten, or every one.
        let t = log_ticks((1e-3, 1e5), 600, false).expect("ticks");
        assert!(
            t.iter()
                .all(|v| (v.log10().round() - v.log10()).abs() < 1e-9)
        );
    }

    #[test]
    fn thinning_keeps_every_kth_tick_until_labels_are_apart() {
        let xs = [992.0, 4032.0, 16256.0, 65280.0, 261632.0, 1.05e6];
        let at = |v: f64| (v / 992.0).log10() / (1.05e6f64 / 992.0).log10() * 200.0;
        let t = thin_ticks(xs.to_vec(), &at, false);
        assert!(t.len() < xs.len() && t[0] == 992.0);
        assert!(labels_apart(&t, &at, false));
    }
}
