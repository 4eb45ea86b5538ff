//! The canvas every chart draws on: its size and font, rendering to a PNG file written
//! atomically, and the plotting error that names the file.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::report::files::{OutputError, write_atomic_with};
use plotters::coord::Shift;
use plotters::prelude::{BitMapBackend, DrawingArea, IntoDrawingArea, WHITE};
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

/// The white canvas every chart draws on: an RGB buffer of the picture's size.
pub(crate) type Canvas<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// Renders a chart on a white [`Canvas`] and saves it as a PNG at `path`, atomically.
///
/// The order matters: the font is registered first, then the picture's size is computed
/// (`size`, which may measure text, e.g. a legend's widest entry), once, and that one size is
/// handed to both the RGB buffer and `render`. Computing it twice, once before the font was
/// registered, once after, gave two heights on the first chart of a process and a buffer that
/// did not match the renderer's (issue 40).
pub(crate) fn render_png(
    path: &Path,
    size: impl FnOnce() -> Result<(u32, u32), String>,
    render: impl FnOnce(&Canvas, (u32, u32)) -> Result<(), PlotError>,
) -> Result<(), PlotError> {
    let perr = plot_error(path);
    register_font().map_err(&perr)?;
    let size = size().map_err(&perr)?;
    if size.0 == 0 || size.1 == 0 {
        return Err(perr(format!("empty picture ({}×{} px)", size.0, size.1)));
    }
    let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
        render(&root, size)?;
        root.present().map_err(|e| perr(e.to_string()))?;
    }
    write_png(path, &rgb, size.0, size.1, image::ExtendedColorType::Rgb8).map_err(|e| PlotError {
        path: path.to_path_buf(),
        message: format!("{}", e.source),
    })
}

/// A chart's drawing for [`save_sized`]: the chart, the path (for its errors), the white
/// canvas and its size.
type Render<C> = fn(&C, &Path, &Canvas, (u32, u32)) -> Result<(), PlotError>;

/// Saves a chart whose size needs no text measured (forest, ratio, heat map): [`render_png`]
/// with the chart's `size` and its `render` (which gets the path for its errors).
pub(crate) fn save_sized<C>(
    chart: &C,
    path: &Path,
    size: fn(&C) -> (u32, u32),
    render: Render<C>,
) -> Result<(), PlotError> {
    render_png(
        path,
        || Ok(size(chart)),
        |root, s| render(chart, path, root, s),
    )
}

/// The error of drawing `path` (`message` → [`PlotError`]).
pub(crate) fn plot_error(path: &Path) -> impl Fn(String) -> PlotError + '_ {
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

/// Registers the compiled-in font under [`FONT`] for every style, once per process; every
/// text measurement goes through here first ([`style::text_width`]), so that no measurement
/// can see a process without the font. An error (a malformed font) is kept and returned to
/// every caller.
pub(crate) fn register_font() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let bytes = epaint_default_fonts::UBUNTU_LIGHT;
        for style in [
            FontStyle::Normal,
            FontStyle::Bold,
            FontStyle::Italic,
            FontStyle::Oblique,
        ] {
            plotters::style::register_font(FONT, style, bytes)
                .map_err(|_| format!("the compiled-in font {FONT:?} could not be registered"))?;
        }
        Ok(())
    })
    .clone()
}
