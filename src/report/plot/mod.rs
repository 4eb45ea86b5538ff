//! PNG plots with `plotters`, rendered with a font compiled into the binary (Ubuntu Light from
//! `epaint_default_fonts`), so they look the same on a machine with no system fonts.
//!
//! One file per chart kind ([`line`](mod@line), [`bar`], [`dot`], [`ratio`], [`heatmap`],
//! [`forest`]); what they share is
//! [`style`] (fonts, colours, markers, the legend band) and [`axis`] (the frame, ranges,
//! ticks); here the error type and the atomic PNG writing every chart ends with.

pub mod axis;
pub mod bar;
pub mod canvas;
pub mod dot;
pub mod forest;
pub mod heatmap;
pub mod line;
pub mod ratio;
pub mod style;

pub(crate) use axis::{builder, mesh_style, tick};
pub use bar::BarChart;
pub use dot::{Dot, DotChart, DotSeries};
pub use forest::{ForestChart, ForestRow};
pub use heatmap::{HeatMap, colour_map, diverging, viridis};
pub use line::{LineChart, Series};
pub use ratio::{RatioChart, RatioRow};

pub(crate) use canvas::FONT;
pub use canvas::{PlotError, write_png};
