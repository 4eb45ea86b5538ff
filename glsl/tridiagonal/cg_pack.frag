// CG set-up (not in Table 1): one coefficient channel CHANNEL (0 = a, 1 = b, 2 = c, 3 = k)
// of the (a, b, c, k) systems texture into a scalar or RGBA-packed texture. Unknowns
// beyond n become identity rows, and a_1, c_n (which multiply the zero boundary) are zeroed.
uniform sampler2DRect u_sys;
uniform int u_n;
out vec4 o_v;

float coef(int i, int row) {
    if (i >= u_n) return CHANNEL == 1 ? 1.0 : 0.0;
    if ((CHANNEL == 0 && i == 0) || (CHANNEL == 2 && i == u_n - 1)) return 0.0;
    return texelFetch(u_sys, ivec2(i, row))[CHANNEL];
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int i0 = t.x * LANES;
    o_v = vec4(coef(i0, t.y), coef(i0 + 1, t.y), coef(i0 + 2, t.y), coef(i0 + 3, t.y));
}
