// I1/I3 U pass (Matsui et al. 2005, Fig. 3 line 7): A_jk = A_jk - A_ik * A_ji for j, k > i,
// A_ji being the L value written by the L pass. Layouts, START and EDGE_BRANCH as in l.frag.
// FETCH_ONLY (§4.3): the same three fetches, no arithmetic (the channels are shuffled into
// the output so that no fetch can be optimised away). ARITH_2005: the product and the
// difference follow the 2005 arithmetic model (common/arith2005.glsl) per its bit mask,
// fused into one MAD under a member with bit 128 (F_MSUB).
// L_TEXTURE (the paper's switch method without carried texels, issue 38): the L values
// A_ji come from their own texture u_l, which the step's L pass wrote; A_jk and A_ik from
// u_a, the previous U pass's output.
#include "common/arith2005.glsl"
uniform sampler2DRect u_a;
#ifdef L_TEXTURE
uniform sampler2DRect u_l;
#define L_SRC u_l
#else
#define L_SRC u_a
#endif
uniform int u_i;
#ifdef VEC4
uniform int u_pb;
uniform int u_c;
#ifdef EDGE_BRANCH
uniform int u_edge;
uniform int u_start;
#endif
#endif
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec4 a = texture(u_a, v_tex.xy);
#ifdef VEC4
    // Four L values of this texel's rows (column i), and U_ik of row i (channel u_c).
    vec4 l = texture(L_SRC, vec2(v_tex.x, float(u_i) + 0.5));
    vec4 row = texture(u_a, vec2(float(u_pb) + 0.5, v_tex.y));
#ifdef FETCH_ONLY
    o_color = vec4(a.xy, l.z, row.w);
#else
    float u = row[u_c];
    // MUL then ADD, as the paper's fragment programs (precise keeps them unfused), or one
    // fused MAD under a member of the 2005 model that fuses it (F_MSUB).
    vec4 upd = F_MSUB(a, u, l);
#ifdef EDGE_BRANCH
    if (int(v_tex.x) == u_edge) {
        o_color = mix(a, upd, greaterThanEqual(ivec4(0, 1, 2, 3), ivec4(u_start)));
    } else {
        o_color = upd;
    }
#else
    o_color = mix(a, upd, greaterThanEqual(ivec4(0, 1, 2, 3), ivec4(START)));
#endif
#endif
#else
    float l = texture(L_SRC, vec2(float(u_i) + 0.5, v_tex.y)).r;
    float u = texture(u_a, vec2(v_tex.x, float(u_i) + 0.5)).r;
#ifdef FETCH_ONLY
    o_color = vec4(a.r, l, u, 0.0);
#else
    o_color = vec4(F_MSUB(a.r, u, l), 0.0, 0.0, 0.0);
#endif
#endif
}
