// Beyond the paper (the fused variant): the start of a linbcg iteration in one pass,
// z̄ = r̄ / diag(A) (asolveKernel on r̄) and each group's partial sum of z_i·r̄_i (ρ = z·r̄)
// into partial[group]; reduce_partials.comp folds the partials.
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer Rr { REAL rr[]; };
layout(std430, binding = 1) readonly buffer Diag { REAL diag[]; };
layout(std430, binding = 2) writeonly buffer Zz { REAL zz[]; };
layout(std430, binding = 3) readonly buffer Z { REAL z[]; };
layout(std430, binding = 4) writeonly buffer Partial { REAL partial[]; };
uniform uint u_n;
#define COMBINE(p, q) ((p) + (q))
#include "bicg/group_reduce.glsl"

void main() {
    uint stride = gl_NumWorkGroups.x * LOCAL_SIZE;
    REAL acc = REAL(0);
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        REAL r = rr[i];
        zz[i] = r / diag[i];
        acc += z[i] * r;
    }
    REAL total = group_reduce(acc);
    if (gl_LocalInvocationID.x == 0u) {
        partial[gl_WorkGroupID.x] = total;
    }
}
