//! The live viewer (`gpgpu-repro sim NAME --window`): the simulation runs on the window's own
//! GL context and is drawn every frame straight from its textures (a colour-mapped field, or
//! the lit 3D water surface with its height map as an inset), under an overlay
//! ([`super::overlay`]) that says what is shown: the scheme, grid, solver, step and FPS on
//! top, and on the right a colour bar with its values, the quantity's name and the range in
//! use — the scheme's physical range, or the field's own minimum and maximum (`A`; read
//! through a small GPU reduction twice a second). `V` splits the view: a second solver runs on
//! the same state beside the first ([`super::split`]), each with its steps per second, and the
//! largest difference between the two fields under them.
//!
//! Keys: `Space` pause/resume, `R` reset, `S` next solver this device runs (the state is
//! kept), `A` colour range physical/auto, `V` split view on/off, `D` a disturbance at a random
//! place (a click puts one under the mouse on a field or the height map), `Esc`/`Q` quit.
//! Without a display (`DISPLAY` and `WAYLAND_DISPLAY` unset, or no server answering) it stops
//! with an error that says so. With `GPGPU_REPRO_LAYOUT=1` it prints the overlay's boxes
//! whenever they change (the smoke test's pixel check reads them).

use anyhow::Context;
use winit::application::ApplicationHandler;
use winit::dpi::LogicalSize;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use crate::gl::window::{GlWindow, view_event_loop};
use crate::util::{RngExt, rng};

use super::live::{self, Live};
use super::overlay;
use super::solvers::{MakeSim, Solvers};
use super::split::Split;

/// Opens the viewer on the simulation called `name` (made by `make` on an `n × n` grid with
/// the solver `solver_name`, switchable among `solvers`) and runs until the window is closed.
pub fn run(
    name: &'static str,
    make: MakeSim,
    solvers: &'static Solvers,
    n: u32,
    solver_name: &str,
) -> anyhow::Result<()> {
    let event_loop = view_event_loop(&format!(
        "run without --window to write PNG frames headless (--frames DIR), or under a virtual \
         X server: xvfb-run -s '-screen 0 1024x768x24' gpgpu-repro sim {name} --window"
    ))?;
    let mut app = App {
        name,
        make,
        solvers,
        n,
        solver: solver_name.to_string(),
        state: None,
        error: None,
    };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct App {
    name: &'static str,
    make: MakeSim,
    solvers: &'static Solvers,
    n: u32,
    solver: String,
    state: Option<Live>,
    error: Option<anyhow::Error>,
}

impl App {
    fn fail(&mut self, el: &ActiveEventLoop, e: anyhow::Error) {
        self.error = Some(e);
        el.exit();
    }

    fn open(&mut self, el: &ActiveEventLoop) -> anyhow::Result<Live> {
        let attrs = Window::default_attributes()
            .with_title(format!("gpgpu-repro — {}", self.name))
            .with_inner_size(LogicalSize::new(900.0, 720.0))
            .with_min_inner_size(LogicalSize::new(overlay::MIN_SIZE.0, overlay::MIN_SIZE.1));
        let win = GlWindow::new(el, attrs).context("--window: creating the GL window")?;
        let sim = (self.make)(win.gl(), self.n, &self.solver)?;
        Live::new(win, sim)
    }

    fn key(&mut self, key: Key) -> anyhow::Result<bool> {
        let Some(live) = self.state.as_mut() else {
            return Ok(true);
        };
        match key.as_ref() {
            Key::Named(NamedKey::Escape) | Key::Character("q") => return Ok(false),
            Key::Named(NamedKey::Space) => live.paused = !live.paused,
            Key::Character("r") => {
                live.sim.reset()?;
                if let Some(s) = live.split.as_mut() {
                    s.other.reset()?;
                }
            }
            Key::Character("s") => {
                // The next solver this device runs (compute ones need GL 4.3).
                let (names, gl) = (self.solvers.names, live.sim.gl().clone());
                let now = live.sim.solver_name().to_string();
                let at = names.iter().position(|&s| s == now).unwrap_or(0);
                let next = (1..=names.len())
                    .map(|k| names[(at + k) % names.len()])
                    .find(|s| gl.caps().lacks((self.solvers.needs)(s)).is_none())
                    .unwrap_or(self.solvers.default_name());
                live.sim.set_solver(next)?;
                if let Some(s) = live.split.as_mut() {
                    s.other.set_solver(self.solvers.partner(next))?;
                }
                self.solver = next.to_string();
            }
            Key::Character("a") => {
                live.auto = !live.auto;
                live.measure()?;
            }
            Key::Character("v") => {
                if live.split.take().is_none() {
                    // A split the device cannot hold is reported, not fatal.
                    match Split::new(live.sim.as_ref(), self.make, self.solvers) {
                        Ok(s) => live.split = Some(s),
                        Err(e) => eprintln!("split view: {e}"),
                    }
                }
                live.measure()?;
            }
            Key::Character("d") => {
                let n = live.sim.n() as f32;
                let mut r = rng(live.sim.steps());
                let at = [
                    r.random_range(0.15 * n..0.85 * n),
                    r.random_range(0.15 * n..0.85 * n),
                ];
                live.disturb(at)?;
            }
            _ => {}
        }
        live.stale = true;
        live.win.window().set_title(&live.title());
        Ok(true)
    }

    /// A click on a colour-mapped field disturbs the state there (on both in a split view).
    fn click(&mut self) -> anyhow::Result<()> {
        let Some(live) = self.state.as_mut() else {
            return Ok(());
        };
        let Some(l) = live.layout.clone() else {
            return Ok(());
        };
        let n = live.sim.n() as f64;
        let (cx, cy) = (live.cursor.x, live.cursor.y);
        let boxes: Vec<_> = live::fields(&l, live.sim.as_ref(), live.split.as_ref())
            .into_iter()
            .map(|(r, _)| r)
            .collect();
        for r in boxes {
            let x = (cx - r.x as f64) / r.w as f64 * n;
            // Window y grows downwards; the grid's upwards.
            let y = ((r.y + r.h) as f64 - cy) / r.h as f64 * n;
            if (0.0..n).contains(&x) && (0.0..n).contains(&y) {
                return Ok(live.disturb([x as f32, y as f32])?);
            }
        }
        Ok(())
    }

    fn frame(&mut self) -> anyhow::Result<()> {
        match self.state.as_mut() {
            Some(live) => live.frame(),
            None => Ok(()),
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match self.open(el) {
            Ok(live) => {
                live.win.window().request_redraw();
                self.state = Some(live);
            }
            Err(e) => self.fail(el, e),
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let result = match event {
            WindowEvent::CloseRequested => {
                el.exit();
                Ok(())
            }
            WindowEvent::Resized(_) => {
                if let Some(live) = &self.state {
                    live.win.resize();
                }
                Ok(())
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                match self.key(event.logical_key) {
                    Ok(false) => {
                        el.exit();
                        Ok(())
                    }
                    Ok(true) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                if let Some(live) = self.state.as_mut() {
                    live.cursor = position;
                }
                Ok(())
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Left,
                ..
            } => self.click(),
            WindowEvent::RedrawRequested => self.frame(),
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.fail(el, e);
        }
    }

    fn about_to_wait(&mut self, _el: &ActiveEventLoop) {
        if let Some(live) = &self.state {
            live.win.window().request_redraw();
        }
    }

    fn exiting(&mut self, _el: &ActiveEventLoop) {
        // Drop the GL objects while the context is still current.
        self.state = None;
    }
}
