// CG: y + SIGN alpha z with alpha = rho / (p.q): x += alpha p (SIGN +1), r -= alpha q
// (SIGN -1); eq. (17) and Fig. 10 of the paper. Table 1: 2 fetches.
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"
#include "tridiagonal/fetch.glsl"
#include "tridiagonal/cg_lanes.glsl"

uniform sampler2DRect u_y;
uniform sampler2DRect u_z;
uniform sampler2DRect u_rho;
uniform sampler2DRect u_pq;
in vec4 v_tex;
out vec4 o_v;

void main() {
    float alpha = F_DIV(SCALAR(u_rho), SCALAR(u_pq));
    o_v = vec4(F_ADD(GET(u_y, v_tex.xy), F_MUL(SIGN * alpha, GET(u_z, v_tex.xy))));
}
