// I1/I3 L pass (Matsui et al. 2005, Fig. 3 line 4): A_ji = A_ji / A_ii for the rows below the
// pivot. Scalar layout (I1): texel (k, j) holds A_jk in .r. Vector layout (I3/I4, VEC4):
// texel (b, k) holds rows 4b..4b+3 of column k in RGBA; the step's column is the texel row
// y = i and the pivot is channel u_c of texel (u_pb, i).
//
// START (vector only): the first channel this program writes: 0 = RGBA, 1 = GBA, 2 = BA,
// 3 = A (I3: one of four programs chosen by the CPU). EDGE_BRANCH (I4): one program, and the
// fragment itself decides (GPU branch on position) whether it is the edge texel u_edge and
// masks channels below u_start. ARITH_2005 (issue 25): the division follows the 2005
// arithmetic model (common/arith2005.glsl) when its bit 4 is set.
#include "common/arith2005.glsl"
uniform sampler2DRect u_a;
uniform int u_i;      // pivot step i
#ifdef VEC4
uniform int u_pb;     // texel column holding the pivot (i / 4)
uniform int u_c;      // the pivot's channel (i % 4)
#ifdef EDGE_BRANCH
uniform int u_edge;   // texel column of the left edge
uniform int u_start;  // first channel written at the edge
#endif
#endif
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec4 a = texture(u_a, v_tex.xy);
#ifdef VEC4
    float piv = texture(u_a, vec2(float(u_pb) + 0.5, float(u_i) + 0.5))[u_c];
    vec4 l = F_DIV(a, piv);
#ifdef EDGE_BRANCH
    if (int(v_tex.x) == u_edge) {
        o_color = mix(a, l, greaterThanEqual(ivec4(0, 1, 2, 3), ivec4(u_start)));
    } else {
        o_color = l;
    }
#else
    o_color = mix(a, l, greaterThanEqual(ivec4(0, 1, 2, 3), ivec4(START)));
#endif
#else
    float piv = texture(u_a, vec2(float(u_i) + 0.5)).r;
    o_color = vec4(F_DIV(a.r, piv), 0.0, 0.0, 0.0);
#endif
}
