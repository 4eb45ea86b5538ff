// asolveKernel: the diagonal preconditioner solve z = r / diag(A) (NR `asolve`). The same
// kernel serves Ãᵀ, since a diagonal is its own transpose.
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer R { REAL r[]; };
layout(std430, binding = 1) readonly buffer Diag { REAL diag[]; };
layout(std430, binding = 2) writeonly buffer Z { REAL z[]; };
uniform uint u_n;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        z[i] = r[i] / diag[i];
    }
}
