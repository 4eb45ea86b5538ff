// Park 2019, Algorithm 2: tiled matrix multiply R = A·B with 32×32 shared-memory tiles.
// A is m×n, B is n×l, R is m×l, all row-major f32 in SSBOs (bindings 0, 1, 2). (x0, y0) is
// the origin of the sub-matrix of R this dispatch covers (Algorithm 1's x0/y0 loop).
//
// Transcribed from the paper with two names changed for GLSL conformance: the paper's helper
// `__memoryBarrierShared` (identifiers with "__" are reserved) is `sync_shared`, and the
// tile size is the BLOCK_SIZE define (32, as printed) so that tests can shrink it.
// As printed, the store of Rsub sits INSIDE the tile loop: every tile step writes the partial
// sum and the last one leaves the final value. We keep that (it is what the paper timed).
layout(local_size_x = BLOCK_SIZE, local_size_y = BLOCK_SIZE, local_size_z = 1) in;
uniform uint m;
uniform uint n;
uniform uint l;
uniform uint x0;
uniform uint y0;

layout(std430, binding = 0) buffer ssbo_A { float A[]; };
layout(std430, binding = 1) buffer ssbo_B { float B[]; };
layout(std430, binding = 2) buffer ssbo_R { float R[]; };

shared float As[BLOCK_SIZE][BLOCK_SIZE];
shared float Bs[BLOCK_SIZE][BLOCK_SIZE];

void sync_shared() {
    memoryBarrierShared();
    barrier();
}

void main() {
    uint hA = m;
    uint wA = n;
    uint wB = l;

    uint bx = gl_WorkGroupID.x;
    uint by = gl_WorkGroupID.y;

    uint tx = gl_LocalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;

    uint gx = x0 + gl_GlobalInvocationID.x;
    uint gy = y0 + gl_GlobalInvocationID.y;

    uint aBegin = wA * (y0 + BLOCK_SIZE * by);
    uint aEnd = aBegin + wA - 1u;
    uint aStep = BLOCK_SIZE;

    uint bBegin = x0 + BLOCK_SIZE * bx;
    uint bStep = BLOCK_SIZE * wB;

    float Rsub = 0.0;

    for (uint a = aBegin, b = bBegin, blkStart = 0u;
         a <= aEnd;
         a += aStep, b += bStep, blkStart += BLOCK_SIZE)
    {
        As[ty][tx] = (gy < hA && blkStart + tx < wA) ? A[a + wA * ty + tx] : 0.0;
        Bs[ty][tx] = (gx < wB && blkStart + ty < wA) ? B[b + wB * ty + tx] : 0.0;
        sync_shared();

        for (uint k = 0u; k < BLOCK_SIZE; k++) {
            Rsub += As[ty][k] * Bs[k][tx];
        }
        sync_shared();

        if (gy < hA && gx < wB) {
            uint c = wB * (y0 + BLOCK_SIZE * by) + (x0 + BLOCK_SIZE * bx);
            R[c + wB * ty + tx] = Rsub;
        }
    }
}
