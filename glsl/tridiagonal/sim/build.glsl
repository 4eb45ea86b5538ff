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

// The equation (a, b, c, k) of unknown p.x of line p.y of the systems texture (each scheme's).
vec4 equation(ivec2 p);

#ifndef FUSED
void main() {
    o_sys = equation(ivec2(gl_FragCoord.xy));
}
#endif
