// Pollutant advection–diffusion, ADI with the upwind operator in the implicit direction and
// the central one in the explicit direction (Kim & Lee 2005 §2.2, eq. 8):
//   (C* - C)/(Δt/2) = -w Δ*_along C* - w' Δ0_across C + D (Δ_along,along C* + Δ_across,across C) + S
// w: velocity along the sweep, w': across it. With λ = Δt/2 and α = λ D / Δh² (Δh = 1):
//   a = -λ max(w,0) - α,  c = λ min(w,0) - α,  b = 1 + λ |w| + 2α
//   k = C - λ w' (C_+ - C_-)/2 + α (C_+ - 2C + C_-) + λ S
// Zero-gradient boundaries (ghost = edge value): an end row folds its missing neighbour into b.
uniform sampler2DRect u_state;
uniform int u_state_t;
uniform int u_dir;
uniform int u_n;
uniform float u_lambda;  // Δt / 2
uniform float u_alpha;   // λ D / Δh²
uniform int u_flow;      // 0: uniform stream (u_vel), 1: rotation at u_omega about the centre
uniform vec2 u_vel;
uniform float u_omega;
uniform vec4 u_src;      // (centre x, centre y, radius, rate); rate 0: no source this step
#include "tridiagonal/sim/build.glsl"

float state(ivec2 g) {
    return fetch_state(g);
}

vec2 velocity(vec2 x) {
    if (u_flow == 0) return u_vel;
    vec2 r = x - 0.5 * float(u_n);
    return u_omega * vec2(-r.y, r.x);
}

vec4 equation(ivec2 p) {
    int i = p.x;
    ivec2 along = u_dir == 0 ? ivec2(1, 0) : ivec2(0, 1);
    ivec2 across = along.yx;
    ivec2 g = u_dir == 0 ? p : p.yx;
    vec2 x = vec2(g) + 0.5;
    vec2 vel = velocity(x);
    float w = dot(vel, vec2(along));
    float wt = dot(vel, vec2(across));
    float a = -u_lambda * max(w, 0.0) - u_alpha;
    float c = u_lambda * min(w, 0.0) - u_alpha;
    float b = 1.0 + u_lambda * abs(w) + 2.0 * u_alpha;
    if (i == 0) { b += a; a = 0.0; }
    if (i == u_n - 1) { b += c; c = 0.0; }
    float cm = state(g - across), c0 = state(g), cp = state(g + across);
    vec2 ds = x - u_src.xy;
    float s = ds.x * ds.x + ds.y * ds.y < u_src.z * u_src.z ? u_src.w : 0.0;
    float k = c0 - u_lambda * wt * 0.5 * (cp - cm) + u_alpha * (cp - 2.0 * c0 + cm) + u_lambda * s;
    return vec4(a, b, c, k);
}
