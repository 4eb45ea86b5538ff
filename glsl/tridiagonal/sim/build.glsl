// What the ADI build shaders (heat_build, pollutant_build, water_build) share, included with
// `#include "tridiagonal/sim/build.glsl"` after their uniforms (u_n among them): the systems
// texel they write (as a fragment pass; with FUSED, fused_thomas.comp solves each line's
// equations at once instead) and the read of a state texture that may be stored transposed
// (texel (j, i) holding grid point (i, j): the transposition between the half-steps), with
// the edge value beyond the grid (zero-gradient boundaries).
#ifndef FUSED
out vec4 o_sys;
#endif

float fetch(sampler2DRect t, int transposed, ivec2 g) {
    g = clamp(g, ivec2(0), ivec2(u_n - 1));
    return texelFetch(t, transposed == 1 ? g.yx : g).r;
}

#ifdef FUSED
// The fused path reads its state through an image (bound to unit 2 by the caller): an
// imageLoad costs llvmpipe less than a texelFetch (no sampler); on a GPU both go through L1.
layout(r32f, binding = 2) uniform readonly image2DRect u_state_img;
#endif

// The half-step's input state at grid point g (clamped to the grid).
float fetch_state(ivec2 g) {
#ifdef FUSED
    g = clamp(g, ivec2(0), ivec2(u_n - 1));
    return imageLoad(u_state_img, u_state_t == 1 ? g.yx : g).r;
#else
    return fetch(u_state, u_state_t, g);
#endif
}

// The equation (a, b, c, k) of unknown p.x of line p.y of the systems texture (each scheme's).
vec4 equation(ivec2 p);

#ifndef FUSED
void main() {
    o_sys = equation(ivec2(gl_FragCoord.xy));
}
#endif
