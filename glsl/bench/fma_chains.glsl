// The FMA chains of fma.comp and fma.frag (clpeak "compute_sp/dp"): CHAINS independent vec4
// (or dvec4 with DOUBLE) chains x ← x·a + b, u_iters × 8 steps each (8·CHAINS FMAs per loop
// trip), so that enough independent FMAs are in flight to reach throughput rather than
// latency. a and b are uniforms and the seeds come from the invocation's index, so nothing
// folds at compile time; the caller stores the sum of every chain, so nothing is dead code.
// 0 < a < 1 keeps every chain bounded (it converges to b / (1 − a)), so the result is
// checked against the same recurrence on the CPU.
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

// `x·a + b`, not fma(): GLSL 3.30 (the legacy fragment pipeline) has no fma(), and a correctly
// rounded fma() can be lowered to a slow exact sequence on a target without fused
// instructions enabled (it made llvmpipe's fp32 and fp64 rates equal); GLSL lets the compiler
// contract the pair. The CPU check allows two roundings per step.
#define STEP for (int c = 0; c < CHAINS; ++c) x[c] = x[c] * a + b;
#define STEP8 STEP STEP STEP STEP STEP STEP STEP STEP

// The sum of the four lanes of every chain seeded by index i, after u_iters × 8 steps.
REAL fma_chains(uint i) {
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
    return r.x + r.y + r.z + r.w;
}
