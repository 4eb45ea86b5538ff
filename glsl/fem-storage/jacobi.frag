// One Jacobi sweep x_new = D^-1 (rhs - R x_old) (eq. 5) as a fragment pass over the paper's
// flattened arrays (Fig. 4) stored in textures: the render-to-texture counterpart of
// jacobi.comp, with the same arithmetic in the same order. Every 1D array is wrapped into a
// 2D R32F texture W = 2^LOG_W texels wide (element k at (k mod W, k div W)); column indices
// and accmSize are stored as exact floats (< 2^24). The fragment at texel (px, py) of the
// W-wide output is row i = py * W + px; rows past n (padding) write 0.
uniform sampler2D u_idx;
uniform sampler2D u_val;
uniform sampler2D u_accm;
uniform sampler2D u_rhs;
uniform sampler2D u_x;
uniform int u_n;
out vec4 o_color;

float at(sampler2D t, int k) {
    return texelFetch(t, ivec2(k & (W - 1), k >> LOG_W), 0).r;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int i = (p.y << LOG_W) + p.x;
    if (i >= u_n) {
        o_color = vec4(0.0);
        return;
    }
    int start = i == 0 ? 0 : int(at(u_accm, i - 1));
    int end = int(at(u_accm, i));
    float sum = 0.0;
    for (int k = start + 1; k < end; ++k) {
        sum += at(u_val, k) * at(u_x, int(at(u_idx, k)));
    }
    float xi = (at(u_rhs, i) - sum) / at(u_val, start);
    o_color = vec4(xi, 0.0, 0.0, 0.0);
}
