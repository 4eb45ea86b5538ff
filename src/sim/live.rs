//! The live viewer's state and its frame ([`super::viewer`] handles the window's events): the
//! simulation (and the split view's second one) stepped, the fields drawn into the boxes of
//! [`overlay::layout`], the overlay drawn over them, and twice a second the FPS, the split
//! view's rates and difference and the automatic colour range measured anew (which is when the
//! overlay's text changes, and so when it is composed and uploaded again).

use std::time::Instant;

use winit::dpi::PhysicalPosition;

use crate::gl::Rect;
use crate::gl::window::GlWindow;

use super::error::SimError;
use super::overlay::{self, Layout, Mode, Texts};
use super::render::{OverlayLayer, Renderer, Target};
use super::simulation::Simulation;
use super::split::Split;

/// Seconds between FPS, range and difference updates (and so overlay redraws).
const MEASURE_S: f64 = 0.5;

pub(super) struct Live {
    // Field order is drop order: GL objects before the window that owns the context.
    pub sim: Box<dyn Simulation>,
    pub split: Option<Split>,
    renderer: Renderer,
    overlay: OverlayLayer,
    pub win: GlWindow,
    pub paused: bool,
    frames: u32,
    since: Instant,
    fps: f64,
    pub cursor: PhysicalPosition<f64>,
    /// Colour range from the field itself (else the scheme's physical range).
    pub auto: bool,
    /// The field's range at the last measurement (both fields' in the split view).
    measured: Option<(f32, f32)>,
    pub layout: Option<Layout>,
    /// The overlay must be composed again (its text or layout changed).
    pub stale: bool,
}

/// The simulations on screen: one, or two in the split view.
fn on_screen<'a>(sim: &'a dyn Simulation, split: Option<&'a Split>) -> Vec<&'a dyn Simulation> {
    let mut v = vec![sim];
    v.extend(split.map(|s| s.other.as_ref()));
    v
}

/// The colour-mapped fields of layout `l`, as (box, simulation): the split view's two, the
/// surface's inset, or the one field.
pub(super) fn fields<'a>(
    l: &Layout,
    sim: &'a dyn Simulation,
    split: Option<&'a Split>,
) -> Vec<(Rect, &'a dyn Simulation)> {
    match l.inset {
        Some(inset) => vec![(inset, sim)],
        None => l.views.iter().copied().zip(on_screen(sim, split)).collect(),
    }
}

impl Live {
    pub fn new(win: GlWindow, sim: Box<dyn Simulation>) -> anyhow::Result<Live> {
        Ok(Live {
            renderer: Renderer::new(win.gl())?,
            overlay: OverlayLayer::new(win.gl())?,
            sim,
            split: None,
            win,
            paused: false,
            frames: 0,
            since: Instant::now(),
            fps: 0.0,
            cursor: PhysicalPosition::new(0.0, 0.0),
            auto: false,
            measured: None,
            layout: None,
            stale: true,
        })
    }

    pub fn title(&self) -> String {
        format!(
            "{} {n}×{n} — solver {} — {:.1} FPS — step {}{}",
            self.sim.name(),
            self.sim.solver_name(),
            self.fps,
            self.sim.steps(),
            if self.paused { " (paused)" } else { "" },
            n = self.sim.n()
        )
    }

    fn mode(&self) -> Mode {
        match (&self.split, self.sim.is_surface()) {
            (Some(_), _) => Mode::Split,
            (None, true) => Mode::Surface,
            (None, false) => Mode::Field,
        }
    }

    /// The colour range in use.
    fn range(&self) -> (f32, f32) {
        match (self.auto, self.measured) {
            (true, Some(r)) => r,
            _ => self.sim.range(),
        }
    }

    /// The split view's rates and difference, and the automatic range: measured anew.
    pub fn measure(&mut self) -> Result<(), SimError> {
        if let Some(s) = self.split.as_mut() {
            s.measure(self.sim.as_ref())?;
        }
        self.measured = None;
        if self.auto {
            for sim in on_screen(self.sim.as_ref(), self.split.as_ref()) {
                self.measured = match (self.measured, self.renderer.min_max(sim)?) {
                    (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
                    (a, b) => a.or(b),
                };
            }
        }
        self.stale = true;
        Ok(())
    }

    /// Adds the same disturbance to every simulation on screen.
    pub fn disturb(&mut self, at: [f32; 2]) -> Result<(), SimError> {
        self.sim.disturb(at)?;
        if let Some(s) = self.split.as_mut() {
            s.other.disturb(at)?;
        }
        Ok(())
    }

    fn texts(&self) -> Texts {
        let (sim, n) = (self.sim.as_ref(), self.sim.n());
        let sims = on_screen(sim, self.split.as_ref());
        let solvers: Vec<&str> = sims.iter().map(|s| s.solver_name()).collect();
        let captions = match &self.split {
            Some(s) => std::iter::zip(&solvers, s.rates)
                .map(|(x, r)| format!("{x}: {r:.1} steps/s"))
                .collect(),
            None if sim.is_surface() => vec![format!("{} (map)", sim.quantity())],
            None => vec![],
        };
        Texts {
            info: [
                format!(
                    "{} — {} on a {n}×{n} grid — solver {} — step {}{}",
                    sim.name(),
                    sim.quantity(),
                    solvers.join(" and "),
                    sim.steps(),
                    if self.paused { " (paused)" } else { "" }
                ),
                format!(
                    "{:.1} FPS    Space pause · R reset · S solver · V split · A range · \
                     D disturb (or click) · Q quit",
                    self.fps
                ),
            ],
            quantity: sim.quantity().to_string(),
            range_mode: if self.auto { "auto" } else { "physical" },
            range: self.range(),
            captions,
            footer: self
                .split
                .as_ref()
                .map(|s| s.footer(sim))
                .unwrap_or_default(),
        }
    }

    /// One frame: a step (of both in the split view) unless paused, the view, the overlay.
    pub fn frame(&mut self) -> anyhow::Result<()> {
        if !self.paused {
            match self.split.as_mut() {
                Some(s) => s.step(self.sim.as_mut())?,
                None => self.sim.step()?,
            }
        }
        let (w, h) = self.win.size();
        let l = overlay::layout(w, h, self.mode());
        if self.layout.as_ref() != Some(&l) {
            if std::env::var_os("GPGPU_REPRO_LAYOUT").is_some() {
                println!("{}", l.describe());
            }
            self.layout = Some(l.clone());
            self.stale = true;
        }
        if self.stale {
            let img = overlay::compose(&l, &self.texts()).map_err(anyhow::Error::msg)?;
            self.overlay.set(&img, h)?;
            self.stale = false;
        }
        let gl = self.win.gl().clone();
        gl.bind_default_framebuffer(w, h);
        gl.clear([0.08, 0.08, 0.1, 1.0]);
        let sim = self.sim.as_ref();
        if l.inset.is_some() {
            gl.set_depth_test(true);
            let area = overlay::gl_rect(l.views[0], h);
            self.renderer
                .draw_in(sim, Target::Window, (w, h), area, sim.range(), true)?;
            gl.set_depth_test(false);
        }
        let range = self.range();
        for (r, s) in fields(&l, sim, self.split.as_ref()) {
            let area = overlay::gl_rect(r, h);
            self.renderer
                .draw_in(s, Target::Window, (w, h), area, range, false)?;
        }
        self.overlay.draw(w, h)?;
        self.win.swap_buffers()?;
        self.frames += 1;
        let dt = self.since.elapsed().as_secs_f64();
        if dt >= MEASURE_S {
            self.fps = self.frames as f64 / dt;
            self.frames = 0;
            self.since = Instant::now();
            self.measure()?;
            self.win.window().set_title(&self.title());
        }
        Ok(())
    }
}
