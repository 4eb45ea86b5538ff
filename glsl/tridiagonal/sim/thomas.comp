// Batched Thomas algorithm, one invocation per system (a GPU-resident baseline beyond the
// paper: the paper ran Thomas on the CPU). systems: RGBA32F rect, n wide, one system per row,
// texel (a, b, c, k). x: R32F rect n × batch; cp: scratch for the modified super-diagonal.
layout(local_size_x = 32) in;
uniform sampler2DRect u_sys;
#include "tridiagonal/sim/thomas.glsl"
uniform int u_n;
uniform int u_batch;

void main() {
    int j = int(gl_GlobalInvocationID.x);
    if (j >= u_batch) return;
    vec4 p = texelFetch(u_sys, ivec2(0, j));
    float cp = p.z / p.y;
    float dp = p.w / p.y;
    imageStore(u_cp, ivec2(0, j), vec4(cp));
    imageStore(u_x, ivec2(0, j), vec4(dp));
    for (int i = 1; i < u_n; ++i) {
        thomas_forward(i, j, texelFetch(u_sys, ivec2(i, j)), cp, dp);
    }
    thomas_back(u_n, j, dp);
}
