// Beyond the paper: the blocked matrix multiply R = A·B (A m×n, B n×l, row-major f32), along
// C. Nugteren's SGEMM path (tiles in shared memory → more work per invocation → vec4 loads →
// 2D register blocks → double-buffered tiles), parameters named as in his CLBlast:
//
//   register block   TM rows × TN vec4 columns of R per invocation (TM × 4·TN floats);
//   work group       WG_X × WG_Y invocations (CLBlast's NDIMC × MDIMC);
//   work-group tile  MWG = TM·WG_Y rows × NWG4 = TN·WG_X vec4 columns of R (MWG × 4·NWG4);
//   k tile           KWG: 0 reads A and B straight from memory (no shared memory, no barrier);
//                    > 0 stages KWG-deep tiles of A and B in shared memory;
//   DB               1: two tile buffers, the next tile loaded while this one is multiplied
//                    (one barrier per tile instead of two).
//
// Invocation (tx, ty) of work group (gx, gy) owns rows gy·MWG + ty·TM + i (i < TM; with
// WG_Y = 1 the rows are the same for every invocation of the group, so A's loads are uniform)
// and vec4 columns gx·NWG4 + tx + j·WG_X (j < TN; consecutive invocations read consecutive
// vec4s of B, so a GPU's loads coalesce and its shared reads avoid bank conflicts). B and R are
// vec4 rows (l4 = ⌈l/4⌉ vec4 per row; the host pads B and R when l % 4 ≠ 0). Everything
// outside the matrices reads as 0 and is not stored.
//
// On llvmpipe invocations run 8 (AVX2) to a SIMD batch along x, every vec4 being 4 such
// vectors: a barrier splits the shader into coroutines and shared memory is ordinary memory,
// so what the tile buys there is cache reuse (a KWG-deep slice of B stays in cache for all
// the group's rows); the register block sets the multiply-adds per load.
// TEXTURE: A and B are read with texelFetch from rectangle textures (A: R32F, n × m texels;
// B: RGBA32F, l4 × n texels) instead of SSBOs — the same values through the texture path.
layout(local_size_x = WG_X, local_size_y = WG_Y, local_size_z = 1) in;
uniform uint m;
uniform uint n;
uniform uint l4; // columns of B and R in vec4s

#ifdef TEXTURE
uniform sampler2DRect u_a;
uniform sampler2DRect u_b;
#define LOAD_A(row_, k_) texelFetch(u_a, ivec2(int(k_), int(row_))).x
#define LOAD_B(k_, c4_) texelFetch(u_b, ivec2(int(c4_), int(k_)))
#else
layout(std430, binding = 0) readonly buffer ssbo_A { float A[]; };
layout(std430, binding = 1) readonly buffer ssbo_B { vec4 B[]; };
#define LOAD_A(row_, k_) A[(row_) * n + (k_)]
#define LOAD_B(k_, c4_) B[(k_) * l4 + (c4_)]
#endif
layout(std430, binding = 2) writeonly buffer ssbo_R { vec4 R[]; };

#define MWG (TM * WG_Y)
#define NWG4 (TN * WG_X)

vec4 acc[TM][TN];

#if KWG == 0

// Straight from memory: per k, TN vec4 of B and TM floats of A feed TM·TN vec4 multiply-adds.
void multiply(uint row0, uint col0) {
    for (uint k = 0u; k < n; k++) {
        vec4 b[TN];
        for (uint j = 0u; j < TN; j++) {
            uint c = col0 + j * WG_X;
            b[j] = c < l4 ? LOAD_B(k, c) : vec4(0.0);
        }
        for (uint i = 0u; i < TM; i++) {
            float a = row0 + i < m ? LOAD_A(row0 + i, k) : 0.0;
            for (uint j = 0u; j < TN; j++) acc[i][j] += a * b[j];
        }
    }
}

#else

#if DB
#define NBUF 2u
#else
#define NBUF 1u
#endif
// A's tile transposed (k-major), so that an invocation's TM rows at one k are contiguous.
shared float As[NBUF][KWG][MWG];
shared vec4 Bs[NBUF][KWG][NWG4];

#define WG_SIZE (WG_X * WG_Y)

// The whole group loads the KWG-deep tiles starting at k0 into buffer `buf`: consecutive
// invocations read consecutive k of one row of A and consecutive vec4s of one row of B.
void load_tile(uint buf, uint k0) {
    uint t = gl_LocalInvocationID.y * WG_X + gl_LocalInvocationID.x;
    uint row_base = gl_WorkGroupID.y * MWG;
    uint col_base = gl_WorkGroupID.x * NWG4;
    for (uint s = 0u; s < (MWG * KWG + WG_SIZE - 1u) / WG_SIZE; s++) {
        uint e = t + s * WG_SIZE;
        uint r = e / KWG, kk = e % KWG;
        if (e < MWG * KWG)
            As[buf][kk][r] = (row_base + r < m && k0 + kk < n) ? LOAD_A(row_base + r, k0 + kk) : 0.0;
    }
    for (uint s = 0u; s < (NWG4 * KWG + WG_SIZE - 1u) / WG_SIZE; s++) {
        uint e = t + s * WG_SIZE;
        uint kk = e / NWG4, c = e % NWG4;
        if (e < NWG4 * KWG)
            Bs[buf][kk][c] = (k0 + kk < n && col_base + c < l4) ? LOAD_B(k0 + kk, col_base + c) : vec4(0.0);
    }
}

void multiply_tile(uint buf) {
    uint tx = gl_LocalInvocationID.x;
    uint r0 = gl_LocalInvocationID.y * TM;
    for (uint kk = 0u; kk < KWG; kk++) {
        vec4 b[TN];
        for (uint j = 0u; j < TN; j++) b[j] = Bs[buf][kk][tx + j * WG_X];
        for (uint i = 0u; i < TM; i++) {
            float a = As[buf][kk][r0 + i];
            for (uint j = 0u; j < TN; j++) acc[i][j] += a * b[j];
        }
    }
}

void sync_shared() {
    memoryBarrierShared();
    barrier();
}

void multiply(uint row0, uint col0) {
    uint tiles = (n + KWG - 1u) / KWG;
#if DB
    load_tile(0u, 0u);
    sync_shared();
    for (uint t = 0u; t < tiles; t++) {
        if (t + 1u < tiles) load_tile((t + 1u) & 1u, (t + 1u) * KWG);
        multiply_tile(t & 1u);
        sync_shared();
    }
#else
    for (uint t = 0u; t < tiles; t++) {
        load_tile(0u, t * KWG);
        sync_shared();
        multiply_tile(0u);
        sync_shared();
    }
#endif
}

#endif

void main() {
    uint row0 = gl_WorkGroupID.y * MWG + gl_LocalInvocationID.y * TM;
    uint col0 = gl_WorkGroupID.x * NWG4 + gl_LocalInvocationID.x;
    for (uint i = 0u; i < TM; i++)
        for (uint j = 0u; j < TN; j++) acc[i][j] = vec4(0.0);
    multiply(row0, col0);
    for (uint i = 0u; i < TM; i++)
        for (uint j = 0u; j < TN; j++) {
            uint c = col0 + j * WG_X;
            if (row0 + i < m && c < l4) R[(row0 + i) * l4 + c] = acc[i][j];
        }
}
