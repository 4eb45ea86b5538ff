// CG: the elementwise product u*v that a dot product then reduces (Table 1: "N, 1"
// counts one fetch per element for r.r; p.q takes two).
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"
#include "tridiagonal/fetch.glsl"
#include "tridiagonal/cg_lanes.glsl"

uniform sampler2DRect u_u;
uniform sampler2DRect u_v;
in vec4 v_tex;
out vec4 o_v;

void main() {
#ifdef SQUARE
    VEC u = GET(u_u, v_tex.xy);
    o_v = vec4(F_MUL(u, u));
#else
    o_v = vec4(F_MUL(GET(u_u, v_tex.xy), GET(u_v, v_tex.xy)));
#endif
}
