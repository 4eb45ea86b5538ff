// SpMV y = A x with A in ELLPACK-R (paper §IV.1, Fig. 1): one invocation per row, slot k of
// row i at val[k·n + i], so neighbouring invocations read neighbouring memory.
// REAL is double (the paper) or float (the fp32 build); LOCAL_SIZE is the threads per block.
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer Val { REAL val[]; };
layout(std430, binding = 1) readonly buffer Col { uint col[]; };
layout(std430, binding = 2) readonly buffer Rl { uint rl[]; };
layout(std430, binding = 3) readonly buffer X { REAL x[]; };
layout(std430, binding = 4) writeonly buffer Y { REAL y[]; };
uniform uint u_n;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        // `precise`: no FMA contraction, so the sum matches the CPU reference bit for bit.
        precise REAL s = REAL(0);
        uint len = rl[i];
        for (uint k = 0u; k < len; ++k) {
            uint e = k * u_n + i;
            s += val[e] * x[col[e]];
        }
        y[i] = s;
    }
}
