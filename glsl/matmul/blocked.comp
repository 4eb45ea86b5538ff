// Beyond the paper: register-blocked matrix multiply for CPU-like GL devices and GPUs alike.
// Each invocation computes a TM × (4·TN) block of R: TM rows, TN vec4s of consecutive
// columns, accumulated in registers; no shared memory and no barrier (on llvmpipe a barrier
// splits the shader into coroutines, and shared memory is ordinary memory anyway). B is read
// as vec4 rows (consecutive invocations along x read consecutive vec4s); A one scalar per row
// and k, broadcast over the TN vec4s. Requires l % 4 == 0 (the host pads B and R otherwise).
// TEXTURE: A and B are read with texelFetch from rectangle textures (A: R32F, n × m texels;
// B: RGBA32F, l4 × n texels) instead of SSBOs — the same values, through the texture path
// (on Mesa 22.3's llvmpipe a shader-storage load runs lane by lane, a texel fetch as a vector
// gather: `bench`'s compute.texture row). R is an SSBO either way.
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

void main() {
    uint col4 = gl_GlobalInvocationID.x * TN; // first vec4 column of this block
    uint row = gl_GlobalInvocationID.y * TM;  // first row of this block
    if (col4 >= l4 || row >= m) return;

    vec4 acc[TM][TN];
    for (uint i = 0u; i < TM; i++)
        for (uint j = 0u; j < TN; j++) acc[i][j] = vec4(0.0);

    for (uint k = 0u; k < n; k++) {
        vec4 b[TN];
        for (uint j = 0u; j < TN; j++) b[j] = (col4 + j < l4) ? LOAD_B(k, col4 + j) : vec4(0.0);
        for (uint i = 0u; i < TM; i++) {
            float a = (row + i < m) ? LOAD_A(row + i, k) : 0.0;
            for (uint j = 0u; j < TN; j++) acc[i][j] += a * b[j];
        }
    }
    for (uint i = 0u; i < TM; i++)
        for (uint j = 0u; j < TN; j++)
            if (row + i < m && col4 + j < l4) R[(row + i) * l4 + col4 + j] = acc[i][j];
}
