// Batched Thomas algorithm, one invocation per system (a GPU-resident baseline beyond the
// paper: the paper ran Thomas on the CPU). systems: RGBA32F rect, n wide, one system per row,
// texel (a, b, c, k). x: R32F rect n × batch; cp: scratch for the modified super-diagonal.
// No pivoting: the ADI matrices of src/sim are strictly diagonally dominant.
layout(local_size_x = 32) in;
uniform sampler2DRect u_sys;
layout(r32f, binding = 0) uniform image2DRect u_x;
layout(r32f, binding = 1) uniform image2DRect u_cp;
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
        p = texelFetch(u_sys, ivec2(i, j));
        float m = p.y - p.x * cp;
        cp = p.z / m;
        dp = (p.w - p.x * dp) / m;
        imageStore(u_cp, ivec2(i, j), vec4(cp));
        imageStore(u_x, ivec2(i, j), vec4(dp));
    }
    float x = dp;
    for (int i = u_n - 2; i >= 0; --i) {
        x = imageLoad(u_x, ivec2(i, j)).r - imageLoad(u_cp, ivec2(i, j)).r * x;
        imageStore(u_x, ivec2(i, j), vec4(x));
    }
}
