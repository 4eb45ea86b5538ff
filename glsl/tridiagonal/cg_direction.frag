// CG: p = r + beta p with beta = rho / rho_old (both 1x1 textures; rho_old = 1 and p = 0
// before the first iteration). Table 1: 2 fetches (the two scalars are not counted there).
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"
#include "tridiagonal/fetch.glsl"
#include "tridiagonal/cg_lanes.glsl"

uniform sampler2DRect u_r;
uniform sampler2DRect u_p;
uniform sampler2DRect u_rho;
uniform sampler2DRect u_rho_old;
in vec4 v_tex;
out vec4 o_v;

void main() {
    float beta = F_DIV(SCALAR(u_rho), SCALAR(u_rho_old));
    o_v = vec4(F_ADD(GET(u_r, v_tex.xy), F_MUL(beta, GET(u_p, v_tex.xy))));
}
