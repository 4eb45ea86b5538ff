// Copies texels through the rasterizer's mapping: gathering the reduction levels into one
// buffer, padding P0, and collecting x into the result.
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
#ifdef COUNT_FETCHES
layout(std430, binding = 7) buffer FetchCounter { uint fetched_texels; uint fetched_floats; };
#define FETCH(s, c, nf) (atomicAdd(fetched_texels, 1u), atomicAdd(fetched_floats, nf), texture(s, c))
#define FETCH_OFF(s, c, o, nf) (atomicAdd(fetched_texels, 1u), atomicAdd(fetched_floats, nf), textureOffset(s, c, o))
#else
#define FETCH(s, c, nf) texture(s, c)
#define FETCH_OFF(s, c, o, nf) textureOffset(s, c, o)
#endif

uniform sampler2DRect u_src;
in vec4 v_tex;
out vec4 o_color;

void main() {
    o_color = FETCH(u_src, v_tex.xy, NFLOATS);
}
