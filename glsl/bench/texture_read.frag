// Texture-read bandwidth: every fragment sums FETCHES RGBA32F texels of a rectangle texture
// along its row (consecutive texels, as a cache-friendly GPGPU pass reads), and writes one.
uniform sampler2DRect u_src;
uniform float u_width;
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec4 acc = vec4(0.0);
    for (int k = 0; k < FETCHES; ++k) {
        acc += texture(u_src, vec2(mod(v_tex.x + float(k), u_width), v_tex.y));
    }
    o_color = acc;
}
