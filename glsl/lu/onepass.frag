// I2 (Matsui et al. 2005, Fig. 4): one pass per step over the L column and the trailing
// block; every fragment branches on its position (GPU branching):
//   k == i:  A_ji = A_ji / A_ii                      (L)
//   k >  i:  A_jk = A_jk - A_ik * A_ji / A_ii        (U, as Fig. 4 prints it: C's order,
//                                                     the product first, then the division)
// I2_DIVIDE_FIRST (the labelled variant, issue 38): A_jk - A_ik * (A_ji / A_ii), the L value
// recomputed exactly as I1 stores it, so the factors equal I1's bit for bit. All four texels
// are fetched by every fragment (the paper's Table 2 counts 4 references per element).
// ARITH_2005: + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl) per its bit
// mask; I2_DIVIDE_FIRST's update is a MAD (F_MSUB: fused under a member with bit 128), the
// printed one a product, a quotient and a difference.
#include "common/arith2005.glsl"
uniform sampler2DRect u_a;
uniform int u_i;
in vec4 v_tex;
out vec4 o_color;

void main() {
    float a = texture(u_a, v_tex.xy).r;
    float aji = texture(u_a, vec2(float(u_i) + 0.5, v_tex.y)).r;
    float aik = texture(u_a, vec2(v_tex.x, float(u_i) + 0.5)).r;
    float aii = texture(u_a, vec2(float(u_i) + 0.5)).r;
    float l = F_DIV(aji, aii);
    if (int(v_tex.x) == u_i) {
        o_color = vec4(l, 0.0, 0.0, 0.0);
    } else {
#ifdef I2_DIVIDE_FIRST
        o_color = vec4(F_MSUB(a, aik, l), 0.0, 0.0, 0.0);
#else
        precise float prod = F_MUL(aik, aji);
        precise float term = F_DIV(prod, aii);
        o_color = vec4(F_SUB(a, term), 0.0, 0.0, 0.0);
#endif
    }
}
