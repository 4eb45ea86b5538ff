//! PNG frames: a field in a perceptual colour map (viridis) with a colour bar.
//!
//! The colour map is the polynomial fit of viridis (Matt Zucker's, public domain), the same
//! one `glsl/sim/colormap.frag` uses for the GPU visualisation, so frames and the live view
//! agree. Small grids are enlarged by pixel replication to at least 512 pixels.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::{SimError, Simulation};

/// viridis at `t` ∈ [0, 1] (clamped), as 8-bit RGB.
pub fn viridis(t: f32) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0) as f64;
    const C: [[f64; 3]; 7] = [
        [0.277_727_3, 0.005_407_344, 0.334_099_8],
        [0.105_093_0, 1.404_613_5, 1.384_590_2],
        [-0.330_861_8, 0.214_847_6, 0.095_095_16],
        [-4.634_230_5, -5.799_101, -19.332_441],
        [6.228_270, 14.179_934, 56.690_55],
        [4.776_385, -13.745_146, -65.353_03],
        [-5.435_456, 4.645_852_6, 26.312_435],
    ];
    let mut rgb = [0u8; 3];
    for (ch, out) in rgb.iter_mut().enumerate() {
        let mut v = C[6][ch];
        for k in (0..6).rev() {
            v = v * t + C[k][ch];
        }
        *out = (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    }
    rgb
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        );
    });
}

/// Writes the simulation's current field as a PNG with a colour bar and a caption.
pub fn write_frame(sim: &dyn Simulation, path: &Path) -> Result<(), SimError> {
    let field = sim.read()?;
    let n = sim.adi().n() as usize;
    let (lo, hi) = sim.range();
    let caption = format!(
        "{}  {}×{}  step {}  solver {}",
        sim.name(),
        n,
        n,
        sim.steps(),
        sim.adi().solver_name()
    );
    save_field(&field, n, lo, hi, sim.quantity(), &caption, path)
}

/// Writes `field` (`n × n`, grid order, row 0 at the bottom) as a PNG: the field in viridis
/// over `[lo, hi]`, a colour bar labelled with `quantity`, and `caption` on top.
pub fn save_field(
    field: &[f32],
    n: usize,
    lo: f32,
    hi: f32,
    quantity: &str,
    caption: &str,
    path: &Path,
) -> Result<(), SimError> {
    let err = |m: String| SimError::Frame {
        path: path.to_path_buf(),
        message: m,
    };
    if field.len() != n * n {
        return Err(err(format!("{} values for a {n}×{n} field", field.len())));
    }
    let scale = 512usize.div_ceil(n).max(1);
    let side = n * scale;
    let (top, margin, bar_w, label_w) = (28usize, 12usize, 24usize, 90usize);
    let (w, h) = (
        margin + side + margin + bar_w + label_w,
        top + side + margin,
    );
    let mut buf = vec![255u8; w * h * 3];
    let put = |buf: &mut [u8], x: usize, y: usize, c: [u8; 3]| {
        let o = (y * w + x) * 3;
        buf[o..o + 3].copy_from_slice(&c);
    };
    let span = if hi > lo { hi - lo } else { 1.0 };
    for py in 0..side {
        // Row 0 of the grid at the bottom (y up, as in the paper's figures).
        let j = n - 1 - py / scale;
        for px in 0..side {
            let v = field[j * n + px / scale];
            let c = if v.is_finite() {
                viridis((v - lo) / span)
            } else {
                [255, 0, 255]
            };
            put(&mut buf, margin + px, top + py, c);
        }
    }
    let bx = margin + side + margin;
    for py in 0..side {
        let c = viridis(1.0 - py as f32 / (side - 1) as f32);
        for px in 0..bar_w {
            put(&mut buf, bx + px, top + py, c);
        }
    }
    register_font();
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w as u32, h as u32)).into_drawing_area();
        let font = ("sans-serif", 15).into_font().color(&BLACK);
        let small = ("sans-serif", 13).into_font().color(&BLACK);
        let text = |s: &str, x: usize, y: usize, f: &TextStyle| {
            root.draw(&Text::new(s.to_string(), (x as i32, y as i32), f.clone()))
                .map_err(|e| err(e.to_string()))
        };
        text(caption, margin, 6, &font)?;
        let lx = bx + bar_w + 6;
        for k in 0..=4 {
            let f = k as f32 / 4.0;
            let y = top + ((1.0 - f) * (side - 1) as f32) as usize;
            text(
                &format!("{:.3}", lo + f * span),
                lx,
                y.saturating_sub(7),
                &small,
            )?;
        }
        text(quantity, lx, top + side / 2 + 14, &small)?;
        root.present().map_err(|e| err(e.to_string()))?;
    }
    crate::report::plot::write_png(
        path,
        &buf,
        w as u32,
        h as u32,
        image::ExtendedColorType::Rgb8,
    )
    .map_err(|e| err(format!("{e}: {}", e.source)))
}
