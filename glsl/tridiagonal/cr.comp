// Beyond the paper: serial cyclic reduction (eq. 15/16) in a GL 4.3 compute shader, one work
// group per system (row j of the batch), in shared memory (Zhang, Cohen & Owens 2010 style)
// or, with GLOBAL, in a global-memory scratch buffer for systems too big for shared memory.
// Equations i = 1 .. N'-1 (NP = N' = 2^q); those beyond n are identity rows.
layout(local_size_x = LOCAL) in;
layout(binding = 0, rgba32f) readonly uniform image2DRect u_sys;
layout(binding = 1, r32f) writeonly uniform image2DRect u_x;
uniform int u_n;

#ifdef GLOBAL
layout(std430, binding = 0) buffer ScratchP { vec4 g_p[]; };
layout(std430, binding = 1) buffer ScratchX { float g_x[]; };
#define P(i) g_p[gl_WorkGroupID.x * uint(NP) + uint(i)]
#define X(i) g_x[gl_WorkGroupID.x * uint(NP + 1) + uint(i)]
#define SYNC() memoryBarrierBuffer(); barrier()
#else
shared vec4 s_p[NP];
shared float s_x[NP + 1];
#define P(i) s_p[i]
#define X(i) s_x[i]
#define SYNC() memoryBarrierShared(); barrier()
#endif

void main() {
    int t = int(gl_LocalInvocationID.x);
    int j = int(gl_WorkGroupID.x);
    for (int i = 1 + t; i < NP; i += LOCAL) {
        P(i) = i <= u_n ? imageLoad(u_sys, ivec2(i - 1, j)) : vec4(0.0, 1.0, 0.0, 0.0);
    }
    if (t == 0) {
        X(0) = 0.0;
        X(NP) = 0.0;
    }
    SYNC();
    // Reduction, eq. (15): level s updates i = 2^s, 2*2^s, ... in place (its neighbours
    // i -/+ d are not written at this level).
    for (int d = 1; 4 * d <= NP; d *= 2) {
        for (int i = 2 * d * (t + 1); i < NP; i += 2 * d * LOCAL) {
            vec4 p = P(i), pl = P(i - d), pr = P(i + d);
            float alpha = -p.x / pl.y;
            float gamma = -p.z / pr.y;
            P(i) = vec4(alpha * pl.x, p.y + alpha * pl.z + gamma * pr.x, gamma * pr.z,
                        p.w + alpha * pl.w + gamma * pr.w);
        }
        SYNC();
    }
    // Filling, eq. (16): i = d, 3d, 5d, ... with d = 2^(s-1), s = q .. 1.
    for (int d = NP / 2; d >= 1; d /= 2) {
        for (int i = d + 2 * d * t; i < NP; i += 2 * d * LOCAL) {
            vec4 p = P(i);
            X(i) = (p.w - p.x * X(i - d) - p.z * X(i + d)) / p.y;
        }
        SYNC();
    }
    for (int i = 1 + t; i <= u_n; i += LOCAL) {
        imageStore(u_x, ivec2(i - 1, j), vec4(X(i)));
    }
}
