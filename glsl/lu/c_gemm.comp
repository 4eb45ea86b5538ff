// Blocked LU, trailing update A22 −= L21 · U12 (K = NB columns of the panel) as a tiled
// matmul: a 16 × 16 work group computes a 64 × 64 tile, 4 × 4 outputs per thread, from L21
// and U12 tiles held in shared memory.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) buffer Mat { float a[]; };
uniform int u_n;
uniform int u_p;
uniform int u_pe;

shared float s_l[64][NB];
shared float s_u[NB][64];

void main() {
    int kb = u_pe - u_p;
    int row0 = u_pe + int(gl_WorkGroupID.y) * 64;
    int col0 = u_pe + int(gl_WorkGroupID.x) * 64;
    int t = int(gl_LocalInvocationIndex);
    for (int e = t; e < 64 * NB; e += 256) {
        int r = e / NB, q = e % NB;
        int j = row0 + r;
        s_l[r][q] = (j < u_n && q < kb) ? a[j * u_n + u_p + q] : 0.0;
        int q2 = e / 64, c = e % 64;
        int k = col0 + c;
        s_u[q2][c] = (k < u_n && q2 < kb) ? a[(u_p + q2) * u_n + k] : 0.0;
    }
    barrier();
    int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    vec4 acc[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    for (int q = 0; q < NB; q++) {
        vec4 u = vec4(s_u[q][tx * 4], s_u[q][tx * 4 + 1], s_u[q][tx * 4 + 2], s_u[q][tx * 4 + 3]);
        for (int r = 0; r < 4; r++) {
            acc[r] += s_l[ty * 4 + r][q] * u;
        }
    }
    for (int r = 0; r < 4; r++) {
        int j = row0 + ty * 4 + r;
        if (j >= u_n) continue;
        for (int c = 0; c < 4; c++) {
            int k = col0 + tx * 4 + c;
            if (k < u_n) a[j * u_n + k] -= acc[r][c];
        }
    }
}
