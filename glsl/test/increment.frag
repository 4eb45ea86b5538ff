// Toolkit test: every pass adds (1, 2, 3, 4) to the texel it reads (exact in float up to 2^24).
uniform sampler2DRect u_src;
in vec4 v_tex;
out vec4 o_color;

void main() {
    o_color = texture(u_src, v_tex.xy) + vec4(1.0, 2.0, 3.0, 4.0);
}
