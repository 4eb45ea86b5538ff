//! Shader storage buffers (SSBOs): upload, bind, readback.
//!
//! A buffer holds plain-old-data elements (`f32`, `f64`, `u32`, `[f32; 4]`…, anything
//! `bytemuck::Pod`); std430 layout in the shader matches a tightly packed Rust slice for
//! scalars and 4-vectors. After a dispatch that writes a buffer, call
//! [`Gl::storage_barrier`] before a later dispatch or a readback depends on it.
//! [`BufferTexture`] views a buffer as a buffer texture, read with `texelFetch`.

use std::marker::PhantomData;

use bytemuck::Pod;
use glow::HasContext;

use super::context::Gl;
use super::error::GlError;

/// A typed SSBO of `len` elements of `T`.
pub struct Buffer<T: Pod> {
    gl: Gl,
    id: glow::Buffer,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Pod> Buffer<T> {
    /// A buffer holding `data`.
    pub fn from_slice(gl: &Gl, data: &[T]) -> Result<Buffer<T>, GlError> {
        let b = Self::alloc(gl, data.len())?;
        b.upload(data)?;
        Ok(b)
    }

    /// A buffer of `len` zeroed elements.
    pub fn zeroed(gl: &Gl, len: usize) -> Result<Buffer<T>, GlError> {
        let b = Self::alloc(gl, len)?;
        let zeros = vec![0u8; b.bytes()];
        unsafe {
            gl.raw()
                .bind_buffer(glow::SHADER_STORAGE_BUFFER, Some(b.id));
            gl.raw()
                .buffer_sub_data_u8_slice(glow::SHADER_STORAGE_BUFFER, 0, &zeros);
        }
        gl.check("buffer zeroing")?;
        Ok(b)
    }

    fn alloc(gl: &Gl, len: usize) -> Result<Buffer<T>, GlError> {
        let bytes = (len.max(1) * std::mem::size_of::<T>()) as i64;
        let max = gl.info().max_ssbo_bytes;
        if max > 0 && bytes > max {
            return Err(GlError::Invalid(format!(
                "SSBO of {bytes} bytes exceeds the device's {max}-byte limit"
            )));
        }
        let raw = gl.raw();
        let id = unsafe { raw.create_buffer() }.map_err(GlError::Invalid)?;
        unsafe {
            raw.bind_buffer(glow::SHADER_STORAGE_BUFFER, Some(id));
            raw.buffer_data_size(
                glow::SHADER_STORAGE_BUFFER,
                bytes as i32,
                glow::DYNAMIC_COPY,
            );
        }
        let b = Buffer {
            gl: gl.clone(),
            id,
            len,
            _t: PhantomData,
        };
        gl.check_now(&format!("allocating a {bytes}-byte SSBO"))?;
        Ok(b)
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }

    /// Replaces the contents (the length must match).
    pub fn upload(&self, data: &[T]) -> Result<(), GlError> {
        self.upload_at(0, data)
    }

    /// Writes `data` starting at element `offset`.
    pub fn upload_at(&self, offset: usize, data: &[T]) -> Result<(), GlError> {
        self.check_range("writing", offset, data.len())?;
        super::profile::pass(
            &self.gl,
            || "upload".into(),
            || {
                let raw = self.gl.raw();
                unsafe {
                    raw.bind_buffer(glow::SHADER_STORAGE_BUFFER, Some(self.id));
                    raw.buffer_sub_data_u8_slice(
                        glow::SHADER_STORAGE_BUFFER,
                        (offset * std::mem::size_of::<T>()) as i32,
                        bytemuck::cast_slice(data),
                    );
                }
                self.gl.check("buffer upload")
            },
        )
    }

    /// Binds the buffer to `layout(std430, binding = N)`.
    pub fn bind(&self, binding: u32) {
        unsafe {
            self.gl
                .raw()
                .bind_buffer_base(glow::SHADER_STORAGE_BUFFER, binding, Some(self.id))
        }
    }

    /// `Err(Invalid)` unless elements `offset..offset + count` lie inside the buffer (`verb`:
    /// "reading", "writing", for the message).
    fn check_range(&self, verb: &str, offset: usize, count: usize) -> Result<(), GlError> {
        if offset.checked_add(count).is_none_or(|end| end > self.len) {
            return Err(GlError::Invalid(format!(
                "{verb} {count} elements at {offset}: the buffer holds {}",
                self.len
            )));
        }
        Ok(())
    }

    /// Reads the whole buffer back (issues the storage barrier first).
    pub fn read(&self) -> Result<Vec<T>, GlError> {
        self.read_range(0, self.len)
    }

    /// Reads `count` elements from element `offset`.
    pub fn read_range(&self, offset: usize, count: usize) -> Result<Vec<T>, GlError> {
        // Checked here too, before the allocation.
        self.check_range("reading", offset, count)?;
        let mut out = vec![T::zeroed(); count];
        self.read_into(offset, &mut out)?;
        Ok(out)
    }

    /// Reads `out.len()` elements from element `offset` into `out` (memory the caller
    /// already has: the bench's readback, so that it times the transfer, not the first
    /// touch of freshly mapped pages).
    pub fn read_into(&self, offset: usize, out: &mut [T]) -> Result<(), GlError> {
        self.check_range("reading", offset, out.len())?;
        // With another context current the same name is another buffer (issue 40).
        if !self.gl.is_current() {
            return Err(GlError::Invalid(
                "buffer readback: the buffer's context is not current on this thread".into(),
            ));
        }
        super::profile::pass(
            &self.gl,
            || "read-back".into(),
            || {
                self.gl.storage_barrier();
                let raw = self.gl.raw();
                unsafe {
                    raw.bind_buffer(glow::SHADER_STORAGE_BUFFER, Some(self.id));
                    // glow passes the slice's length as the size: GL writes no more than `out`.
                    raw.get_buffer_sub_data(
                        glow::SHADER_STORAGE_BUFFER,
                        (offset * std::mem::size_of::<T>()) as i32,
                        bytemuck::cast_slice_mut(out),
                    );
                }
                self.gl.check_now("buffer readback")
            },
        )
    }
}

/// A [`Buffer`] of any element type, for binding buffers of several types in one call
/// ([`bind_all`]).
pub trait Ssbo {
    /// Binds the buffer to `layout(std430, binding = N)`.
    fn bind_to(&self, binding: u32);
}

impl<T: Pod> Ssbo for Buffer<T> {
    fn bind_to(&self, binding: u32) {
        self.bind(binding)
    }
}

/// Binds `buffers` in order to the consecutive bindings `first`, `first + 1`, …
pub fn bind_all(first: u32, buffers: &[&dyn Ssbo]) {
    for (binding, b) in (first..).zip(buffers) {
        b.bind_to(binding);
    }
}

impl<T: Pod> Drop for Buffer<T> {
    fn drop(&mut self) {
        if self.gl.is_current() {
            unsafe { self.gl.raw().delete_buffer(self.id) }
        }
    }
}

/// How a compute kernel reads its inputs: the same loads of the same values, through shader
/// storage or through the texture units (`texelFetch`: rectangle textures, or
/// [`BufferTexture`] views of the buffers). Which is faster depends on the device (Mesa's
/// llvmpipe runs an SSBO load lane by lane and a texel fetch as one gather), so kernels that
/// offer both let the experiments choose or show both.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Reads {
    #[default]
    Ssbo,
    Texture,
}

impl Reads {
    /// Both, SSBOs first.
    pub const ALL: [Reads; 2] = [Reads::Ssbo, Reads::Texture];

    /// The configuration name (`ssbo`, `texture`).
    pub fn name(self) -> &'static str {
        match self {
            Reads::Ssbo => "ssbo",
            Reads::Texture => "texture",
        }
    }
    /// The shader switch of the texture path: kernels that offer both ways are built with
    /// `#define TEXTURE` for [`Reads::Texture`] and without it for [`Reads::Ssbo`].
    pub fn define(self) -> Option<super::define::Define> {
        (self == Reads::Texture).then(|| super::define::Define::flag("TEXTURE"))
    }
    /// Where the inputs are read from, in words (captions).
    pub fn describe(self) -> &'static str {
        match self {
            Reads::Ssbo => "SSBOs",
            Reads::Texture => "textures with texelFetch",
        }
    }
}

/// An element type a [`BufferTexture`] can view a buffer as: one texel per element.
pub trait TexelType: Pod {
    /// The buffer texture's internal format (`glTexBuffer`).
    const INTERNAL: u32;
}

impl TexelType for f32 {
    const INTERNAL: u32 = glow::R32F;
}

impl TexelType for u32 {
    const INTERNAL: u32 = glow::R32UI;
}

impl TexelType for [f32; 4] {
    const INTERNAL: u32 = glow::RGBA32F;
}

/// A buffer texture (GL 3.1: `samplerBuffer`, `usamplerBuffer` in a shader): a view of a
/// [`Buffer`]'s storage read with `texelFetch` through the texture units — the GL counterpart
/// of CUDA's `tex1Dfetch` on linear memory. No copy is made: a dispatch's writes to the
/// buffer reach later fetches after [`Gl::fetch_barrier`]. The view keeps no reference to the
/// buffer: drop it first (a texture of a deleted buffer reads nothing defined).
pub struct BufferTexture {
    gl: Gl,
    id: glow::Texture,
    len: usize,
}

impl BufferTexture {
    /// A view of all of `buffer`, one texel per element; the device's
    /// `GL_MAX_TEXTURE_BUFFER_SIZE` bounds its length.
    pub fn new<T: TexelType>(gl: &Gl, buffer: &Buffer<T>) -> Result<BufferTexture, GlError> {
        let max = gl.info().max_texture_buffer_size.max(0) as usize;
        if buffer.len > max {
            return Err(GlError::Invalid(format!(
                "a buffer texture of {} texels exceeds the device's {max} \
                 (GL_MAX_TEXTURE_BUFFER_SIZE)",
                buffer.len
            )));
        }
        let raw = gl.raw();
        let id = unsafe { raw.create_texture() }.map_err(GlError::Invalid)?;
        unsafe {
            raw.bind_texture(glow::TEXTURE_BUFFER, Some(id));
            raw.tex_buffer(glow::TEXTURE_BUFFER, T::INTERNAL, Some(buffer.id));
            raw.bind_texture(glow::TEXTURE_BUFFER, None);
        }
        let tex = BufferTexture {
            gl: gl.clone(),
            id,
            len: buffer.len,
        };
        gl.check_now(&format!("a buffer texture of {} texels", buffer.len))?;
        Ok(tex)
    }

    /// Texels (the viewed buffer's elements).
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn id(&self) -> glow::Texture {
        self.id
    }
}

impl Drop for BufferTexture {
    fn drop(&mut self) {
        if self.gl.is_current() {
            unsafe { self.gl.raw().delete_texture(self.id) }
        }
    }
}
