// Texture-fetch bandwidth in a compute shader: the compute twin of texture_fetch.frag.
// Invocation (x, y) sums FETCHES texels (x + k) mod w of row y of an RGBA32F rectangle
// texture through texelFetch (the sampler path, not an SSBO) and writes the sum to an
// rgba32f image (imageStore) at (x, y) — reads and writes the way a compute kernel can
// reach the texture units instead of shader-storage loads.
layout(local_size_x = 16, local_size_y = 16) in;
uniform sampler2DRect u_src;
layout(rgba32f, binding = 0) writeonly uniform image2DRect u_dst;
uniform int u_side; // the texture is u_side²

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_side || p.y >= u_side) return;
    vec4 acc = vec4(0.0);
    // (x + k) mod w as a compare and subtract: an integer division per fetch would make the
    // kernel measure llvmpipe's integer division instead of the texture path (k < w).
    for (int k = 0; k < FETCHES; ++k) {
        int x = p.x + k;
        acc += texelFetch(u_src, ivec2(x >= u_side ? x - u_side : x, p.y));
    }
    imageStore(u_dst, p, acc);
}
