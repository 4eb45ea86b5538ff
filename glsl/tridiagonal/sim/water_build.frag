// Shallow water after Kass & Miller 1990 (Kim & Lee 2005 §4, simulation 3, eq. 18):
// ∂²h/∂t² = g d ∇²h with depth d = h - b. Per sweep a symmetric tridiagonal system whose
// coefficients follow the depth of the previous step, so they are rebuilt every step:
//   e_i = 1 + κ (d_{i-1} + 2 d_i + d_{i+1}),  f_i = -κ (d_i + d_{i+1}),  κ = g Δt² / (2 Δh²)
// (end rows have one neighbour; every column sums to one, so the volume is conserved).
// Sweep x: k = h1 + (1 - τ)(h1 - h2) + disturbance; sweep y: k = the x sweep's result.
uniform sampler2DRect u_state;  // the half-step's input: h^{n-1} (x sweep) or h* (y sweep)
uniform int u_state_t;
uniform sampler2DRect u_start;  // h^{n-1}, the state at the start of the step (the depth)
uniform int u_start_t;
uniform sampler2DRect u_prev;   // h^{n-2}, grid order (x sweep)
uniform int u_dir;
uniform int u_n;
uniform float u_kappa;
uniform float u_damp;         // 1 - τ
uniform vec4 u_push[3];       // disturbance: (centre x, centre y, radius, weight) at steps n, n-1, n-2
uniform vec4 u_bottom;        // bottom: (base, slope along x+y, hill height, hill radius)
#include "tridiagonal/sim/build.glsl"

#include "sim/bottom.glsl"

float depth(ivec2 g) {
    g = clamp(g, ivec2(0), ivec2(u_n - 1));
    return max(fetch(u_start, u_start_t, g) - bottom(g), 0.0);
}

vec4 equation(ivec2 p) {
    int i = p.x;
    ivec2 along = u_dir == 0 ? ivec2(1, 0) : ivec2(0, 1);
    ivec2 g = u_dir == 0 ? p : p.yx;
    float d0 = depth(g);
    float a = i == 0 ? 0.0 : -u_kappa * (depth(g - along) + d0);
    float c = i == u_n - 1 ? 0.0 : -u_kappa * (d0 + depth(g + along));
    float k;
    if (u_dir == 0) {
        float h1 = fetch(u_start, u_start_t, g);
        k = h1 + u_damp * (h1 - fetch(u_prev, 0, g));
        // A moving depression imposed as a displacement: its second difference in time.
        vec2 x = vec2(g) + 0.5;
        for (int m = 0; m < 3; ++m) {
            vec2 d = (x - u_push[m].xy) / u_push[m].z;
            k += u_push[m].w * exp(-dot(d, d));
        }
    } else {
        k = fetch(u_state, u_state_t, g);
    }
    return vec4(a, 1.0 - a - c, c, k);
}
