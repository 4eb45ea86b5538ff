// CG: q = M p (or r0 = k - M x with RESIDUAL), the tridiagonal 3-point stencil. Table 1 counts
// 6 scalar fetches (p_{i-1}, p_i, p_{i+1}, a, b, c), 7 for the residual (plus k).
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"
#include "tridiagonal/fetch.glsl"
#include "tridiagonal/cg_lanes.glsl"

uniform sampler2DRect u_v; // p (or x)
uniform sampler2DRect u_a;
uniform sampler2DRect u_b;
uniform sampler2DRect u_c;
uniform sampler2DRect u_k;
in vec4 v_tex;
out vec4 o_v;

void main() {
    VEC vl = GET_OFF(u_v, v_tex.xy, ivec2(-1, 0));
    VEC vc = GET(u_v, v_tex.xy);
    VEC vr = GET_OFF(u_v, v_tex.xy, ivec2(1, 0));
#if LANES == 4
    vec4 vm = vec4(vl.w, vc.xyz); // v_{i-1} per lane
    vec4 vp = vec4(vc.yzw, vr.x); // v_{i+1} per lane
#else
    float vm = vl, vp = vr;
#endif
    VEC mv = F_ADD(F_ADD(F_MUL(GET(u_a, v_tex.xy), vm), F_MUL(GET(u_b, v_tex.xy), vc)),
                   F_MUL(GET(u_c, v_tex.xy), vp));
#ifdef RESIDUAL
    o_v = vec4(F_SUB(GET(u_k, v_tex.xy), mv));
#else
    o_v = vec4(mv);
#endif
}
