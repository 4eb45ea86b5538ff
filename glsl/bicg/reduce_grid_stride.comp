// Stage 1 of the two-stage reduction (paper §IV.2, Fig. 2), profiled under the paper's names
// reduceKernel6 / MaxreduceKernel6. What it is: a grid-stride reduction, Harris's kernel #7
// ("multiple elements per thread") without the unrolling of #5/#6 (GLSL has no
// warp-synchronous execution, so every tree level ends with barrier()): each group strides
// over the vector, every invocation combining many elements (two per step, the first
// combine during the load), then a tree in shared memory; the group's result goes to
// partial[group]. OP_MAX: max |a_i|, else Σ a_i. FUSED_DOT (a variant beyond the paper):
// Σ a_i b_i without V_mul_U.
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer A { REAL a[]; };
layout(std430, binding = 1) writeonly buffer Partial { REAL partial[]; };
#ifdef FUSED_DOT
layout(std430, binding = 2) readonly buffer B { REAL bv[]; };
#define LOAD(i) (a[i] * bv[i])
#else
#ifdef OP_MAX
#define LOAD(i) abs(a[i])
#else
#define LOAD(i) a[i]
#endif
#endif
#ifdef OP_MAX
#define COMBINE(p, q) max(p, q)
#else
#define COMBINE(p, q) ((p) + (q))
#endif
uniform uint u_n;
#include "bicg/group_reduce.glsl"

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = gl_WorkGroupID.x * (2u * LOCAL_SIZE) + tid;
    uint grid = 2u * LOCAL_SIZE * gl_NumWorkGroups.x;
    REAL acc = REAL(0);
    while (i < u_n) {
        acc = COMBINE(acc, LOAD(i));
        if (i + LOCAL_SIZE < u_n) {
            acc = COMBINE(acc, LOAD(i + LOCAL_SIZE));
        }
        i += grid;
    }
    REAL total = group_reduce(acc);
    if (tid == 0u) {
        partial[gl_WorkGroupID.x] = total;
    }
}
