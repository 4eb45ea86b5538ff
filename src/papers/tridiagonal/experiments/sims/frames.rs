//! Figs. 13, 16, 18 and 19: each simulation's frame sequence as one PNG montage (the
//! snapshots at the configured steps, one shared colour bar; for shallow water the lit 3D
//! surface above the height field).

use crate::runner::{RunError, Session};
use crate::sim::render::{self, Renderer};
use crate::sim::{Simulation, frames};

use super::config::Frames;
use super::simulations::simulation;

/// The figures: id, simulation, title (the steps come from `sims.toml`, [`Frames::steps`]).
const FIGS: [(&str, &str, &str); 4] = [
    (
        "fig13",
        "heat",
        "Fig. 13 — heat conduction: two sources held at 1, Neumann walls",
    ),
    (
        "fig16",
        "pollutant-stream",
        "Fig. 16 — pollutant in a uniform stream along x, source left of the centre",
    ),
    (
        "fig18",
        "pollutant-vortex",
        "Fig. 18 — pollutant in a rotating flow (constant ω), release near the lower left",
    ),
    (
        "fig19",
        "shallow-water",
        "Fig. 19 — shallow water pushed along the diagonal (red: above rest, blue: below)",
    ),
];

/// What the caption adds for the shallow-water surface.
const SURFACE_HOW: &str = " Each step: the lit 3D surface (colour: water depth, lighter = \
     shallower, over a sloping bottom with a hill) above the surface height seen from above, \
     red above the rest level and blue below it. The push is a moving Gaussian depression \
     imposed as a displacement (its second difference in time, see the notes), so the surface \
     at its centre stands raised (red) between troughs (blue) ahead of and behind it: the bump \
     in the 3D view is in the data, not an effect of the shading.";

/// Figs. 13, 16, 18, 19: frame sequences, one figure each: the snapshots with their step
/// numbers and one shared colour bar ([`frames::snapshot_grid`]).
pub(super) fn frame_figures(s: &Session, cfg: &Frames) -> Result<(), RunError> {
    let n = *cfg.size.pick(s.mode).first().unwrap_or(&255);
    for (id, name, title) in FIGS {
        s.check_interrupt()?;
        let steps = cfg.steps(id);
        let spec = simulation(name).expect("one of the paper's simulations");
        let mut sim = (spec.make)(&s.gl, n, &cfg.solver).map_err(RunError::algorithm)?;
        let panels = snapshots(s, sim.as_mut(), steps)?;
        let file = format!("{id}.png");
        let surface = sim.is_surface();
        // A surface's height is shown against its rest level in a diverging map (blue below,
        // red above), so that a depression reads as one; a concentration or temperature in
        // viridis.
        let (cmap, quantity): (fn(f32) -> [u8; 3], String) = if surface {
            (
                |t| crate::report::plot::diverging(t as f64),
                format!("{} above rest (red: above, blue: below)", sim.quantity()),
            )
        } else {
            (frames::viridis, sim.quantity().to_string())
        };
        let path = s.dir().join(&file);
        frames::snapshot_grid(title, &panels, sim.range(), &quantity, cmap, &path)
            .map_err(RunError::algorithm)?;
        let how = if surface { SURFACE_HOW } else { "" };
        let at: Vec<String> = steps.iter().map(|x| x.to_string()).collect();
        s.add_plot(
            &file,
            &format!(
                "{title}.{how} {n}×{n}, solver {}, steps {}; one colour scale for all panels.",
                cfg.solver,
                at.join(", ")
            ),
        );
    }
    Ok(())
}

/// The panels of `sim` at each of `steps` (ascending): its field, and for a surface the lit
/// 3D view cropped to the surface.
fn snapshots(
    s: &Session,
    sim: &mut dyn Simulation,
    steps: &[u64],
) -> Result<Vec<frames::Panel>, RunError> {
    let mut renderer = None;
    let mut panels = Vec::new();
    for &at in steps {
        while sim.steps() < at {
            sim.step().map_err(RunError::algorithm)?;
        }
        let view = if sim.is_surface() {
            if renderer.is_none() {
                renderer = Some(Renderer::new(&s.gl).map_err(RunError::algorithm)?);
            }
            let r = renderer.as_mut().expect("made above");
            let img = render::view_image(r, sim, 800, 600).map_err(RunError::algorithm)?;
            Some(crop_white(&img))
        } else {
            None
        };
        panels.push(frames::Panel {
            label: format!("step {at}"),
            n: sim.n() as usize,
            field: sim.read().map_err(RunError::algorithm)?,
            view,
        });
    }
    Ok(panels)
}

/// `img` without its white border (the 3D view's empty sky and sides), keeping 8 px.
fn crop_white(img: &image::RgbImage) -> image::RgbImage {
    let (w, h) = img.dimensions();
    let ink = |x: u32, y: u32| img.get_pixel(x, y).0.iter().any(|&c| c < 245);
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if ink(x, y) {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    if x1 < x0 || y1 < y0 {
        return img.clone();
    }
    let (x0, y0) = (x0.saturating_sub(8), y0.saturating_sub(8));
    let (x1, y1) = ((x1 + 8).min(w - 1), (y1 + 8).min(h - 1));
    image::imageops::crop_imm(img, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image()
}
