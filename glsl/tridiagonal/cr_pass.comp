// Beyond the paper: the paper's cyclic reduction (eq. 15/16) pass for pass — one pass per
// level over every system of the batch, as the fragment CR draws one quad per level — with
// each pass a compute dispatch instead of a draw. The fragment CR and this kernel do the same
// levels in the same order; only the pipeline differs (a dispatch and image load/store
// instead of a draw, texture fetches and render targets).
//
// Invocation (x, y) = (system j, k-th equation of the level): systems along x, so that every
// level fills whole work groups. Equations i = 1 .. NP-1 (NP = N' = 2^q) of system j are the
// texels (i - 1, j) of u_p, an RGBA32F image (a, b, c, k) holding the padded systems; a level
// updates its equations in place (its reads i -/+ d are never written by that level). x_i is
// texel (i - 1, j) of u_x (n wide): x_0 and x_NP, and the padded unknowns beyond n, fall
// outside it, where imageLoad returns 0 (the boundary values and the identity rows' zeros)
// and imageStore does nothing.
//
//   LOAD:   u_p(i) = systems(i) for i <= n, an identity row (0, 1, 0, 0) beyond;
//   (none): reduction level d, i = 2d, 4d, ... < NP (eq. 15);
//   FILL:   fill level d, i = d, 3d, 5d, ... < NP (eq. 16).
layout(local_size_x = LOCAL) in;
layout(binding = 0, rgba32f) uniform image2DRect u_p;
#ifdef LOAD
layout(binding = 1, rgba32f) readonly uniform image2DRect u_sys;
#endif
#ifdef FILL
layout(binding = 1, r32f) uniform image2DRect u_x;
#endif
uniform int u_n;
uniform int u_batch;
uniform int u_d;

void main() {
    int j = int(gl_GlobalInvocationID.x);
    int k = int(gl_GlobalInvocationID.y);
    if (j >= u_batch) {
        return;
    }
#if defined(LOAD)
    int i = k + 1;
    imageStore(u_p, ivec2(i - 1, j),
               i <= u_n ? imageLoad(u_sys, ivec2(i - 1, j)) : vec4(0.0, 1.0, 0.0, 0.0));
#elif defined(FILL)
    int i = u_d + 2 * u_d * k;
    vec4 p = imageLoad(u_p, ivec2(i - 1, j));
    float xl = imageLoad(u_x, ivec2(i - u_d - 1, j)).x;
    float xr = imageLoad(u_x, ivec2(i + u_d - 1, j)).x;
    imageStore(u_x, ivec2(i - 1, j), vec4((p.w - p.x * xl - p.z * xr) / p.y));
#else
    int d = u_d;
    int i = 2 * d * (k + 1);
    vec4 p = imageLoad(u_p, ivec2(i - 1, j));
    vec4 pl = imageLoad(u_p, ivec2(i - d - 1, j));
    vec4 pr = imageLoad(u_p, ivec2(i + d - 1, j));
    float alpha = -p.x / pl.y;
    float gamma = -p.z / pr.y;
    imageStore(u_p, ivec2(i - 1, j), vec4(alpha * pl.x, p.y + alpha * pl.z + gamma * pr.x,
                                          gamma * pr.z, p.w + alpha * pl.w + gamma * pr.w));
#endif
}
