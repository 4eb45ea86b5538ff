// Table 5 (a small GPU "paranoia"): texel .rg holds operands (a, b); the output holds
// (a + b, a − b, a · b, a / b) as this fragment processor computes them. `precise` keeps the
// compiler from fusing or reassociating anything. ARITH_2005 = 7: the 2005 model of every
// operation (common/arith2005.glsl), the "emulated 2005" column.
#include "common/arith2005.glsl"
uniform sampler2DRect u_ab;
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec2 ab = texture(u_ab, v_tex.xy).rg;
    precise float s = F_ADD(ab.x, ab.y);
    precise float d = F_SUB(ab.x, ab.y);
    precise float p = F_MUL(ab.x, ab.y);
    precise float q = F_DIV(ab.x, ab.y);
    o_color = vec4(s, d, p, q);
}
