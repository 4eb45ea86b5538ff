// Heat conduction, Peaceman–Rachford ADI (Kim & Lee 2005 §2.1, eq. 3): builds the batch of
// tridiagonal systems of one half-step, one system per grid line, texel (a, b, c, k).
//   implicit along the sweep:  -r T*_{i-1} + (1 + 2r) T*_i - r T*_{i+1}
//   explicit across it:        k = T + r (T_{+} - 2 T + T_{-}),   r = c Δt / (2 Δh²)
// Neumann boundaries (zero flux): the ghost value equals the edge value, so an end row has
// one neighbour and every row of the matrix sums to one. Heat-source cells are held at their
// temperature (identity rows). The state may be stored transposed (it is after a y sweep):
// reading it through `state()` is the transposition between the half-steps.
uniform sampler2DRect u_state;
uniform int u_state_t;   // 1: texel (j, i) holds grid point (i, j)
uniform int u_dir;       // 0: sweep along grid x, 1: along grid y
uniform int u_n;
uniform float u_r;
uniform int u_nsrc;
#define MAX_SOURCES 2
uniform vec4 u_src[MAX_SOURCES];  // (centre x, centre y, radius, temperature) in grid units
#include "tridiagonal/sim/build.glsl"

float state(ivec2 g) {
    return fetch_state(g);
}

vec4 equation(ivec2 p) {
    int i = p.x;
    ivec2 along = u_dir == 0 ? ivec2(1, 0) : ivec2(0, 1);
    ivec2 g = u_dir == 0 ? p : p.yx;
    // A cell inside a source is held at its temperature (an identity row). The test runs
    // over a constant bound and selects instead of returning early: every invocation of a
    // SIMD batch takes the one path, and u_src is indexed by constants (on llvmpipe the loop
    // over u_nsrc with an early return cost a third of the fused half-step).
    bool held = false;
    float held_t = 0.0;
    for (int s = MAX_SOURCES - 1; s >= 0; --s) {
        vec2 d = vec2(g) + 0.5 - u_src[s].xy;
        bool inside = s < u_nsrc && d.x * d.x + d.y * d.y < u_src[s].z * u_src[s].z;
        held = held || inside;
        held_t = inside ? u_src[s].w : held_t;
    }
    float t = state(g);
    float k = t + u_r * (state(g + along.yx) - 2.0 * t + state(g - along.yx));
    float a = i == 0 ? 0.0 : -u_r;
    float c = i == u_n - 1 ? 0.0 : -u_r;
    return held ? vec4(0.0, 1.0, 0.0, held_t) : vec4(a, 1.0 - a - c, c, k);
}
