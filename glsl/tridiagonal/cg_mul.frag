// CG: the elementwise product u*v that a dot product then reduces (Table 1: "N, 1"
// counts one fetch per element for r.r; p.q takes two).
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

uniform sampler2DRect u_u;
uniform sampler2DRect u_v;
in vec4 v_tex;
out vec4 o_v;

void main() {
#ifdef SQUARE
    VEC u = GET(u_u, v_tex.xy);
    o_v = vec4(F_MUL(u, u));
#else
    o_v = vec4(F_MUL(GET(u_u, v_tex.xy), GET(u_v, v_tex.xy)));
#endif
}
