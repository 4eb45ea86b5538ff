// Beyond the paper: parallel cyclic reduction (odd-even elimination, Heller 1978; Zhang,
// Cohen & Owens 2010) in a GL 4.3 compute shader, one work group per system. Every step
// eliminates the neighbours at distance d from *every* equation (d = 1, 2, 4, ...), so after
// ceil(log2 n) steps each equation stands alone: x_i = k_i / b_i. O(n log n) work, log n
// steps. Each invocation keeps the ELEMS new equations it computes in registers between the
// two barriers of a step, so one array (shared, or global with GLOBAL) suffices.
// Equations i = 0 .. n-1; neighbours outside are identity rows (0, 1, 0, 0) with x = 0.
layout(local_size_x = LOCAL) in;
layout(binding = 0, rgba32f) readonly uniform image2DRect u_sys;
layout(binding = 1, r32f) writeonly uniform image2DRect u_x;
uniform int u_n;

#ifdef GLOBAL
layout(std430, binding = 0) buffer ScratchP { vec4 g_p[]; };
#define P(i) g_p[gl_WorkGroupID.x * uint(LOCAL * ELEMS) + uint(i)]
#define SYNC() memoryBarrierBuffer(); barrier()
#else
shared vec4 s_p[LOCAL * ELEMS];
#define P(i) s_p[i]
#define SYNC() memoryBarrierShared(); barrier()
#endif

const vec4 IDENTITY = vec4(0.0, 1.0, 0.0, 0.0);

void main() {
    int t = int(gl_LocalInvocationID.x);
    int j = int(gl_WorkGroupID.x);
    for (int e = 0; e < ELEMS; e++) {
        int i = t + e * LOCAL;
        if (i < u_n) P(i) = imageLoad(u_sys, ivec2(i, j));
    }
    SYNC();
    for (int d = 1; d < u_n; d *= 2) {
        vec4 next[ELEMS];
        for (int e = 0; e < ELEMS; e++) {
            int i = t + e * LOCAL;
            if (i >= u_n) continue;
            vec4 p = P(i);
            vec4 pl = i - d >= 0 ? P(i - d) : IDENTITY;
            vec4 pr = i + d < u_n ? P(i + d) : IDENTITY;
            float alpha = -p.x / pl.y;
            float gamma = -p.z / pr.y;
            next[e] = vec4(alpha * pl.x, p.y + alpha * pl.z + gamma * pr.x, gamma * pr.z,
                           p.w + alpha * pl.w + gamma * pr.w);
        }
        SYNC();
        for (int e = 0; e < ELEMS; e++) {
            int i = t + e * LOCAL;
            if (i < u_n) P(i) = next[e];
        }
        SYNC();
    }
    for (int e = 0; e < ELEMS; e++) {
        int i = t + e * LOCAL;
        if (i < u_n) {
            vec4 p = P(i);
            imageStore(u_x, ivec2(i, j), vec4(p.w / p.y));
        }
    }
}
