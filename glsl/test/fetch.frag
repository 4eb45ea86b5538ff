// Toolkit test: writes the texel the interpolated coordinate lands on (index mapping).
uniform sampler2DRect u_src;
in vec4 v_tex;
out vec4 o_color;

void main() {
    o_color = texture(u_src, v_tex.xy);
}
