//! A float texture with its own framebuffer ([`RenderTexture`]): what a pass renders into,
//! cleared, bound, or copied from (`glCopyTexSubImage2D`, the copy method of the 2005 papers).

use glow::HasContext;

use super::context::Gl;
use super::error::GlError;
use super::texture::{Format, Rect, TexTarget, Texture};

/// A texture with its own framebuffer: something to render into (a "float color buffer").
pub struct RenderTexture {
    tex: Texture,
    fbo: glow::Framebuffer,
}

impl RenderTexture {
    pub fn new(
        gl: &Gl,
        target: TexTarget,
        format: Format,
        width: u32,
        height: u32,
        data: Option<&[f32]>,
    ) -> Result<RenderTexture, GlError> {
        let tex = Texture::new(gl, target, format, width, height, data)?;
        Self::from_texture(tex)
    }

    /// Attaches a framebuffer to an existing texture.
    pub fn from_texture(tex: Texture) -> Result<RenderTexture, GlError> {
        let gl = tex.gl.clone();
        let raw = gl.raw();
        let fbo = unsafe { raw.create_framebuffer() }.map_err(GlError::Invalid)?;
        let rt = RenderTexture { tex, fbo };
        unsafe {
            raw.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            raw.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                rt.tex.target.gl(),
                Some(rt.tex.id),
                0,
            );
            let status = raw.check_framebuffer_status(glow::FRAMEBUFFER);
            if status != glow::FRAMEBUFFER_COMPLETE {
                return Err(GlError::Framebuffer {
                    what: format!("{:?}", rt.tex),
                    status,
                });
            }
        }
        rt.tex.gl.check_now("creating a framebuffer")?;
        Ok(rt)
    }

    pub fn texture(&self) -> &Texture {
        &self.tex
    }

    /// Binds the framebuffer for drawing and reading, with a viewport over the whole texture
    /// (quads are placed in texel coordinates, see [`super::Quad`]).
    pub fn bind(&self) {
        let raw = self.tex.gl.raw();
        unsafe {
            raw.bind_framebuffer(glow::FRAMEBUFFER, Some(self.fbo));
            raw.viewport(0, 0, self.tex.width as i32, self.tex.height as i32);
        }
    }

    /// Clears the whole texture to `rgba` (only the format's channels are stored).
    pub fn clear(&self, rgba: [f32; 4]) {
        self.bind();
        unsafe {
            self.tex
                .gl
                .raw()
                .clear_buffer_f32_slice(glow::COLOR, 0, &rgba)
        }
    }

    /// `glCopyTexSubImage2D`: copies `r` of this framebuffer into `dst` at the same place.
    /// The copy method's transfer from the render buffer to the input texture.
    pub fn copy_to(&self, dst: &Texture, r: Rect) -> Result<(), GlError> {
        if dst.format != self.tex.format {
            return Err(GlError::Invalid("copy between different formats".into()));
        }
        super::profile::pass(
            &self.tex.gl,
            || "copy (glCopyTexSubImage2D)".into(),
            || {
                let raw = self.tex.gl.raw();
                unsafe {
                    raw.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.fbo));
                    raw.bind_texture(dst.target.gl(), Some(dst.id));
                    raw.copy_tex_sub_image_2d(
                        dst.target.gl(),
                        0,
                        r.x as i32,
                        r.y as i32,
                        r.x as i32,
                        r.y as i32,
                        r.w as i32,
                        r.h as i32,
                    );
                }
                self.tex.gl.check("glCopyTexSubImage2D")
            },
        )
    }
}

impl Drop for RenderTexture {
    fn drop(&mut self) {
        if self.tex.gl.is_current() {
            unsafe { self.tex.gl.raw().delete_framebuffer(self.fbo) }
        }
    }
}
