// Sub: out = a − b (the initial residual r = b − A x₀).
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer A { REAL a[]; };
layout(std430, binding = 1) readonly buffer B { REAL b[]; };
layout(std430, binding = 2) writeonly buffer Out { REAL outv[]; };
uniform uint u_n;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        outv[i] = a[i] - b[i];
    }
}
