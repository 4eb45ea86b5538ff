//! Procedural meshes: triangles drawn with no vertex attributes, each vertex derived from
//! `gl_VertexID` in the vertex shader.

use glow::HasContext;

use super::context::Gl;
use super::error::GlError;
use super::profile;
use super::program::Program;

impl Gl {
    /// Draws `count` vertices as triangles with no vertex attributes bound: the vertex shader
    /// derives each vertex from `gl_VertexID` (procedural meshes such as a height field whose
    /// heights come from a texture). `program` is used as it is (uniforms already set).
    pub fn draw_procedural_triangles(&self, program: &Program, count: u32) -> Result<(), GlError> {
        let raw = self.raw();
        program.bind();
        profile::pass(
            self,
            || program.pass_name(),
            || {
                unsafe {
                    // A core profile needs a vertex array object bound even with no attributes.
                    let vao = raw.create_vertex_array().map_err(GlError::Invalid)?;
                    raw.bind_vertex_array(Some(vao));
                    raw.draw_arrays(glow::TRIANGLES, 0, count as i32);
                    raw.bind_vertex_array(None);
                    raw.delete_vertex_array(vao);
                }
                self.check("procedural triangle draw")
            },
        )
    }
}
