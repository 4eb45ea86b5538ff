// Texture-fetch bandwidth: every fragment sums FETCHES texels and writes the sum.
// RECT: a rectangle texture (unnormalized coordinates), else a 2D texture (normalized).
// STRIDED: fetch k reads row (y + k·u_stride) mod h, each fetch far from the last;
// else fetch k reads texel (x + k) mod w of the fragment's own row (consecutive, the access
// pattern of the 2005 papers' passes). WRAP_ROWS: the row, too, wraps into a texture smaller
// than the target (the cache-resident read: every fetch from one small texture).
// R32F textures put their value in .r, the rest 0.
#ifdef RECT
uniform sampler2DRect u_src;
#define FETCH(c) texture(u_src, c)
#else
uniform sampler2D u_src;
#define FETCH(c) texture(u_src, (c) / u_size)
#endif
uniform vec2 u_size;
uniform float u_stride;
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec4 acc = vec4(0.0);
    for (int k = 0; k < FETCHES; ++k) {
#ifdef STRIDED
        vec2 c = vec2(v_tex.x, mod(v_tex.y + float(k) * u_stride, u_size.y));
#else
        vec2 c = vec2(mod(v_tex.x + float(k), u_size.x), v_tex.y);
#endif
#ifdef WRAP_ROWS
        c.y = mod(c.y, u_size.y);
#endif
        acc += FETCH(c);
    }
    o_color = acc;
}
