// Cyclic reduction, one level s of the filling, eq. (16) (Fig. 3). Output texel m holds
// x_{m 2^(s-1)}. The .xy coordinate m/2 + 1/4 falls in texel m' = floor(m/2) of the previous
// level's x (fraction 1/4 for even m: a copy, 3/4 for odd m: a new unknown); .zw lands on the
// equation i = m 2^(s-1) in level s-1's run.
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
#include "tridiagonal/fetch.glsl"

// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"

uniform sampler2DRect u_x; // x of the previous fill level (x at multiples of 2^s)
uniform sampler2DRect u_p; // level s-1 of the reduction (or P0 for s = 1)
in vec4 v_tex;
out vec4 o_x;

void main() {
    float xl = FETCH(u_x, v_tex.xy, 1u).x;
    if (fract(v_tex.x) < 0.5) { // even m: already known
        o_x = vec4(xl);
        return;
    }
    float xr = FETCH_OFF(u_x, v_tex.xy, ivec2(1, 0), 1u).x;
    vec4 p = FETCH(u_p, v_tex.zw, 4u);
    o_x = vec4(F_DIV(F_SUB(F_SUB(p.w, F_MUL(p.x, xl)), F_MUL(p.z, xr)), p.y));
}
