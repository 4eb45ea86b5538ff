// Cyclic reduction, one level s of eq. (15) (Kim & Lee 2005 §3.1–3.2, Fig. 2 and 4).
// The quad's .xy coordinate lands on the centre of equation i of level s-1 (position 2j+1 of
// its run); its neighbours i -/+ 2^(s-1) are the adjacent texels: constant offsets, no index
// arithmetic (see src/papers/tridiagonal/layout.rs for the half-texel convention).
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
#include "tridiagonal/fetch.glsl"

// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"

uniform sampler2DRect u_p; // level s-1: texel = P = (a, b, c, k)
in vec4 v_tex;
out vec4 o_p;

void main() {
    vec4 p = FETCH(u_p, v_tex.xy, 4u);
    vec4 pl = FETCH_OFF(u_p, v_tex.xy, ivec2(-1, 0), 4u);
    vec4 pr = FETCH_OFF(u_p, v_tex.xy, ivec2(1, 0), 4u);
    float alpha = F_DIV(-p.x, pl.y); // alpha_i = -a_i / b_{i-d}
    float gamma = F_DIV(-p.z, pr.y); // gamma_i = -c_i / b_{i+d} (the text's beta)
    o_p = vec4(F_MUL(alpha, pl.x),
               F_ADD(F_ADD(p.y, F_MUL(alpha, pl.z)), F_MUL(gamma, pr.x)),
               F_MUL(gamma, pr.z),
               F_ADD(F_ADD(p.w, F_MUL(alpha, pl.w)), F_MUL(gamma, pr.w)));
}
