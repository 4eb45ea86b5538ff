// A work group's tree in shared memory (Harris's reduction: a barrier per level, every level
// halving the active invocations), included by the Bi-CG reduction kernels after they define
// COMBINE(p, q) (max or +). Every invocation of the group calls group_reduce with its own
// value; the group's combination comes back (the caller's invocation 0 writes it out).
shared REAL sdata[LOCAL_SIZE];

REAL group_reduce(REAL acc) {
    uint tid = gl_LocalInvocationID.x;
    sdata[tid] = acc;
    barrier();
    for (uint s = LOCAL_SIZE / 2u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sdata[tid] = COMBINE(sdata[tid], sdata[tid + s]);
        }
        barrier();
    }
    return sdata[0];
}
