// The CG shaders' vectors and scalars (uses FETCH from fetch.glsl, included before).
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
