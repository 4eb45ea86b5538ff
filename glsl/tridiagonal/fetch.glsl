// Texture fetches of the tridiagonal fragment shaders: FETCH/FETCH_OFF count every texel
// fetched and every float it carries in an instrumented build (COUNT_FETCHES; Table 1,
// measured), else they are texture()/textureOffset().
#ifdef COUNT_FETCHES
layout(std430, binding = 7) buffer FetchCounter { uint fetched_texels; uint fetched_floats; };
#define FETCH(s, c, nf) (atomicAdd(fetched_texels, 1u), atomicAdd(fetched_floats, nf), texture(s, c))
#define FETCH_OFF(s, c, o, nf) (atomicAdd(fetched_texels, 1u), atomicAdd(fetched_floats, nf), textureOffset(s, c, o))
#else
#define FETCH(s, c, nf) texture(s, c)
#define FETCH_OFF(s, c, o, nf) textureOffset(s, c, o)
#endif
