// Shared vertex stage of every fragment pass: a quad placed in texel units of the target,
// carrying a vec4 of texture coordinates that the rasterizer interpolates (src/gl/quad.rs).
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_tex;

uniform vec2 u_target; // render target size in texels

out vec4 v_tex;

void main() {
    v_tex = a_tex;
    gl_Position = vec4(a_pos / u_target * 2.0 - 1.0, 0.0, 1.0);
}
