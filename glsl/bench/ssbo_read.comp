// Read bandwidth (clpeak "global bandwidth"): invocation i of G sums READS elements
// x[i], x[i + G], x[i + 2G]… (neighbouring invocations read neighbouring elements on every
// step) and writes the one sum, so the reads are not dead code; writes are 1/READS of reads.
// With TEXTURE the loads are texelFetch on a buffer texture of the same array.
#ifndef VEC
#define VEC vec4
#endif
layout(local_size_x = 256) in;
#ifdef TEXTURE
// The same loads through a buffer texture view of the buffer (RGBA32F texels).
uniform samplerBuffer u_x;
#define LOAD(i) texelFetch(u_x, int(i))
#else
layout(std430, binding = 0) readonly buffer X { VEC x[]; };
#define LOAD(i) x[i]
#endif
layout(std430, binding = 1) writeonly buffer Y { VEC y[]; };
uniform uint u_threads; // G = n / READS

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    if (i >= u_threads) return;
    VEC acc = VEC(0.0);
    for (uint k = 0u; k < uint(READS); ++k) acc += LOAD(i + k * u_threads);
    y[i] = acc;
}
