//! The live viewer (`gpgpu-repro sim NAME --window`): the simulation runs on the window's own
//! GL context and is drawn every frame straight from its textures (a colour-mapped field, or
//! the lit 3D water surface), with the frames per second in the title.
//!
//! Keys: `Space` pause/resume, `R` reset, `S` next solver (the state is kept), `D` a
//! disturbance at a random place (a click puts one under the mouse in the 2D view),
//! `Esc`/`Q` quit. Without a display (`DISPLAY` and `WAYLAND_DISPLAY` unset, or no server
//! answering) it stops with an error that says so.

use std::time::Instant;

use anyhow::{Context, bail};
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalPosition};
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use crate::gl::window::GlWindow;
use crate::util::{RngExt, rng};

use super::render::{Renderer, Target};
use super::{SimEntry, Simulation, solver};

/// Opens the viewer and runs until the window is closed.
pub fn run(entry: &'static SimEntry, n: u32, solver_name: &str) -> anyhow::Result<()> {
    let Some(spec) = entry.adi.as_ref() else {
        bail!("{}: not an ADI simulation", entry.name);
    };
    let no_var = |v: &str| std::env::var_os(v).is_none_or(|s| s.is_empty());
    if no_var("DISPLAY") && no_var("WAYLAND_DISPLAY") {
        bail!(
            "--window needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set; run \
             without --window to write PNG frames headless (--frames DIR), or under a virtual \
             X server: xvfb-run -s '-screen 0 1024x768x24' gpgpu-repro sim {} --window",
            entry.name
        );
    }
    let event_loop = EventLoop::new()
        .context("--window: cannot connect to the display (is the X or Wayland server running?)")?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        name: entry.name,
        make: spec.make,
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
    make: super::MakeSim,
    n: u32,
    solver: String,
    state: Option<Live>,
    error: Option<anyhow::Error>,
}

struct Live {
    // Field order is drop order: GL objects before the window that owns the context.
    sim: Box<dyn Simulation>,
    renderer: Renderer,
    win: GlWindow,
    paused: bool,
    frames: u32,
    since: Instant,
    fps: f64,
    cursor: PhysicalPosition<f64>,
}

impl Live {
    fn title(&self) -> String {
        format!(
            "{} {n}×{n} — solver {} — {:.1} FPS — step {}{}   [Space pause, R reset, S solver, \
             D disturb, Q quit]",
            self.sim.name(),
            self.sim.adi().solver_name(),
            self.fps,
            self.sim.steps(),
            if self.paused { " (paused)" } else { "" },
            n = self.sim.adi().n()
        )
    }
}

impl App {
    fn fail(&mut self, el: &ActiveEventLoop, e: anyhow::Error) {
        self.error = Some(e);
        el.exit();
    }

    fn open(&mut self, el: &ActiveEventLoop) -> anyhow::Result<Live> {
        let attrs = Window::default_attributes()
            .with_title(format!("gpgpu-repro — {}", self.name))
            .with_inner_size(LogicalSize::new(900.0, 720.0));
        let win = GlWindow::new(el, attrs).context("--window: creating the GL window")?;
        let sim = (self.make)(win.gl(), self.n, &self.solver)?;
        let renderer = Renderer::new(win.gl())?;
        Ok(Live {
            sim,
            renderer,
            win,
            paused: false,
            frames: 0,
            since: Instant::now(),
            fps: 0.0,
            cursor: PhysicalPosition::new(0.0, 0.0),
        })
    }

    fn key(&mut self, key: Key) -> anyhow::Result<bool> {
        let Some(live) = self.state.as_mut() else {
            return Ok(true);
        };
        match key.as_ref() {
            Key::Named(NamedKey::Escape) | Key::Character("q") => return Ok(false),
            Key::Named(NamedKey::Space) => live.paused = !live.paused,
            Key::Character("r") => live.sim.reset()?,
            Key::Character("s") => {
                let names = solver::SOLVER_NAMES;
                let now = live.sim.adi().solver_name().to_string();
                let next =
                    names[(names.iter().position(|&s| s == now).unwrap_or(0) + 1) % names.len()];
                live.sim.set_solver(next)?;
                self.solver = next.to_string();
            }
            Key::Character("d") => {
                let n = live.sim.adi().n() as f32;
                let mut r = rng(live.sim.steps());
                let at = [
                    r.random_range(0.15 * n..0.85 * n),
                    r.random_range(0.15 * n..0.85 * n),
                ];
                live.sim.disturb(at)?;
            }
            _ => {}
        }
        live.win.window().set_title(&live.title());
        Ok(true)
    }

    fn click(&mut self) -> anyhow::Result<()> {
        let Some(live) = self.state.as_mut() else {
            return Ok(());
        };
        if live.sim.is_surface() {
            return Ok(());
        }
        let (w, h) = live.win.size();
        let r = Renderer::field_rect(w, h);
        let n = live.sim.adi().n() as f64;
        let x = (live.cursor.x - r.x as f64) / r.w as f64 * n;
        // Window y grows downwards; the grid's upwards.
        let y = (h as f64 - live.cursor.y - r.y as f64) / r.h as f64 * n;
        if (0.0..n).contains(&x) && (0.0..n).contains(&y) {
            live.sim.disturb([x as f32, y as f32])?;
        }
        Ok(())
    }

    fn frame(&mut self) -> anyhow::Result<()> {
        let Some(live) = self.state.as_mut() else {
            return Ok(());
        };
        if !live.paused {
            live.sim.step()?;
        }
        let (w, h) = live.win.size();
        let gl = live.win.gl().clone();
        gl.bind_default_framebuffer(w, h);
        gl.set_depth_test(live.sim.is_surface());
        gl.clear([0.08, 0.08, 0.1, 1.0]);
        live.renderer
            .draw(live.sim.as_ref(), Target::Window, w, h)?;
        gl.set_depth_test(false);
        live.win.swap_buffers()?;
        live.frames += 1;
        let dt = live.since.elapsed().as_secs_f64();
        if dt >= 0.5 {
            live.fps = live.frames as f64 / dt;
            live.frames = 0;
            live.since = Instant::now();
            live.win.window().set_title(&live.title());
        }
        Ok(())
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
