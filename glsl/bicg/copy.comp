// Copy: y = x.
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer X { REAL x[]; };
layout(std430, binding = 1) writeonly buffer Y { REAL y[]; };
uniform uint u_n;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        y[i] = x[i];
    }
}
