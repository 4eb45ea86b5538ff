// Batched Thomas algorithm, one invocation per system (a GPU-resident baseline beyond the
// paper: the paper ran Thomas on the CPU). systems: RGBA32F rect, n wide, one system per row,
// texel (a, b, c, k). x: R32F rect n × batch; c′, d′: thomas.glsl.
layout(local_size_x = 32) in;
uniform sampler2DRect u_sys;
#include "tridiagonal/sim/thomas.glsl"
uniform int u_n;

void main() {
    int j = int(gl_GlobalInvocationID.x);
    if (j >= u_lines) return;
    float cp = 0.0;
    float dp = 0.0;
    for (int i = 0; i < u_n; ++i) {
        thomas_forward(i, j, texelFetch(u_sys, ivec2(i, j)), cp, dp);
    }
    thomas_back(u_n, j, dp);
}
