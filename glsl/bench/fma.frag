// FMA throughput in a fragment pass: the CHAINS chains of fma.comp, one set per fragment,
// seeded by the fragment's index; the sum goes to an R32F render target.
#ifndef CHAINS
#define CHAINS 2
#endif
#ifdef DOUBLE
#define REAL double
#define VEC dvec4
#else
#define REAL float
#define VEC vec4
#endif
uniform int u_iters;
uniform float u_a;
uniform float u_b;
uniform float u_width;
out vec4 o_color;

// `a * x + b`, not `fma()`: GLSL 3.30 (the legacy fragment pipeline) has no fma(); the driver
// may fuse the pair or not, and the CPU check's tolerance allows two roundings per step.
#define STEP for (int c = 0; c < CHAINS; ++c) x[c] = x[c] * a + b;
#define STEP8 STEP STEP STEP STEP STEP STEP STEP STEP

void main() {
    uint i = uint(gl_FragCoord.y) * uint(u_width) + uint(gl_FragCoord.x);
    REAL s = REAL(i % 64u) * REAL(0.015625);
    VEC a = VEC(REAL(u_a));
    VEC b = VEC(REAL(u_b));
    VEC x[CHAINS];
    for (int c = 0; c < CHAINS; ++c)
        x[c] = VEC(s, s + REAL(1), s + REAL(2), s + REAL(3)) + VEC(REAL(c) * REAL(0.5));
    for (int k = 0; k < u_iters; ++k) {
        STEP8
    }
    VEC r = VEC(0);
    for (int c = 0; c < CHAINS; ++c) r += x[c];
    o_color = vec4(float(r.x + r.y + r.z + r.w), 0.0, 0.0, 1.0);
}
