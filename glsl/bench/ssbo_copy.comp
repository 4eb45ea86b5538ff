// Streaming bandwidth, STREAM "copy": y[i] = x[i], one invocation per element.
// VEC is vec4 (16 bytes) or dvec4 (32 bytes), set by src/bench/memory.rs (default vec4).
#ifndef VEC
#define VEC vec4
#endif
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { VEC x[]; };
layout(std430, binding = 1) writeonly buffer Y { VEC y[]; };
uniform uint n;

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    if (i < n) y[i] = x[i];
}
