// Stage 2 of the two-stage reduction, profiled under the paper's names reduceKernel5 /
// MaxreduceKernel5. What it is: one work group folds the stage-1 partials into
// result[u_slot] (which the host reads back: the paper's memcpyDtoH) as Harris's kernel #4
// (the first combine during the load, then a tree with a barrier per level); when there are
// more than 2·LOCAL_SIZE partials the group strides over them first. OP_MAX: max, else Σ.
// The partials of a max are already absolute values.
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer Partial { REAL partial[]; };
layout(std430, binding = 1) buffer Result { REAL result[]; };
#ifdef OP_MAX
#define COMBINE(p, q) max(p, q)
#else
#define COMBINE(p, q) ((p) + (q))
#endif
uniform uint u_count;
uniform uint u_slot;
// First partial to fold (the fused variant keeps three runs of partials in one buffer).
uniform uint u_offset;
#include "bicg/group_reduce.glsl"

void main() {
    uint tid = gl_LocalInvocationID.x;
    REAL acc = REAL(0);
    for (uint i = tid; i < u_count; i += 2u * LOCAL_SIZE) {
        acc = COMBINE(acc, partial[u_offset + i]);
        if (i + LOCAL_SIZE < u_count) {
            acc = COMBINE(acc, partial[u_offset + i + LOCAL_SIZE]);
        }
    }
    REAL total = group_reduce(acc);
    if (tid == 0u) {
        result[u_slot] = total;
    }
}
