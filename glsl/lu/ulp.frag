// Table 5 (a small GPU "paranoia"): texel .rg holds operands (a, b); the output holds
// (a + b, a − b, a · b, a / b) as this fragment processor computes them. `precise` keeps the
// compiler from fusing or reassociating anything. ARITH_2005 = 7: the 2005 model of every
// operation (common/arith2005.glsl), the "emulated 2005" column. ULP_MSUB: texel .rgb holds
// (c, a, b) and the output's .r the update c - a*b, for the fused MAD's twin test.
#include "common/arith2005.glsl"
uniform sampler2DRect u_ab;
in vec4 v_tex;
out vec4 o_color;

void main() {
#ifdef ULP_MSUB
    // The update c - a*b of texel (c, a, b) (F_MSUB: a fused MAD under a member with one).
    vec3 cab = texture(u_ab, v_tex.xy).rgb;
    o_color = vec4(F_MSUB(cab.x, cab.y, cab.z), 0.0, 0.0, 0.0);
#else
    vec2 ab = texture(u_ab, v_tex.xy).rg;
    precise float s = F_ADD(ab.x, ab.y);
    precise float d = F_SUB(ab.x, ab.y);
    precise float p = F_MUL(ab.x, ab.y);
    precise float q = F_DIV(ab.x, ab.y);
    o_color = vec4(s, d, p, q);
#endif
}
