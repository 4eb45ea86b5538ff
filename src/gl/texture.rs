//! Float textures (2D and rectangle; R32F and RGBA32F); render targets are `render_target.rs`.
//!
//! All textures use `GL_NEAREST` filtering and clamp-to-edge: a fetch returns one texel
//! exactly, as the GPGPU papers of 2005 required (no filtering of data). Rectangle textures
//! (`sampler2DRect`) take unnormalized coordinates: texel `i` spans `[i, i+1)` and its centre
//! is `i + 0.5`, the convention the cyclic-reduction index mapping is built on.

use glow::HasContext;

use super::context::Gl;
use super::error::GlError;
pub use super::rect::Rect;

/// Texture target: normalized 2D or rectangle (unnormalized coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum TexTarget {
    Tex2D,
    Rect,
}

impl TexTarget {
    pub(crate) fn gl(self) -> u32 {
        match self {
            TexTarget::Tex2D => glow::TEXTURE_2D,
            TexTarget::Rect => glow::TEXTURE_RECTANGLE,
        }
    }
}

/// Texel format: one or four 32-bit floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Format {
    R32F,
    RGBA32F,
}

impl Format {
    /// Floats per texel.
    pub fn channels(self) -> usize {
        match self {
            Format::R32F => 1,
            Format::RGBA32F => 4,
        }
    }
    /// Bytes per texel.
    pub fn texel_bytes(self) -> usize {
        4 * self.channels()
    }
    pub(crate) fn internal(self) -> u32 {
        match self {
            Format::R32F => glow::R32F,
            Format::RGBA32F => glow::RGBA32F,
        }
    }
    fn external(self) -> u32 {
        match self {
            Format::R32F => glow::RED,
            Format::RGBA32F => glow::RGBA,
        }
    }
}

/// A float texture owned by its context (deleted on drop).
pub struct Texture {
    pub(super) gl: Gl,
    pub(super) id: glow::Texture,
    pub(super) target: TexTarget,
    pub(super) format: Format,
    pub(super) width: u32,
    pub(super) height: u32,
}

impl Texture {
    /// A `width × height` texture, filled from `data` (row-major, `channels` floats per texel)
    /// or left undefined when `data` is `None`.
    pub fn new(
        gl: &Gl,
        target: TexTarget,
        format: Format,
        width: u32,
        height: u32,
        data: Option<&[f32]>,
    ) -> Result<Texture, GlError> {
        let max = match target {
            TexTarget::Tex2D => gl.info().max_texture_size,
            TexTarget::Rect => gl.info().max_rectangle_texture_size,
        } as u32;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(GlError::Invalid(format!(
                "texture {width}×{height}: sizes must be 1..={max} on this device"
            )));
        }
        if let Some(d) = data {
            check_len(d.len(), width, height, format)?;
        }
        let raw = gl.raw();
        let id = unsafe { raw.create_texture() }.map_err(GlError::Invalid)?;
        let t = target.gl();
        unsafe {
            raw.bind_texture(t, Some(id));
            raw.tex_parameter_i32(t, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
            raw.tex_parameter_i32(t, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
            raw.tex_parameter_i32(t, glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE as i32);
            raw.tex_parameter_i32(t, glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE as i32);
            raw.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
            raw.tex_image_2d(
                t,
                0,
                format.internal() as i32,
                width as i32,
                height as i32,
                0,
                format.external(),
                glow::FLOAT,
                glow::PixelUnpackData::Slice(data.map(bytemuck::cast_slice)),
            );
        }
        let tex = Texture {
            gl: gl.clone(),
            id,
            target,
            format,
            width,
            height,
        };
        gl.check_now(&format!("creating a {width}×{height} {format:?} texture"))?;
        Ok(tex)
    }

    pub fn width(&self) -> u32 {
        self.width
    }
    pub fn height(&self) -> u32 {
        self.height
    }
    pub fn format(&self) -> Format {
        self.format
    }
    pub fn target(&self) -> TexTarget {
        self.target
    }
    pub(crate) fn id(&self) -> glow::Texture {
        self.id
    }
    /// Number of floats in the whole texture.
    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize * self.format.channels()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Replaces the whole texture's contents.
    pub fn upload(&self, data: &[f32]) -> Result<(), GlError> {
        self.upload_rect(Rect::full(self.width, self.height), data)
    }

    /// Replaces the texels of `r` with `data` (row-major within `r`).
    pub fn upload_rect(&self, r: Rect, data: &[f32]) -> Result<(), GlError> {
        self.check_rect(r)?;
        check_len(data.len(), r.w, r.h, self.format)?;
        let pixels = bytemuck::cast_slice(data);
        super::profile::pass(
            &self.gl,
            || "upload".into(),
            || {
                self.sub_image(
                    r,
                    self.format.external(),
                    glow::FLOAT,
                    pixels,
                    "texture upload",
                )
            },
        )
    }

    /// `glTexSubImage2D` of `pixels` (already checked against `r`) into `r`.
    fn sub_image(
        &self,
        r: Rect,
        format: u32,
        ty: u32,
        pixels: &[u8],
        what: &str,
    ) -> Result<(), GlError> {
        let raw = self.gl.raw();
        unsafe {
            raw.bind_texture(self.target.gl(), Some(self.id));
            raw.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
            raw.tex_sub_image_2d(
                self.target.gl(),
                0,
                r.x as i32,
                r.y as i32,
                r.w as i32,
                r.h as i32,
                format,
                ty,
                glow::PixelUnpackData::Slice(Some(pixels)),
            );
        }
        self.gl.check(what)
    }

    /// Replaces the whole texture's contents with 8-bit RGBA pixels (row-major, four bytes a
    /// texel, 0..=255 read as 0..=1): a picture made on the CPU (an overlay of text), uploaded
    /// without a float copy. The texture must be RGBA32F.
    pub fn upload_rgba8(&self, pixels: &[u8]) -> Result<(), GlError> {
        if self.format != Format::RGBA32F {
            return Err(GlError::Invalid(format!(
                "8-bit RGBA upload into a {:?} texture (needs RGBA32F)",
                self.format
            )));
        }
        let want = self.width as usize * self.height as usize * 4;
        if pixels.len() != want {
            return Err(GlError::Invalid(format!(
                "{} bytes given for {}×{} RGBA pixels ({want} needed)",
                pixels.len(),
                self.width,
                self.height
            )));
        }
        let full = Rect::full(self.width, self.height);
        self.sub_image(
            full,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            pixels,
            "8-bit RGBA texture upload",
        )
    }

    /// Reads the whole texture back (row-major, `channels` floats per texel).
    pub fn read(&self) -> Result<Vec<f32>, GlError> {
        let mut out = vec![0f32; self.len()];
        self.read_into(&mut out)?;
        Ok(out)
    }

    /// Reads the whole texture into `out` (as [`Texture::read`]; memory the caller already
    /// has, so that the bench's readback times the transfer, not the first touch of freshly
    /// mapped pages).
    ///
    /// `glGetTexImage` takes a pointer and no size, so nothing in GL stops it writing past
    /// `out` (issue 40). Before the call: this texture's context must be current (with
    /// another one current the same name is another texture), the size GL itself reports
    /// for the texture (queried width, height and internal format, not the values this
    /// wrapper remembers) must be exactly `out`'s byte size, and the pack state is set to
    /// tight rows with no pixel-pack buffer (`with_pack_state`).
    pub fn read_into(&self, out: &mut [f32]) -> Result<(), GlError> {
        if out.len() != self.len() {
            return Err(GlError::Invalid(format!(
                "reading {} floats into {}",
                self.len(),
                out.len()
            )));
        }
        if !self.gl.is_current() {
            return Err(GlError::Invalid(
                "texture readback: the texture's context is not current on this thread".into(),
            ));
        }
        let raw = self.gl.raw();
        let t = self.target.gl();
        let (w, h, internal) = unsafe {
            raw.memory_barrier(glow::TEXTURE_UPDATE_BARRIER_BIT);
            raw.bind_texture(t, Some(self.id));
            (
                raw.get_tex_level_parameter_i32(t, 0, glow::TEXTURE_WIDTH),
                raw.get_tex_level_parameter_i32(t, 0, glow::TEXTURE_HEIGHT),
                raw.get_tex_level_parameter_i32(t, 0, glow::TEXTURE_INTERNAL_FORMAT),
            )
        };
        let bytes = readback_bytes(w, h, internal, self.format).map_err(GlError::Invalid)?;
        let dst: &mut [u8] = bytemuck::cast_slice_mut(out);
        if bytes != dst.len() {
            return Err(GlError::Invalid(format!(
                "texture readback: GL reports {w}×{h} texels, {bytes} bytes, for a slice of {} \
                 bytes (this wrapper's {}×{} {:?})",
                dst.len(),
                self.width,
                self.height,
                self.format
            )));
        }
        super::profile::pass(
            &self.gl,
            || "read-back".into(),
            || {
                with_pack_state(raw, || unsafe {
                    raw.get_tex_image(
                        t,
                        0,
                        self.format.external(),
                        glow::FLOAT,
                        glow::PixelPackData::Slice(Some(dst)),
                    );
                })
                .map_err(GlError::Invalid)?;
                self.gl.check_now("texture readback")
            },
        )
    }

    /// Reads the texels of `r` back (row-major within `r`).
    pub fn read_rect(&self, r: Rect) -> Result<Vec<f32>, GlError> {
        self.check_rect(r)?;
        let all = self.read()?;
        let c = self.format.channels();
        let mut out = Vec::with_capacity(r.area() as usize * c);
        for y in r.y..r.y + r.h {
            let start = (y as usize * self.width as usize + r.x as usize) * c;
            out.extend_from_slice(&all[start..start + r.w as usize * c]);
        }
        Ok(out)
    }

    fn check_rect(&self, r: Rect) -> Result<(), GlError> {
        if r.x + r.w > self.width || r.y + r.h > self.height {
            return Err(GlError::Invalid(format!(
                "rect {r:?} outside the {}×{} texture",
                self.width, self.height
            )));
        }
        Ok(())
    }
}

/// The bytes `glGetTexImage` writes for a texture GL reports as `w`×`h` of `internal`
/// format, read as `format`'s floats; an error where GL's texture is not the one the
/// wrapper describes (another internal format, a non-positive size).
fn readback_bytes(w: i32, h: i32, internal: i32, format: Format) -> Result<usize, String> {
    if internal != format.internal() as i32 {
        return Err(format!(
            "texture readback: GL reports internal format {internal:#x}, not {format:?}"
        ));
    }
    if w <= 0 || h <= 0 {
        return Err(format!("texture readback: GL reports a {w}×{h} texture"));
    }
    Ok(w as usize * h as usize * format.texel_bytes())
}

/// Runs `read` (a readback into client memory) with the pack state it assumes: rows tightly
/// packed (alignment 4, which every float format meets), no row length and no skips, and
/// no pixel-pack buffer bound (with one bound, the "pointer" would be an offset into it).
/// The previous values are restored afterwards: the one place that sets pack state.
pub(crate) fn with_pack_state(raw: &glow::Context, read: impl FnOnce()) -> Result<(), String> {
    const STATE: [(u32, i32); 4] = [
        (glow::PACK_ALIGNMENT, 4),
        (glow::PACK_ROW_LENGTH, 0),
        (glow::PACK_SKIP_ROWS, 0),
        (glow::PACK_SKIP_PIXELS, 0),
    ];
    unsafe {
        if raw.get_parameter_i32(glow::PIXEL_PACK_BUFFER_BINDING) != 0 {
            return Err("readback: a pixel-pack buffer is bound".into());
        }
        let old = STATE.map(|(name, _)| raw.get_parameter_i32(name));
        for (name, v) in STATE {
            raw.pixel_store_i32(name, v);
        }
        read();
        for ((name, _), v) in STATE.iter().zip(old) {
            raw.pixel_store_i32(*name, v);
        }
    }
    Ok(())
}

fn check_len(len: usize, w: u32, h: u32, f: Format) -> Result<(), GlError> {
    let want = w as usize * h as usize * f.channels();
    if len != want {
        return Err(GlError::Invalid(format!(
            "{len} floats given for {w}×{h} {f:?} texels ({want} needed)"
        )));
    }
    Ok(())
}

impl Drop for Texture {
    fn drop(&mut self) {
        // Under another current context the name would be someone else's: leave it to this
        // context's destruction (see the ownership model in `gl`).
        if self.gl.is_current() {
            unsafe { self.gl.raw().delete_texture(self.id) }
        }
    }
}

impl std::fmt::Debug for Texture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Texture({:?} {:?} {}×{})",
            self.target, self.format, self.width, self.height
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readback_size_comes_from_what_gl_reports() {
        let rgba = glow::RGBA32F as i32;
        assert_eq!(readback_bytes(5, 3, rgba, Format::RGBA32F), Ok(5 * 3 * 16));
        assert_eq!(
            readback_bytes(5, 3, glow::R32F as i32, Format::R32F),
            Ok(15 * 4)
        );
        // GL's texture is not the one the wrapper describes: no size is guessed.
        assert!(readback_bytes(5, 3, rgba, Format::R32F).is_err());
        assert!(readback_bytes(0, 3, rgba, Format::RGBA32F).is_err());
        assert!(readback_bytes(5, -1, rgba, Format::RGBA32F).is_err());
    }
}
