// CG: one 2x2 -> 1 reduction pass of a dot product (Krueger & Westermann 2003); Table 1:
// N/3 fragments (N/4 + N/16 + ...) with 4 fetches. Texels beyond u_size count as zero.
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"
#include "tridiagonal/fetch.glsl"
uniform sampler2DRect u_src;
uniform vec2 u_size;
in vec4 v_tex;
out vec4 o_v;

#define AT(ox, oy) (all(lessThan(v_tex.xy + vec2(ox, oy), u_size)) \
    ? FETCH_OFF(u_src, v_tex.xy, ivec2(ox, oy), uint(LANES)) : vec4(0.0))

void main() {
    o_v = F_ADD(F_ADD(F_ADD(AT(0, 0), AT(1, 0)), AT(0, 1)), AT(1, 1));
}
