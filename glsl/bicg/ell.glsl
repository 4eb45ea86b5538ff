// The ELLPACK-R matrix and the vectors of y = A x (paper §IV.1, Fig. 1), included by
// spmv.comp and fused_spmv_dot.comp: slot k of row i at val[k·n + i] (so neighbouring
// invocations read neighbouring memory), its column at col[k·n + i], row i's length rl[i].
layout(std430, binding = 0) readonly buffer Val { REAL val[]; };
layout(std430, binding = 1) readonly buffer Col { uint col[]; };
layout(std430, binding = 2) readonly buffer Rl { uint rl[]; };
layout(std430, binding = 3) readonly buffer X { REAL x[]; };
layout(std430, binding = 4) writeonly buffer Y { REAL y[]; };
uniform uint u_n;

// Row i of A x. `precise`: no FMA contraction, so the sum matches the CPU reference bit for
// bit.
REAL ell_row(uint i) {
    precise REAL s = REAL(0);
    uint len = rl[i];
    for (uint k = 0u; k < len; ++k) {
        uint e = k * u_n + i;
        s += val[e] * x[col[e]];
    }
    return s;
}
