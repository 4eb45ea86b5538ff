//! The look of a trace picture: the font, the cell and margin sizes, the colours of fetched,
//! written and copied texels.

use std::sync::Once;

use plotters::style::{FontStyle, RGBColor};

pub(super) const FONT: &str = "gpgpu-repro trace mono";
pub(super) const CW: u32 = 44; // cell width
pub(super) const LH: u32 = 12; // line height in a cell
pub(super) const ML: u32 = 52; // left margin of a panel (row and channel labels)
pub(super) const GAP: u32 = 28;
pub(super) const PAD: u32 = 12;
pub(super) const TITLE_H: u32 = 34;
pub(super) const HEADER_LINE: u32 = 16;

pub(super) const FETCHED: RGBColor = RGBColor(187, 222, 251);
pub(super) const WRITTEN: RGBColor = RGBColor(255, 224, 178);
pub(super) const COPIED: RGBColor = RGBColor(200, 230, 201);
pub(super) const QUAD: RGBColor = RGBColor(211, 47, 47);
pub(super) const COPY_LINE: RGBColor = RGBColor(46, 125, 50);
pub(super) const GRID: RGBColor = RGBColor(200, 200, 200);
pub(super) const FAINT: RGBColor = RGBColor(150, 150, 150);
pub(super) const CARRIED: RGBColor = RGBColor(225, 210, 240);
pub(super) const CARRY_LINE: RGBColor = RGBColor(106, 27, 154);
pub(super) const CHANGED: RGBColor = RGBColor(150, 0, 0);

pub(super) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Only fails on a malformed font, and this one is compiled in.
        let _ = plotters::style::register_font(
            FONT,
            FontStyle::Normal,
            epaint_default_fonts::HACK_REGULAR,
        );
    });
}
