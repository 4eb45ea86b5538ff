// Write bandwidth: y[i] = (i, i + 1, u_value, 1), computed from the index alone (no reads).
#ifndef VEC
#define VEC vec4
#endif
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer Y { VEC y[]; };
uniform uint n;
uniform float u_value;

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    if (i < n) y[i] = VEC(float(i & 0xFFFFu), float(i >> 16u), u_value, 1.0);
}
