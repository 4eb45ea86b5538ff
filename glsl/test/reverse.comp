// Toolkit test: reverses each block of BLOCK values through shared memory and barrier().
layout(local_size_x = BLOCK) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { float y[]; };
shared float tile[BLOCK];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * BLOCK;
    tile[l] = x[base + l];
    memoryBarrierShared();
    barrier();
    y[base + l] = tile[BLOCK - 1u - l];
}
