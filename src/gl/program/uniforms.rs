//! A bound program's uniforms (locations looked up once and cached), its textures, images
//! and buffer textures, and compute dispatches.

use glow::HasContext;

use super::handle::Program;
use crate::gl::buffer::BufferTexture;
use crate::gl::error::GlError;
use crate::gl::texture::Texture;

impl Program {
    fn location(&self, name: &str) -> Option<glow::UniformLocation> {
        if let Some(l) = self.linked.uniforms.borrow().get(name) {
            return *l;
        }
        let l = unsafe { self.gl.raw().get_uniform_location(self.linked.id, name) };
        self.linked
            .uniforms
            .borrow_mut()
            .insert(name.to_string(), l);
        l
    }

    /// Sets an `int` (or sampler) uniform; a name the program does not use is ignored, as GL
    /// ignores location -1 (the compiler may have removed an unused uniform).
    pub fn set_i32(&self, name: &str, v: i32) {
        self.bind();
        unsafe { self.gl.raw().uniform_1_i32(self.location(name).as_ref(), v) }
    }
    pub fn set_u32(&self, name: &str, v: u32) {
        self.bind();
        unsafe { self.gl.raw().uniform_1_u32(self.location(name).as_ref(), v) }
    }
    pub fn set_f32(&self, name: &str, v: f32) {
        self.bind();
        unsafe { self.gl.raw().uniform_1_f32(self.location(name).as_ref(), v) }
    }
    pub fn set_vec2(&self, name: &str, v: [f32; 2]) {
        self.bind();
        unsafe {
            self.gl
                .raw()
                .uniform_2_f32(self.location(name).as_ref(), v[0], v[1])
        }
    }
    pub fn set_vec3(&self, name: &str, v: [f32; 3]) {
        self.bind();
        unsafe {
            self.gl
                .raw()
                .uniform_3_f32(self.location(name).as_ref(), v[0], v[1], v[2])
        }
    }
    pub fn set_vec4(&self, name: &str, v: [f32; 4]) {
        self.bind();
        let l = self.location(name);
        unsafe {
            self.gl
                .raw()
                .uniform_4_f32(l.as_ref(), v[0], v[1], v[2], v[3])
        }
    }
    pub fn set_mat4(&self, name: &str, m: &[f32; 16]) {
        self.bind();
        unsafe {
            self.gl
                .raw()
                .uniform_matrix_4_f32_slice(self.location(name).as_ref(), false, m)
        }
    }

    /// Binds `tex` to texture `unit` and points the sampler uniform `name` at it.
    pub fn bind_texture(&self, unit: u32, name: &str, tex: &Texture) {
        unsafe {
            self.gl.raw().active_texture(glow::TEXTURE0 + unit);
            self.gl
                .raw()
                .bind_texture(tex.target().gl(), Some(tex.id()));
        }
        self.set_i32(name, unit as i32);
    }

    /// Binds the buffer texture `tex` to texture `unit` and points sampler `name`
    /// (`samplerBuffer` / `usamplerBuffer`) at it.
    pub fn bind_buffer_texture(&self, unit: u32, name: &str, tex: &BufferTexture) {
        unsafe {
            self.gl.raw().active_texture(glow::TEXTURE0 + unit);
            self.gl
                .raw()
                .bind_texture(glow::TEXTURE_BUFFER, Some(tex.id()));
        }
        self.set_i32(name, unit as i32);
    }

    /// Binds level 0 of `tex` to image `unit` (`image2D`/`image2DRect` in a shader) with
    /// `access` = `glow::READ_ONLY` / `WRITE_ONLY` / `READ_WRITE`.
    pub fn bind_image(&self, unit: u32, tex: &Texture, access: u32) {
        unsafe {
            self.gl.raw().bind_image_texture(
                unit,
                Some(tex.id()),
                0,
                false,
                0,
                access,
                tex.format().internal(),
            )
        }
    }

    /// `glDispatchCompute` with `groups` work groups. Checks the device's group-count limit.
    pub fn dispatch(&self, groups: [u32; 3]) -> Result<(), GlError> {
        let max = self.gl.info().max_work_group_count;
        for i in 0..3 {
            if groups[i] as i64 > max[i] as i64 {
                return Err(GlError::Invalid(format!(
                    "dispatch of {groups:?} groups exceeds the device limit {max:?}"
                )));
            }
        }
        super::super::profile::pass(
            &self.gl,
            || self.pass_name(),
            || {
                self.bind();
                unsafe {
                    self.gl
                        .raw()
                        .dispatch_compute(groups[0], groups[1], groups[2])
                };
                self.gl
                    .check(&format!("dispatching {}", self.linked.files.join(", ")))
            },
        )
    }

    /// Enough groups of `local_size` to cover `n` invocations along x (1D dispatch).
    pub fn dispatch_1d(&self, n: u32) -> Result<(), GlError> {
        self.dispatch([n.div_ceil(self.local_size[0].max(1)).max(1), 1, 1])
    }
}
