// Beyond the paper (the fused variant): y = A x with A in ELLPACK-R exactly as spmv.comp,
// and in the same pass each group's partial sum of y_i·w_i (the dot product that follows
// the SpMV in linbcg, z·p̄) into partial[group]; reduce_partials.comp folds the partials.
// Saves the V_mul_U pass and the stage-1 reduction's reread of z and p̄.
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer Val { REAL val[]; };
layout(std430, binding = 1) readonly buffer Col { uint col[]; };
layout(std430, binding = 2) readonly buffer Rl { uint rl[]; };
layout(std430, binding = 3) readonly buffer X { REAL x[]; };
layout(std430, binding = 4) writeonly buffer Y { REAL y[]; };
layout(std430, binding = 5) readonly buffer W { REAL w[]; };
layout(std430, binding = 6) writeonly buffer Partial { REAL partial[]; };
uniform uint u_n;
shared REAL sdata[LOCAL_SIZE];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * LOCAL_SIZE;
    REAL acc = REAL(0);
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        precise REAL s = REAL(0);
        uint len = rl[i];
        for (uint k = 0u; k < len; ++k) {
            uint e = k * u_n + i;
            s += val[e] * x[col[e]];
        }
        y[i] = s;
        acc += s * w[i];
    }
    sdata[tid] = acc;
    barrier();
    for (uint s = LOCAL_SIZE / 2u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        barrier();
    }
    if (tid == 0u) {
        partial[gl_WorkGroupID.x] = sdata[0];
    }
}
