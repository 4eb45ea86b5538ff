// Copies texels through the rasterizer's mapping: gathering the reduction levels into one
// buffer, padding P0, and collecting x into the result.
// Texture fetches go through FETCH/FETCH_OFF so that an instrumented build (COUNT_FETCHES)
// counts every texel fetched and every float it carries (Table 1, measured).
#include "tridiagonal/fetch.glsl"

uniform sampler2DRect u_src;
in vec4 v_tex;
out vec4 o_color;

void main() {
    o_color = FETCH(u_src, v_tex.xy, NFLOATS);
}
