//! `gpgpu-repro trace <technique> --window`: the pass pictures in a window. The technique runs
//! on the window's own GL context (the real solver, as headless), then `→` / `←` step through
//! the passes, `Space` plays them (one every 1.5 s), `Home` goes back to the first, `Q`/`Esc`
//! quits. The picture is scaled on the CPU (triangle filter) to fit the window, so the numbers
//! stay legible when it shrinks.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use winit::application::ApplicationHandler;
use winit::dpi::LogicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use super::input::Input;
use super::render::{Picture, pass_picture};
use super::technique::Technique;
use crate::gl::window::{GlWindow, view_event_loop};
use crate::gl::{Format, Program, Quad, QuadBatch, Rect, TexTarget, Texture};

const STEP: Duration = Duration::from_millis(1500);

/// Opens the viewer on `technique` run with `input`; with `autoplay_exit` it shows every
/// pass once and closes (for tests under `xvfb-run`). Returns the passes shown.
pub fn run(t: &'static Technique, input: Input, autoplay_exit: bool) -> anyhow::Result<usize> {
    let event_loop = view_event_loop(&format!(
        "run without --window to write the pictures (figures/quick/trace/{}/), or under a \
         virtual X server: xvfb-run -a gpgpu-repro trace {} --window",
        t.name, t.name
    ))?;
    let mut app = App {
        t,
        input,
        autoplay_exit,
        state: None,
        error: None,
        shown: 0,
    };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(app.shown),
    }
}

struct App {
    t: &'static Technique,
    input: Input,
    autoplay_exit: bool,
    state: Option<Live>,
    error: Option<anyhow::Error>,
    shown: usize,
}

struct Live {
    // Field order is drop order: GL objects before the window that owns the context.
    tex: Option<Texture>,
    quad: QuadBatch,
    prog: std::rc::Rc<Program>,
    win: GlWindow,
    pictures: Vec<Picture>,
    titles: Vec<String>,
    index: usize,
    /// (index, window size) of the uploaded picture.
    uploaded: Option<(usize, (u32, u32))>,
    playing: bool,
    since: Instant,
}

impl App {
    fn open(&mut self, el: &ActiveEventLoop) -> anyhow::Result<Live> {
        let attrs = Window::default_attributes()
            .with_title(format!("gpgpu-repro trace {}", self.t.name))
            .with_inner_size(LogicalSize::new(1400.0, 800.0));
        let win = GlWindow::new(el, attrs).context("--window: creating the GL window")?;
        let trace = (self.t.run)(win.gl(), &self.input)?;
        if !trace.bit_identical() {
            bail!("the traced result differs from the untraced solver's output");
        }
        let heading = trace.heading();
        let count = trace.passes.len();
        let mut pictures = vec![];
        for (i, p) in trace.passes.iter().enumerate() {
            pictures.push(pass_picture(p, i, count, &heading).map_err(anyhow::Error::msg)?);
        }
        let titles = trace.passes.iter().map(|p| p.title.clone()).collect();
        let prog = Program::fragment(win.gl(), "trace/show.frag", &[])?;
        let quad = QuadBatch::new(win.gl(), &[])?;
        Ok(Live {
            tex: None,
            quad,
            prog,
            win,
            pictures,
            titles,
            index: 0,
            uploaded: None,
            playing: self.autoplay_exit,
            since: Instant::now(),
        })
    }

    fn title(live: &Live, name: &str) -> String {
        format!(
            "{name} — pass {}/{}: {}{}   [→ next, ← back, Space play, Home first, Q quit]",
            live.index + 1,
            live.pictures.len(),
            live.titles[live.index],
            if live.playing { " (playing)" } else { "" }
        )
    }

    fn key(&mut self, key: Key) -> bool {
        let Some(live) = self.state.as_mut() else {
            return true;
        };
        let last = live.pictures.len().saturating_sub(1);
        match key.as_ref() {
            Key::Named(NamedKey::Escape) | Key::Character("q") => return false,
            Key::Named(NamedKey::ArrowRight) => live.index = (live.index + 1).min(last),
            Key::Named(NamedKey::ArrowLeft) => live.index = live.index.saturating_sub(1),
            Key::Named(NamedKey::Home) => live.index = 0,
            Key::Named(NamedKey::Space) => {
                live.playing = !live.playing;
                live.since = Instant::now();
            }
            _ => {}
        }
        live.win.window().set_title(&Self::title(live, self.t.name));
        true
    }

    /// Draws the current picture; returns false when an autoplay has shown the last one.
    fn frame(&mut self) -> anyhow::Result<bool> {
        let Some(live) = self.state.as_mut() else {
            return Ok(true);
        };
        let last = live.pictures.len().saturating_sub(1);
        if live.playing && (self.autoplay_exit || live.since.elapsed() >= STEP) {
            if live.index < last {
                live.index += 1;
            } else if !self.autoplay_exit {
                live.playing = false;
            }
            live.since = Instant::now();
            live.win.window().set_title(&Self::title(live, self.t.name));
        }
        let (w, h) = live.win.size();
        let gl = live.win.gl().clone();
        if live.uploaded != Some((live.index, (w, h))) {
            let p = &live.pictures[live.index];
            // Fit the picture into the window, keeping its aspect ratio.
            let s = (w as f64 / p.width as f64).min(h as f64 / p.height as f64);
            let (pw, ph) = (
                ((p.width as f64 * s) as u32).max(1),
                ((p.height as f64 * s) as u32).max(1),
            );
            let img = image::RgbImage::from_raw(p.width, p.height, p.rgb.clone())
                .context("a pass picture of the wrong size")?;
            let img = image::imageops::resize(&img, pw, ph, image::imageops::Triangle);
            let data: Vec<f32> = img
                .pixels()
                .flat_map(|px| [px[0], px[1], px[2], 255].map(|c| c as f32 / 255.0))
                .collect();
            live.tex = Some(Texture::new(
                &gl,
                TexTarget::Tex2D,
                Format::RGBA32F,
                pw,
                ph,
                Some(&data),
            )?);
            let (x0, y0) = ((w - pw.min(w)) / 2, (h - ph.min(h)) / 2);
            live.quad.set(&[Quad::mapped(
                Rect::new(x0, y0, pw, ph),
                [0.0, 1.0, 1.0, 0.0],
            )])?;
            live.uploaded = Some((live.index, (w, h)));
            self.shown = self.shown.max(live.index + 1);
        }
        gl.bind_default_framebuffer(w, h);
        gl.clear([1.0, 1.0, 1.0, 1.0]);
        if let Some(tex) = &live.tex {
            live.prog.bind_texture(0, "u_img", tex);
            live.quad.draw(&live.prog, w, h)?;
        }
        live.win.swap_buffers()?;
        Ok(!(self.autoplay_exit && live.index == last))
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match self.open(el) {
            Ok(live) => {
                live.win
                    .window()
                    .set_title(&Self::title(&live, self.t.name));
                live.win.window().request_redraw();
                self.state = Some(live);
            }
            Err(e) => {
                self.error = Some(e);
                el.exit();
            }
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => el.exit(),
            WindowEvent::Resized(_) => {
                if let Some(live) = &self.state {
                    live.win.resize();
                }
            }
            WindowEvent::KeyboardInput { event, .. }
                if event.state == ElementState::Pressed && !self.key(event.logical_key.clone()) =>
            {
                el.exit()
            }
            WindowEvent::RedrawRequested => match self.frame() {
                Ok(true) => {}
                Ok(false) => el.exit(),
                Err(e) => {
                    self.error = Some(e);
                    el.exit();
                }
            },
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _el: &ActiveEventLoop) {
        if let Some(live) = &self.state {
            live.win.window().request_redraw();
        }
        // Nothing changes between frames unless playing: do not spin.
        std::thread::sleep(Duration::from_millis(15));
    }

    fn exiting(&mut self, _el: &ActiveEventLoop) {
        // Drop the GL objects while the context is still current.
        self.state = None;
    }
}
