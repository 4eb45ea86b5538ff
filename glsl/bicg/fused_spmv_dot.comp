// Beyond the paper (the fused variant): y = A x with A in ELLPACK-R exactly as spmv.comp,
// and in the same pass each group's partial sum of y_i·w_i (the dot product that follows
// the SpMV in linbcg, z·p̄) into partial[group]; reduce_partials.comp folds the partials.
// Saves the V_mul_U pass and the stage-1 reduction's reread of z and p̄.
layout(local_size_x = LOCAL_SIZE) in;
#include "bicg/ell.glsl"
layout(std430, binding = 5) readonly buffer W { REAL w[]; };
layout(std430, binding = 6) writeonly buffer Partial { REAL partial[]; };
#define COMBINE(p, q) ((p) + (q))
#include "bicg/group_reduce.glsl"

void main() {
    uint stride = gl_NumWorkGroups.x * LOCAL_SIZE;
    REAL acc = REAL(0);
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        REAL s = ell_row(i);
        y[i] = s;
        acc += s * w[i];
    }
    REAL total = group_reduce(acc);
    if (gl_LocalInvocationID.x == 0u) {
        partial[gl_WorkGroupID.x] = total;
    }
}
