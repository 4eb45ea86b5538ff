//! Shader storage buffers (SSBOs): upload, bind, readback.
//!
//! A buffer holds plain-old-data elements (`f32`, `f64`, `u32`, `[f32; 4]`…, anything
//! `bytemuck::Pod`); std430 layout in the shader matches a tightly packed Rust slice for
//! scalars and 4-vectors. After a dispatch that writes a buffer, call
//! [`Gl::storage_barrier`] before a later dispatch or a readback depends on it.

use std::marker::PhantomData;

use bytemuck::Pod;
use glow::HasContext;

use super::{Gl, GlError};

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
        if offset + data.len() > self.len {
            return Err(GlError::Invalid(format!(
                "writing {} elements at {offset} into a buffer of {}",
                data.len(),
                self.len
            )));
        }
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
    }

    /// Binds the buffer to `layout(std430, binding = N)`.
    pub fn bind(&self, binding: u32) {
        unsafe {
            self.gl
                .raw()
                .bind_buffer_base(glow::SHADER_STORAGE_BUFFER, binding, Some(self.id))
        }
    }

    /// Reads the whole buffer back (issues the storage barrier first).
    pub fn read(&self) -> Result<Vec<T>, GlError> {
        self.read_range(0, self.len)
    }

    /// Reads `count` elements from element `offset`.
    pub fn read_range(&self, offset: usize, count: usize) -> Result<Vec<T>, GlError> {
        if offset + count > self.len {
            return Err(GlError::Invalid(format!(
                "reading {count} elements at {offset} from a buffer of {}",
                self.len
            )));
        }
        let mut out = vec![T::zeroed(); count];
        self.gl.storage_barrier();
        let raw = self.gl.raw();
        unsafe {
            raw.bind_buffer(glow::SHADER_STORAGE_BUFFER, Some(self.id));
            raw.get_buffer_sub_data(
                glow::SHADER_STORAGE_BUFFER,
                (offset * std::mem::size_of::<T>()) as i32,
                bytemuck::cast_slice_mut(&mut out),
            );
        }
        self.gl.check_now("buffer readback")?;
        Ok(out)
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
