// FMA throughput in a compute pass: the chains of fma_chains.glsl, one set per invocation,
// seeded by the invocation's index; the sum goes to y[i].
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer Y { float y[]; };
#include "bench/fma_chains.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    y[i] = float(fma_chains(i));
}
