// FMA throughput (clpeak "compute_sp/dp"): every invocation runs two independent vec4 (or
// dvec4 with DOUBLE) chains x ← x·a + b, u_iters × 8 steps each (16 FMAs per loop trip); a and b
// are uniforms, so nothing folds at compile time. The sum is written: nothing is dead code.
// 0 < a < 1 keeps every chain bounded (it converges to b / (1 − a)), so the result is
// checked against the same recurrence on the CPU.
#ifdef DOUBLE
#define REAL double
#define VEC dvec4
#else
#define REAL float
#define VEC vec4
#endif
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer Y { float y[]; };
uniform int u_iters;
uniform float u_a;
uniform float u_b;

#define STEP2 x0 = fma(x0, a, b); x1 = fma(x1, a, b);
#define STEP8 STEP2 STEP2 STEP2 STEP2
#define STEP16 STEP8 STEP8

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    REAL s = REAL(i % 64u) * REAL(0.015625);
    VEC x0 = VEC(s, s + REAL(1), s + REAL(2), s + REAL(3));
    VEC x1 = x0 + VEC(0.5);
    VEC a = VEC(REAL(u_a));
    VEC b = VEC(REAL(u_b));
    for (int k = 0; k < u_iters; ++k) {
        STEP16
    }
    VEC r = x0 + x1;
    y[i] = float(r.x + r.y + r.z + r.w);
}
