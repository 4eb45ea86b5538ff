//! PNG plots with `plotters`, rendered with a font compiled into the binary (Ubuntu Light from
//! `epaint_default_fonts`), so they look the same on a machine with no system fonts.
//!
//! One file per chart kind ([`line`](mod@line), [`bar`], [`ratio`], [`heatmap`]); what they share is
//! [`style`] (fonts, colours, markers, the legend band) and [`axis`] (the frame, ranges,
//! ticks); here the error type and the atomic PNG writing every chart ends with.

pub mod axis;
pub mod bar;
pub mod heatmap;
pub mod line;
pub mod ratio;
pub mod style;

pub(crate) use axis::{builder, mesh_style, tick};
pub use bar::BarChart;
pub use heatmap::{HeatMap, diverging};
pub use line::{LineChart, Series};
pub use ratio::RatioChart;

use std::path::{Path, PathBuf};
use std::sync::Once;

use super::files::{OutputError, write_atomic_with};
use plotters::style::FontStyle;

/// A plotting error with the file it concerns.
#[derive(Debug, thiserror::Error)]
#[error("plot {}: {message}", path.display())]
pub struct PlotError {
    pub path: PathBuf,
    pub message: String,
}

pub(crate) const FONT: &str = "sans-serif";

/// Every chart's size in pixels (a line or bar chart grows downwards by its legend).
pub(crate) const SIZE: (u32, u32) = (1200, 800);

/// Renders a chart through `render` into an RGB buffer of `size` pixels and saves it as a PNG
/// at `path`, atomically.
pub(crate) fn render_png(
    path: &Path,
    size: (u32, u32),
    render: impl FnOnce(&mut [u8]) -> Result<(), PlotError>,
) -> Result<(), PlotError> {
    let mut rgb = vec![0u8; (size.0 * size.1 * 3) as usize];
    render(&mut rgb)?;
    write_png(path, &rgb, size.0, size.1, image::ExtendedColorType::Rgb8).map_err(|e| PlotError {
        path: path.to_path_buf(),
        message: format!("{}", e.source),
    })
}

/// What a chart's `render` needs first: the font registered, and the error of drawing
/// `path` (`message` → [`PlotError`]).
pub(crate) fn start_render(path: &Path) -> impl Fn(String) -> PlotError + '_ {
    register_font();
    |message| PlotError {
        path: path.to_path_buf(),
        message,
    }
}

/// Writes pixels as a PNG at `path` atomically (temp file, then rename): a full disk or an
/// interrupt leaves the old file or none, never a truncated one. For every PNG the program
/// writes (charts, simulation frames, montages).
pub fn write_png(
    path: &Path,
    pixels: &[u8],
    width: u32,
    height: u32,
    color: image::ExtendedColorType,
) -> Result<(), OutputError> {
    use image::ImageEncoder;
    write_atomic_with(path, |w| {
        image::codecs::png::PngEncoder::new(w)
            .write_image(pixels, width, height, color)
            .map_err(std::io::Error::other)
    })
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let bytes = epaint_default_fonts::UBUNTU_LIGHT;
        for style in [
            FontStyle::Normal,
            FontStyle::Bold,
            FontStyle::Italic,
            FontStyle::Oblique,
        ] {
            // Only fails on a malformed font, and this one is compiled in.
            let _ = plotters::style::register_font(FONT, style, bytes);
        }
    });
}
