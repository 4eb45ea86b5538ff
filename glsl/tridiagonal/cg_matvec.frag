// CG: q = M p (or r0 = k - M x with RESIDUAL), the tridiagonal 3-point stencil. Table 1 counts
// 6 scalar fetches (p_{i-1}, p_i, p_{i+1}, a, b, c), 7 for the residual (plus k).
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
// ARITH_2005 (issue 25): + − × ÷ follow the 2005 arithmetic model (common/arith2005.glsl).
#include "common/arith2005.glsl"
#ifdef COUNT_FETCHES
layout(std430, binding = 7) buffer FetchCounter { uint fetched_texels; uint fetched_floats; };
#define FETCH(s, c, nf) (atomicAdd(fetched_texels, 1u), atomicAdd(fetched_floats, nf), texture(s, c))
#define FETCH_OFF(s, c, o, nf) (atomicAdd(fetched_texels, 1u), atomicAdd(fetched_floats, nf), textureOffset(s, c, o))
#else
#define FETCH(s, c, nf) texture(s, c)
#define FETCH_OFF(s, c, o, nf) textureOffset(s, c, o)
#endif
// LANES = 1: scalar textures (one unknown per R32F texel); LANES = 4: RGBA-packed vector
// textures (unknowns 4c .. 4c+3 in texel c), as Table 1 compares.
#if LANES == 4
#define VEC vec4
#define GET(s, c) FETCH(s, c, 4u)
#define GET_OFF(s, c, o) FETCH_OFF(s, c, o, 4u)
#else
#define VEC float
#define GET(s, c) FETCH(s, c, 1u).x
#define GET_OFF(s, c, o) FETCH_OFF(s, c, o, 1u).x
#endif
// Scalars (dot products) live in 1x1 textures; a packed dot is the sum of its 4 lanes.
// Their fetches are not counted: Table 1 does not count them either.
#if LANES == 4
#define SCALAR(s) dot(texture(s, vec2(0.5)), vec4(1.0))
#else
#define SCALAR(s) texture(s, vec2(0.5)).x
#endif

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
