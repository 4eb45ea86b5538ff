// Bi-CG, legacy pipeline: y = A x as one fragment pass (render-to-texture) over the paper's
// ELLPACK-R matrix (Fig. 1, eq. 5) stored in textures (src/papers/bicg/fragment.rs).
// Every vector is an R32F 2D texture W = 2^LOG_W texels wide, element i at
// (i mod W, i div W); the slot-major values and column indices are W x (m * u_rows)
// textures, slot k of row i at (i mod W, k * u_rows + i div W) — the same slot-major order
// as val[k*N + i], one block of rows per slot. Column indices are exact floats (< 2^24).
// The fragment at texel p is row i; rows past n (padding) write 0.
uniform sampler2D u_val;
uniform sampler2D u_col;
uniform sampler2D u_rl;
uniform sampler2D u_x;
uniform int u_n;
uniform int u_rows;
out vec4 o_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int i = (p.y << LOG_W) + p.x;
    float sum = 0.0;
    if (i < u_n) {
        int rl = int(texelFetch(u_rl, p, 0).r);
        for (int k = 0; k < rl; ++k) {
            ivec2 q = ivec2(p.x, p.y + k * u_rows);
            int c = int(texelFetch(u_col, q, 0).r);
            sum += texelFetch(u_val, q, 0).r * texelFetch(u_x, ivec2(c & (W - 1), c >> LOG_W), 0).r;
        }
    }
    o_color = vec4(sum, 0.0, 0.0, 0.0);
}
