// Beyond the paper, legacy pipeline: multipass matrix multiply in a fragment shader on
// RGBA32F textures (Fatahalian, Sugerman & Hanrahan 2004 "NV multipass"; Larsen &
// McAllister 2001 accumulate R over passes). Every matrix is packed four consecutive columns
// per texel: texel (x, y) holds M[y][4x .. 4x+3]. One pass adds the products of K_CHUNK
// consecutive k to the running sum, ping-ponged by render-to-texture:
//   R_new[y][4x..4x+3] = R_old[y][4x..4x+3] + Σ_k A[y][k] · B[k][4x..4x+3].
// Per four k: one fetch of A (a vec4 of A[y][k..k+3]) and four of B — 16 MADs per 5 fetches.
uniform sampler2DRect u_acc; // R so far
uniform sampler2DRect u_a;   // A, (n/4) × m texels
uniform sampler2DRect u_b;   // B, (l/4) × n texels
uniform int u_k0;            // first k of this pass (a multiple of 4)
uniform int u_n;             // inner dimension (a multiple of 4)
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec2 p = floor(v_tex.xy); // this texel: column block x, row y
    vec4 acc = texture(u_acc, v_tex.xy);
    int k_end = min(u_k0 + K_CHUNK, u_n);
    for (int k = u_k0; k < k_end; k += 4) {
        vec4 a = texture(u_a, vec2(float(k / 4) + 0.5, p.y + 0.5));
        acc += a.x * texture(u_b, vec2(p.x + 0.5, float(k) + 0.5));
        acc += a.y * texture(u_b, vec2(p.x + 0.5, float(k + 1) + 0.5));
        acc += a.z * texture(u_b, vec2(p.x + 0.5, float(k + 2) + 0.5));
        acc += a.w * texture(u_b, vec2(p.x + 0.5, float(k + 3) + 0.5));
    }
    o_color = acc;
}
