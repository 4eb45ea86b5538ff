//! Quads with explicit per-vertex texture coordinates: the rasterizer does index mapping.
//!
//! The cyclic-reduction paper (Kim & Lee 2005 §3.2) computes no index in the shader: a pass
//! draws a quad over the output texels `[x0, x1)` whose corners carry the input coordinates,
//! and linear interpolation hands each fragment the coordinate of the texel it must read.
//! Positions are given in texel units of the render target (`u_target` in `quad.vert` maps
//! them to clip space); the fragment at texel `i` has its centre at `i + 0.5`, and receives
//! `t0 + (i + 0.5 - x0) · (t1 - t0) / (x1 - x0)`. Each vertex carries a `vec4`: two 2D
//! coordinates (`.xy` and `.zw`) interpolated independently, for shaders that read two
//! sources through the rasterizer.

use bytemuck::{Pod, Zeroable};
use glow::HasContext;

use super::context::Gl;
use super::error::GlError;
use super::program::handle::Program;
use super::texture::Rect;

/// One vertex: position in target texels, and a `vec4` of texture coordinates.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Vertex {
    pub pos: [f32; 2],
    pub tex: [f32; 4],
}

/// A quad over `[x0, x1) × [y0, y1)` of the target, with a `vec4` coordinate at each corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// `[x0, y0, x1, y1]` in target texels.
    pub dst: [f32; 4],
    /// Coordinates at the corners `(x0,y0)`, `(x1,y0)`, `(x1,y1)`, `(x0,y1)`.
    pub tex: [[f32; 4]; 4],
}

impl Quad {
    /// A quad over `r` whose coordinates (`.xy` and `.zw`) equal the target's: each fragment
    /// receives its own texel centre.
    pub fn identity(r: Rect) -> Quad {
        let (x0, y0, x1, y1) = (
            r.x as f32,
            r.y as f32,
            (r.x + r.w) as f32,
            (r.y + r.h) as f32,
        );
        Quad::mapped(r, [x0, y0, x1, y1])
    }

    /// A quad over `dst` whose `.xy` (and `.zw`) coordinates run linearly from `(s0, t0)` at
    /// the corner `(x0, y0)` to `(s1, t1)` at `(x1, y1)`: `src = [s0, t0, s1, t1]`.
    pub fn mapped(dst: Rect, src: [f32; 4]) -> Quad {
        let d = [
            dst.x as f32,
            dst.y as f32,
            (dst.x + dst.w) as f32,
            (dst.y + dst.h) as f32,
        ];
        let [s0, t0, s1, t1] = src;
        Quad {
            dst: d,
            tex: [
                [s0, t0, s0, t0],
                [s1, t0, s1, t0],
                [s1, t1, s1, t1],
                [s0, t1, s0, t1],
            ],
        }
    }

    /// Replaces the `.zw` coordinates with a second linear mapping `[s0, t0, s1, t1]`.
    pub fn with_zw(mut self, src: [f32; 4]) -> Quad {
        let [s0, t0, s1, t1] = src;
        let corners = [[s0, t0], [s1, t0], [s1, t1], [s0, t1]];
        for (c, zw) in self.tex.iter_mut().zip(corners) {
            c[2] = zw[0];
            c[3] = zw[1];
        }
        self
    }

    fn vertices(&self) -> [Vertex; 6] {
        let [x0, y0, x1, y1] = self.dst;
        let p = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        let v = |i: usize| Vertex {
            pos: p[i],
            tex: self.tex[i],
        };
        [v(0), v(1), v(2), v(0), v(2), v(3)]
    }
}

/// A vertex buffer of quads, drawn in one `glDrawArrays` (the paper's "one quad per level").
pub struct QuadBatch {
    gl: Gl,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    vertices: i32,
}

impl QuadBatch {
    pub fn new(gl: &Gl, quads: &[Quad]) -> Result<QuadBatch, GlError> {
        let raw = gl.raw();
        let vao = unsafe { raw.create_vertex_array() }.map_err(GlError::Invalid)?;
        let vbo = unsafe { raw.create_buffer() }.map_err(GlError::Invalid)?;
        let mut b = QuadBatch {
            gl: gl.clone(),
            vao,
            vbo,
            vertices: 0,
        };
        unsafe {
            raw.bind_vertex_array(Some(vao));
            raw.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            let stride = std::mem::size_of::<Vertex>() as i32;
            raw.enable_vertex_attrib_array(0);
            raw.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, stride, 0);
            raw.enable_vertex_attrib_array(1);
            raw.vertex_attrib_pointer_f32(1, 4, glow::FLOAT, false, stride, 8);
            raw.bind_vertex_array(None);
        }
        b.set(quads)?;
        Ok(b)
    }

    /// Replaces the quads.
    pub fn set(&mut self, quads: &[Quad]) -> Result<(), GlError> {
        let verts: Vec<Vertex> = quads.iter().flat_map(|q| q.vertices()).collect();
        let raw = self.gl.raw();
        unsafe {
            raw.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            raw.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&verts),
                glow::DYNAMIC_DRAW,
            );
        }
        self.vertices = verts.len() as i32;
        self.gl.check("quad upload")
    }

    /// Number of quads.
    pub fn len(&self) -> usize {
        self.vertices as usize / 6
    }
    pub fn is_empty(&self) -> bool {
        self.vertices == 0
    }

    /// Draws the quads with `program` into the bound target of `target_w × target_h` texels.
    /// The program's vertex stage must be `common/quad.vert` (see [`Program::fragment`]).
    pub fn draw(&self, program: &Program, target_w: u32, target_h: u32) -> Result<(), GlError> {
        program.set_vec2("u_target", [target_w as f32, target_h as f32]);
        super::profile::pass(
            &self.gl,
            || program.pass_name(),
            || {
                let raw = self.gl.raw();
                unsafe {
                    raw.bind_vertex_array(Some(self.vao));
                    raw.draw_arrays(glow::TRIANGLES, 0, self.vertices);
                    raw.bind_vertex_array(None);
                }
                self.gl.check("quad draw")
            },
        )
    }
}

impl Drop for QuadBatch {
    fn drop(&mut self) {
        if self.gl.is_current() {
            unsafe {
                self.gl.raw().delete_vertex_array(self.vao);
                self.gl.raw().delete_buffer(self.vbo);
            }
        }
    }
}
