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
//                    (one barrier per tile instead of two);
//   KA               k per load of A (1 or 4, with KWG = 0 only): 4 reads A as vec4s along k
//                    (A is row-major) and unrolls the k loop by 4.
//
// Invocation (tx, ty) of work group (gx, gy) owns rows gy·MWG + ty·TM + i (i < TM; with
// WG_Y = 1 the rows are the same for every invocation of the group, so A's loads are uniform)
// and vec4 columns gx·NWG4 + tx + j·WG_X (j < TN; consecutive invocations read consecutive
// vec4s of B, so a GPU's loads coalesce and its shared reads avoid bank conflicts). B and R are
// vec4 rows (l4 = ⌈l/4⌉ vec4 per row). The host pads the operands with zeros so that m, l4 and
// n are multiples of MWG, NWG4 and KWG (of KA where KWG = 0), as CLBlast's xgemm assumes: the
// KA = 4 path has no bounds checks; the others keep theirs, which then always hold.
//
// On llvmpipe, invocations run 8 (AVX2) to a SIMD batch along x, every vec4 being 4 such
// vectors, and control flow is masks, not jumps: a barrier splits the shader into coroutines
// and shared memory is ordinary memory reached lane by lane, so what a shared tile buys there
// is cache reuse at the price of per-lane loads and copies. What a CPU rasterizer needs
// instead: few accumulators (TM·TN·4 AVX registers of the 16 there are; TN = 1), A's loads
// uniform across the batch (WG_Y = 1), A read 4 k at a time (KA = 4: one load per row for 4
// k), loads through texelFetch (TEXTURE: vectorised fetches, where an SSBO load is a
// per-lane loop under the loop's mask), and wide groups along x (fewer, larger work items for
// the driver's threads). On a GPU the shared tiles and the larger register blocks are the
// Nugteren path; the tuner picks per device.
// TEXTURE: A and B are read with texelFetch from rectangle textures (A: R32F, n × m texels, or
// RGBA32F, n/4 × m with KA = 4; B: RGBA32F, l4 × n texels) instead of SSBOs — the same values
// through the texture path.
layout(local_size_x = WG_X, local_size_y = WG_Y, local_size_z = 1) in;
uniform uint m;
uniform uint n;
uniform uint l4; // columns of B and R in vec4s

#ifdef TEXTURE
uniform sampler2DRect u_a;
uniform sampler2DRect u_b;
#define LOAD_A(row_, k_) texelFetch(u_a, ivec2(int(k_), int(row_))).x
#define LOAD_A4(row_, k4_) texelFetch(u_a, ivec2(int(k4_), int(row_)))
#define LOAD_B(k_, c4_) texelFetch(u_b, ivec2(int(c4_), int(k_)))
#else
#if KA == 4
layout(std430, binding = 0) readonly buffer ssbo_A { vec4 A4[]; };
#define LOAD_A4(row_, k4_) A4[(row_) * (n >> 2u) + (k4_)]
#else
layout(std430, binding = 0) readonly buffer ssbo_A { float A[]; };
#define LOAD_A(row_, k_) A[(row_) * n + (k_)]
#endif
layout(std430, binding = 1) readonly buffer ssbo_B { vec4 B[]; };
#define LOAD_B(k_, c4_) B[(k_) * l4 + (c4_)]
#endif
layout(std430, binding = 2) writeonly buffer ssbo_R { vec4 R[]; };

#define MWG (TM * WG_Y)
#define NWG4 (TN * WG_X)

vec4 acc[TM][TN];

#if KWG == 0 && KA == 4

// Straight from memory, 4 k per step and no bounds checks (the host pads): per step TM vec4
// of A (4 k of each row) and 4·TN vec4 of B feed 16·TM·TN vec4 multiply-adds.
void multiply(uint row0, uint col0) {
    for (uint k4 = 0u; k4 < (n >> 2u); k4++) {
        vec4 a[TM];
        for (uint i = 0u; i < TM; i++) a[i] = LOAD_A4(row0 + i, k4);
        for (uint kk = 0u; kk < 4u; kk++) {
            vec4 b[TN];
            for (uint j = 0u; j < TN; j++) b[j] = LOAD_B(k4 * 4u + kk, col0 + j * WG_X);
            for (uint i = 0u; i < TM; i++)
                for (uint j = 0u; j < TN; j++) acc[i][j] += a[i][kk] * b[j];
        }
    }
}

#elif KWG == 0

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
#if WG_Y == 1
    uint row0 = gl_WorkGroupID.y * MWG; // the same for the whole group: uniform loads of A
#else
    uint row0 = gl_WorkGroupID.y * MWG + gl_LocalInvocationID.y * TM;
#endif
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
