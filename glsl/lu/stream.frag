// §4.3: texture-read bandwidth of this device. Every fragment fetches TAPS RGBA32F texels of
// a small neighbourhood (a cache-friendly pattern, as GPUBench's cache test) and writes their
// sum; bandwidth = fragments · TAPS · 16 B / time.
uniform sampler2DRect u_src;
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec4 acc = vec4(0.0);
    for (int t = 0; t < TAPS; t++) {
        acc += texture(u_src, v_tex.xy + vec2(float(t & 3), float(t >> 2)));
    }
    o_color = acc;
}
