//! The two ways the 2005 papers fed one pass's output to the next pass.
//!
//! - **Copy method** (Matsui et al. 2005 §3.2; the pbuffer era): every pass renders into a
//!   separate float colour buffer — our stand-in for the pbuffer — and `glCopyTexSubImage2D`
//!   then copies the rendered rectangle back into the one input texture. The input texture
//!   always holds the whole current state; each pass pays a copy of what it rendered.
//! - **Switch method** (render-to-texture): two textures swap the roles of input and output
//!   after every pass. No copies; but texels *outside* a pass's rectangle in the new input are
//!   those written two passes ago (or the initial data). An algorithm that renders partial
//!   rectangles must either render every texel it will read later, or use the copy method.
//!
//! Both sit behind [`PingPong::pass`], so an algorithm is written once and run with either.
//! With profiling on, each pass is bracketed by `glFinish` and the time spent in the draw
//! calls (the LU paper's *G*) and in the copies (its *T*) is accumulated separately.

use std::time::{Duration, Instant};

use super::context::Gl;
use super::error::GlError;
use super::render_target::RenderTexture;
use super::texture::{Format, Rect, TexTarget, Texture};

/// Which ping-pong method a [`PingPong`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PingPongMethod {
    Copy,
    Switch,
}

impl PingPongMethod {
    pub const ALL: [PingPongMethod; 2] = [PingPongMethod::Copy, PingPongMethod::Switch];
    pub fn name(self) -> &'static str {
        match self {
            PingPongMethod::Copy => "copy",
            PingPongMethod::Switch => "switch",
        }
    }
}

impl std::fmt::Display for PingPongMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PingPongMethod {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "copy" => Ok(PingPongMethod::Copy),
            "switch" => Ok(PingPongMethod::Switch),
            _ => Err(format!("unknown ping-pong method `{s}` (copy or switch)")),
        }
    }
}

/// Counts and (with profiling) times of the passes run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct PingPongStats {
    /// Passes (draws into the output).
    pub passes: u64,
    /// `glCopyTexSubImage2D` calls (copy method only).
    pub copies: u64,
    /// Bytes moved by those copies.
    pub copied_bytes: u64,
    /// Fragments (texels) rendered.
    pub fragments: u64,
    /// Time in the draw calls, `glFinish`-bracketed (profiling only): the paper's G.
    pub draw_time: Duration,
    /// Time in the copies, `glFinish`-bracketed (profiling only): the paper's T.
    pub copy_time: Duration,
}

enum Storage {
    Copy {
        input: Texture,
        buffer: RenderTexture,
    },
    Switch {
        tex: [RenderTexture; 2],
        current: usize,
    },
}

/// A pair of float buffers that passes alternate between (see the module docs).
pub struct PingPong {
    gl: Gl,
    method: PingPongMethod,
    storage: Storage,
    stats: PingPongStats,
    profile: bool,
}

impl PingPong {
    /// Two `w × h` buffers holding `init` (both of them under the switch method).
    pub fn new(
        gl: &Gl,
        method: PingPongMethod,
        target: TexTarget,
        format: Format,
        w: u32,
        h: u32,
        init: &[f32],
    ) -> Result<PingPong, GlError> {
        let storage = match method {
            PingPongMethod::Copy => Storage::Copy {
                input: Texture::new(gl, target, format, w, h, Some(init))?,
                buffer: RenderTexture::new(gl, target, format, w, h, None)?,
            },
            PingPongMethod::Switch => Storage::Switch {
                tex: [
                    RenderTexture::new(gl, target, format, w, h, Some(init))?,
                    RenderTexture::new(gl, target, format, w, h, Some(init))?,
                ],
                current: 0,
            },
        };
        Ok(PingPong {
            gl: gl.clone(),
            method,
            storage,
            stats: Default::default(),
            profile: false,
        })
    }

    pub fn method(&self) -> PingPongMethod {
        self.method
    }

    /// Turns `glFinish`-bracketed timing of draws and copies on or off.
    pub fn set_profiling(&mut self, on: bool) {
        self.profile = on;
    }

    pub fn stats(&self) -> PingPongStats {
        self.stats
    }

    pub fn reset_stats(&mut self) {
        self.stats = PingPongStats::default();
    }

    /// The texture holding the current state: what the next pass reads.
    pub fn input(&self) -> &Texture {
        match &self.storage {
            Storage::Copy { input, .. } => input,
            Storage::Switch { tex, current } => tex[*current].texture(),
        }
    }

    /// Both textures in a fixed order and the index of the one the next pass reads: the copy
    /// method's `[input texture, render buffer]` (always 0), or the switch method's two
    /// textures (the current one). For observers ([`super::observe`]).
    pub fn pair(&self) -> ([&Texture; 2], usize) {
        match &self.storage {
            Storage::Copy { input, buffer } => ([input, buffer.texture()], 0),
            Storage::Switch { tex, current } => ([tex[0].texture(), tex[1].texture()], *current),
        }
    }

    fn output(&self) -> &RenderTexture {
        match &self.storage {
            Storage::Copy { buffer, .. } => buffer,
            Storage::Switch { tex, current } => &tex[1 - current],
        }
    }

    /// One pass: binds the output, lets `draw` render `rect` (reading [`Self::input`], which
    /// it is given), then makes the result the new input — by a copy of `rect` or by a switch.
    pub fn pass(
        &mut self,
        rect: Rect,
        draw: impl FnOnce(&Texture) -> Result<(), GlError>,
    ) -> Result<(), GlError> {
        self.output().bind();
        let t0 = self.profile_start();
        draw(self.input())?;
        if let Some(t0) = t0 {
            self.gl.finish();
            self.stats.draw_time += t0.elapsed();
        }
        self.stats.passes += 1;
        self.stats.fragments += rect.area();
        self.end_pass(rect)
    }

    /// Makes the output the new input after the caller drew into [`Self::bind_output`].
    pub fn end_pass(&mut self, rect: Rect) -> Result<(), GlError> {
        match &mut self.storage {
            Storage::Copy { input, buffer } => {
                if !rect.is_empty() {
                    let t0 = if self.profile {
                        self.gl.finish();
                        Some(Instant::now())
                    } else {
                        None
                    };
                    buffer.copy_to(input, rect)?;
                    if let Some(t0) = t0 {
                        self.gl.finish();
                        self.stats.copy_time += t0.elapsed();
                    }
                    self.stats.copies += 1;
                    self.stats.copied_bytes += rect.area() * input.format().texel_bytes() as u64;
                }
            }
            Storage::Switch { current, .. } => *current = 1 - *current,
        }
        self.gl.check("ping-pong pass")
    }

    /// Binds the output for a caller that draws by itself (then call [`Self::end_pass`]).
    pub fn bind_output(&self) {
        self.output().bind();
    }

    fn profile_start(&self) -> Option<Instant> {
        self.profile.then(|| {
            self.gl.finish();
            Instant::now()
        })
    }

    /// Reads the current state back.
    pub fn read(&self) -> Result<Vec<f32>, GlError> {
        self.input().read()
    }

    /// Copy method: the render buffer holds `data` too, so that a pass may copy a rectangle
    /// larger than the one it drew (the rest holding what an earlier pass drew there, or
    /// `data`). The switch method's two textures already hold it ([`Self::upload`]).
    pub fn upload_render_buffer(&self, data: &[f32]) -> Result<(), GlError> {
        match &self.storage {
            Storage::Copy { buffer, .. } => buffer.texture().upload(data),
            Storage::Switch { .. } => Ok(()),
        }
    }

    /// Replaces the current state (both buffers under the switch method).
    pub fn upload(&mut self, data: &[f32]) -> Result<(), GlError> {
        match &self.storage {
            Storage::Copy { input, .. } => input.upload(data),
            Storage::Switch { tex, .. } => {
                tex[0].texture().upload(data)?;
                tex[1].texture().upload(data)
            }
        }
    }
}
