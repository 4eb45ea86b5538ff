// FMA throughput in a fragment pass: the chains of fma.comp, one set per fragment, seeded by
// the fragment's index; the sum goes to an R32F render target.
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
#define STEP2 x0 = x0 * a + b; x1 = x1 * a + b;
#define STEP8 STEP2 STEP2 STEP2 STEP2
#define STEP16 STEP8 STEP8

void main() {
    uint i = uint(gl_FragCoord.y) * uint(u_width) + uint(gl_FragCoord.x);
    REAL s = REAL(i % 64u) * REAL(0.015625);
    VEC x0 = VEC(s, s + REAL(1), s + REAL(2), s + REAL(3));
    VEC x1 = x0 + VEC(0.5);
    VEC a = VEC(REAL(u_a));
    VEC b = VEC(REAL(u_b));
    for (int k = 0; k < u_iters; ++k) {
        STEP16
    }
    VEC r = x0 + x1;
    o_color = vec4(float(r.x + r.y + r.z + r.w), 0.0, 0.0, 1.0);
}
