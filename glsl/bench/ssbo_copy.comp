// Streaming bandwidth: y[i] = x[i] over vec4s, one invocation per element (STREAM "copy").
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { vec4 x[]; };
layout(std430, binding = 1) writeonly buffer Y { vec4 y[]; };
uniform uint n;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = x[i];
}
